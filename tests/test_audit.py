"""The test-strength audit end to end in the real sandbox (grpo_code.curate.audit): the held-out
weak tasks are found weak, each for its reason; strong bundled tasks are not; every cheat program
runs in every language; `grpo-code tasks audit` writes its files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grpo_code.analysis.strength import WEAK_SCORE, AuditSettings, read_audit
from grpo_code.curate.audit import audit_suite
from grpo_code.suites.registry import load_jsonl_suite, load_suite
from grpo_code.suites.tasks import TaskSuite, parse_task

ROOT = Path(__file__).resolve().parent.parent
WEAK = ROOT / "tests" / "fixtures" / "weak-tasks.jsonl"
pytestmark = [pytest.mark.docker, pytest.mark.slow]


def test_every_deliberately_weak_task_is_found_weak_for_its_reason(executor):
    # One task per cheat that a test can fail to catch (the exit cheats fail whatever a test catches:
    # the judge fails a program that ends during a call or before its top level ran), and tasks
    # whose tests miss a branch. weak/safe_div's tests catch every exception: any program passes.
    suite = load_jsonl_suite(WEAK)
    audit = audit_suite(executor, suite, AuditSettings(max_mutants=16, max_inputs=24))
    by_id = audit.by_id()
    reasons = {t.task_id: t.metadata["weak_because"] for t in suite}
    assert set(reasons.values()) >= {"constant_0", "constant_1", "constant_-1", "constant_empty_string",
                                     "constant_empty_list", "constant_empty_dict", "constant_true", "constant_false",
                                     "constant_none", "echo", "lookup", "raise", "nan", "print_nothing", "branch"}
    for task_id, why in reasons.items():
        found = by_id[task_id]
        assert found.reference == "passed" and found.weak, (task_id, found)
        if why == "branch":  # no cheat passes: the tests miss a branch, and its mutants survive
            assert found.passing_cheats == [] and found.mutation_score is not None, (task_id, found)
            assert found.mutation_score < WEAK_SCORE and found.survivor is not None, (task_id, found)
        else:
            assert why in found.passing_cheats, (task_id, found.passing_cheats)
    assert audit.jobs >= sum(t.mutants + t.cheats + 1 for t in audit.tasks) and audit.seconds > 0


def test_strong_tasks_are_not_weak_and_surviving_mutants_come_with_the_test_they_fail(executor):
    suite = load_suite("warmup-python?split=train&limit=6")
    stdio = load_suite("stdio-basics")
    picked = [t for t in stdio if t.metadata["problem"] in ("sum-two", "sort-numbers") and t.language in
              ("python", "c")]
    both = TaskSuite("mixed", (*suite.tasks, *picked))
    audit = audit_suite(executor, both, AuditSettings(max_mutants=10, max_inputs=20))
    assert [t.task_id for t in audit.tasks if t.weak or t.reference != "passed"] == []
    assert all(t.killed > 0 and t.cheats >= 8 for t in audit.tasks)
    # a task whose tests miss a case: its survivor and the generated test that kills it
    weak = parse_task({"task_id": "w/sign", "prompt": "sign of n", "entry_point": "sign",
                       "reference_solution": "def sign(n):\n    if n > 0:\n        return 1\n    if n < 0:\n"
                                             "        return -1\n    return 0\n",
                       "tests": [{"kind": "assert", "code": "assert sign(5) == 1"},
                                 {"kind": "assert", "code": "assert sign(-2) == -1"}]})
    (found,) = audit_suite(executor, TaskSuite("w", (weak,)), AuditSettings(max_mutants=30)).tasks
    assert found.survived > 0 and found.survivor is not None
    test = found.survivor["test"]
    assert test["kind"] == "assert" and test["code"].startswith("assert sign(") and test["status"] == "failed"


def test_cheats_and_new_inputs_take_the_class_form_of_a_solution_task(executor):
    # Tests that call Solution().method(...): a top-level function would fail them all and say nothing
    # of the tests. Weak ones (every answer 0; every answer True, APPS's form) are passed by a class-form
    # constant; a strong one (LeetCode's two-sum, 2 of 4 tests public) pays the lookup only its share.
    zero = parse_task({"task_id": "cls/zeros", "prompt": "count the zeros", "entry_point": "countZeros",
                       "reference_solution": "class Solution:\n    def countZeros(self, nums):\n"
                                             "        return nums.count(0)\n",
                       "tests": [{"kind": "assert", "code": "assert Solution().countZeros(nums=[1, 2]) == 0"},
                                 {"kind": "assert", "code": "assert Solution().countZeros(nums=[3]) == 0"}]})
    apps_record = {"problem_id": 1, "question": "is n odd", "solutions": json.dumps([
        "class Solution:\n    def isOdd(self, n: int) -> bool:\n        return n % 2 == 1\n"]),
        "starter_code": "class Solution:\n    def isOdd(self, n: int) -> bool:\n        ",
        "input_output": json.dumps({"fn_name": "isOdd", "inputs": [[3], [5]], "outputs": [True, True]})}
    from grpo_code.suites.adapters import apps

    odd = apps.task_from_record(apps_record, 0)
    two_sum = load_suite(f"hf:{ROOT / 'tests' / 'fixtures' / 'adapters' / 'leetcode.jsonl'}?adapter=leetcode"
                         "&limit=1").tasks[0]
    suite = TaskSuite("classes", (zero, odd, two_sum))
    audit = audit_suite(executor, suite, AuditSettings(max_mutants=12, max_inputs=20)).by_id()
    # (False == 0 in an assert, as in the data set's own harness: the constant False passes too)
    assert audit["cls/zeros"].passing_cheats == ["constant_0", "constant_false"]
    assert audit["cls/zeros"].reference == "passed"
    assert audit["apps/1"].passing_cheats == ["constant_1", "constant_true"]
    assert audit["leetcode/two-sum"].passing_cheats == [] and audit["leetcode/two-sum"].reference == "passed"
    # the lookup: its two public tests, and a hidden one whose answer is the first public one's ([0, 1])
    assert audit["leetcode/two-sum"].best_cheat_pass_rate == 0.75
    # a surviving mutant of the method (nums.count(0) -> another count) and the test it fails, in the class form
    survivor = audit["cls/zeros"].survivor
    assert survivor is not None and survivor["test"]["code"].startswith("assert Solution().countZeros(nums=[")


STDIO_LANGUAGES = ("python", "c", "cpp", "java", "javascript", "typescript", "go", "rust")


def test_every_stdio_cheat_runs_in_every_language(executor):
    # tests that only the lookup passes (odd characters in what it must hold), one that only echo
    # passes, one that printing nothing passes
    tasks = []
    for lang in STDIO_LANGUAGES:
        tasks.append(parse_task({"task_id": f"lookup/{lang}", "prompt": "p", "language": lang, "tests": [
            {"kind": "stdio", "stdin": 'a "q" \\ \'x\'\n', "expected_stdout": "é\t%d ${x}\n", "visibility": "public"},
            {"kind": "stdio", "stdin": "b\n", "expected_stdout": "é\t%d ${x}\n", "visibility": "public"}],
            "compare": "exact"}))
        tasks.append(parse_task({"task_id": f"echo/{lang}", "prompt": "p", "language": lang, "tests": [
            {"kind": "stdio", "stdin": "3 4\n", "expected_stdout": "3 4\n"},
            {"kind": "stdio", "stdin": "x\n", "expected_stdout": "x\n"}]}))
        tasks.append(parse_task({"task_id": f"silent/{lang}", "prompt": "p", "language": lang, "tests": [
            {"kind": "stdio", "stdin": "0\n", "expected_stdout": ""}]}))
    audit = audit_suite(executor, TaskSuite("cheats", tuple(tasks)), AuditSettings(max_mutants=0))
    passing = {t.task_id: t.passing_cheats for t in audit.tasks}
    for lang in STDIO_LANGUAGES:
        assert passing[f"lookup/{lang}"] == ["lookup"], (lang, passing[f"lookup/{lang}"])
        assert passing[f"echo/{lang}"] == ["echo"], (lang, passing[f"echo/{lang}"])
        assert passing[f"silent/{lang}"] == ["print_nothing"], (lang, passing[f"silent/{lang}"])


def test_the_audit_command_writes_its_table_json_and_page(tmp_path):
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    suite = tmp_path / "three.jsonl"
    suite.write_text("".join(line for line in WEAK.read_text().splitlines(keepends=True)
                             if '"weak/abs_value"' in line or '"weak/letter_grade"' in line))
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "tasks", "audit", str(suite), "--out", str(out),
                           "--write", "--max-mutants", "12", "--concurrency", "2"], capture_output=True, text=True,
                          env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "test strength: three" in proc.stdout and "a surviving mutant of" in proc.stdout
    assert "sandbox jobs in" in proc.stdout and "jobs/s" in proc.stdout
    audit = read_audit(out / "audit.json")
    assert {t.task_id for t in audit.weak} == {"weak/abs_value", "weak/letter_grade"}
    assert "weak/letter_grade" in (out / "audit.html").read_text()
    assert json.loads((tmp_path / "three.audit.json").read_text())["n_tasks"] == 2  # --write: beside the suite
    # tasks validate shows the suite's audit as it stands; with --audit it runs one, and a cheat fails it
    shown = subprocess.run([sys.executable, "-m", "grpo_code.cli", "tasks", "validate", str(suite), "--concurrency",
                            "2"], capture_output=True, text=True, env=env, timeout=600)
    assert shown.returncode == 0 and "test strength (from " in shown.stdout and "2 weak" in shown.stdout
    assert "CHEATED weak/abs_value: passed by echo" in shown.stdout
    audited = subprocess.run([sys.executable, "-m", "grpo_code.cli", "tasks", "validate", str(suite), "--audit",
                              "--concurrency", "2"], capture_output=True, text=True, env=env, timeout=600)
    assert audited.returncode == 1 and "1 task(s) a cheat passes; 2 weak" in audited.stdout, audited.stdout


def test_cheats_take_the_form_a_pytest_or_unittest_file_imports(executor):
    # A test file reaches the program's function by name (``from solution import count_zeros``, or
    # BigCodeBench's free ``task_func``): weak files (every answer 0) are passed by the constant 0.
    reference = "def count_zeros(nums):\n    return nums.count(0)\n"
    weak_pytest = ("from solution import count_zeros\n\ndef test_one():\n    assert count_zeros([1, 2]) == 0\n\n"
                   "def test_two():\n    assert count_zeros([3]) == 0\n")
    weak_unittest = ("import unittest\n\nclass TestCases(unittest.TestCase):\n    def test_one(self):\n"
                     "        self.assertEqual(count_zeros([1, 2]), 0)\n")
    strong_pytest = weak_pytest + "\ndef test_three():\n    assert count_zeros([0, 1, 0]) == 2\n"
    tasks = [parse_task({"task_id": task_id, "prompt": "count the zeros", "entry_point": "count_zeros",
                         "reference_solution": reference, "tests": [{"kind": kind, "code": code}]})
             for task_id, kind, code in (("file/weak-pytest", "pytest", weak_pytest),
                                         ("file/weak-unittest", "unittest", weak_unittest),
                                         ("file/strong", "pytest", strong_pytest))]
    audit = audit_suite(executor, TaskSuite("files", tuple(tasks)), AuditSettings(max_mutants=6)).by_id()
    assert audit["file/weak-pytest"].passing_cheats == ["constant_0", "constant_false"]
    assert audit["file/weak-unittest"].passing_cheats == ["constant_0", "constant_false"]
    assert audit["file/strong"].passing_cheats == [] and audit["file/strong"].reference == "passed"
