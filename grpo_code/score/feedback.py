"""What a model is told about its program's run on the public tests: a short, bounded report.

One report for every place a model gets feedback: the ``run_tests`` tool of the training
environment (``grpo_code.rl.environment``), the feedback turn of the multi-turn rollout
(``grpo_code.rl.rollout``) and the repair prompts built offline (``grpo_code.curate.repair``). It is made
from a verdict on the **public** tests alone (a job that held no other test) and refuses any
other: a hidden test's input, expected output or the program's output on it never reaches it.

The report says how many public tests passed, and for the first failing ones (``max_failures``)
what the test is (input and expected output, the call and its expected value, or the assert)
and what happened (status and the sandbox's message: the output got, the error); every part is
cut to ``field_chars`` and the whole to ``limit_chars`` characters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grpo_code.suites.visibility import PUBLIC, clip, render_test
from sandbox.types import TestCase, Verdict


@dataclass(frozen=True)
class ReportLimits:
    """How much a report may say.

    Attributes:
        max_failures: failing tests shown in full (the others are counted).
        field_chars: characters of each part (a test's input, its expected output, a message).
        limit_chars: characters of the whole report.
    """

    max_failures: int = 3
    field_chars: int = 400
    limit_chars: int = 2500

    def __post_init__(self) -> None:
        if self.max_failures < 1 or self.field_chars < 20 or self.limit_chars < 200:
            raise ValueError("a report needs max_failures >= 1, field_chars >= 20 and limit_chars >= 200")


DEFAULT_REPORT = ReportLimits()
NO_PUBLIC_TESTS = "This task has no public tests: nothing was run."


def public_report(tests: Sequence[TestCase], verdict: Verdict, limits: ReportLimits = DEFAULT_REPORT) -> str:
    """The report of ``verdict``, the result of a job whose tests were ``tests``, all public.

    Raises:
        ValueError: a test is not public (a hidden test must never be reported), or the verdict
            does not belong to these tests.
    """
    if any(t.visibility != PUBLIC for t in tests):
        raise ValueError("a report is made from public tests only")
    if not tests:
        return NO_PUBLIC_TESTS
    if verdict.test_results and len(verdict.test_results) != len(tests):
        raise ValueError(f"{len(verdict.test_results)} test results for {len(tests)} tests")
    n = len(tests)
    if verdict.status == "no_code":
        text = "No program was found in what you sent: send the complete program as code."
    elif verdict.status == "compile_error":
        output = clip((verdict.compile_output or verdict.message).strip(), limits.field_chars)
        text = f"The program does not compile, so none of the {n} public tests ran:\n```\n{output}\n```"
    elif verdict.status == "sandbox_error":
        text = "The tests could not be run this time (a failure of the sandbox, not of your program)."
    else:
        text = _test_report(tests, verdict, limits)
    return clip(text, limits.limit_chars)


def _test_report(tests: Sequence[TestCase], verdict: Verdict, limits: ReportLimits) -> str:
    results = verdict.test_results
    failing = [i for i, r in enumerate(results) if r.status != "passed"]
    passed = len(tests) - len(failing)
    if not failing:
        return f"All public tests passed ({len(tests)} of {len(tests)})."
    lines = [f"{passed} of {len(tests)} public tests passed."]
    for i in failing[: limits.max_failures]:
        result = results[i]
        what = result.status.replace("_", " ")
        if result.score is not None:
            what += f" (partial credit {result.score:.2f})"
        lines.append(f"\nTest {i + 1}: {what}\n{render_test(tests[i], limits.field_chars)}")
        if result.message:
            lines.append(f"What happened: {clip(result.message.strip(), limits.field_chars)}")
    if len(failing) > limits.max_failures:
        lines.append(f"\n... and {len(failing) - limits.max_failures} more failing public test(s).")
    return "\n".join(lines)
