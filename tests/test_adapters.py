"""Data set adapters (grpo_code.suites.adapters): fixture records in each public schema, read through
``hf:<file>?adapter=NAME``; with Docker, references pass and wrong programs fail."""

from __future__ import annotations

import base64
import json
import math
import os
import pickle
import re
import subprocess
import sys
import zlib
from dataclasses import replace
from pathlib import Path

import pytest

from grpo_code.errors import ConfigError, TaskFormatError
from grpo_code.jsonl import read_records
from grpo_code.suites.adapters import RECORD_ADAPTERS, apps, evalplus, leetcode, livecodebench, mbpp, open_r1, taco
from grpo_code.suites.registry import load_suite
from grpo_code.suites.tasks import parse_task

FIXTURES = Path(__file__).parent / "fixtures" / "adapters"
FILES = {"mbpp": "mbpp.jsonl", "apps": "apps.jsonl", "codecontests": "codecontests.jsonl",
         "livecodebench": "livecodebench.jsonl", "open-r1": "open_r1.jsonl", "taco": "taco.jsonl",
         "leetcode": "leetcode.jsonl"}
# A field each schema cannot do without, dropped from the second record in the error test.
REQUIRED = {"mbpp": "test_list", "apps": "input_output", "codecontests": "public_tests",
            "livecodebench": "public_test_cases", "open-r1": "verification_info", "taco": "input_output",
            "leetcode": "test"}


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
               "livecodebench": ("livecodebench/abc900_a", 3, None), "open-r1": ("open-r1/vfc_90001", 3, None),
               "taco": ("taco/0", 3, None), "leetcode": ("leetcode/two-sum", 4, "twoSum")}


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


def test_taco_is_judged_as_apps_without_a_problem_id(suites):
    sqrt, vowels, profit, divisor = suites["taco"].tasks
    assert [t.task_id for t in suites["taco"]] == ["taco/0", "taco/1", "taco/2", "taco/3"]  # by the row's place
    assert "problem_id" not in _records("taco")[0]
    # stdio: inputs given as a list of lines joined, TACO's imports (sqrt) and stdin/stdout names before the program
    assert [(x.kind, x.stdin, x.expected_stdout) for x in sqrt.tests][2] == ("stdio", "1000000\n", "1000\n")
    assert sqrt.prelude == taco.PRELUDES["stdio"] and "from math import sqrt" in sqrt.prelude
    assert "stdout = sys.stdout" in sqrt.prelude and "numpy" not in sqrt.prelude
    # call-based: a top-level function gets call tests, a one-element output list being the wrapped value
    assert [(x.kind, x.fn_name, x.args, x.expected) for x in vowels.tests] == [
        ("call", "count_vowels", ["hello"], 2), ("call", "count_vowels", ["rhythm"], 0),
        ("call", "count_vowels", ["aeiou"], 5)]
    assert vowels.prelude == taco.PRELUDES["call"]
    # class Solution: assert tests on the method (APPS's rule)
    assert profit.entry_point == "maxProfit"
    assert profit.tests[2].code.startswith("_out = Solution().maxProfit(*[[1, 2]])")
    # limits: at least TACO's 4 s, the record's memory clamped; its own texts kept
    assert [(t.limits.time_limit_s, t.limits.memory_limit_mb) for t in suites["taco"]] == [
        (4.0, 256), (4.0, 256), (4.0, 512), (4.0, 64)]
    assert (sqrt.metadata["time_limit"], sqrt.metadata["memory_limit"]) == ("2.0 seconds", "256.0 megabytes")
    assert divisor.metadata["several_answers"] == "If there are multiple answers, print any of them."
    assert "several_answers" not in sqrt.metadata
    assert [taco.amount(x, taco._SECONDS) for x in ("2.0 seconds", "1 second", "1500 ms", "None", None, "soon")] \
        == [2.0, 1.0, 1.5, None, None, None]
    assert taco.task_from_record({**_records("taco")[0], "time_limit": "8 seconds"}, 0).limits.time_limit_s == 8.0


def test_leetcode_asserts_call_the_method_and_build_expected_values_in_the_judge(suites):
    two_sum, add, invert, depth = suites["leetcode"].tasks
    assert (two_sum.task_id, two_sum.entry_point, len(two_sum.tests)) == ("leetcode/two-sum", "twoSum", 4)
    assert two_sum.tests[0].code == "assert Solution().twoSum(nums=[2, 7, 11, 15], target=9) == [0, 1]"
    # the arguments' list_node is the program's (not bound by the judge's setup); the expected list the judge's
    assert add.tests[0].code == ("assert is_same_list(Solution().addTwoNumbers(l1=list_node([2, 4, 3]), "
                                 "l2=list_node([5, 6, 4])), expected_list_node([7, 0, 8]))")
    record = _records("leetcode")[1]
    assert add.prelude == record["prompt"] and add.reference_solution == record["completion"]
    setup = add.test_setup or ""
    assert setup.startswith("import random\n") and "inf = float('inf')" in setup and "def is_same_list" in setup
    assert "def list_node" not in setup and "class ListNode" not in setup and "def expected_list_node" in setup
    from sandbox.inside.guard import plan_assert, setup_names

    assert plan_assert(add.tests[0].code or "", setup_names(setup))[1] == ("Solution", "list_node")
    assert invert.tests[2].code == "assert Solution().invertTree(root=tree_node([])) == None"
    # public: the statement's examples (Input: lines, null read as None)
    assert _visibility(two_sum) == ["public", "public", "hidden", "hidden"]
    assert _visibility(depth) == ["public", "hidden", "hidden"]
    assert two_sum.prompt.endswith("```python\nclass Solution:\n    def twoSum(self, nums: List[int], target: int) "
                                   "-> List[int]:\n```\n")
    assert (two_sum.limits.time_limit_s, two_sum.metadata["question_id"], two_sum.metadata["difficulty"]) == \
        (3.0, 1, "Easy")
    # the judge's is_same_list and is_same_tree compare as the dataset's do
    namespace: dict = {}
    exec(setup, namespace)
    ln, tn = namespace["expected_list_node"], namespace["expected_tree_node"]
    assert namespace["is_same_list"](ln([1, 2]), ln([1, 2])) and not namespace["is_same_list"](ln([1, 2]), ln([1]))
    assert namespace["is_same_tree"](tn([1, None, 2]), tn([1, None, 2])) and not namespace["is_same_tree"](
        tn([1, None, 2]), tn([1, 2]))
    assert namespace["is_same_list"](None, ln([])) and namespace["is_same_tree"](None, tn([]))


@pytest.mark.parametrize("change, words", [
    ({"entry_point": "Solution.twoSum"}, "'entry_point' must be Class().method or a function name"),
    ({"test": "def test(candidate):\n    assert candidate(nums=[1]) == 1\n"}, "'test' has no check(candidate)"),
    ({"test": "def check(candidate):\n"
              "    assert is_same_list(candidate(head=list_node([1])), reverse(list_node([1])))\n",
      "prompt": _records("leetcode")[0]["prompt"] + "\ndef reverse(h):\n    return h\n"},
     "a test uses the prompt's reverse outside the call's arguments"),
])
def test_leetcode_refuses_what_its_judge_cannot_hold(change, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        leetcode.task_from_record({**_records("leetcode")[0], **change}, 0)


def test_leetcode_entry_point_may_be_a_plain_function():
    record = {**_records("leetcode")[0], "entry_point": "two_sum",
              "completion": "def two_sum(nums, target):\n    pass\n"}
    task = leetcode.task_from_record(record, 0)
    assert task.tests[0].code == "assert two_sum(nums=[2, 7, 11, 15], target=9) == [0, 1]"
    assert _visibility(task)[:2] == ["public", "public"]


def test_an_mbpp_plus_row_read_as_mbpp_is_refused_named(tmp_path):
    for name in ("mbppplus.jsonl",):
        with pytest.raises(TaskFormatError) as info:
            _load("mbpp", FIXTURES / name)
        assert "MBPP+ row (6 base and plus inputs)" in str(info.value) and "?adapter=evalplus" in str(info.value)
        assert info.value.line == 1
    hub_row = read_records(FIXTURES / "mbppplus.jsonl")[4]  # the Hub's shape: the inputs in 'test'
    assert mbpp.plus_inputs(hub_row) == "plus inputs in its 'test'"
    assert mbpp.plus_inputs(_records("mbpp")[0]) is None


def test_evalplus_records_read_with_their_types_and_the_hub_s_shape_too():
    he = {p.task_id: p for p in map(evalplus.read_problem, read_records(FIXTURES / "humanevalplus.jsonl"))}
    mb = {p.task_id: p for p in map(evalplus.read_problem, read_records(FIXTURES / "mbppplus.jsonl"))}
    close = he["HumanEval/0"]
    assert close.reference.startswith("from typing import List\n") and close.dataset == "humaneval"  # prompt + body
    assert (close.n_base, len(close.inputs), close.atol) == (4, 7, 0.0)
    assert he["HumanEval/2"].atol == 1e-6
    # MBPP+: the JSON lists of Mbpp/2 are tuples again (evalplus's mbpp_deserialize_inputs); its code is whole
    assert mb["Mbpp/2"].inputs[0] == [(3, 4, 5, 6), (5, 7, 4, 10)] and mb["Mbpp/2"].dataset == "mbpp"
    assert mb["Mbpp/3"].reference.startswith("import math\ndef is_not_prime")  # 'code' in place of canonical_solution
    hub = mb["Mbpp/600"]  # a number for an id, no entry_point, the inputs a literal in 'test'
    assert (hub.entry_point, hub.inputs, hub.n_base) == ("is_Even", ([1], [2], [3], [-8], [0]), 5)
    assert evalplus.mbpp_inputs(124, [["1.5", "1+2j"]]) == [[1.5, 1 + 2j]]
    assert evalplus.mbpp_inputs(580, [[[1, [2, 3]]]]) == [[(1, (2, 3))]]
    with pytest.raises(ValueError, match="'atol' must be a number >= 0"):
        evalplus.read_problem({**read_records(FIXTURES / "humanevalplus.jsonl")[0], "atol": -1})
    with pytest.raises(ValueError, match="no 'canonical_solution'"):
        evalplus.read_problem({k: v for k, v in read_records(FIXTURES / "humanevalplus.jsonl")[0].items()
                               if k != "canonical_solution"})


def test_evalplus_tests_are_call_tests_with_its_tolerance_or_asserts_that_keep_the_types():
    he = {p.task_id: p for p in map(evalplus.read_problem, read_records(FIXTURES / "humanevalplus.jsonl"))}
    mb = {p.task_id: p for p in map(evalplus.read_problem, read_records(FIXTURES / "mbppplus.jsonl"))}
    plain = evalplus.test_of(he["HumanEval/0"], [[1.0, 2.0], 0.5], False, "hidden")
    assert (plain.kind, plain.expected, plain.atol, plain.rtol) == ("call", False, 0.0, 0.0)
    floats = evalplus.test_of(he["HumanEval/0"], [[1.0]], 0.5, "hidden")  # a float answer: atol 1e-6, rtol 1e-7
    assert (floats.kind, floats.atol, floats.rtol) == ("call", 1e-6, 1e-7)
    assert evalplus.test_of(he["HumanEval/2"], [3.5], [0.5, 1], "public").atol == 1e-6  # the record's atol
    pair = evalplus.test_of(he["HumanEval/8"], [[1, 2]], (3, 2), "hidden")  # a tuple: JSON would make it a list
    assert pair.kind == "assert"
    assert (pair.code or "").endswith("assert _evalplus_equal(sum_product([1, 2]), (3, 2), 0.0)")
    shared = evalplus.test_of(mb["Mbpp/2"], [(1, 2), (2,)], (2,), "hidden")  # tuple arguments: an assert too
    assert (shared.code or "").endswith("similar_elements((1, 2), (2,)), (2,), 0.0)")
    root = evalplus.test_of(he["HumanEval/32"], [[1, 2]], -0.5, "public")  # the special oracle: a root within atol
    assert root.kind == "assert"
    assert (root.code or "").endswith("assert abs(_poly(*[[1, 2]], find_zero([1, 2]))) <= 0.0001")
    match = evalplus.test_of(mb["Mbpp/786"], ["abbb"], True, "hidden")
    assert (match.code or "") == "assert (text_match_three('abbb') is not None) == True"
    # evalplus's comparison as the assert tests hold it
    namespace: dict = {}
    exec(evalplus.EQUAL, namespace)
    same = namespace["_evalplus_equal"]
    assert same((1, 2), (1, 2), 0) and not same([1, 2], (1, 2), 0) and not same((1, 2), [1, 2], 1e-6)
    assert same(0.30000000000000004, 0.3, 0) and not same(0.31, 0.3, 0) and same([0.1 + 0.2], [0.3], 0)
    assert not same(2, 2.0000001, 1e-6) and same(1 + 1e-7, 1.0, 1e-6) and not same(float("nan"), float("nan"), 1e-6)


def test_evalplus_values_cross_with_their_types():
    values = [None, True, 3, -0.0, float("inf"), "s", [1, (2, 3)], {1: {2}}, frozenset({1}), 1 - 2j, b"\x00"]
    assert evalplus.decode_value(json.loads(json.dumps(evalplus.encode_value(values)))) == values
    assert math.isnan(evalplus.decode_value(evalplus.encode_value(float("nan"))))
    for value in values:
        assert eval(evalplus.source(value)) == value and type(eval(evalplus.source(value))) is type(value)
    assert [evalplus.json_data(v) for v in ([1, "a", {"k": [0.5]}], (1,), {1: 2}, float("nan"))] == [
        True, False, False, False]
    with pytest.raises(TypeError, match="not plain data: object"):
        evalplus.encode_value(object())


def test_contest_statements_that_accept_several_answers_or_a_tolerance_are_read():
    gregor, mean = _load("codecontests", FIXTURES / "codecontests_answers.jsonl").tasks
    assert gregor.metadata["several_answers"] == "If there are multiple possible answers, print any."
    assert gregor.checker is None and gregor.float_tolerance == 1e-6
    assert mean.float_tolerance == 1e-9 and "several_answers" not in mean.metadata  # a tolerance is no checker
    divisor, = _load("open-r1", FIXTURES / "open_r1_codeforces_answers.jsonl").tasks
    assert divisor.metadata["several_answers"] == "If there are several answers, print any of them."
    permutation = load_suite(f"hf:{FIXTURES / 'open_r1_codeforces.jsonl'}?adapter=open-r1&split=test").tasks[0]
    assert permutation.checker is not None  # marked by its generated_checker: judged by it
    from grpo_code.curate.validate import ValidationReport
    from grpo_code.suites.tasks import TaskSuite

    suite = TaskSuite("mixed", (gregor, mean, divisor, permutation))
    report = ValidationReport(suite, [], 4, [], 1, [])
    assert [(t.task_id, words) for t, words in report.unchecked_answers] == [
        ("codecontests/1549_A. Gregor and Cryptography", "If there are multiple possible answers, print any."),
        ("open-r1/codeforces/9002A", "If there are several answers, print any of them.")]
    from grpo_code.suites.adapters.common import several_answers, statement_tolerance

    assert several_answers("Print any permutation of 1..n.") == "Print any permutation of 1..n."
    assert several_answers("Output any such array. The answer is unique otherwise.") == "Output any such array."
    assert several_answers("If there are multiple test cases, answer each.") is None
    assert several_answers("You may print any number of spaces.") is None
    assert statement_tolerance("absolute or relative error does not exceed 1e-4") == 1e-4
    assert statement_tolerance("the absolute error must not exceed 10^{-6}") is None  # absolute only: not ours


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
    "taco/1": "def count_vowels(s):\n    return len(s)\n",
    "taco/2": "class Solution:\n    def maxProfit(self, prices):\n        return max(prices) - min(prices)\n",
    "leetcode/add-two-numbers": "class Solution:\n    def addTwoNumbers(self, l1, l2):\n        return l1\n",
    "leetcode/invert-binary-tree": "class Solution:\n    def invertTree(self, root):\n        return root\n",
}


@pytest.mark.docker
def test_references_and_known_good_programs_pass(executor, suites):
    items = [(t, t.reference_solution or GOOD[t.task_id]) for s in suites.values() for t in s
             if t.reference_solution or t.task_id in GOOD]
    assert len(items) == 22
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
    assert rates["taco/2"] == pytest.approx(1 / 3)  # [1, 2]: max - min is right by chance
    assert rates["leetcode/invert-binary-tree"] == pytest.approx(1 / 4)  # the empty tree is its own inverse


@pytest.mark.docker
def test_leetcode_list_and_tree_arguments_are_the_program_s_own_objects(executor, suites):
    add, invert = suites["leetcode"].tasks[1:3]
    # a program that defines ListNode its own way still gets its arguments from its list_node (the prelude's),
    # and its answer is walked by the judge's is_same_list
    own = ("class ListNode:\n    def __init__(self, val=0, next=None):\n        self.val, self.next = val, next\n\n"
           "class Solution:\n    def addTwoNumbers(self, l1, l2):\n        digits = []\n"
           "        for node in (l1, l2):\n            n, p = 0, 1\n            while node:\n"
           "                n, p, node = n + node.val * p, p * 10, node.next\n            digits.append(n)\n"
           "        s, head = str(sum(digits))[::-1], None\n        for c in reversed(s):\n"
           "            head = ListNode(int(c), head)\n        return head\n")
    tuple_tree = ("class Solution:\n    def invertTree(self, root):\n        return (4, 7, 2)\n")  # not a tree
    verdicts = executor.run([add.job(own), invert.job(tuple_tree)])
    assert verdicts[0].passed, verdicts[0]
    assert [t.status for t in verdicts[1].test_results] == ["runtime_error", "runtime_error", "failed",
                                                             "runtime_error"]  # (4, 7, 2).val: no such attribute


@pytest.fixture
def evalplus_cache(tmp_path, monkeypatch):
    """A fresh cache of the references' answers, for this test alone."""
    monkeypatch.setenv("GRPO_CODE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(evalplus, "_answers", {})
    return tmp_path / "cache" / "evalplus"


EVALPLUS_WRONG = {
    "HumanEval/2": ("def truncate_number(number):\n    return round(number % 1.0, 2)\n", 4 / 6),  # 1.33, 1e-07: close
    "HumanEval/8": ("def sum_product(numbers):\n    import math\n    return [sum(numbers), math.prod(numbers)]\n", 0.0),
    "HumanEval/32": ("def find_zero(xs):\n    return 0.0\n", 0.0),
    "Mbpp/139": ("def circle_circumference(r):\n    return 2 * 3.1415 * r\n", 1 / 6),  # r = 0.001: within 1e-6
    "Mbpp/786": ("def text_match_three(text):\n    return text\n", 2 / 5),  # a str is not None: right twice
}


@pytest.mark.docker
def test_evalplus_expected_values_come_from_the_reference_in_the_sandbox_once(executor, evalplus_cache, monkeypatch):
    spec = f"hf:{FIXTURES / 'humanevalplus.jsonl'}?adapter=evalplus"
    human = load_suite(spec)
    assert len(list(evalplus_cache.glob("*.json"))) == 4  # one file per task, by content
    assert [len(t.tests) for t in human] == [7, 6, 5, 4]
    pair_test = human.get("HumanEval/8").tests[4].code or ""
    assert pair_test.endswith("_evalplus_equal(sum_product([-5, 7]), (2, -35), 0.0)")
    assert human.get("HumanEval/2").tests[3].expected == pytest.approx(0.99999, abs=1e-9)
    # loaded again: the cache answers, no sandbox runs (a sandbox that cannot start is never asked)
    monkeypatch.setattr(evalplus, "_answers", {})
    monkeypatch.setattr(evalplus, "compute_answers", lambda problems: pytest.fail(f"computed {len(problems)} again"))
    assert load_suite(spec).tasks == human.tasks
    monkeypatch.undo()
    mbpp_plus = load_suite(f"hf:{FIXTURES / 'mbppplus.jsonl'}?adapter=evalplus")
    tasks = {t.task_id: t for t in (*human, *mbpp_plus)}
    verdicts = executor.run([t.job(t.reference_solution) for t in tasks.values()])
    assert [(t, v.status) for t, v in zip(tasks, verdicts, strict=True) if not v.passed] == []
    wrong = executor.run([tasks[t].job(program) for t, (program, _) in EVALPLUS_WRONG.items()])
    assert {t: v.pass_rate for t, v in zip(EVALPLUS_WRONG, wrong, strict=True)} == pytest.approx(
        {t: rate for t, (_, rate) in EVALPLUS_WRONG.items()})
    close = "def truncate_number(number):\n    return number % 1.0 + 5e-7\n"  # within atol 1e-6: evalplus pays it
    assert executor.run_one(tasks["HumanEval/2"].job(close)).passed


def test_evalplus_without_docker_says_so_in_one_line(tmp_path):
    env = {**os.environ, "GRPO_CODE_CACHE": str(tmp_path / "cache"), "DOCKER_HOST": f"unix://{tmp_path}/no.sock"}
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "tasks", "show",
                           f"hf:{FIXTURES / 'humanevalplus.jsonl'}?adapter=evalplus"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr + proc.stdout
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: the evalplus adapter computes each task's expected values "
                                                   "by running its reference in the sandbox"), lines



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


def test_the_agreement_corpora_are_what_their_generator_makes(tmp_path, monkeypatch):
    """benchmarks/adapters_agreement.py's corpora: shipped as made, 30 tasks or more each."""
    import importlib.util

    folder = Path(__file__).parent / "fixtures" / "adapters_corpus"
    spec = importlib.util.spec_from_file_location("make_corpora", folder / "make_corpora.py")
    assert spec is not None and spec.loader is not None
    make = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "make_corpora", make)
    spec.loader.exec_module(make)
    for name, path in make.write_corpora(tmp_path).items():
        assert path.read_text() == (folder / path.name).read_text(), f"{name}: run make_corpora.py again"
    for name, adapter in (("taco", "taco"), ("leetcode", "leetcode"), ("codeforces", "open-r1")):
        suite = load_suite(f"hf:{folder / f'{name}.jsonl'}?adapter={adapter}")
        assert len(suite) >= 30 and all(t.tests for t in suite)
    assert len(read_records(folder / "evalplus.jsonl")) >= 30
    assert all(t.checker for t in load_suite(f"hf:{folder / 'codeforces.jsonl'}?adapter=open-r1"))
