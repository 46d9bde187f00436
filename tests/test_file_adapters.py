"""The adapters of data sets whose tests are files (grpo_code.suites.adapters.kodcode and
.bigcodebench): fixture rows in each data set's exact shape read through ``hf:<file>?adapter=NAME``,
their schema errors naming the field, the suite's packages named in the spec; with Docker, a
KodCode row's reference passes and a wrong program fails the right cases, and a BigCodeBench row with
``unittest.mock.patch`` and numpy passes its reference."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grpo_code.errors import ConfigError, TaskFormatError
from grpo_code.jsonl import read_records
from grpo_code.suites.adapters import RECORD_ADAPTERS, bigcodebench, kodcode
from grpo_code.suites.registry import load_suite

FIXTURES = Path(__file__).parent / "fixtures" / "adapters"
CORPUS = Path(__file__).parent / "fixtures" / "adapters_corpus"
KODCODE = FIXTURES / "kodcode.jsonl"
BIGCODEBENCH = FIXTURES / "bigcodebench.jsonl"
PINS = "numpy==2.2.6,pandas==2.3.3"


def _kodcode(path: Path = KODCODE):
    return load_suite(f"hf:{path}?adapter=kodcode")


def _bigcodebench(path: Path = BIGCODEBENCH, packages: str | None = PINS):
    return load_suite(f"hf:{path}?adapter=bigcodebench" + (f"&packages={packages}" if packages else ""))


def _write(tmp_path: Path, records: list[dict], name: str = "rows.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_both_adapters_are_registered_with_a_docstring_and_a_template():
    for name, module in (("kodcode", kodcode), ("bigcodebench", bigcodebench)):
        assert RECORD_ADAPTERS[name] is module
        assert module.__doc__ and "{prompt}" in module.PROMPT_TEMPLATE


def test_a_kodcode_row_is_one_pytest_test_importing_solution():
    suite = _kodcode()
    assert [t.task_id for t in suite] == ["kodcode/Leetcode_3_I", "kodcode/Data_Structure_18_C", "kodcode/Filter_71_I"]
    task = suite.tasks[0]
    (test,) = task.tests
    assert (test.kind, test.module, test.visibility) == ("pytest", "solution", "hidden")
    assert test.code == read_records(KODCODE)[0]["test"]  # the file as it comes
    assert task.entry_point == "two_sum" and task.reference_solution == read_records(KODCODE)[0]["solution"]
    assert task.prompt.endswith("Note that the function declaration is: `def two_sum(nums, target):`.\n")
    assert "declarations are: `def word_counts(path):`; `def write_report(counts, path):`" in suite.tasks[2].prompt
    assert (task.limits.time_limit_s, task.limits.wall_time_limit_s, task.limits.memory_limit_mb) == (10.0, 31.0, 1024)
    assert task.test_setup == "" and task.job("x = 1").test_setup == ""  # the file runs alone, as in its harness
    assert task.metadata == {"source": "KodCode", "question_id": "Leetcode_3_I", "index": 0, "subset": "Leetcode_3",
                             "style": "instruct", "gpt_difficulty": "easy", "gpt_pass_percentage": 1.0,
                             "split": "test"}


def test_a_bigcodebench_row_is_one_unittest_test_with_the_prompt_s_imports_in_the_judge():
    suite = _bigcodebench()
    assert suite.packages == ("numpy==2.2.6", "pandas==2.3.3")
    assert [t.task_id for t in suite] == ["bigcodebench/BigCodeBench/0", "bigcodebench/BigCodeBench/12",
                                          "bigcodebench/BigCodeBench/37"]  # the ids as given
    row, task = read_records(BIGCODEBENCH)[1], suite.tasks[1]
    (test,) = task.tests
    assert (test.kind, test.code) == ("unittest", row["test"])
    assert task.reference_solution == row["complete_prompt"] + "\n" + row["canonical_solution"]
    assert task.prompt == row["instruct_prompt"] + "\n" and task.entry_point == "task_func"
    assert task.test_setup == "import os\nimport numpy as np\nimport os\nimport sys\nfrom os import environ\n"
    assert task.metadata["libs"] == ["os", "numpy"]
    assert (task.limits.time_limit_s, task.limits.wall_time_limit_s, task.limits.memory_limit_mb) == (20.0, 61.0, 1024)


def test_a_task_whose_imports_the_packages_do_not_provide_is_refused_naming_the_package(tmp_path):
    with pytest.raises(TaskFormatError) as info:
        _bigcodebench(packages=None)
    message = str(info.value)
    assert message == (f"hf:{BIGCODEBENCH}[test]:2: field 'tests[0]': task 'bigcodebench/BigCodeBench/12': the test "
                       "imports numpy (its line 6), which neither the standard library nor the suite's packages "
                       "provide: name its package, pinned, in the hf: spec (&packages=numpy==VERSION)")
    assert "\n" not in message
    with pytest.raises(TaskFormatError, match=r"\[test\]:3: .*imports pandas .*\(&packages=pandas==VERSION\)"):
        _bigcodebench(packages="numpy==2.2.6")
    rows = read_records(BIGCODEBENCH)
    rows[0]["complete_prompt"] = "import sklearn\n" + rows[0]["complete_prompt"]
    with pytest.raises(TaskFormatError, match=r":1: field 'reference_solution': .*imports sklearn .*"
                                              r"\(&packages=scikit-learn==VERSION\)"):
        _bigcodebench(_write(tmp_path, rows[:1]))
    assert len(_bigcodebench(_write(tmp_path, rows[:1]), packages="scikit-learn==1.5.2")) == 1


@pytest.mark.parametrize("value, words", [
    ("numpy>=2", "?packages=: expected an exact pin, name==version"),
    ("numpy==2.2.6,numpy==2.2.5", "?packages=: numpy pinned to more than one version"),
])
def test_a_bad_pin_in_the_spec_is_a_config_error(value, words):
    with pytest.raises(ConfigError) as info:
        _bigcodebench(packages=value)
    assert str(info.value).startswith(words)


def test_packages_work_for_every_adapter_and_are_an_option_the_error_lists(tmp_path):
    assert _kodcode().packages == ()
    assert load_suite(f"hf:{KODCODE}?adapter=kodcode&packages=more-itertools==10.5.0").packages == (
        "more-itertools==10.5.0",)
    with pytest.raises(ConfigError, match="known: adapter, split, config, limit, language, packages"):
        load_suite(f"hf:{KODCODE}?adapter=kodcode&package=numpy==2.2.6")


# field dropped (or broken) -> what the error names
KODCODE_ERRORS = [
    ("question_id", None, "the record has no 'question_id'"),
    ("question", None, "the record has no 'question'"),
    ("test", None, "the record has no 'test'"),
    ("test", "", "'test' must be non-empty text"),
    ("test", "def test_a(:\n    pass\n",
     "'test': the judge cannot run this pytest test: the test code does not compile"),
    ("test_info", "two_sum", "'test_info' must be a list of objects"),
    ("test_info", [{"function_name": "two sum"}], "'test_info[0].function_name' must be a function name"),
    ("solution", ["def two_sum(): pass"], "'solution' must be text"),
]
BIGCODEBENCH_ERRORS = [
    ("task_id", None, "the record has no 'task_id'"),
    ("complete_prompt", None, "the record has no 'complete_prompt'"),
    ("instruct_prompt", None, "the record has no 'instruct_prompt'"),
    ("canonical_solution", None, "the record has no 'canonical_solution'"),
    ("test", None, "the record has no 'test'"),
    ("canonical_solution", "    return (\n", "'complete_prompt' + 'canonical_solution' is not Python code"),
    ("test", "class TestCases(unittest.TestCase:\n", "'test': the judge cannot run this unittest test"),
    ("entry_point", "task func", "'entry_point' must be a function name"),
    ("libs", "['pandas'", "'libs' must be a list of library names"),
    ("libs", "[1, 2]", "'libs' must be a list of library names"),
]


# each adapter's fixture, the row changed (its place in the file) and its loader
ROW_ERRORS = {"kodcode": (KODCODE, 1, _kodcode), "bigcodebench": (BIGCODEBENCH, 2, _bigcodebench)}


@pytest.mark.parametrize("adapter, field, value, words", [("kodcode", *e) for e in KODCODE_ERRORS]
                         + [("bigcodebench", *e) for e in BIGCODEBENCH_ERRORS])
def test_a_row_that_does_not_fit_names_the_field(tmp_path, adapter, field, value, words):
    path, row, load = ROW_ERRORS[adapter]
    rows = read_records(path)
    if value is None:
        del rows[row][field]
    else:
        rows[row][field] = value
    with pytest.raises(TaskFormatError) as info:
        load(_write(tmp_path, rows))
    assert info.value.line == row + 1
    assert f"record does not fit the {adapter} schema" in str(info.value) and words in str(info.value)


def test_the_agreement_corpora_hold_thirty_tasks_each_read_through_their_adapters():
    """The corpora of benchmarks/adapters_agreement.py: 30 tasks each, in the idioms of their data sets.

    (``tests/test_adapters.py`` checks that the shipped corpora are what make_corpora.py makes.)
    """
    kod = load_suite(f"hf:{CORPUS / 'kodcode.jsonl'}?adapter=kodcode")
    bcb = load_suite(f"hf:{CORPUS / 'bigcodebench.jsonl'}?adapter=bigcodebench&packages={PINS}")
    assert len(kod) >= 30 and len(bcb) >= 30
    assert all(t.tests[0].kind == "pytest" and t.reference_solution for t in kod)
    assert all(t.tests[0].kind == "unittest" and t.reference_solution for t in bcb)
    tests = "\n".join(t.tests[0].code or "" for t in kod)
    for idiom in ("@pytest.mark.parametrize", "pytest.raises", "@pytest.fixture", "capsys", "tmp_path", "monkeypatch",
                  "class Test", "pytest.approx", "from solution import *", "yield"):
        assert idiom in tests, idiom
    tests = "\n".join(t.tests[0].code or "" for t in bcb)
    for idiom in ("def setUp", "def tearDown", "tempfile.mkdtemp", "@patch(\"os.", "@patch(\"builtins.input\"",
                  "patch(\"builtins.open\"", "@patch(\"urllib.request.urlopen\")", "@patch(\"subprocess.run\")",
                  "self.subTest", "np.testing.assert_", "pd.testing.assert_frame_equal", "self.assertRaises",
                  "patch.dict(os.environ"):
        assert idiom in tests, idiom


# -- in the sandbox ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def numpy_executor():
    """A pool on the image of numpy and pandas (built here once where it is not yet: cached by its tag)."""
    from sandbox import DockerExecutor
    from sandbox.container import connect
    from sandbox.image import build_image

    build_image(connect(), packages=PINS.split(","))
    with DockerExecutor(concurrency=1, packages=tuple(PINS.split(","))) as ex:
        yield ex


@pytest.mark.docker
def test_kodcode_references_pass_and_a_wrong_program_fails_the_right_cases(executor):
    suite = _kodcode()
    verdicts = executor.run([t.job(t.reference_solution) for t in suite])
    assert [(v.status, v.pass_rate) for v in verdicts] == [("passed", 1.0)] * 3
    assert [len(v.test_results[0].cases) for v in verdicts] == [5, 5, 3]  # each parameter set and method a case
    wrong = "def two_sum(nums, target):\n    return [0, 1]\n"  # right where the first two add up, never raises
    verdict = executor.run_one(suite.tasks[0].job(wrong))
    assert (verdict.status, verdict.pass_rate) == ("failed", pytest.approx(2 / 5))
    (result,) = verdict.test_results
    assert result.score == pytest.approx(2 / 5)
    assert [(name, status) for name, status, _ in result.cases] == [
        ("test_two_sum_basic", "passed"), ("test_two_sum_cases[nums0-6-expected0]", "failed"),
        ("test_two_sum_cases[nums1-6-expected1]", "passed"), ("test_two_sum_cases[nums2--8-expected2]", "failed"),
        ("test_two_sum_too_short", "failed")]
    assert result.message.startswith("test_two_sum_cases[nums0-6-expected0]: AssertionError: assert two_sum(nums, "
                                     "target) == expected")


@pytest.mark.docker
def test_kodcode_objects_made_from_a_class_the_file_imports_have_the_program_s_operators(executor):
    """``from solution import Vector`` then ``Vector(1, 2) + Vector(3, 4)``: the test made both
    objects from the program's class, so ``+`` and ``==`` are the program's (as for a class's name
    read free); a patch of the module's name is undone for the cases after it."""
    program = ("class Vector:\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n"
               "    def __add__(self, other):\n        return Vector(self.x + other.x, self.y + other.y)\n"
               "    def __eq__(self, other):\n        return (self.x, self.y) == (other.x, other.y)\n")
    test = ("import solution\nfrom solution import Vector\n\n"
            "def test_add():\n    assert (Vector(1, 2) + Vector(3, 4)).x == 4\n\n"
            "def test_eq():\n    assert Vector(1, 2) + Vector(3, 4) == Vector(4, 6)\n\n"
            "def test_ne():\n    assert not (Vector(1, 2) == Vector(2, 1))\n\n"
            "def test_patched(monkeypatch):\n    monkeypatch.setattr(solution, 'Vector', lambda x, y: 'fake')\n"
            "    assert solution.Vector(1, 2) == 'fake'\n\n"
            "def test_after_the_patch():\n    assert Vector(1, 2) + Vector(1, 1) == Vector(2, 3)\n")
    from sandbox import Job, TestCase

    verdict = executor.run_one(Job(program=program, tests=(TestCase(kind="pytest", code=test),)))
    assert (verdict.status, [status for _, status, _ in verdict.test_results[0].cases]) == ("passed", ["passed"] * 5)


@pytest.mark.docker
def test_bigcodebench_references_with_mocks_and_numpy_pass_and_wrong_programs_fail(numpy_executor):
    suite = _bigcodebench()
    verdicts = numpy_executor.run([t.job(t.reference_solution) for t in suite])
    assert [(v.status, [status for _, status, _ in v.test_results[0].cases]) for v in verdicts] == [
        ("passed", ["passed"] * 5), ("passed", ["passed"] * 4), ("passed", ["passed"] * 3)]
    # BigCodeBench/12 (os.listdir patched, np.testing): sums in the wrong order, the suffix left unread
    wrong = ("import os\nimport numpy as np\ndef task_func(directory, suffix='.txt'):\n"
             "    names = sorted((n for n in os.listdir(directory) if n.endswith('.txt')), reverse=True)\n"
             "    sums = [sum(float(x) for x in open(os.path.join(directory, n)) if x.strip()) for n in names]\n"
             "    return np.array(sums), names[int(np.argmax(sums))]\n")
    verdict = numpy_executor.run_one(suite.tasks[1].job(wrong))
    assert (verdict.status, verdict.pass_rate) == ("failed", pytest.approx(2 / 4))
    assert [(name, status) for name, status, _ in verdict.test_results[0].cases] == [
        ("TestCases.test_listdir_patched", "passed"), ("TestCases.test_missing_folder", "passed"),
        ("TestCases.test_suffix", "failed"), ("TestCases.test_sums", "failed")]


# Two faults of the judge the agreement benchmark found: several numpy or pandas values handed over
# in one call, and a test's patch of sys.stdout.


@pytest.mark.docker
def test_several_arrays_handed_to_the_program_in_one_call_each_cross_as_themselves(numpy_executor):
    from sandbox import Job, TestCase

    test = TestCase(kind="unittest", code=(
        "import unittest\nimport numpy as np\nimport pandas as pd\n\nclass TestCases(unittest.TestCase):\n"
        "    def test_arrays(self):\n"
        "        self.assertEqual(shapes(np.array([1, 2]), np.array([[3.0]]), np.arange(5)), [(2,), (1, 1), (5,)])\n\n"
        "    def test_frames(self):\n"
        "        self.assertEqual(shapes(pd.DataFrame({'a': [1]}), pd.DataFrame({'b': [2.0], 'c': ['x']})),"
        " [(1, 1), (1, 2)])\n"))
    verdict = numpy_executor.run_one(Job(program="def shapes(*values):\n    return [v.shape for v in values]\n",
                                         tests=(test,)))
    assert verdict.status == "passed", verdict.test_results[0].cases


@pytest.mark.docker
def test_a_test_that_patches_sys_stdout_sees_what_the_program_prints(executor):
    from sandbox import Job, TestCase

    test = TestCase(kind="unittest", code=(
        "import io\nimport unittest\nfrom unittest.mock import patch\n\nclass TestCases(unittest.TestCase):\n"
        "    @patch('sys.stdout', new_callable=io.StringIO)\n    def test_printed(self, stdout):\n"
        "        say()\n        self.assertEqual(stdout.getvalue(), 'hello\\n')\n"))
    verdict = executor.run_one(Job(program="def say():\n    print('hello')\n", tests=(test,)))
    assert verdict.status == "passed", verdict
