"""The pass rate of a verdict: the one rule, read by the host (``sandbox.types.Verdict.pass_rate``)
and by the Harbor verifier in the image (``harbor_verifier``), which has no host code.

Stdlib only, and light.
"""

from __future__ import annotations


def credit(value) -> float | None:
    """A test's partial credit as the runner reported it: a number in (0, 1), else None."""
    return float(value) if type(value) in (int, float) and 0 < value < 1 else None


def pass_rate(status: str, tests, n_tests: int) -> float | None:
    """Passed tests / tests, in [0, 1], a ``failed`` test with a checker's partial credit counting
    it; None for ``sandbox_error`` and when a test is ``checker_error`` (neither is the program's
    fault: never a 0 in training).

    Args:
        status: the verdict's status.
        tests: ``(status, score)`` of each test result (``score``: its partial credit or None).
        n_tests: how many tests the job had (a program-level status has no test results).
    """
    tests = list(tests)
    if status == "sandbox_error" or any(test_status == "checker_error" for test_status, _ in tests):
        return None
    if not n_tests:
        return 0.0
    return sum(1.0 if test_status == "passed" else credit(score) or 0.0 for test_status, score in tests) / n_tests
