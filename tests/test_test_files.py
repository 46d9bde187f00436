"""``pytest`` and ``unittest`` tests: a test file run by its own runner in the job's judge against
one process of the program's, each test function or method a case of its own; numpy's and pandas'
values crossing both ways as themselves."""

from __future__ import annotations

import pytest

from sandbox import DockerExecutor, Job, TestCase
from sandbox.container import connect
from sandbox.image import build_image

pytestmark = pytest.mark.docker

STACK = '''
class EmptyStack(Exception):
    pass

def add(a, b, say=False):
    if say:
        print("adding")
    return a + b

class Stack:
    def __init__(self):
        self.items = []
    def push(self, x):
        self.items.append(x)
    def pop(self):
        if not self.items:
            raise EmptyStack("empty")
        return self.items.pop()
'''

PYTEST_FILE = '''
import pytest
from solution import add, Stack, EmptyStack

def test_add():
    assert add(1, 2) == 3

@pytest.mark.parametrize("a, b, c", [(1, 1, 2), (2, 3, 5), (0, 0, 1)])
def test_param(a, b, c):
    assert add(a, b) == c

def test_stack():
    s = Stack()
    s.push(3)
    assert s.pop() == 3
    with pytest.raises(EmptyStack):
        s.pop()

def test_printed(capsys):
    add(0, 0, say=True)
    assert capsys.readouterr().out == "adding\\n"

def test_files(tmp_path):
    (tmp_path / "x.txt").write_text("hi")
    assert add("h", "i") == (tmp_path / "x.txt").read_text()

@pytest.mark.skip(reason="the file's own choice")
def test_skipped():
    assert False

class TestGroup:
    def test_one(self):
        assert add(2, 2) == 4
'''

FOLDERS = '''
import os

def task_func(folder, name, text):
    os.makedirs(os.path.join(folder, "sub"), exist_ok=True)
    path = os.path.join(folder, "sub", name)
    with open(path, "w") as f:
        f.write(text)
    return path

def count(folder):
    return len(os.listdir(folder))

def double(x):
    return 2 * x
'''

UNITTEST_FILE = '''
import os
import shutil
import tempfile
import unittest
from unittest.mock import patch

class TestCases(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.folder)  # what the program made in it too

    def test_written(self):
        path = task_func(self.folder, "a.txt", "hello")
        with open(path) as f:
            self.assertEqual(f.read(), "hello")

    def test_patched(self):
        with patch("os.listdir", return_value=["z"]):
            self.assertEqual(count(self.folder), 1)

    def test_subtests(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertEqual(double(i), 2 * i)

    def test_wrong(self):
        self.assertEqual(double(2), 5)
'''


def _cases(result) -> dict[str, str]:
    return {name: status for name, status, _ in result.cases}


def test_a_pytest_file_s_cases_are_each_its_own_and_the_share_passed_is_its_credit(executor):
    verdict = executor.run([Job(program=STACK, tests=(TestCase(kind="pytest", code=PYTEST_FILE),))])[0]
    [result] = verdict.test_results
    assert _cases(result) == {
        "test_add": "passed", "test_param[1-1-2]": "passed", "test_param[2-3-5]": "passed",
        "test_param[0-0-1]": "failed", "test_stack": "passed", "test_printed": "passed", "test_files": "passed",
        "test_skipped": "skipped", "TestGroup::test_one": "passed"}
    assert result.status == "failed" and result.score == pytest.approx(7 / 8)  # a skipped case counts for nothing
    assert result.message == "test_param[0-0-1]: AssertionError: assert add(a, b) == c"
    assert verdict.pass_rate == pytest.approx(7 / 8)


def test_a_unittest_file_shares_its_folders_patches_and_subtests_with_the_program(executor):
    verdict = executor.run([Job(program=FOLDERS, tests=(TestCase(kind="unittest", code=UNITTEST_FILE),))])[0]
    [result] = verdict.test_results
    assert _cases(result) == {"TestCases.test_patched": "passed", "TestCases.test_subtests": "passed",
                              "TestCases.test_wrong": "failed", "TestCases.test_written": "passed"}
    assert result.message == "TestCases.test_wrong: AssertionError: 4 != 5" and result.score == 0.75
    right = FOLDERS + "\ndef _fixed():\n    pass\n"
    fixed = UNITTEST_FILE.replace("double(2), 5", "double(2), 4")
    assert executor.run([Job(program=right, tests=(TestCase(kind="unittest", code=fixed),))])[0].passed


# A program that stops its test file's run, or has a case skipped, in every way a runner knows:
# the cases it stopped fail; never a pass, never a case left out.
STOP = "\ndef f(x):\n    if x == 1:\n        return 2\n    "
STOPPERS = {
    "unittest_skip": "import unittest\n" + STOP + "raise unittest.SkipTest('no')\n",
    "pytest_skip": "import pytest\n" + STOP + "pytest.skip('no')\n",
    "pytest_xfail": "import pytest\n" + STOP + "pytest.xfail('no')\n",
    "pytest_exit": "import pytest\n" + STOP + "pytest.exit('done', 0)\n",
    "keyboard_interrupt": STOP + "raise KeyboardInterrupt\n",
    "system_exit": "import sys\n" + STOP + "sys.exit(0)\n",
    "exit_process": "import os\n" + STOP + "os._exit(0)\n",
}
THREE_CASES = {
    "pytest": "from solution import f\n\ndef test_a():\n    assert f(1) == 2\n\ndef test_b():\n    assert f(2) == 4\n\n"
              "def test_c():\n    assert f(3) == 6\n",
    "unittest": "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n"
                "        self.assertEqual(f(1), 2)\n    def test_b(self):\n        self.assertEqual(f(2), 4)\n"
                "    def test_c(self):\n        self.assertEqual(f(3), 6)\n",
}


@pytest.mark.parametrize("kind", sorted(THREE_CASES))
def test_a_program_that_stops_or_skips_its_cases_gets_no_credit_for_them(executor, kind):
    jobs = [Job(program=program, tests=(TestCase(kind=kind, code=THREE_CASES[kind]),), job_id=name)
            for name, program in STOPPERS.items()]
    for job, verdict in zip(jobs, executor.run(jobs), strict=True):
        assert not verdict.passed, job.job_id
        assert verdict.pass_rate <= 1 / 3, (job.job_id, verdict)
        [result] = verdict.test_results
        assert all(status != "skipped" for _, status, _ in result.cases), (job.job_id, result.cases)


ARRAYS_PROGRAM = '''
import numpy as np
import pandas as pd

def doubled(xs):
    return np.array(xs) * 2

def mean_of(xs):
    return np.mean(xs)

def positives(a):
    return np.sum(a > 0)

def with_column(df):
    df = df.copy()
    df["c"] = df["a"] * 2
    return df

def same(x):
    return x
'''

ARRAYS_TEST = '''
import unittest
import numpy as np
import pandas as pd

class TestCases(unittest.TestCase):
    def test_array(self):
        np.testing.assert_array_equal(doubled([1, 2, 3]), np.array([2, 4, 6]))
    def test_scalar(self):
        mean = mean_of([1, 2, 3])
        self.assertEqual(mean, 2.0)
        self.assertIsInstance(mean, np.float64)
    def test_array_argument(self):
        self.assertEqual(positives(np.array([1, -2, 3])), 2)
    def test_frame(self):
        df = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "z"]})
        expected = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "z"], "c": [2, 4, 6]})
        pd.testing.assert_frame_equal(with_column(df), expected)
    def test_series_with_dates(self):
        s = pd.Series([1.5, 2.5], index=pd.date_range("2020-01-01", periods=2, freq="D"), name="v")
        pd.testing.assert_series_equal(same(s), s)
    def test_categorical(self):
        s = pd.Series(["a", "b", "a"], dtype="category")
        pd.testing.assert_series_equal(same(s), s)
'''


ARRAY_PACKAGES = ["numpy==2.2.6", "pandas==2.3.3"]


def test_numpy_and_pandas_values_cross_both_ways_as_themselves():
    build_image(connect(), packages=ARRAY_PACKAGES)  # (cached by its tag: built once per machine)
    wrong = ARRAYS_PROGRAM.replace('df["a"] * 2', 'df["a"] * 3').replace("np.array(xs) * 2", "np.array(xs) * 2 + 1")
    jobs = [Job(program=program, tests=(TestCase(kind="unittest", code=ARRAYS_TEST),))
            for program in (ARRAYS_PROGRAM, wrong)]
    with DockerExecutor(concurrency=1, packages=ARRAY_PACKAGES) as executor:
        right_verdict, wrong_verdict = executor.run(jobs)
    assert right_verdict.passed, right_verdict
    failed = {name for name, status, _ in wrong_verdict.test_results[0].cases if status != "passed"}
    assert failed == {"TestCases.test_array", "TestCases.test_frame"}


PATCHED = '''
import os, random
def helper(x):
    return x + 1
def uses_helper(x):
    return helper(x) * 2
def shout(s):
    print(s.upper())
    import sys
    print("err", file=sys.stderr)
def area(r):
    return 3.14159 * r * r
def listing(d):
    return sorted(os.listdir(d))
def env():
    return os.environ.get("MODE", "none")
def roll():
    return random.randint(1, 6)
'''

PATCHING_PYTEST = '''
import os
import pytest
import solution
from solution import *

@pytest.fixture
def three():
    return 3

def test_fixture(three):
    assert helper(three) == 4

def test_monkeypatch_attr(monkeypatch):
    monkeypatch.setattr(solution, "helper", lambda x: 100)
    assert uses_helper(1) == 200

def test_monkeypatch_string(monkeypatch):
    monkeypatch.setattr("solution.helper", lambda x: 10)
    assert uses_helper(1) == 20

def test_after_undo():
    assert uses_helper(1) == 4

def test_capfd(capfd):
    shout("hi")
    out, err = capfd.readouterr()
    assert out == "HI\\n" and err == "err\\n"

def test_approx():
    assert area(1) == pytest.approx(3.14159)

def test_env(monkeypatch):
    monkeypatch.setenv("MODE", "fast")
    assert env() == "fast"

def test_listdir(monkeypatch):
    monkeypatch.setattr(os, "listdir", lambda d: ["b", "a"])
    assert listing("/x") == ["a", "b"]
'''

PATCHING_UNITTEST = '''
import unittest
from unittest.mock import patch, MagicMock
import solution

class TestCases(unittest.TestCase):
    @patch("solution.helper")
    def test_patch_decorator(self, mock_helper):
        mock_helper.return_value = 5
        self.assertEqual(uses_helper(1), 10)
        mock_helper.assert_called_once_with(1)

    def test_patch_object(self):
        with patch.object(solution, "helper", return_value=7) as m:
            self.assertEqual(uses_helper(2), 14)
            m.assert_called_once_with(2)

    @patch("os.listdir")
    def test_patch_os(self, mock_listdir):
        mock_listdir.return_value = ["q", "p"]
        self.assertEqual(listing("/nowhere"), ["p", "q"])
        mock_listdir.assert_called_once_with("/nowhere")

    @patch("random.randint", return_value=4)
    def test_patch_random(self, m):
        self.assertEqual(roll(), 4)

    def test_unpatched(self):
        self.assertEqual(uses_helper(1), 4)
'''


def test_fixtures_monkeypatch_mock_patch_and_capfd_reach_the_program_s_process(executor):
    """What a test sets for the program (a name of its module patched, a standard module's function,
    an environment variable, the streams it captures) is what the program's code sees, and goes
    with the case; a program that does not call what the test patched fails those cases."""
    inline = PATCHED.replace("return helper(x) * 2", "return (x + 1) * 2")
    jobs = [Job(program=program, tests=(TestCase(kind=kind, code=code),))
            for program in (PATCHED, inline) for kind, code in (("pytest", PATCHING_PYTEST),
                                                                 ("unittest", PATCHING_UNITTEST))]
    right_pytest, right_unittest, inline_pytest, inline_unittest = executor.run(jobs)
    assert right_pytest.passed and right_unittest.passed, (right_pytest, right_unittest)
    assert {n for n, s, _ in inline_pytest.test_results[0].cases if s != "passed"} == {
        "test_monkeypatch_attr", "test_monkeypatch_string"}
    assert {n for n, s, _ in inline_unittest.test_results[0].cases if s != "passed"} == {
        "TestCases.test_patch_decorator", "TestCases.test_patch_object"}
