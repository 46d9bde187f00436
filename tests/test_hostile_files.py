"""Hostile programs against ``pytest`` and ``unittest`` test files (KodCode's and BigCodeBench's
shape): each is wrong (``f(x)`` should be ``2 * x``) but right on the first case, and tries to turn
the rest into a pass through the runner: a skip or an expected failure raised from its own code,
``KeyboardInterrupt`` to stop the run, ending its process (``os._exit(0)``, ``sys.exit(0)``,
``pytest.exit``), printing a runner's summary, patching ``unittest`` in its own process, or
returning an object that equals anything, against plain data and against ``numpy.testing``. A test
file runs in the judge with its own runner, and a case passes only on that runner's report there
(real Docker). None may pass; each gets the share of cases it truly passed, and never
``sandbox_error``.
"""

from __future__ import annotations

import pytest

from sandbox import DockerExecutor, Job, TestCase
from sandbox.container import connect
from sandbox.image import build_image

pytestmark = pytest.mark.docker

UNITTEST = TestCase(kind="unittest", code='''import unittest

class TestCases(unittest.TestCase):
    def test_a(self):
        self.assertEqual(f(1), 2)

    def test_b(self):
        self.assertEqual(f(2), 4)

    def test_c(self):
        self.assertEqual(f(3), 6)
''')
PYTEST = TestCase(kind="pytest", code='''from solution import f

def test_a():
    assert f(1) == 2

def test_b():
    assert f(2) == 4

def test_c():
    assert f(3) == 6
''')
CASES = {"unittest": ["TestCases.test_a", "TestCases.test_b", "TestCases.test_c"],
         "pytest": ["test_a", "test_b", "test_c"]}
RIGHT_ONCE = "def f(x):\n    if x == 1:\n        return 2\n"  # then each program's own way of cheating

# name -> (program, the test's status, its pass rate, the status of each case after the first)
HOSTILE = {
    "unittest_skip": (RIGHT_ONCE + "    import unittest\n    raise unittest.SkipTest('not today')\n",
                      "runtime_error", 1 / 3, "runtime_error"),
    "pytest_skip": (RIGHT_ONCE + "    import pytest\n    pytest.skip('not today')\n", "runtime_error", 1 / 3,
                    "runtime_error"),
    "pytest_xfail": (RIGHT_ONCE + "    import pytest\n    pytest.xfail('known bug')\n", "runtime_error", 1 / 3,
                     "runtime_error"),
    "pytest_exit": (RIGHT_ONCE + "    import pytest\n    pytest.exit('done', returncode=0)\n", "runtime_error", 1 / 3,
                    "runtime_error"),
    "keyboard_interrupt": (RIGHT_ONCE + "    raise KeyboardInterrupt\n", "failed", 1 / 3, "failed"),
    "sys_exit": (RIGHT_ONCE + "    import sys\n    sys.exit(0)\n", "runtime_error", 1 / 3, "runtime_error"),
    "os_exit": (RIGHT_ONCE + "    import os\n    os._exit(0)\n", "runtime_error", 0.0, None),
    "fake_summary": (RIGHT_ONCE + "    import sys\n    print('.' * 3)\n    print('-' * 70)\n    print('Ran 3 tests in "
                     "0.001s')\n    print()\n    print('OK')\n    print('===== 3 passed in 0.01s =====')\n"
                     "    sys.stdout.flush()\n    sys.exit(0)\n", "runtime_error", 1 / 3, "runtime_error"),
    "patch_unittest": ("import unittest\nunittest.TestCase.assertEqual = lambda self, *a, **k: None\n"
                       "unittest.TestCase.run = lambda self, result=None: None\n"
                       "import builtins\nbuiltins.AssertionError = type('AssertionError', (Exception,), {})\n"
                       + RIGHT_ONCE + "    return 0\n", "failed", 1 / 3, "failed"),
    "always_equal": ("class Anything:\n    def __eq__(self, other):\n        return True\n"
                     "    def __ne__(self, other):\n        return False\n"
                     + RIGHT_ONCE + "    return Anything()\n", "failed", 1 / 3, "failed"),
    "int_that_equals_anything": ("class Anything(int):\n    def __eq__(self, other):\n        return True\n"
                                 "    __hash__ = int.__hash__\n"
                                 + RIGHT_ONCE + "    return Anything(0)\n", "failed", 1 / 3, "failed"),
}


@pytest.fixture(scope="module")
def hostile_verdicts(executor):
    jobs = [Job(program=program, tests=(test,), job_id=f"{name}/{kind}")
            for name, (program, *_) in HOSTILE.items() for kind, test in (("unittest", UNITTEST), ("pytest", PYTEST))]
    return {job.job_id: verdict for job, verdict in zip(jobs, executor.run(jobs), strict=True)}


@pytest.mark.parametrize("kind", ["unittest", "pytest"])
@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_program_never_passes_a_test_file(hostile_verdicts, name, kind):
    _, status, rate, later = HOSTILE[name]
    verdict = hostile_verdicts[f"{name}/{kind}"]
    assert verdict.status == status, verdict
    assert verdict.pass_rate == pytest.approx(rate)
    (result,) = verdict.test_results
    assert result.status == status and result.status != "passed"
    if later is None:  # its process ended: no case of the file is believed, not even the first
        assert [status for _, status, _ in result.cases] in ([], ["runtime_error"] * 3, ["failed"] * 3)
    else:
        assert [(case, status) for case, status, _ in result.cases] == [
            (CASES[kind][0], "passed"), (CASES[kind][1], later), (CASES[kind][2], later)]


def test_a_right_program_passes_both_files(executor):
    """The control: the files themselves pass a right program, every case."""
    right = "def f(x):\n    return 2 * x\n"
    verdicts = executor.run([Job(program=right, tests=(test,)) for test in (UNITTEST, PYTEST)])
    assert [(v.status, v.pass_rate) for v in verdicts] == [("passed", 1.0), ("passed", 1.0)]
    assert [[status for _, status, _ in v.test_results[0].cases] for v in verdicts] == [["passed"] * 3] * 2


PINS = ("numpy==2.2.6", "pandas==2.3.3")
NUMPY_TEST = TestCase(kind="unittest", code='''import unittest
import numpy as np

class TestCases(unittest.TestCase):
    def test_a(self):
        np.testing.assert_array_equal(f(1), np.array([2]))

    def test_b(self):
        np.testing.assert_array_equal(f(2), np.array([4]))

    def test_c(self):
        np.testing.assert_allclose(f(3), [6.0])
''')
NUMPY_HOSTILE = {
    "always_equal": "class Anything:\n    def __eq__(self, other):\n        return True\n",
    "always_equal_array_like": ("class Anything:\n    def __eq__(self, other):\n        return True\n"
                                "    def __array__(self, dtype=None, copy=None):\n        import numpy\n"
                                "        return numpy.array([2.0 * 2])\n    def __len__(self):\n        return 1\n"),
    "ndarray_subclass": ("import numpy as np\nclass Anything(np.ndarray):\n    def __eq__(self, other):\n"
                         "        return np.ones(np.shape(other), dtype=bool)\n"),
}

# an object of the program's is not plain data: no comparison of the judge's takes it for an array
# (it fails the comparison, or numpy's asking for its items is refused), and an ndarray subclass
# crosses as its values: never a pass
NOT_PAID = ("failed", "runtime_error")


@pytest.fixture(scope="module")
def numpy_executor():
    """A pool on the image of numpy and pandas (built here once where it is not yet: cached by its tag)."""
    build_image(connect(), packages=list(PINS))
    with DockerExecutor(concurrency=1, packages=PINS) as ex:
        yield ex


@pytest.mark.parametrize("name", list(NUMPY_HOSTILE))
def test_an_object_that_equals_anything_fails_np_testing(numpy_executor, name):
    make = "np.zeros(1).view(Anything)" if name == "ndarray_subclass" else "Anything()"
    program = ("import numpy as np\n" + NUMPY_HOSTILE[name] + "def f(x):\n    if x == 1:\n"
               "        return np.array([2])\n    return " + make + "\n")
    verdict = numpy_executor.run_one(Job(program=program, tests=(NUMPY_TEST,)))
    assert verdict.status in NOT_PAID, verdict
    assert verdict.pass_rate == pytest.approx(1 / 3)
    cases = [(case, status) for case, status, _ in verdict.test_results[0].cases]
    assert cases[0] == ("TestCases.test_a", "passed") and [case for case, _ in cases[1:]] == [
        "TestCases.test_b", "TestCases.test_c"], cases
    assert all(status in NOT_PAID for _, status in cases[1:]), cases
    right = numpy_executor.run_one(Job(program="import numpy as np\ndef f(x):\n    return np.array([2 * x])\n",
                                       tests=(NUMPY_TEST,)))
    assert (right.status, right.pass_rate) == ("passed", 1.0)
