"""The failure kinds of ../shared/cases (copied to tests/cases), each against the real sandbox.

Each case names a whole kind of fault; the variants below cover the kind, not just the one input.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from grpo_code.score.scoring import program_of, score_completions
from helpers import matches, statuses, stdio_job, task_of
from sandbox import Job, TestCase

pytestmark = pytest.mark.docker


def run_case(executor, case, completion=None, task=None):
    task = task or task_of(case)
    completion = completion if completion is not None else case["completions"][0]
    return score_completions(executor, [(task, completion)])[0].verdict


def assert_expected(verdict, expected):
    assert verdict.pass_rate == pytest.approx(expected["reward"], abs=1e-4)
    assert verdict.passed is expected["passed"]
    got = statuses(verdict)
    assert len(got) == len(expected["test_statuses"])
    for status, allowed in zip(got, expected["test_statuses"], strict=True):
        assert matches(status, allowed), (got, expected["test_statuses"])


# -- C01: a program that ends its own process early never passes a test it did not pass ----

EARLY_EXITS = {
    "os._exit(0)": "import os\n    os._exit(0)",
    "sys.exit(0)": "import sys\n    sys.exit(0)",
    "exit()": "exit()",
    "quit()": "quit()",
    "raise SystemExit(0)": "raise SystemExit(0)",
    "raise SystemExit": "raise SystemExit",
    "close stdout, then exit": "import os, sys\n    sys.stdout.close()\n    os.close(1)\n    os._exit(0)",
    "kill the parent, then exit": "import os, signal\n    os.kill(os.getppid(), signal.SIGKILL)\n    os._exit(0)",
    "kill the whole process group": "import os, signal\n    os.killpg(0, signal.SIGKILL)",
    "SIGKILL itself": "import os, signal\n    os.kill(os.getpid(), signal.SIGKILL)",
}


@pytest.mark.parametrize("how", sorted(EARLY_EXITS))
def test_C01_early_exit_never_counts_as_pass(executor, cases, how):
    case = cases["C01"]
    program = ("def add(a, b):\n    if (a, b) == (1, 2):\n        return 3\n    "
               + EARLY_EXITS[how] + "\n")
    if how == "os._exit(0)":
        program = case["completions"][0]
    verdict = run_case(executor, case, program)
    assert_expected(verdict, case["expected"])


def test_C01_whole_check_in_one_program_scores_zero(executor, cases):
    case = cases["C01"]
    task = task_of(case)
    together = "\n".join(t.code for t in task.tests)
    one_test = replace(task, tests=(TestCase(kind="assert", code=together),))
    verdict = run_case(executor, case, task=one_test)
    assert verdict.pass_rate == 0.0
    assert verdict.status in ("failed", "runtime_error")


def test_C01_the_runner_survives_and_judges_the_next_job(executor, cases):
    case = cases["C01"]
    for how in ("kill the parent, then exit", "kill the whole process group"):
        run_case(executor, case, "def add(a, b):\n    " + EARLY_EXITS[how] + "\n")
    verdict = run_case(executor, case, "def add(a, b):\n    return a + b\n")
    assert verdict.passed and verdict.pass_rate == 1.0


# -- C02: values whose __eq__ is the program's code ----------------------------------------

def test_C02_always_equal_object_fails_every_test(executor, cases):
    case = cases["C02"]
    assert_expected(run_case(executor, case), case["expected"])


ALWAYS_EQUAL_VARIANTS = {
    "int subclass": "class T(int):\n    def __eq__(self, o): return True\n    __hash__ = int.__hash__\n"
                    "def is_even(n):\n    return T(7)\n",
    "bool via __bool__ on a list subclass": "class L(list):\n    def __eq__(self, o): return True\n"
                                            "def is_even(n):\n    return L()\n",
    "patched builtins": "import builtins\nbuiltins.isinstance = lambda *a: True\nbuiltins.type = lambda *a: bool\n"
                        "class A:\n    def __eq__(self, o): return True\n    __hash__ = object.__hash__\n"
                        "def is_even(n):\n    return A()\n",
}


@pytest.mark.parametrize("variant", sorted(ALWAYS_EQUAL_VARIANTS))
def test_C02_kind_user_types_never_compare_equal(executor, cases, variant):
    case = cases["C02"]
    verdict = run_case(executor, case, ALWAYS_EQUAL_VARIANTS[variant])
    assert verdict.pass_rate == 0.0
    assert statuses(verdict) == ["failed", "failed", "failed"]


def test_C02_a_plain_types_subclass_is_judged_as_its_plain_value(executor, cases):
    """T(0) is 0 to the test, its own __eq__ unheard: 0 == False holds, as it does for `return 0`."""
    case = cases["C02"]
    subclass = "class T(int):\n    def __eq__(self, o): return True\n    __hash__ = int.__hash__\n" \
               "def is_even(n):\n    return T(0)\n"
    assert statuses(run_case(executor, case, subclass)) == ["failed", "passed", "failed"]
    assert statuses(run_case(executor, case, "def is_even(n):\n    return 0\n")) == ["failed", "passed", "failed"]


def test_C02_call_tests_compare_serialized_values(executor):
    program = "class A:\n    def __eq__(self, o): return True\n    __hash__ = object.__hash__\n" \
              "def is_even(n):\n    return A()\ndef good(n):\n    return n % 2 == 0\n"
    tests = (TestCase(kind="call", fn_name="is_even", args=[2], expected=True),
             TestCase(kind="call", fn_name="good", args=[2], expected=True),
             TestCase(kind="call", fn_name="good", args=[2], expected=1))  # bool is not a number
    verdict = executor.run_one(Job(program=program, tests=tests))
    assert statuses(verdict) == ["failed", "passed", "failed"]


# -- C04: a timeout or error is never a pass ----------------------------------------------

def test_C04_timeouts_score_zero(executor, cases):
    case = cases["C04"]
    started = time.monotonic()
    verdict = run_case(executor, case)
    assert_expected(verdict, case["expected"])
    assert "Error" not in verdict.test_results[0].message and "Traceback" not in verdict.test_results[0].message
    assert time.monotonic() - started < 2 * (2 * 3 + 1) + 3  # two tests, each inside its wall limit (+ slack)


def test_C04_syntax_error_variant_scores_zero(executor, cases):
    case = cases["C04"]
    verdict = run_case(executor, case, "a, b = map(int, input().split()\nprint(a + b)\n")
    assert verdict.status == "compile_error"
    assert verdict.pass_rate == 0.0 and not verdict.passed
    assert "SyntaxError" in verdict.compile_output


# -- C06: a hang or memory blow-up inside one C-level call --------------------------------

def test_C06_c_level_blowup_is_killed_in_time(executor, cases):
    case = cases["C06"]
    started = time.monotonic()
    verdict = run_case(executor, case)
    elapsed = time.monotonic() - started
    assert_expected(verdict, case["expected"])
    assert elapsed < case["task"]["time_limit_s"] + 2 + 1  # time limit + grace (+1 s for test 1)


def test_C06_kind_sleep_inside_c_call_hits_wall_clock(executor):
    verdict = executor.run_one(stdio_job("import time\ntime.sleep(3600)\n", "", "x\n", time_limit_s=1))
    assert statuses(verdict) == ["timeout"]
    assert verdict.test_results[0].time_s < 1 * 3 + 1 + 0.5


# -- C07: fork bombs and leaked processes ------------------------------------------------

IDLE_PIDS = 2  # between jobs: the runner and its fork server


def _pids_in(executor, container_id):
    """The container's tasks (every thread, zombies too: what its pids limit counts), listed by
    the daemon at once (``docker stats`` would wait a second for a second sample)."""
    return len(executor.client.api.top(container_id, ps_args="-eLo pid,lwp")["Processes"])


def _process_rows(executor, container_id):
    return [row[-1] for row in executor.client.api.top(container_id, ps_args="-eo pid,stat,args")["Processes"]]


@pytest.mark.slow
def test_C07_fork_bomb_is_contained_and_leaves_nothing(solo_executor, cases):
    case = cases["C07"]
    task = task_of(case)
    container_id = solo_executor.container_ids()[0]
    assert _pids_in(solo_executor, container_id) == IDLE_PIDS
    for _ in range(case.get("repeat", 20)):
        verdict = run_case(solo_executor, case, task=task)
        assert verdict.pass_rate == 0.0 and not verdict.passed
        assert matches(verdict.test_results[0].status, case["expected"]["test_statuses"][0])
        assert solo_executor.container_ids() == [container_id]  # the same worker, no fault
        rows = _process_rows(solo_executor, container_id)
        # no children, no <defunct> zombies: the runner and the fork server only
        assert sorted(row.split("/")[-1] for row in rows) == ["inside forkserver", "inside runner"], rows
        assert _pids_in(solo_executor, container_id) == IDLE_PIDS
    good = "#include <stdio.h>\nint main(void){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b);return 0;}\n"
    verdict = run_case(solo_executor, case, good, task=task)
    assert verdict.passed


def test_C07_pid_limit_holds(solo_executor):
    program = ("import os, time\nn = 0\ntry:\n    for _ in range(100000):\n        if os.fork() == 0:\n"
               "            time.sleep(30)\n            os._exit(0)\n        n += 1\nexcept OSError:\n    pass\n"
               "print(n)\n")
    verdict = solo_executor.run_one(stdio_job(program, "", "0\n", time_limit_s=5))
    forked = int(verdict.test_results[0].message.split("got ")[1].strip("'"))
    assert 0 < forked < solo_executor.settings.pids_limit
    assert _pids_in(solo_executor, solo_executor.container_ids()[0]) == IDLE_PIDS


# -- C09: unbounded stdout --------------------------------------------------------------

def test_C09_output_flood_is_output_limit(solo_executor, cases):
    case = cases["C09"]
    started = time.monotonic()
    verdict = run_case(solo_executor, case)
    assert_expected(verdict, case["expected"])
    assert time.monotonic() - started < case["task"]["time_limit_s"] + 2
    stats = solo_executor.client.api.stats(solo_executor.container_ids()[0], stream=False)
    assert stats["memory_stats"]["usage"] < 200 * 1024 * 1024  # the runner kept only the cap


def test_C09_kind_stderr_flood_counts_too(executor):
    program = "import sys\nwhile True:\n    sys.stderr.write('e' * 65536)\n"
    verdict = executor.run_one(stdio_job(program, "", "x\n"))
    assert statuses(verdict) == ["output_limit"]


# -- C10, C11: output comparison ---------------------------------------------------------

def test_C10_float_tolerance_accepts_close_floats(executor, cases):
    case = cases["C10"]
    assert_expected(run_case(executor, case), case["expected"])


def test_C10_negative_control_and_exact_tokens(executor, cases):
    case = cases["C10"]
    assert run_case(executor, case, 'a, b = map(int, input().split())\nprint(f"{a / b:.3f}")\n').pass_rate == 0.0
    task = task_of(case)
    ints = replace(task, tests=(TestCase(kind="stdio", stdin="1 3\n", expected_stdout="3\n"),))
    assert run_case(executor, case, "print('3.0000001')\n", task=ints).pass_rate == 0.0  # integer token: exact
    words = replace(task, tests=(TestCase(kind="stdio", stdin="", expected_stdout="yes 0.5\n"),))
    assert run_case(executor, case, "print('Yes 0.5000001')\n", task=words).pass_rate == 0.0
    assert run_case(executor, case, "print('yes 0.5000001')\n", task=words).pass_rate == 1.0


def test_C11_trailing_whitespace_is_accepted(executor, cases):
    case = cases["C11"]
    assert_expected(run_case(executor, case), case["expected"])


@pytest.mark.parametrize("program", [
    "n = int(input())\nprint()\nprint(*sorted(map(int, input().split())))\n",  # leading blank line
    "n = int(input())\nxs = sorted(map(int, input().split()))\nprint(''.join(map(str, xs[:2])), *xs[2:])\n",
])
def test_C11_other_differences_are_rejected(executor, cases, program):
    case = cases["C11"]
    verdict = run_case(executor, case, program)
    assert verdict.status == "failed"
    assert verdict.pass_rate < 1.0


# -- C12: code extraction ----------------------------------------------------------------

def test_C12_prefix_opened_fence_is_extracted(executor, cases):
    case = cases["C12"]
    task = task_of(case)
    assert program_of(task, case["completions"][0]) == case["expected"]["extracted_code"]
    assert_expected(run_case(executor, case), case["expected"])


@pytest.mark.parametrize("completion", [
    "```python\ndef square_perimeter(a):\n    return 4 * a\n```\nExample:\n```python\nprint(square_perimeter(5))\n```",
    "def square_perimeter(a):\n    return 4 * a\n",
    "Here you go:\n\n```\ndef square_perimeter(a):\n    return 4 * a\n```\n",
    "```py\ndef square_perimeter(a):\n    return a\n```\nWait, fixed:\n"
    "```py\ndef square_perimeter(a):\n    return 4 * a\n```",
])
def test_C12_extraction_variants_score_one(executor, cases, completion):
    case = cases["C12"]
    assert run_case(executor, case, completion).pass_rate == 1.0


# -- C13: an unscorable sample in a group: None, never 0, never a raise -------------------

def test_C13_injected_fault_gives_none_for_that_completion_only(executor, cases, monkeypatch):
    from sandbox.container import SandboxContainer
    from sandbox.types import SandboxFault

    case = cases["C13"]
    task = task_of(case)
    completions = case["completions"]
    faulty = 2
    doomed = f"{program_of(task, completions[faulty])}\n# injected fault\n"
    original = SandboxContainer.submit

    def refuse(self, job):  # fault injection: this job's container start is refused
        if job.program == doomed:
            raise SandboxFault("injected: container start refused")
        return original(self, job)

    monkeypatch.setattr(SandboxContainer, "submit", refuse)
    monkeypatch.setattr("sandbox.executor.RETRY_BACKOFF_S", (0.0,))
    items = [(task, c + ("\n# injected fault\n" if i == faulty else "")) for i, c in enumerate(completions)]
    verdicts = [s.verdict for s in score_completions(executor, items)]
    assert [v.pass_rate for v in verdicts] == case["expected"]["reward"]
    assert verdicts[faulty].status == "sandbox_error"
    assert verdicts[faulty].attempts == executor.max_retries + 1
    assert "injected" in verdicts[faulty].message
