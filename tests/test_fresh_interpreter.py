"""A Python program gets a fresh interpreter's semantics in every test (``program/child.py``): what
``python3 main.py`` (or a fresh interpreter importing the program and calling it) would do in the
same image, never what a fork of a warm process would. Each job has three tests, so its ``call``
and ``assert`` tests go through a zygote: module state as the top level left it (no reseeded
``random``), and where a fork cannot carry the top level's state over (a live thread, a child
process, a file held open, a timer, a fork hook of the program's own) each test runs the top
level afresh. At the end, what the interpreter does at exit: non-daemon threads joined,
``atexit`` handlers run, ``sys.stdout`` and every other writer flushed (exit status 120 if that
fails). The broad corpus of idioms is ``tests/fidelity/`` (``benchmarks/fidelity.py``)."""

from __future__ import annotations

import random

import pytest

from helpers import statuses
from sandbox import Job, TestCase

pytestmark = pytest.mark.docker


def _calls(program: str, fn: str, expected: list) -> Job:
    return Job(program=program, tests=tuple(TestCase(kind="call", fn_name=fn, args=[i], expected=e)
                                            for i, e in enumerate(expected)))


def _asserts(program: str, *codes: str) -> Job:
    return Job(program=program, tests=tuple(TestCase(kind="assert", code=c) for c in codes))


def _stdio(program: str, *cases: tuple[str, str], capture: bool = False) -> Job:
    return Job(program=program, tests=tuple(TestCase(kind="stdio", stdin=i, expected_stdout=o) for i, o in cases),
               capture_output=capture)


SEEDED = "import random\nrandom.seed(7)\nWARM = [random.random() for _ in range(3)]\n"
_r = random.Random(7)
_r.random(), _r.random(), _r.random()
FOURTH = _r.randint(0, 10**9)

THREAD_AT_IMPORT = """
import queue, threading
JOBS = queue.Queue()
def work():
    while True:
        x, out = JOBS.get()
        out.put(x * x)
threading.Thread(target=work, daemon=True).start()
def square(x):
    out = queue.Queue()
    JOBS.put((x, out))
    return out.get()
"""
POOL_AT_IMPORT = """
from concurrent.futures import ThreadPoolExecutor
POOL = ThreadPoolExecutor(2)
POOL.submit(int, 0).result()  # warmed: its worker runs
def double(x):
    return POOL.submit(lambda: 2 * x).result()
"""
CHILD_AT_IMPORT = """
import subprocess
P = subprocess.Popen(['sleep', '30'])
def alive(i):
    return P.poll() is None
"""
FILE_AT_IMPORT = """
LOG = open('log.txt', 'w')
def log(i):
    LOG.write('abc')
    LOG.flush()
    return LOG.tell()
"""
TIMER_AT_IMPORT = """
import signal
signal.setitimer(signal.ITIMER_REAL, 60)
def armed(i):
    return signal.getitimer(signal.ITIMER_REAL)[0] > 0
"""
OWN_FORK_HOOK = """
import os
FORKS = [0]
os.register_at_fork(after_in_child=lambda: FORKS.__setitem__(0, 1))
def forks(i):
    return FORKS[0]
"""
SHARED_MAPPING_AT_IMPORT = """
import mmap
COUNTER = mmap.mmap(-1, 8)
def next_id(i):
    n = int.from_bytes(COUNTER[:8], 'little') + 1
    COUNTER[:8] = n.to_bytes(8, 'little')
    return n
"""
POSIX_FORK_HOOK = """
import posix
FORKS = [0]
posix.register_at_fork(after_in_child=lambda: FORKS.__setitem__(0, 1))
def forks(i):
    return FORKS[0]
"""
PICKLE_OWN_CLASS = """
import pickle
class Box:
    def __init__(self, v):
        self.v = v
def roundtrip(v):
    return pickle.loads(pickle.dumps(Box(v))).v
"""
POOL_OF_OWN_FUNCTION = """
from multiprocessing import Pool
def sq(x):
    return x * x
def total(n):
    with Pool(2) as pool:
        return sum(pool.map(sq, range(n)))
"""
ENVIRONMENT = """
import os
def seen(i):
    return [os.path.isabs(__file__), os.environ['HOME'] == os.getcwd(), 'GRPO_CODE_SANDBOX' in os.environ]
"""
FORK_SENSITIVE = {
    # random's at-fork hook reseeds the shared generator in every forked process
    "seeded_random_call": _calls(SEEDED + "def draw(i):\n    return random.randint(0, 10**9)\n", "draw", [FOURTH] * 3),
    "seeded_random_assert": _asserts(SEEDED + "def draw():\n    return random.randint(0, 10**9)\n",
                                     *[f"assert draw() == {FOURTH}"] * 3),
    # threads started at import do not exist after a fork
    "thread_at_import": _calls(THREAD_AT_IMPORT, "square", [0, 1, 4]),
    "pool_at_import": _calls(POOL_AT_IMPORT, "double", [0, 2, 4]),
    # a child process of the top level is not a child of a forked test process
    "child_at_import": _calls(CHILD_AT_IMPORT, "alive", [True] * 3),
    # a file opened at import: forked test processes would share its offset
    "file_at_import": _calls(FILE_AT_IMPORT, "log", [3] * 3),
    # timers are not inherited by a fork
    "timer_at_import": _calls(TIMER_AT_IMPORT, "armed", [True] * 3),
    # a fork hook of the program's own runs in a fork, never in a fresh interpreter
    "own_fork_hook": _calls(OWN_FORK_HOOK, "forks", [0] * 3),
    # ... registered through ``posix``, the module ``os`` takes register_at_fork from
    "posix_fork_hook": _calls(POSIX_FORK_HOOK, "forks", [0] * 3),
    # an anonymous shared mapping made at import: forked test processes would write to one memory
    "shared_mapping_at_import": _calls(SHARED_MAPPING_AT_IMPORT, "next_id", [1] * 3),
    # pickle finds the program's classes and functions through sys.modules
    "pickle_own_class": _calls(PICKLE_OWN_CLASS, "roundtrip", [0, 1, 2]),
    "multiprocessing_own_function": _calls(POOL_OF_OWN_FUNCTION, "total", [0, 0, 1]),
    # the environment and __file__ of `python3 main.py`
    "environment_and_file": _calls(ENVIRONMENT, "seen", [[True, True, False]] * 3),
}


def test_builtins_are_what_the_interpreter_gives_a_script_and_an_imported_module(executor):
    imported = "def kind(i):\n    return [type(__builtins__).__name__, __builtins__['len']('ab') + i]\n"
    script = "print(type(__builtins__).__name__, __builtins__.len('ab'))\n"
    for job in (_calls(imported, "kind", [["dict", 2], ["dict", 3], ["dict", 4]]),  # a zygote's tests
                _calls(imported, "kind", [["dict", 2]]), _asserts(imported, "assert kind(1) == ['dict', 3]"),
                _stdio(script, ("", "module 2\n"))):
        verdict = executor.run_one(job)
        assert verdict.passed, [t.message for t in verdict.test_results]


@pytest.mark.parametrize("name", list(FORK_SENSITIVE))
def test_a_top_levels_state_is_what_a_fresh_interpreter_gives_every_test(executor, name):
    verdict = executor.run_one(FORK_SENSITIVE[name])
    assert statuses(verdict) == ["passed"] * 3, [t.message for t in verdict.test_results]
    assert verdict.flags == ()


FASTIO = """
import os, sys
from io import BytesIO, IOBase
class FastIO(IOBase):
    def __init__(self, file):
        self._fd = file.fileno()
        self.buffer = BytesIO()
        self.writable = 'x' in file.mode or 'r' not in file.mode
        self.write = self.buffer.write if self.writable else None
    def flush(self):
        if self.writable:
            os.write(self._fd, self.buffer.getvalue())
            self.buffer.truncate(0), self.buffer.seek(0)
class IOWrapper(IOBase):
    def __init__(self, file):
        self.buffer = FastIO(file)
        self.flush = self.buffer.flush
        self.writable = self.buffer.writable
        self.write = lambda s: self.buffer.write(s.encode('ascii'))
sys.stdout = IOWrapper(sys.stdout)
input = lambda: sys.stdin.readline().rstrip('\\r\\n')
print(int(input()) * 2)
"""
THREAD_MAIN = """
import sys, threading
sys.setrecursionlimit(10**6)
threading.stack_size(1 << 26)
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
def main():
    n = int(input())
    depth(20000)
    print(n * 2)
threading.Thread(target=main).start()
"""
AT_EXIT = {
    "atexit_writer": ("import atexit, sys\nOUT = []\natexit.register(lambda: sys.stdout.write(''.join(OUT)))\n"
                      "for line in sys.stdin:\n    OUT.append(f'{int(line) * 2}\\n')\n"),
    "thread_main_with_big_stack": THREAD_MAIN,
    "open_fd_1": "out = open(1, 'w')\nout.write(f'{int(input()) * 2}\\n')\n",
    "text_wrapper_kept": ("import io, sys\nout = io.TextIOWrapper(sys.stdout.buffer, encoding='utf-8')\n"
                          "out.write(f'{int(input()) * 2}\\n')\n"),
    "stdout_reencoded": ("import io, sys\nsys.stdout = io.TextIOWrapper(sys.stdout.buffer, encoding='utf-8')\n"
                         "print(int(input()) * 2)\n"),
    "fastio_template": FASTIO,
    "multiprocessing_main": ("import multiprocessing as mp\ndef twice(x):\n    return 2 * x\n"
                             "if __name__ == '__main__':\n    with mp.Pool(2) as pool:\n"
                             "        print(pool.map(twice, [int(input())])[0])\n"),
    "not_seekable": ("import sys\nassert not sys.stdout.seekable() and not sys.stdin.isatty()\n"
                     "print(int(input()) * 2)\n"),
}


@pytest.mark.parametrize("name", list(AT_EXIT))
def test_what_the_interpreter_does_at_exit_happens(executor, name):
    verdict = executor.run_one(_stdio(AT_EXIT[name], ("1\n", "2\n"), ("21\n", "42\n"), ("5\n", "10\n")))
    assert statuses(verdict) == ["passed"] * 3, [t.message for t in verdict.test_results]
    assert verdict.flags == ()


def test_an_exit_status_and_the_output_before_it_are_the_programs(executor):
    cases = {  # program -> (exit status, stdout)
        "print('partial')\nimport sys\nsys.exit(3)\n": (3, "partial\n"),
        "print('partial')\nraise ValueError('no')\n": (1, "partial\n"),
        # a stdout that cannot be flushed at exit: status 120, as the interpreter gives
        "import sys\nclass W:\n    def write(self, s):\n        return len(s)\nsys.stdout = W()\nprint('x')\n":
            (120, ""),
        "import atexit, os\natexit.register(lambda: print('bye'))\nprint('hi')\nos._exit(0)\n": (0, ""),
    }
    verdicts = executor.run([_stdio(p, ("", "never\n"), capture=True) for p in cases])
    got = [(v.test_results[0].output.exit_code, v.test_results[0].output.stdout) for v in verdicts]
    assert got == list(cases.values())


def test_a_top_level_a_fork_carries_over_is_run_once_for_all_tests(executor):
    # The standard library's own fork hooks (random, threading, logging, concurrent.futures) leave
    # the zygote in place: the top level's CPU time is spent once, not in each test's process.
    program = ("import random, threading, logging, concurrent.futures, subprocess\nrandom.seed(1)\n"
               "import time\nend = time.process_time() + 0.4\nwhile time.process_time() < end:\n    pass\n"
               "def f(i):\n    return i\n")
    verdict = executor.run_one(_calls(program, "f", [0, 1, 2]))
    assert statuses(verdict) == ["passed"] * 3
    assert max(t.cpu_time_s for t in verdict.test_results) < 0.2, [t.cpu_time_s for t in verdict.test_results]
