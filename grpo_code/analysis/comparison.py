"""Two evaluation runs on the same tasks: the change of each figure and of each task.

Each figure of the summary (pass@k, pass^k, mean pass rate) is compared over the tasks both runs have,
by the paired sign-flip test of ``grpo_code.analysis.stats`` (the per-task design of Miller 2024); each
task by the two-sample permutation test on its samples' pass rates, Holm-adjusted over the
tasks. Every change carries a label: "better", "worse" or "within noise".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grpo_code.analysis import stats
from grpo_code.analysis.passk import estimate
from grpo_code.analysis.results import per_task_counts, per_task_rates, summary_figures


@dataclass(frozen=True)
class FigureChange:
    """One summary figure before and after, over the tasks both runs have.

    Attributes:
        metric: ``pass@K``, ``pass^K`` or ``mean_pass_rate``.
        before, after: the figure of each run over those tasks (task-weighted means).
        test: the paired comparison (difference, interval, p-value, label).
    """

    metric: str
    before: float
    after: float
    test: stats.PairedComparison


@dataclass(frozen=True)
class TaskChange:
    """One task's samples before and after.

    Attributes:
        task_id: the task.
        before, after: ``(n, c, mean pass rate)`` of each run (None: the task is not in that run).
        difference: after - before mean pass rate (None unless both runs have the task).
        p_value: two-sample permutation p-value of the pass rates, Holm-adjusted over the tasks.
        label: "better", "worse" or "within noise" ("–" when the task is in one run only).
    """

    task_id: str
    before: tuple[int, int, float | None] | None
    after: tuple[int, int, float | None] | None
    difference: float | None
    p_value: float | None
    label: str


@dataclass(frozen=True)
class Comparison:
    """Two runs compared: the figures (``metrics``), the tasks, how many tasks were paired."""

    figures: list[FigureChange]
    tasks: list[TaskChange]
    n_paired: int

    def figure(self, metric: str) -> FigureChange | None:
        """The change of one figure (``pass@K`` or ``mean_pass_rate``); None if it was not compared."""
        return next((f for f in self.figures if f.metric == metric), None)


def per_task_figure(results: Sequence[dict], metric: str) -> dict[str, float]:
    """task_id -> the task's ``pass@K``, ``pass^K`` or mean pass rate; tasks without a value are left out."""
    if metric == "mean_pass_rate":
        return {t: sum(v) / len(v) for t, v in per_task_rates(results).items() if v}
    values = {t: estimate(metric, n, c) for t, (n, c) in per_task_counts(results).items()}
    return {t: v for t, v in values.items() if v is not None}


def pooled_change(pairs: Sequence[tuple[Sequence[dict], Sequence[dict]]], metric: str) -> FigureChange | None:
    """One figure's change pooled over several runs of one setting (seeds), each a ``(before,
    after)`` pair of results on the same tasks: per task, the mean over the pairs of its figure
    before and after, then the paired test over the tasks that every run has a value for. What
    one run's interval cannot resolve, several runs' can (the seeds' sampling noise averages out).
    None if no task has the figure in every run."""
    per_pair = [(per_task_figure(b, metric), per_task_figure(a, metric)) for b, a in pairs]
    if not per_pair:
        return None
    tasks = [t for t in per_pair[0][0] if all(t in b and t in a for b, a in per_pair)]
    if not tasks:
        return None
    xs = [sum(b[t] for b, _ in per_pair) / len(per_pair) for t in tasks]
    ys = [sum(a[t] for _, a in per_pair) / len(per_pair) for t in tasks]
    return FigureChange(metric, sum(xs) / len(xs), sum(ys) / len(ys), stats.paired_test(xs, ys))


def compare(before: Sequence[dict], after: Sequence[dict], ks: Sequence[int]) -> Comparison:
    """Compare two runs' results (results.jsonl records) task by task.

    Args:
        before: the results of the first run (``task_id``, ``status``, ``pass_rate`` per sample).
        after: the results of the second run, in the same form.
        ks: the k values of pass@k and pass^k to compare (a k that some paired task has fewer
            samples than is left out).

    Returns:
        A ``Comparison``: one ``FigureChange`` per figure (pass@k, pass^k, then mean pass rate), and one
        ``TaskChange`` per task of either run (the before run's order first).
    """
    counts_b, counts_a = per_task_counts(before), per_task_counts(after)
    paired = [t for t in counts_b if t in counts_a]  # tasks with scored samples in both runs
    figures = []
    for metric in summary_figures(ks):
        b, a = per_task_figure(before, metric), per_task_figure(after, metric)
        if not paired or any(t not in b or t not in a for t in paired):
            continue  # a paired task has fewer than k samples: the figure has no value
        xs, ys = [b[t] for t in paired], [a[t] for t in paired]
        figures.append(FigureChange(metric, sum(xs) / len(xs), sum(ys) / len(ys),
                                    stats.paired_test(xs, ys)))
    rates_b, rates_a = per_task_rates(before), per_task_rates(after)
    task_ids = list(dict.fromkeys([r["task_id"] for r in before] + [r["task_id"] for r in after]))
    both = [t for t in task_ids if t in rates_b and t in rates_a]
    adjusted = dict(zip(both, stats.holm([stats.two_sample_p(rates_b[t], rates_a[t]) for t in both]), strict=True))

    def side(t, counts, rates):
        if t not in counts and t not in rates:
            return None
        n, c = counts.get(t, (0, 0))
        return n, c, (sum(rates[t]) / len(rates[t]) if rates.get(t) else None)

    tasks = []
    for t in task_ids:
        sb, sa = side(t, counts_b, rates_b), side(t, counts_a, rates_a)
        if t in adjusted:
            diff = sa[2] - sb[2]
            tasks.append(TaskChange(t, sb, sa, diff, adjusted[t], stats.label(diff, adjusted[t])))
        else:
            tasks.append(TaskChange(t, sb, sa, None, None, "–"))
    return Comparison(figures, tasks, len(paired))
