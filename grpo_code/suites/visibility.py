"""Public and hidden tests: what a model may be shown, and the figures that keep the two apart.

A test case's ``visibility`` (docs/task-format.md) is ``public``: it may be shown to the model, in
its prompt (a suite's ``{public_tests}``) or as feedback on its program (``grpo_code.score.feedback``);
or ``hidden`` (the default): never shown. The label lives on the host; the sandbox runs both alike
and never hears of it.

The figures: a sample's pass rate on its public tests and on its hidden tests (the verdict's own
pass-rate rule, ``TestResult.credit``, on each part), and over a run their means and their gap,
public minus hidden over the samples whose task has both. A program that passes what it was shown
and fails what it was not (it special-cases the public examples; Cobalt, arXiv 2602.03806) makes
the gap large.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from sandbox.types import VISIBILITIES, TestCase, Verdict

PUBLIC, HIDDEN = VISIBILITIES
PROMPT_FIELD_CHARS = 4000  # a public test's input or output, as the prompt shows it


def visibilities(tests: Iterable[TestCase]) -> tuple[str, ...]:
    """The visibility of each test, in order."""
    return tuple(t.visibility for t in tests)


def of_visibility(tests: Iterable[TestCase], which: str) -> tuple[TestCase, ...]:
    """The tests of one visibility (``public`` or ``hidden``), in order."""
    return tuple(t for t in tests if t.visibility == which)


def split_rates(verdict: Verdict, visibility: Sequence[str]) -> dict[str, float | None]:
    """``{"public": rate, "hidden": rate}``: the verdict's pass rate on each part of its tests.

    ``visibility`` holds the visibility of each test of the job that made ``verdict``. A part with
    no test has None; so has every part when the verdict has no pass rate (``sandbox_error``, a
    ``checker_error`` test); a program-level verdict (``compile_error``, ``no_code``) has 0.0 on
    each part that has tests.
    """
    rates: dict[str, float | None] = dict.fromkeys(VISIBILITIES)
    if verdict.pass_rate is None:
        return rates
    results = verdict.test_results
    if results and len(results) != len(visibility):
        raise ValueError(f"{len(results)} test results for {len(visibility)} visibilities")
    for which in VISIBILITIES:
        part = [i for i, v in enumerate(visibility) if v == which]
        if part:
            rates[which] = sum(results[i].credit for i in part) / len(part) if results else 0.0
    return rates


def restrict(verdict: Verdict, visibility: Sequence[str], which: str) -> Verdict:
    """The verdict on the tests of one visibility only (a reward on hidden tests alone).

    Its status follows the verdict's rule (docs/task-format.md): a program-level status stays;
    else ``passed`` when every kept test passed, otherwise the status of the first that did not.

    Raises:
        ValueError: no test has that visibility.
    """
    keep = [i for i, v in enumerate(visibility) if v == which]
    if not keep:
        raise ValueError(f"no {which} test")
    if not verdict.test_results:
        return Verdict(status=verdict.status, n_tests=len(keep), compile_output=verdict.compile_output,
                       compile_time_s=verdict.compile_time_s, run_time_s=verdict.run_time_s,
                       message=verdict.message, attempts=verdict.attempts, flags=verdict.flags)
    results = tuple(verdict.test_results[i] for i in keep)
    status = next((r.status for r in results if r.status != "passed"), "passed")
    return Verdict(status=status, test_results=results, n_tests=len(keep), compile_time_s=verdict.compile_time_s,
                   run_time_s=verdict.run_time_s, attempts=verdict.attempts, flags=verdict.flags)


def annotate(record: dict, verdict: Verdict, visibility: Sequence[str]) -> dict:
    """A results line (``results.result_record``) with the visibility of each test result and the
    sample's ``public_pass_rate`` and ``hidden_pass_rate`` (``split_rates``)."""
    tests = record.get("tests") or []
    if tests and len(tests) == len(visibility):
        record["tests"] = [{**t, "visibility": v} for t, v in zip(tests, visibility, strict=False)]
    rates = split_rates(verdict, visibility)
    record["public_pass_rate"], record["hidden_pass_rate"] = rates[PUBLIC], rates[HIDDEN]
    return record


def summarize(results: Sequence[dict]) -> dict:
    """A run's public and hidden figures, from its results lines (``annotate``d).

    ``public_pass_rate`` and ``hidden_pass_rate``: the mean of each over the scored samples whose
    task has such tests (None when none has); ``visibility_gap``: the mean of public minus hidden
    over the samples that have both (None when none has), the special-casing signal;
    ``n_gap_samples``: how many samples that mean is over.
    """
    public = [r["public_pass_rate"] for r in results if r.get("public_pass_rate") is not None]
    hidden = [r["hidden_pass_rate"] for r in results if r.get("hidden_pass_rate") is not None]
    gaps = [r["public_pass_rate"] - r["hidden_pass_rate"] for r in results
            if r.get("public_pass_rate") is not None and r.get("hidden_pass_rate") is not None]
    return {"public_pass_rate": _mean(public), "hidden_pass_rate": _mean(hidden), "visibility_gap": _mean(gaps),
            "n_gap_samples": len(gaps)}


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def clip(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def render_test(test: TestCase, field_chars: int = PROMPT_FIELD_CHARS) -> str:
    """A test as a model reads it: a stdio test's input and expected output, a call and the value it
    must return, an assert test's code; each part cut to ``field_chars`` characters."""
    if test.kind == "stdio":
        return (f"Input:\n```\n{_block(clip(test.stdin, field_chars))}```\n"
                f"Expected output:\n```\n{_block(clip(test.expected_stdout or '', field_chars))}```")
    if test.kind == "call":
        args = [json.dumps(a) for a in test.args] + [f"{k}={json.dumps(v)}" for k, v in test.kwargs.items()]
        call = clip(f"{test.fn_name}({', '.join(args)})", field_chars)
        return f"Call: {call}\nExpected return value: {clip(json.dumps(test.expected), field_chars)}"
    return f"```python\n{_block(clip(test.code or '', field_chars))}```"


def _block(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def render_tests(tests: Sequence[TestCase], field_chars: int = PROMPT_FIELD_CHARS) -> str:
    """Tests one after the other, numbered, for a prompt (``{public_tests}``); "(none)" for none."""
    if not tests:
        return "(none)"
    return "\n\n".join(f"Example {i}:\n{render_test(t, field_chars)}" for i, t in enumerate(tests, start=1))
