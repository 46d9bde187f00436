"""In-process tests forked from a zygote (the program's top level runs once per job): each test
still runs in a fresh process, and every way a program can break the zygote or the fork
server gives the verdict a fresh process per test would give, never a false pass."""

from __future__ import annotations

import pytest

from helpers import settled_processes, statuses, stdio_job
from sandbox import Job, Limits, TestCase

pytestmark = pytest.mark.docker


def asserts(program: str, *codes: str, **limits) -> Job:
    return Job(program=program, tests=tuple(TestCase(kind="assert", code=c) for c in codes), limits=Limits(**limits))


def test_each_test_starts_from_the_programs_top_level_not_from_the_previous_test(executor):
    program = "STATE = []\ndef push(x):\n    STATE.append(x)\n    return len(STATE)\n"
    verdict = executor.run_one(asserts(program, *["assert push(0) == 1"] * 5))
    assert statuses(verdict) == ["passed"] * 5


def test_each_test_is_a_new_process(executor):
    program = "import os\ndef pid():\n    return os.getpid()\n"
    tests = [f"import os\nopen('/tmp/pid{i}', 'w').write(str(pid()))\nassert len(os.listdir('/tmp')) >= 1"
             for i in range(3)]
    check = "import os\nassert len({open('/tmp/' + n).read() for n in os.listdir('/tmp') if n.startswith('pid')}) == 3"
    verdict = executor.run_one(asserts(program, *tests, check))
    assert statuses(verdict) == ["passed"] * 4


def test_a_top_level_error_fails_every_test_with_its_message(executor):
    verdict = executor.run_one(asserts("import missing_module_xyz\ndef f():\n    return 1\n",
                                       "assert f() == 1", "assert f() == 1"))
    assert statuses(verdict) == ["runtime_error", "runtime_error"]
    assert all("missing_module_xyz" in t.message for t in verdict.test_results)


def test_a_top_level_exit_is_no_pass(executor):
    for program in ("import sys\nsys.exit(0)\n", "import os\nos._exit(0)\n", "raise SystemExit\n"):
        verdict = executor.run_one(asserts(program, "assert True", "assert 1 == 1"))
        assert statuses(verdict) == ["runtime_error", "runtime_error"], program


def test_a_top_level_endless_loop_is_a_timeout_for_every_test(executor):
    verdict = executor.run_one(asserts("while True:\n    pass\n", "assert True", "assert True", time_limit_s=1))
    assert statuses(verdict) == ["timeout", "timeout"]


def test_top_level_output_counts_once_and_is_not_repeated_by_each_test(executor):
    # 1200 bytes printed (buffered, not flushed) by the top level, 1000 by each test, limit 2000:
    # no test process may inherit and flush the top level's buffer again.
    program = "print('x' * 1200)\ndef f():\n    print('y' * 1000)\n    return 1\n"
    verdict = executor.run_one(asserts(program, "assert f() == 1", "assert f() == 1", output_limit_bytes=2000))
    assert statuses(verdict) == ["passed", "passed"]
    flood = executor.run_one(asserts("print('x' * 3000)\n", "assert True", "assert True", output_limit_bytes=2000))
    assert statuses(flood) == ["output_limit", "output_limit"]


KILL_ZYGOTE = (  # the zygote is the other process of the program's user: this one's parent is the runner.
    # None where there is none: a test the runner runs again in a fresh process (the zygote went before
    # it named the test's process) finds no zygote, and a correct program passes there too; the
    # process found may also be gone when it is signalled (reaped meanwhile).
    "import os, signal\ndef zygote():\n    me = os.getpid()\n"
    "    for pid in [int(p) for p in os.listdir('/proc') if p.isdigit()]:\n"
    "        try:\n            if pid != me and os.stat(f'/proc/{pid}').st_uid == os.getuid():\n"
    "                return pid\n        except OSError:\n            pass\n"
    "def signal_zygote(signum):\n    z = zygote()\n    if z:\n        try:\n            os.kill(z, signum)\n"
    "        except ProcessLookupError:\n            pass\n")


def test_killing_the_zygote_costs_nothing_but_its_speed(executor):
    # Each test process is the runner's child, not the zygote's: killing the zygote neither ends
    # the running test nor changes any verdict; the tests after it run in fresh processes.
    program = KILL_ZYGOTE + ("def f(kill):\n    if kill:\n        signal_zygote(signal.SIGKILL)\n"
                             "    return os.getppid()\n")
    verdict = executor.run_one(asserts(program, "assert f(False) == 1", "assert f(True) == 1",
                                       "assert f(False) == 1"))
    assert statuses(verdict) == ["passed", "passed", "passed"]


DIE_LATER = (  # the zygote takes the next request, then dies before it forks for it
    "import os, signal, time\ndef later(*_):\n    time.sleep(0.5)\n    os._exit(0)\n"
    "signal.signal(signal.SIGUSR1, later)\n"
    "def f(kill):\n    if kill:\n        signal_zygote(signal.SIGUSR1)\n    return os.getppid()\n")


@pytest.mark.parametrize("kind", ["assert", "call"])
def test_a_zygote_that_dies_before_it_forks_for_a_test_costs_that_test_nothing(executor, kind):
    # Whatever the timing of a zygote's end (a SIGKILL takes effect when the zygote next runs),
    # the test it did not fork for runs in a fresh process: the verdict a correct program earns.
    if kind == "assert":
        job = asserts(KILL_ZYGOTE + DIE_LATER, "assert f(False) == 1", "assert f(True) == 1", "assert f(False) == 1")
    else:
        job = Job(program=KILL_ZYGOTE + DIE_LATER, tests=tuple(
            TestCase(kind="call", fn_name="f", args=[kill], expected=1) for kill in (False, True, False)))
    assert statuses(executor.run_one(job)) == ["passed", "passed", "passed"]


def test_a_timeout_in_the_middle_leaves_the_other_tests_right(executor):
    program = "def f(n):\n    while n:\n        pass\n    return 1\n"
    verdict = executor.run_one(asserts(program, "assert f(0) == 1", "assert f(1) == 1", "assert f(0) == 1",
                                       time_limit_s=1))
    assert statuses(verdict) == ["passed", "timeout", "passed"]


def test_a_process_left_running_by_a_test_is_killed_before_the_next(executor):
    program = ("import os, time\ndef spawn():\n    if os.fork() == 0:\n        os.setsid()\n"
               "        time.sleep(0.3)\n        open('/tmp/late', 'w').write('x')\n        os._exit(0)\n"
               "    return 1\n")
    verdict = executor.run_one(asserts(program, "assert spawn() == 1",
                                       "import os, time\ntime.sleep(0.6)\nassert not os.path.exists('/tmp/late')"))
    assert statuses(verdict) == ["passed", "passed"]


def test_call_tests_go_through_the_zygote_too(executor):
    job = Job(program="def add(a, b):\n    return a + b\n",
              tests=(TestCase(kind="call", fn_name="add", args=[1, 2], expected=3),
                     TestCase(kind="call", fn_name="add", args=[2, 2], expected=5)))
    assert statuses(executor.run_one(job)) == ["passed", "failed"]


SIGNAL_TRUSTED = (  # from a test process: the runner (PID 1) and every process of another user
    "import os, signal\ndef signal_trusted(name):\n    denied = []\n"
    "    for pid in [int(p) for p in os.listdir('/proc') if p.isdigit()]:\n"
    "        try:\n            if open(f'/proc/{pid}/status').read().split('Uid:')[1].split()[0] == str(os.getuid()):\n"
    "                continue\n            os.kill(pid, getattr(signal, name))\n"
    "        except PermissionError:\n            denied.append(pid)\n"
    "        except OSError:\n            pass\n    return len(denied)\n")


@pytest.mark.parametrize("name", ["SIGSTOP", "SIGKILL"])
def test_no_program_can_stop_or_kill_a_trusted_process(solo_executor, name):
    # The runner, the fork server and the judge are other users: the kernel refuses every signal.
    verdict = solo_executor.run_one(asserts(SIGNAL_TRUSTED, f"assert signal_trusted('{name}') >= 3", "assert True"))
    assert statuses(verdict) == ["passed", "passed"]
    # nothing was stopped: the next job's test runs at once
    verdict = solo_executor.run_one(stdio_job("print(input())\n", "7\n", "7\n", time_limit_s=1))
    assert verdict.passed and verdict.test_results[0].time_s < 1.0
    top = settled_processes(solo_executor)
    # the runner, its fork server and the spare for the next Python job, none stopped, no zombie; the
    # job's judge is gone with its job
    assert sorted(row[-1].split("/")[-1] for row in top) == ["inside forkserver"] * 2 + ["inside runner"], top
    assert not any(("Z" in row[1] or "T" in row[1]) for row in top), top


WALKER = """
import sys
MARK = 'SECRET_' + str(4242)  # not constant-folded into the program's own code
def holds_test_code():
    # Everything reachable from the modules and from the stack (own frames and the harness's below).
    stack = [vars(m) for m in list(sys.modules.values()) if hasattr(m, '__dict__')]
    frame = sys._getframe(0)
    while frame is not None:
        stack += [frame.f_locals, frame.f_globals]
        frame = frame.f_back
    seen, steps = set(), 0
    while stack and steps < 300000:
        o = stack.pop()
        steps += 1
        if id(o) in seen:
            continue
        seen.add(id(o))
        t = type(o)
        if t in (str, bytes):
            if (MARK if t is str else MARK.encode()) in o and o not in (MARK, MARK.encode()):
                return True
        elif t is dict:
            stack += list(o.keys()) + list(o.values())
        elif t in (list, tuple, set, frozenset):
            stack += list(o)
    return False
"""


def test_the_program_never_holds_the_test_code(executor):
    # The judge holds the tests: a program that searches everything it can reach, at its top
    # level (in the zygote) and during the judge's call, finds no test code to learn from.
    program = WALKER + "AT_TOP = holds_test_code()\ndef seen():\n    return [AT_TOP, holds_test_code()]\n"
    verdict = executor.run_one(asserts(program, "assert seen() == [False, False]  # SECRET_4242",
                                       "assert seen() == [False, False]  # SECRET_4242"))
    assert statuses(verdict) == ["passed", "passed"]
    assert verdict.flags == ()


def test_the_garbage_collectors_objects_are_refused(executor):
    verdict = executor.run_one(asserts("import gc\ndef n():\n    return len(gc.get_objects())\n",
                                       "assert n() > 0", "assert n() > 0"))
    assert statuses(verdict) == ["runtime_error", "runtime_error"]
    assert "gc.get_objects is refused" in verdict.test_results[0].message
    assert verdict.flags == ("gc_walk",)


def test_many_large_call_tests_reach_the_zygote_in_order(executor):
    # 8 call tests of 40 kB each: more than a pipe holds, so the zygote's test list and requests queue.
    tests = tuple(TestCase(kind="call", fn_name="size", args=["x" * 40_000 + str(i)], expected=40_001 + i // 10)
                  for i in range(8))
    verdict = executor.run_one(Job(program="def size(s):\n    return len(s) + int(s[-1]) // 10\n", tests=tests))
    assert statuses(verdict) == ["passed"] * 8
