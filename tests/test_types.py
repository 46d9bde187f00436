"""The sandbox's own types refuse what it cannot run, naming the field, and read a runner's
reply into the figure training uses, the pass rate (no Docker).

These are the rules' one owner: ``grpo_code.tasks.parse_task`` reports the same refusals in a
suite file's field, file and line (tests/test_tasks.py).
"""

from __future__ import annotations

import pytest

from sandbox import Job, Limits, TestCase
from sandbox.types import FieldError, Verdict

ASSERT = TestCase(kind="assert", code="assert f() == 1")
STDIO = TestCase(kind="stdio", stdin="", expected_stdout="1\n")
JS_CALL = TestCase(kind="call", fn_name="f", kwargs={"a": 1}, expected=1)


@pytest.mark.parametrize("make, field, words", [
    (lambda: Job(program="", tests=(ASSERT,), language="cobol"), "language", "unknown language 'cobol'"),
    (lambda: Job(program="", tests=(ASSERT,), language="c"), "tests[0].kind", "c programs take stdio tests"),
    (lambda: Job(program="", tests=(STDIO, JS_CALL), language="javascript"), "tests[1].kwargs",
     "positional arguments only"),
    (lambda: Job(program="", tests=(STDIO,), compare="fuzzy"), "compare", "compare must be one of"),
    (lambda: Job(program="", tests=(STDIO,), float_tolerance=-0.5), "float_tolerance", "must be >= 0, got -0.5"),
    (lambda: Job(program="", tests=()), "tests", "at least one test case"),
    (lambda: Job(program="", tests=(ASSERT,), checker="def check(i, o, e):\n    return True\n"), "checker",
     "judges stdio tests"),
    (lambda: Job(program="", tests=(STDIO, TestCase(kind="assert", code="f("))), "tests[1]",
     "the judge cannot run this assert test"),
    (lambda: Limits(time_limit_s=0), "time_limit_s", "time_limit_s must be > 0"),
    (lambda: Limits(memory_limit_mb=8), "memory_limit_mb", "at least 16"),
    (lambda: Limits(output_limit_bytes=10), "output_limit_bytes", "at least 1024"),
    (lambda: Limits(time_limit_s=2, wall_time_limit_s=1), "wall_time_limit_s", ">= time_limit_s"),
])
def test_a_refusal_names_its_field(make, field, words):
    with pytest.raises(FieldError) as err:
        make()
    assert err.value.field == field and words in str(err.value)
    assert isinstance(err.value, ValueError)  # what callers of the sandbox catch


def test_the_pass_rate_counts_passed_tests_and_a_checker_partial_credit():
    def reply(*tests: tuple[str, object]) -> Verdict:
        return Verdict.from_wire({"status": "failed", "tests": [{"status": s, "score": score} for s, score in tests]},
                                 n_tests=4)

    # 1 + 0.5 + 0.25 + 0 of 4 tests
    partial = reply(("passed", None), ("failed", 0.5), ("failed", 0.25), ("failed", None))
    assert partial.pass_rate == 0.4375 and [t.score for t in partial.test_results] == [None, 0.5, 0.25, None]
    # credit is a number strictly between 0 and 1: 0, 1 or more on a failed test counts nothing
    beyond = reply(("passed", None), ("failed", 1.0), ("failed", 1.5), ("failed", 0))
    assert beyond.pass_rate == 0.25 and [t.score for t in beyond.test_results] == [None] * 4
    assert reply(("passed", None), ("checker_error", None)).pass_rate is None  # the checker's fault: no figure
    # a verdict without tests (a program-level status) is a 0, never a full score
    assert Verdict(status="compile_error").pass_rate == 0.0
    assert Verdict.program_level("no_code", n_tests=3, message="no code").pass_rate == 0.0
    assert Verdict.program_level("sandbox_error", n_tests=3, message="lost").pass_rate is None
