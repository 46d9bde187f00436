"""Data set adapters (grpo_code.suites.adapters): fixture records in each public schema, read through
``hf:<file>?adapter=NAME``; with Docker, references pass and wrong programs fail."""

from __future__ import annotations

import base64
import json
import os
import pickle
import zlib
from dataclasses import replace
from pathlib import Path

import pytest

from grpo_code.errors import ConfigError, TaskFormatError
from grpo_code.jsonl import read_records
from grpo_code.suites.adapters import RECORD_ADAPTERS, apps, livecodebench, open_r1
from grpo_code.suites.registry import load_suite
from grpo_code.suites.tasks import parse_task

FIXTURES = Path(__file__).parent / "fixtures" / "adapters"
FILES = {"mbpp": "mbpp.jsonl", "apps": "apps.jsonl", "codecontests": "codecontests.jsonl",
         "livecodebench": "livecodebench.jsonl", "open-r1": "open_r1.jsonl"}
# A field each schema cannot do without, dropped from the second record in the error test.
REQUIRED = {"mbpp": "test_list", "apps": "input_output", "codecontests": "public_tests",
            "livecodebench": "public_test_cases", "open-r1": "verification_info"}


def _load(adapter: str, path: Path | None = None, language: str | None = None):
    return load_suite(f"hf:{path or FIXTURES / FILES[adapter]}?adapter={adapter}&split=test"
                      + (f"&language={language}" if language else ""))


@pytest.fixture(scope="module")
def suites():
    return {name: _load(name) for name in FILES}


def _records(adapter: str) -> list[dict]:
    return read_records(FIXTURES / FILES[adapter])


# each fixture's first record, as its adapter reads it: (task id, tests, entry point)
FIRST_TASKS = {"mbpp": ("mbpp/2", 3, "similar_elements"), "apps": ("apps/4001", 3, None),
               "codecontests": ("codecontests/1000_A. Add Two", 5, None),
               "livecodebench": ("livecodebench/abc900_a", 3, None), "open-r1": ("open-r1/vfc_90001", 3, None)}


def test_every_adapter_is_registered_with_a_docstring_and_a_template():
    assert set(RECORD_ADAPTERS) >= set(FILES)
    for name in FILES:
        module = RECORD_ADAPTERS[name]
        assert module.__doc__ and module.__doc__.strip().splitlines()[0]
        assert "{prompt}" in module.PROMPT_TEMPLATE
        task = module.task_from_record(_records(name)[0], 0)
        assert (task.task_id, len(task.tests), task.entry_point) == FIRST_TASKS[name]


def test_split_means_the_tasks_of_that_split_for_hf_suites_too():
    """``?split=`` reads that split of the data set, and each task says which split it is of."""
    path = FIXTURES / FILES["mbpp"]
    train = load_suite(f"hf:{path}?adapter=mbpp&split=train")
    assert train.name == "mbpp.jsonl-train" and {t.metadata["split"] for t in train} == {"train"}
    assert {t.metadata["split"] for t in load_suite(f"hf:{path}?adapter=mbpp")} == {"test"}  # the default
    assert [t.task_id for t in load_suite(f"hf:{path}?adapter=mbpp&limit=2")] == ["mbpp/2", "mbpp/1001"]
    for spec, words in ((f"hf:{path}?adapter=mbpp&limit=0", "?limit= takes a positive whole number, got '0'"),
                        (f"hf:{path}", "hf: suites need ?adapter=NAME"),
                        (f"hf:{path}?adapter=mbpp&splt=train", "unknown hf: option(s) ['splt']")):
        with pytest.raises(ConfigError) as err:
            load_suite(spec)
        assert words in str(err.value)


def test_mbpp(suites):
    suite = suites["mbpp"]
    assert suite.name == "mbpp.jsonl-test" and suite.description.startswith("MBPP")
    assert [t.task_id for t in suite] == ["mbpp/2", "mbpp/1001", "mbpp/1002"]
    assert [len(t.tests) for t in suite] == [3, 2, 4]
    assert all(x.kind == "assert" for t in suite for x in t.tests)
    # The called function, even when a builtin (set) wraps it or an attribute call (math.isclose) comes first.
    assert [t.entry_point for t in suite] == ["similar_elements", "hypotenuse", "common_elements"]
    t2, t1001, _ = suite.tasks
    assert t2.tests[0].code == "assert similar_elements((3, 4, 5, 6),(5, 7, 4, 10)) == (4, 5)"
    assert t1001.tests[1].code == "import math\nassert math.isclose(hypotenuse(5, 12), 13.0)"
    assert t2.prompt == ("Write a function to find the similar elements from the given two tuple lists.\n"
                         "Your code should pass these tests:\n\n"
                         "assert similar_elements((3, 4, 5, 6),(5, 7, 4, 10)) == (4, 5)\n"
                         "assert similar_elements((1, 2, 3, 4),(5, 4, 3, 7)) == (3, 4)\n"
                         "assert similar_elements((11, 12, 14, 13),(17, 15, 14, 13)) == (13, 14)\n")
    assert t2.reference_solution.startswith("def similar_elements(test_tup1, test_tup2):\n  res =")
    assert "\r" not in t2.reference_solution
    assert t1001.metadata["challenge_tests"] == 1
    assert (t2.language, t2.limits.time_limit_s, t2.limits.memory_limit_mb) == ("python", 2.0, 256)
    assert suite.format_prompt(t2).startswith("You are an expert Python programmer, and here is your task: Write")


def test_apps(suites):
    stdio, codewars, leetcode = suites["apps"].tasks
    assert [t.task_id for t in suites["apps"]] == ["apps/4001", "apps/2500", "apps/3001"]
    assert all(t.limits.time_limit_s == 4.0 and t.language == "python" for t in suites["apps"])
    # stdio: lists of lines are joined; every stdin ends with a newline.
    assert [x.kind for x in stdio.tests] == ["stdio"] * 3 and stdio.entry_point is None
    assert [(x.stdin, x.expected_stdout) for x in stdio.tests] == [
        ("3\n1 2 3\n", "6\n"), ("2\n5 5\n", "10\n"), ("1\n-7\n", "-7\n")]
    assert stdio.reference_solution == "n = int(input())\nprint(sum(map(int, input().split())))\n"
    assert "Use standard input and standard output" in stdio.prompt and "Starter code" not in stdio.prompt
    # fn_name with a top-level function: call tests; a one-element output list is the wrapped value.
    assert codewars.entry_point == "even_squares"
    assert [(x.kind, x.fn_name, x.args, x.expected) for x in codewars.tests] == [
        ("call", "even_squares", [[1, 2, 3, 4]], [4, 16]), ("call", "even_squares", [[5]], []),
        ("call", "even_squares", [[2, 4]], [4, 16])]
    assert "```python\ndef even_squares(nums):\n```" in codewars.prompt
    assert "call-based format" in codewars.prompt
    # class Solution: assert tests on a method.
    assert leetcode.entry_point == "twoSum" and [x.kind for x in leetcode.tests] == ["assert"] * 3
    assert leetcode.tests[0].code == ("_out = Solution().twoSum(*[[2, 7, 11, 15], 9])\n"
                                      "if isinstance(_out, tuple):\n    _out = list(_out)\n"
                                      "assert _out == [0, 1]")
    assert leetcode.prelude == apps.CALL_PREAMBLE and "from typing import List" in leetcode.prelude
    program = leetcode.job("x = 1").program
    assert program.startswith(apps.CALL_PREAMBLE) and program.endswith("x = 1")
    assert "class Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:" in leetcode.prompt
    assert leetcode.metadata["difficulty"] == "interview"
    assert apps.unwrap([[1]]) == [1] and apps.unwrap([1, 2]) == [1, 2] and apps.unwrap(5) == 5


def test_codecontests(suites):
    add, max3, echo = suites["codecontests"].tasks
    assert [t.task_id for t in suites["codecontests"]] == [
        "codecontests/1000_A. Add Two", "codecontests/1001_B. Max of Three", "codecontests/p00001 Echo"]
    assert all(x.kind == "stdio" for t in suites["codecontests"] for x in t.tests)
    # public, private, generated, in that order
    assert [x.stdin for x in add.tests] == ["1 2\n", "5 7\n", "1000000000 1000000000\n", "0 0\n", "-1 1\n"]
    assert add.metadata["tests_per_group"] == {"public_tests": 1, "private_tests": 2, "generated_tests": 2}
    assert add.language == "python" and add.reference_solution.startswith("a, b = map(int, input().split())")
    assert max3.language == "cpp" and "max({a, b, c})" in max3.reference_solution  # no PYTHON3: first CPP
    # the first solution in each other language is kept (PYTHON 2 is not: the sandbox runs Python 3)
    assert set(add.reference_solutions) == {"cpp"} and set(max3.reference_solutions) == {"java"}
    assert echo.reference_solutions == {}
    assert echo.language == "python" and echo.reference_solution is None and len(echo.tests) == 2
    # limits: from the record, clamped to [1, 10] s and [64, 1024] MiB; defaults when absent
    assert [(t.limits.time_limit_s, t.limits.memory_limit_mb) for t in suites["codecontests"]] == [
        (2.5, 256), (10.0, 1024), (2.0, 256)]
    assert add.prompt.startswith("You are given two integers a and b")
    assert suites["codecontests"].format_prompt(max3).endswith("one ```cpp code block.")


def test_language_picks_the_problems_with_a_solution_in_it():
    cpp = _load("codecontests", language="cpp")
    assert cpp.name == "codecontests.jsonl-test-cpp"
    assert [(t.task_id, t.language) for t in cpp] == [("codecontests/1000_A. Add Two", "cpp"),
                                                      ("codecontests/1001_B. Max of Three", "cpp")]
    assert cpp.tasks[0].reference_solutions == {"python": _load("codecontests").tasks[0].reference_solution}
    assert cpp.format_prompt(cpp.tasks[0]).endswith("one ```cpp code block.")
    java = _load("codecontests", language="java")
    assert [(t.task_id, t.language) for t in java] == [("codecontests/1001_B. Max of Three", "java")]
    assert "public class" in java.tasks[0].reference_solution
    with pytest.raises(ConfigError, match="has no task in java; its languages: python"):
        _load("apps", language="java")  # APPS's solutions are all Python


def _check(task):
    namespace: dict = {}
    exec(task.checker, namespace)
    return namespace["check"]


def test_open_r1_codeforces_records_carry_their_checkers():
    suite = load_suite(f"hf:{FIXTURES / 'open_r1_codeforces.jsonl'}?adapter=open-r1&split=test")
    permutation, plain = suite.tasks  # the interactive problem is left out
    assert [t.task_id for t in suite] == ["open-r1/codeforces/9001A", "open-r1/codeforces/9001B"]
    assert [(t.stdin, t.expected_stdout) for t in permutation.tests][:2] == [("3\n", "1 2 3\n"), ("1\n", "1\n")]
    assert permutation.prompt.startswith("Any Permutation\n\nPrint any permutation")
    assert "Example 1\nInput:\n```\n3\n```" in permutation.prompt and "Note\nAny order" in permutation.prompt
    assert [(t.limits.time_limit_s, t.limits.memory_limit_mb) for t in suite] == [(1.0, 256), (10.0, 64)]  # clamped
    assert plain.checker is None and permutation.metadata["rating"] == 800
    check = _check(permutation)
    assert [check("3\n", answer, "1 2 3\n") for answer in ("1 2 3\n", "3 1 2\n", "2\n3\n1\n")] == [1.0] * 3
    assert [check("3\n", answer, "1 2 3\n") for answer in ("1 2\n", "1 1 2\n", "4 1 2\n", "")] == [0.0] * 4
    assert parse_task(permutation.to_dict()).checker == permutation.checker  # a valid task checker


def test_a_generated_checker_that_prints_no_score_is_the_checkers_failure():
    exits = open_r1.checker_from_script("import sys\nsys.exit(1)\n")
    broken = open_r1.checker_from_script("raise RuntimeError('bug in the checker')\n")
    silent = open_r1.checker_from_script("x = 1\n")
    ns: list[dict] = [{}, {}, {}]
    for text, namespace in zip((exits, broken, silent), ns, strict=True):
        exec(text, namespace)
    assert ns[0]["check"]("1\n", "2\n", "1\n") == 0.0  # testlib's wrong answer
    with pytest.raises(RuntimeError, match="bug in the checker"):
        ns[1]["check"]("1\n", "1\n", "1\n")
    with pytest.raises(ValueError, match="printed no score"):
        ns[2]["check"]("1\n", "1\n", "1\n")


def test_livecodebench(suites):
    stdin, functional, compressed = suites["livecodebench"].tasks
    assert [t.task_id for t in suites["livecodebench"]] == [
        "livecodebench/abc900_a", "livecodebench/9001", "livecodebench/9002C"]
    assert all(t.reference_solution is None and t.limits.time_limit_s == 6.0 for t in suites["livecodebench"])
    assert [(x.kind, x.stdin, x.expected_stdout) for x in stdin.tests] == [
        ("stdio", "3\n1 2 3\n", "6\n"), ("stdio", "1\n100\n", "100\n"), ("stdio", "2\n-5 5\n", "0\n")]
    assert stdin.entry_point is None and "standard input" in stdin.prompt
    assert stdin.metadata["public_tests"] == 1 and stdin.metadata["platform"] == "atcoder"
    # functional with class Solution starter code: public + compressed private tests, as asserts
    assert functional.entry_point == "largestSum" and len(functional.tests) == 3
    assert [x.kind for x in functional.tests] == ["assert"] * 3
    assert functional.tests[0].code.startswith("_out = Solution().largestSum(*[[1, 5, 3], 2])\n")
    assert functional.tests[2].code.endswith("assert _out == 13")
    assert "```python\nclass Solution:\n    def largestSum(self, nums: List[int], k: int) -> int:\n```" \
        in functional.prompt
    assert [x.stdin for x in compressed.tests] == ["abc\n", "x\n", "ab\n", "racecar\n"]


def test_livecodebench_functional_without_class_is_a_call_test():
    record = dict(_records("livecodebench")[1], starter_code="def largestSum(nums, k):\n    ")
    task = livecodebench.task_from_record(record, 0)
    first = task.tests[0]
    assert (first.kind, first.fn_name, first.args, first.expected) == ("call", "largestSum", [[1, 5, 3], 2], 8)


def test_livecodebench_compressed_tests_never_load_code(tmp_path):
    class Evil:
        def __reduce__(self):
            return os.mkdir, (str(tmp_path / "pwned"),)

    evil = base64.b64encode(zlib.compress(pickle.dumps(Evil()))).decode()
    with pytest.raises(ValueError, match="neither JSON text nor"):
        livecodebench.decode_test_cases(evil, "private_test_cases")
    assert not (tmp_path / "pwned").exists()
    number = base64.b64encode(zlib.compress(pickle.dumps(42))).decode()
    with pytest.raises(ValueError, match="list of test case objects"):
        livecodebench.decode_test_cases(number, "private_test_cases")
    plain = [{"input": "1\n", "output": "1\n", "testtype": "stdin"}]
    as_list = base64.b64encode(zlib.compress(pickle.dumps(plain))).decode()
    assert livecodebench.decode_test_cases(as_list, "x") == plain
    assert livecodebench.decode_test_cases(json.dumps(plain), "x") == plain


def test_open_r1(suites):
    watermelon, product = suites["open-r1"].tasks
    assert [t.task_id for t in suites["open-r1"]] == ["open-r1/vfc_90001", "open-r1/vfc_90002"]
    assert [(x.kind, x.stdin, x.expected_stdout) for x in watermelon.tests] == [
        ("stdio", "8\n", "YES\n"), ("stdio", "2\n", "NO\n"), ("stdio", "7\n", "NO\n")]
    assert watermelon.reference_solution == "w = int(input())\nprint('YES' if w > 2 and w % 2 == 0 else 'NO')"
    assert product.reference_solution.startswith("def main():") and "O(1)" not in product.reference_solution
    assert watermelon.prompt.startswith("Solve the following coding problem") and "watermelon" in watermelon.prompt
    assert watermelon.metadata["origin"] == "codeforces"
    # verification_info as JSON text (the upstream PrimeIntellect form) reads the same
    record = dict(_records("open-r1")[0])
    record["verification_info"] = json.dumps(record["verification_info"])
    task = open_r1.task_from_record(record, 0)
    assert task is not None and task.tests == watermelon.tests


def _visibility(task) -> list[str]:
    return [t.visibility for t in task.tests]


def test_each_adapter_maps_its_data_sets_public_and_hidden_tests(suites):
    """What a data set shows the model is public, the rest hidden (docs/task-format.md)."""
    add = suites["codecontests"].tasks[0]  # public_tests, then private and generated
    assert _visibility(add) == ["public", "hidden", "hidden", "hidden", "hidden"]
    assert [t.stdin for t in add.public_tests] == ["1 2\n"] and "1 2" in add.prompt
    stdin, functional = suites["livecodebench"].tasks[:2]  # public_test_cases, then private
    assert _visibility(stdin) == ["public", "hidden", "hidden"]
    assert len(functional.public_tests) == 1 and len(functional.hidden_tests) == 2
    assert all(_visibility(t) == ["public"] * len(t.tests) for t in suites["mbpp"])  # its prompt shows them all
    assert all(_visibility(t) == ["hidden"] * len(t.tests) for t in suites["apps"])  # no public split
    assert all(_visibility(t) == ["hidden"] * len(t.tests) for t in suites["open-r1"])
    codeforces = load_suite(f"hf:{FIXTURES / 'open_r1_codeforces.jsonl'}?adapter=open-r1&split=test")
    permutation, plain = codeforces.tasks  # an official test equal to an example is public
    assert _visibility(permutation) == ["public", "hidden", "hidden"] and _visibility(plain) == ["public", "hidden"]


def test_humaneval_tests_that_call_only_docstring_examples_are_public():
    suite = load_suite("humaneval")
    close = suite.get("HumanEval/0")  # its examples are not among its asserts
    assert close.public_tests == () and len(close.hidden_tests) == 7
    separate = suite.get("HumanEval/1")  # the docstring's one example is its last assert
    assert _visibility(separate) == ["hidden", "hidden", "hidden", "public"]
    assert "separate_paren_groups('( ) (( )) (( )( ))')" in separate.prompt
    assert "candidate('( ) (( )) (( )( ))')" in (separate.public_tests[0].code or "")
    assert sum(len(t.public_tests) for t in suite) == 124 and sum(bool(t.public_tests) for t in suite) == 56
    assert all(t.public_tests == () for t in load_suite("humaneval?form=whole"))
    from grpo_code.suites.adapters.humaneval import docstring_calls, shown_in_prompt

    shown = docstring_calls(">>> f(1)\n2\n>>> f( 3 )\n4\n", "f")
    assert shown == {"f(1)", "f(3)"}  # as ast writes them
    assert shown_in_prompt("assert candidate(1) == 2\nassert f(3) == 4", "f", shown)
    assert not shown_in_prompt("assert candidate(1) == 2\nassert candidate(5) == 6", "f", shown)  # one unshown call
    assert not shown_in_prompt("assert True", "f", shown)  # no call of the function


@pytest.mark.parametrize("adapter", sorted(FILES))
def test_a_record_missing_a_required_field_names_the_record(adapter, tmp_path):
    records = _records(adapter)
    del records[1][REQUIRED[adapter]]
    path = tmp_path / f"broken-{adapter}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(TaskFormatError) as info:
        _load(adapter, path)
    assert info.value.line == 2
    assert f"the {adapter} schema" in str(info.value) and REQUIRED[adapter] in str(info.value)
    with pytest.raises(ValueError, match="the record has no"):
        RECORD_ADAPTERS[adapter].task_from_record({}, 0)


# Programs for tasks without a reference (LiveCodeBench has none), and wrong programs.
GOOD = {
    "livecodebench/abc900_a": "input()\nprint(sum(map(int, input().split())))\n",
    "livecodebench/9001": ("from typing import List\n\nclass Solution:\n"
                           "    def largestSum(self, nums: List[int], k: int) -> int:\n"
                           "        return sum(sorted(nums)[-k:])\n"),
    "livecodebench/9002C": "print(input()[::-1])\n",
    "codecontests/p00001 Echo": "print(input())\n",
}
WRONG = {
    "mbpp/2": "def similar_elements(a, b):\n    return ()\n",
    "mbpp/1001": "def hypotenuse(a, b):\n    return a + b\n",
    "apps/4001": "input()\nprint(0)\n",
    "apps/2500": "def even_squares(nums):\n    return [x * x for x in nums]\n",
    "apps/3001": "class Solution:\n    def twoSum(self, nums, target):\n        return (0, 1)\n",
    "codecontests/1000_A. Add Two": "a, b = map(int, input().split())\nprint(a - b)\n",
    "codecontests/1001_B. Max of Three": "#include <cstdio>\nint main() { puts(\"5\"); }\n",
    "livecodebench/9001": "class Solution:\n    def largestSum(self, nums, k):\n        return max(nums)\n",
    "livecodebench/9002C": "print(input())\n",
    "open-r1/vfc_90001": "print('YES')\n",
}


@pytest.mark.docker
def test_references_and_known_good_programs_pass(executor, suites):
    items = [(t, t.reference_solution or GOOD[t.task_id]) for s in suites.values() for t in s
             if t.reference_solution or t.task_id in GOOD]
    assert len(items) == 14
    verdicts = executor.run([t.job(program) for t, program in items])
    failed = [(t.task_id, v.status, v.message or [x.message for x in v.test_results if x.status != "passed"][:1])
              for (t, _), v in zip(items, verdicts, strict=True) if not v.passed]
    assert failed == []


@pytest.mark.docker
def test_references_in_other_languages_pass(executor):
    tasks = [t for lang in ("cpp", "java") for t in _load("codecontests", language=lang)]
    verdicts = executor.run([t.job(t.reference_solution) for t in tasks])
    assert [(t.task_id, t.language, v.status) for t, v in zip(tasks, verdicts, strict=True)] == [
        (t.task_id, t.language, "passed") for t in tasks]


@pytest.mark.docker
def test_wrong_programs_fail(executor, suites):
    tasks = {t.task_id: t for s in suites.values() for t in s}
    verdicts = executor.run([tasks[task_id].job(program) for task_id, program in WRONG.items()])
    got = {task_id: v.status for task_id, v in zip(WRONG, verdicts, strict=True)}
    assert got == dict.fromkeys(WRONG, "failed")
    rates = {task_id: v.pass_rate for task_id, v in zip(WRONG, verdicts, strict=True)}
    assert rates["apps/2500"] == pytest.approx(1 / 3)  # [5] -> [] is right by chance
    assert rates["apps/3001"] == pytest.approx(2 / 3)  # a tuple counts as a list: (0, 1) is right twice
    assert rates["livecodebench/9002C"] == pytest.approx(2 / 4)  # palindromes



@pytest.mark.docker
def test_livecodebench_prelude_supplies_the_benchmark_imports(executor, suites):
    # LeetCode-style answers use List without importing it; LiveCodeBench's runner provides the
    # import, and so does the task's prelude.
    functional = suites["livecodebench"].tasks[1]
    assert functional.prelude == livecodebench.PRELUDE
    program = ("class Solution:\n    def largestSum(self, nums: List[int], k: int) -> int:\n"
               "        return sum(sorted(nums)[-k:])\n")
    assert executor.run_one(functional.job(program)).passed
    bare = replace(functional, prelude=None)
    assert executor.run_one(bare.job(program)).status == "runtime_error"  # NameError: List
