"""HumanEval through the sandbox: every canonical solution passes; wrong ones fail rightly."""

from __future__ import annotations

import pytest

from grpo_code.score.scoring import score_completions
from grpo_code.suites.registry import load_suite
from helpers import reference

pytestmark = pytest.mark.docker


@pytest.mark.parametrize("form", ["per_assert", "whole"])
def test_all_164_canonical_solutions_pass(executor, form):
    suite = load_suite(f"humaneval?form={form}")
    verdicts = executor.run([task.job(reference(task)) for task in suite])
    failed = [(t.task_id, v.status) for t, v in zip(suite, verdicts, strict=True) if not v.passed]
    assert len(verdicts) == 164 and failed == []


WRONG = {
    "HumanEval/0": ("    return True\n", "failed"),                       # wrong answer
    "HumanEval/2": ("    return number // 0\n", "runtime_error"),          # ZeroDivisionError
    "HumanEval/35": ("    while True:\n        pass\n", "timeout"),  # 2 tests: each costs its whole limit
    "HumanEval/4": ("    return sum(numbers) / (len(numbers)\n", "compile_error"),
    "HumanEval/7": ("    hog = bytearray(4 * 10**9)\n    return strings\n", "memory_limit"),
    "HumanEval/12": ("    print('x' * 10**7)\n", "output_limit"),
    "HumanEval/13": ("I'm sorry, I can't help with that.", "no_code"),
}


def test_deliberately_wrong_completions_get_the_right_status(executor):
    suite = load_suite("humaneval")
    items = [(suite.get(task_id), completion) for task_id, (completion, _) in WRONG.items()]
    scored = score_completions(executor, items)
    got = {task_id: s.verdict.status for task_id, s in zip(WRONG, scored, strict=True)}
    assert got == {task_id: status for task_id, (_, status) in WRONG.items()}
    assert all(not s.verdict.passed and s.verdict.pass_rate is not None and s.verdict.pass_rate < 1.0 for s in scored)
    assert [s.verdict.pass_rate for s in scored][1:] == [0.0] * (len(WRONG) - 1)  # only the wrong answer scores some


def test_partial_credit_per_assert(executor):
    suite = load_suite("humaneval")
    task = suite.get("HumanEval/0")  # 7 asserts; "return False" is right on the 'False' ones
    verdict = score_completions(executor, [(task, "    return False\n")])[0].verdict
    assert verdict.status == "failed"
    assert verdict.pass_rate is not None and 0.0 < verdict.pass_rate < 1.0
    passed = sum(t.status == "passed" for t in verdict.test_results)
    assert verdict.pass_rate == pytest.approx(passed / len(task.tests))
