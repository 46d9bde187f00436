"""Public and hidden tests: the format, the figures that keep them apart, what a model is shown,
and the special-casing gap on a crafted run scored by the real sandbox."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from grpo_code.analysis.results import summarize
from grpo_code.errors import TaskFormatError
from grpo_code.score.feedback import ReportLimits, public_report
from grpo_code.suites.tasks import TaskSuite, parse_task
from grpo_code.suites.visibility import restrict, split_rates
from sandbox.dedup import job_key
from sandbox.types import TestCase, TestResult, Verdict

# A task whose public tests are the examples 2 + 3 and 40 + 2; its hidden ones are never shown.
HIDDEN_MARKS = ("1234", "4321", "5555", "9876", "9877")
TASK = {"task_id": "crafted/add", "prompt": "Write a Python function `add(a, b)` that returns a + b.",
        "entry_point": "add", "reference_solution": "def add(a, b):\n    return a + b\n",
        "tests": [{"kind": "assert", "code": "assert add(2, 3) == 5", "visibility": "public"},
                  {"kind": "call", "fn_name": "add", "args": [40, 2], "expected": 42, "visibility": "public"},
                  {"kind": "assert", "code": "assert add(1234, 4321) == 5555"},
                  {"kind": "call", "fn_name": "add", "args": [9876, 1], "expected": 9877, "visibility": "hidden"}]}
# A program that hard-codes the public examples: it passes what it was shown and nothing else.
HARD_CODED = "def add(a, b):\n    return {(2, 3): 5, (40, 2): 42}.get((a, b), 0)\n"


def test_visibility_is_read_written_and_checked():
    task = parse_task(TASK)
    assert [t.visibility for t in task.tests] == ["public", "public", "hidden", "hidden"]
    assert len(task.public_tests) == 2 and len(task.hidden_tests) == 2
    assert [t.get("visibility") for t in task.to_dict()["tests"]] == ["public", "public", None, None]  # hidden: default
    assert parse_task(task.to_dict()) == task
    bad = {**TASK, "tests": [{"kind": "assert", "code": "assert add(1, 1) == 2", "visibility": "secret"}]}
    with pytest.raises(TaskFormatError, match=r"field 'tests\[0\]': visibility must be one of public, hidden"):
        parse_task(bad, path="s.jsonl", line=3)


def test_the_runner_never_hears_of_visibility():
    public, hidden = TestCase(kind="stdio", stdin="1\n", expected_stdout="1\n", visibility="public"), \
        TestCase(kind="stdio", stdin="1\n", expected_stdout="1\n")
    task = parse_task(TASK)
    wire = task.job("def add(a, b):\n    return a + b\n").to_wire("id")
    assert all("visibility" not in t for t in wire["tests"])
    # the same check, shown or not, is the same job (one run for both in a batch)
    from sandbox import Job

    assert job_key(Job(program="print(1)", tests=(public,))) == job_key(Job(program="print(1)", tests=(hidden,)))


def _verdict(statuses: list[str], score=None) -> Verdict:
    results = tuple(TestResult(status=s, score=score if s == "failed" else None) for s in statuses)
    status = next((s for s in statuses if s != "passed"), "passed")
    return Verdict(status=status, test_results=results, n_tests=len(statuses))


def test_pass_rates_split_by_visibility_with_the_verdicts_rule():
    vis = ("public", "public", "hidden", "hidden")
    assert split_rates(_verdict(["passed", "passed", "failed", "timeout"]), vis) == {"public": 1.0, "hidden": 0.0}
    assert split_rates(_verdict(["passed", "failed", "passed", "failed"], score=0.5), vis) == \
        {"public": 0.75, "hidden": 0.75}  # a checker's partial credit counts as in pass_rate
    compile_error = Verdict.program_level("compile_error", 4, "SyntaxError")
    assert split_rates(compile_error, vis) == {"public": 0.0, "hidden": 0.0}
    assert split_rates(Verdict.program_level("sandbox_error", 4, "down"), vis) == {"public": None, "hidden": None}
    assert split_rates(_verdict(["passed", "passed"]), ("hidden", "hidden")) == {"public": None, "hidden": 1.0}


def test_a_verdict_restricted_to_hidden_tests():
    vis = ("public", "public", "hidden", "hidden")
    hidden = restrict(_verdict(["failed", "passed", "passed", "passed"]), vis, "hidden")
    assert (hidden.status, hidden.pass_rate, hidden.n_tests) == ("passed", 1.0, 2)
    hidden = restrict(_verdict(["passed", "passed", "runtime_error", "failed"]), vis, "hidden")
    assert (hidden.status, hidden.pass_rate) == ("runtime_error", 0.0)
    assert restrict(Verdict.program_level("no_code", 4, "none"), vis, "hidden").status == "no_code"
    with pytest.raises(ValueError, match="no public test"):
        restrict(_verdict(["passed"]), ("hidden",), "public")


def test_summary_reports_public_hidden_and_their_gap_over_samples_with_both():
    rows: list[dict] = [
            {"task_id": "a", "status": "failed", "pass_rate": 0.5, "public_pass_rate": 1.0, "hidden_pass_rate": 0.0},
            {"task_id": "a", "status": "passed", "pass_rate": 1.0, "public_pass_rate": 1.0, "hidden_pass_rate": 1.0},
            {"task_id": "b", "status": "passed", "pass_rate": 1.0, "public_pass_rate": None, "hidden_pass_rate": 1.0},
            {"task_id": "b", "status": "sandbox_error", "pass_rate": None, "public_pass_rate": None,
             "hidden_pass_rate": None}]
    summary = summarize("s", rows, [1])
    assert summary["public_pass_rate"] == 1.0 and summary["hidden_pass_rate"] == pytest.approx(2 / 3)
    assert summary["visibility_gap"] == 0.5 and summary["n_gap_samples"] == 2


def test_a_template_shows_the_public_tests_and_the_context_never_a_hidden_one():
    task = parse_task({**TASK, "context": "An earlier attempt: ..."})
    suite = TaskSuite("s", (task,), prompt_template="{prompt}\nExamples:\n{public_tests}\nIn {language}.")
    text = suite.format_prompt(task)
    assert text.startswith(str(TASK["prompt"]) + "\n\nAn earlier attempt: ...\nExamples:\nExample 1:\n")
    assert "assert add(2, 3) == 5" in text and "Call: add(40, 2)\nExpected return value: 42" in text
    assert not any(mark in text for mark in HIDDEN_MARKS)
    # a prompt's own braces are its text, never placeholders
    odd = parse_task({**TASK, "prompt": "Print {language} and {public_tests} literally."})
    assert TaskSuite("s", (odd,), prompt_template="{prompt}").format_prompt(odd) == odd.prompt


def test_the_report_is_bounded_and_made_of_public_tests_only():
    task = parse_task(TASK)
    public = task.public_tests
    verdict = Verdict(status="failed", n_tests=2, test_results=(
        TestResult(status="passed"), TestResult(status="failed", message="expected 42, got " + "7" * 5000)))
    text = public_report(public, verdict)
    assert text.startswith("1 of 2 public tests passed.") and "Test 2: failed" in text
    assert "Call: add(40, 2)" in text and len(text) <= ReportLimits().limit_chars + 60
    assert "more characters" in text  # the message was cut, and it says so
    with pytest.raises(ValueError, match="public tests only"):
        public_report(task.tests, _verdict(["passed"] * 4))
    assert public_report(public, Verdict.program_level("compile_error", 2, "SyntaxError: bad")).startswith(
        "The program does not compile")
    small = ReportLimits(max_failures=1, field_chars=40, limit_chars=200)
    many = Verdict(status="failed", n_tests=2, test_results=(TestResult(status="failed", message="x" * 500),
                                                             TestResult(status="timeout")))
    text = public_report(public, many, small)
    assert len(text) <= 200 + 40 and "1 more failing public test" in text
    long = [TestCase(kind="stdio", stdin="9" * 1000, expected_stdout="8" * 1000, visibility="public")] * 3
    text = public_report(long, Verdict(status="failed", n_tests=3, test_results=(
        TestResult(status="failed", message="x" * 1000),) * 3))
    assert len(text) <= ReportLimits().limit_chars + 40 and text.endswith("more characters)")  # the whole is cut too


@pytest.mark.docker
def test_hard_coding_the_public_examples_shows_as_the_gap(tmp_path):
    suite = tmp_path / "crafted.jsonl"
    suite.write_text(json.dumps(TASK) + "\n")
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps({"task_id": "crafted/add", "completion": c}) + "\n"
                               for c in (HARD_CODED, TASK["reference_solution"])))
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "score", str(samples), "--suite", str(suite),
                           "-k", "1"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    results = [json.loads(line) for line in (tmp_path / "samples.results.jsonl").read_text().splitlines()]
    assert [(r["public_pass_rate"], r["hidden_pass_rate"]) for r in results] == [(1.0, 0.0), (1.0, 1.0)]
    assert [t["visibility"] for t in results[0]["tests"]] == ["public", "public", "hidden", "hidden"]
    assert [t["status"] for t in results[0]["tests"]] == ["passed", "passed", "failed", "failed"]
    summary = json.loads((tmp_path / "samples.summary.json").read_text())
    assert (summary["public_pass_rate"], summary["hidden_pass_rate"], summary["visibility_gap"]) == (1.0, 0.5, 0.5)
    assert "public tests: pass rate 1.0000; hidden tests: 0.5000; gap +0.5000 (public minus hidden, 2 samples)" \
        in proc.stdout
