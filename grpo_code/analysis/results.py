"""Samples in, results and summaries out (docs/task-format.md): the files users and tools read.

Samples: ``{"task_id": ..., "completion": ...}`` per line (human-eval compatible; extra fields
are kept). Results: one line per sample with its verdict. Summary: pass@k (unbiased), status
counts, mean pass rate, and the uncertainty of each over tasks (``grpo_code.analysis.stats``); pass^k
(all k of k pass) beside pass@k.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from grpo_code.analysis import stats
from grpo_code.analysis.passk import estimate, k_metrics, mean_estimate
from grpo_code.errors import UnknownTaskError
from grpo_code.jsonl import read_jsonl
from grpo_code.suites import visibility
from grpo_code.suites.tasks import TaskSuite
from sandbox.types import FLAGS, STATUSES


@dataclass
class Sample:
    """One completion to score: its task, its index among the task's samples, its line."""

    task_id: str
    completion: str
    completion_id: int
    extra: dict = field(default_factory=dict)


@dataclass
class SampleError:
    """A samples line that cannot be scored, and why (file:line: message)."""

    line: int
    message: str


def read_samples(path: str | Path, suite: TaskSuite) -> tuple[list[Sample], list[SampleError]]:
    """Read a samples file; bad lines become errors, the others are all kept.

    ``completion_id`` counts each task's samples in file order (as human-eval does), unless a
    line gives its own.

    Raises:
        ConfigError: the file does not exist.
    """
    samples: list[Sample] = []
    errors: list[SampleError] = []
    counter: Counter[str] = Counter()
    for lineno, obj in read_jsonl(path, on_error=lambda line, message: errors.append(SampleError(line, message))):
        problem = _sample_problem(obj)
        if problem:
            errors.append(SampleError(lineno, problem))
            continue
        task_id = obj.pop("task_id")
        completion = obj.pop("completion")
        try:
            suite.get(task_id)
        except UnknownTaskError as e:
            errors.append(SampleError(lineno, str(e)))
            continue
        completion_id = obj.pop("completion_id", counter[task_id])
        counter[task_id] += 1
        samples.append(Sample(task_id, completion, completion_id, obj))
    return samples, errors


def _sample_problem(obj) -> str | None:
    """What is wrong with a samples line, or None."""
    if not isinstance(obj, dict):
        return 'expected a JSON object {"task_id": str, "completion": str, ...}'
    for key in ("task_id", "completion"):
        if not isinstance(obj.get(key), str):
            close = difflib.get_close_matches(key, [k for k in obj if isinstance(k, str)], n=1)
            hint = f" (is {close[0]!r} a misspelling?)" if close else ""
            got = "missing" if key not in obj else f"a {type(obj[key]).__name__}"
            return f"{key!r} must be a string, got {got}{hint}"
    return None


def result_record(sample: Sample, verdict, program: str | None = None, tests_visibility: Sequence[str] = ()) -> dict:
    """One results line: the sample's fields, the program that ran (None: no_code), its verdict;
    given the visibility of each test (``Scored.visibility``), each test result says its own and
    the line adds ``public_pass_rate`` and ``hidden_pass_rate`` (``visibility.annotate``)."""
    record = {"task_id": sample.task_id, "completion_id": sample.completion_id, **sample.extra,
              "completion": sample.completion, "program": program, **verdict.to_dict()}
    return visibility.annotate(record, verdict, tests_visibility) if tests_visibility else record


def per_task_counts(results: Sequence[dict]) -> dict[str, tuple[int, int]]:
    """task_id -> (n, c): scored samples and passed ones. Samples without a pass rate
    (``sandbox_error``, a ``checker_error`` test) are left out: they say nothing about the model."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in results:
        if r["status"] == "sandbox_error" or r.get("pass_rate", 0.0) is None:
            continue
        counts[r["task_id"]][0] += 1
        counts[r["task_id"]][1] += r["status"] == "passed"
    return {task_id: (n, c) for task_id, (n, c) in counts.items()}


def summarize(suite_name: str, results: Sequence[dict], ks: Sequence[int]) -> dict:
    """The summary of a run: pass@k and pass^k for each k (None where a task has fewer than k
    samples), status counts, mean pass rate, and their uncertainty over tasks.

    Keys: ``suite``, ``n_tasks``, ``n_samples``, ``pass@K`` and ``pass^K`` per k (``passk``),
    ``mean_pass_rate`` (over scored samples), ``status_counts``, ``n_sandbox_errors``; then
    ``pass@K_se``, ``pass^K_se`` and ``mean_pass_rate_se`` (standard error over tasks,
    ``stats.standard_error``; None for one task or a missing figure) and ``ci``: ``{"level": 0.95,
    "method": ..., "pass@K": [low, high], "pass^K": [...], "mean_pass_rate": [low, high]}``
    (percentile bootstrap over tasks,
    ``stats.bootstrap_interval``); ``flag_counts``: how many samples the reward-hacking monitor
    flagged for each flag (``sandbox_tamper``: a program that broke its sandbox the same way on
    fresh containers, scored 0); ``public_pass_rate``, ``hidden_pass_rate``, ``visibility_gap``
    and ``n_gap_samples`` (``visibility.summarize``).
    """
    counts = per_task_counts(results)
    status_counts = Counter(r["status"] for r in results)
    rates = [r["pass_rate"] for r in results if r["pass_rate"] is not None]
    summary = {"suite": suite_name, "n_tasks": len({r["task_id"] for r in results}), "n_samples": len(results)}
    for metric in k_metrics(ks):
        summary[metric] = mean_estimate(list(counts.values()), metric)
    summary["mean_pass_rate"] = sum(rates) / len(rates) if rates else None
    summary["status_counts"] = {s: status_counts[s] for s in STATUSES if status_counts[s]}
    summary["n_sandbox_errors"] = status_counts["sandbox_error"]
    flag_counts = Counter(flag for r in results for flag in r.get("flags", ()))
    summary["flag_counts"] = {f: flag_counts[f] for f in FLAGS if flag_counts[f]}
    summary.update(uncertainty(results, ks))
    summary.update(visibility.summarize(results))
    return summary


def per_task_rates(results: Sequence[dict]) -> dict[str, list[float]]:
    """task_id -> the pass rates of its scored samples, in file order. Samples whose ``pass_rate``
    is None (``sandbox_error``, a ``checker_error`` test) are left out; a task with no scored
    sample has no key."""
    rates: dict[str, list[float]] = defaultdict(list)
    for r in results:
        if r["pass_rate"] is not None:
            rates[r["task_id"]].append(r["pass_rate"])
    return dict(rates)


def task_figures(results: Sequence[dict], ks: Sequence[int]) -> dict[str, tuple[list[float], list[float]] | None]:
    """Per-task values and weights behind each summary figure: ``{"pass@K": (values, weights),
    "pass^K": ..., "mean_pass_rate": (values, weights)}``, None where the figure is missing.

    pass@k, pass^k: one value per task, equal weights; mean pass rate: each task's mean over its
    scored samples, weighted by their number (so the weighted mean is the summary's figure).
    """
    counts = per_task_counts(results)
    figures: dict[str, tuple[list[float], list[float]] | None] = {}
    values: list[float | None]
    for metric in k_metrics(ks):
        values = [estimate(metric, n, c) for n, c in counts.values()]
        figures[metric] = None if not values or None in values else \
            ([float(v) for v in values if v is not None], [1.0] * len(values))
    rates = per_task_rates(results)
    figures["mean_pass_rate"] = ([sum(v) / len(v) for v in rates.values()], [float(len(v)) for v in rates.values()]) \
        if rates else None
    return figures


def uncertainty(results: Sequence[dict], ks: Sequence[int]) -> dict:
    """The summary's uncertainty keys: ``pass@K_se``, ``pass^K_se``, ``mean_pass_rate_se``, ``ci`` (see
    ``summarize``)."""
    out: dict = {}
    ci: dict = {"level": stats.LEVEL,
                "method": f"percentile bootstrap over tasks, {stats.BOOTSTRAP_RESAMPLES} resamples "
                          "(Efron & Tibshirani 1993); standard errors clustered by task (Miller 2024)"}
    for key, figure in task_figures(results, ks).items():
        values, weights = figure if figure else ([], [])
        out[f"{key}_se"] = stats.standard_error(values, weights) if figure else None
        interval = stats.bootstrap_interval(values, weights) if figure else None
        ci[key] = list(interval) if interval else None
    out["ci"] = ci
    return out


def summary_figures(ks: Sequence[int]) -> list[str]:
    """The figures of a summary, in report order: pass@k and pass^k for each k, the mean pass rate."""
    return [*k_metrics(ks), "mean_pass_rate"]


_PASS_AT = re.compile(r"^pass@(\d+)$")


def summary_ks(summary: dict) -> list[int]:
    """The k values of a summary's ``pass@K`` keys (not ``pass@K_se``), in order."""
    return sorted(int(m.group(1)) for m in map(_PASS_AT.match, summary) if m)


def per_task_table(results: Sequence[dict], ks: Sequence[int]) -> list[dict]:
    """One row per task: n, c, pass@k and pass^k (None where k > n), mean pass rate."""
    counts, rates = per_task_counts(results), per_task_rates(results)
    rows = []
    for task_id in dict.fromkeys(r["task_id"] for r in results):
        n, c = counts.get(task_id, (0, 0))
        row = {"task_id": task_id, "n": n, "c": c}
        for metric in k_metrics(ks):
            row[metric] = estimate(metric, n, c) if n else None
        task_rates = rates.get(task_id)
        row["mean_pass_rate"] = sum(task_rates) / len(task_rates) if task_rates else None
        rows.append(row)
    return rows
