"""Every figure grpo-code draws (matplotlib, Agg backend, PNG files).

- ``plot_eval``: one or two evaluation runs side by side: pass@k, pass^k and mean pass rate with their
  intervals over tasks, the paired change of each figure with its interval, the verdict shares.
- ``plot_training``: a training run's curves per step: reward and pass rate, the share of
  zero-variance groups, status shares, seconds (whole step and sandbox).
- ``plot_profile``: a difficulty profile: the tasks' solve rates (a band of them shaded) and the
  chance of a zero-variance group against the solve rate.

Inputs are plain numbers (no grpo-code types), so any module can plot without a backward import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from grpo_code.analysis.stats import LEVEL
from sandbox.types import STATUSES

LABEL_COLORS = {"better": "tab:green", "worse": "tab:red", "within noise": "tab:gray"}
STATUS_COLORS = {"passed": "tab:green", "failed": "tab:orange", "runtime_error": "tab:red", "timeout": "tab:purple",
                 "memory_limit": "tab:brown", "output_limit": "tab:pink", "compile_error": "tab:gray",
                 "checker_error": "tab:cyan", "no_code": "tab:olive", "sandbox_error": "black"}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


@dataclass
class EvalFigure:
    """What ``plot_eval`` draws for one run.

    Attributes:
        name: the run's name (legend).
        values: metric -> estimate in [0, 1] (None: missing).
        intervals: metric -> ``(low, high)`` (None: none).
        status_shares: status -> share of the run's samples.
    """

    name: str
    values: dict[str, float | None]
    intervals: dict[str, tuple[float, float] | None] = field(default_factory=dict)
    status_shares: dict[str, float] = field(default_factory=dict)


@dataclass
class ChangeFigure:
    """One figure's paired change: ``difference`` and its interval ``low..high`` (fractions), and
    its label ("better", "worse", "within noise")."""

    metric: str
    difference: float
    low: float
    high: float
    label: str


def _error_bar(value: float | None, interval: tuple[float, float] | None) -> list[float]:
    """``[below, above]`` the bar for matplotlib's ``yerr``; none without a value or interval."""
    if value is None or interval is None:
        return [0.0, 0.0]
    return [value - interval[0], interval[1] - value]


def plot_eval(runs: Sequence[EvalFigure], path: str | Path, changes: Sequence[ChangeFigure] = ()) -> None:
    """Bars of each metric per run with ``stats.LEVEL`` intervals over tasks; with ``changes``, a
    panel of the paired change per metric with its interval (colour: its label); the verdict
    shares per run. Writes a PNG to ``path``."""
    plt = _pyplot()
    metrics = list(dict.fromkeys(m for r in runs for m in r.values))
    panels = 3 if changes else 2
    fig, axes = plt.subplots(1, panels, figsize=(5 * panels, 3.9), dpi=110,
                             gridspec_kw={"width_ratios": [2, 1.4, 1][:panels] if changes else [2, 1]})
    left, right = axes[0], axes[-1]
    width = 0.8 / max(1, len(runs))
    for i, run in enumerate(runs):
        xs = [x + i * width for x in range(len(metrics))]
        ys = [run.values.get(m) or 0.0 for m in metrics]
        errs = [_error_bar(run.values.get(m), run.intervals.get(m)) for m in metrics]
        left.bar(xs, ys, width, label=run.name, yerr=list(zip(*errs, strict=True)) if errs else None, capsize=3,
                 error_kw={"elinewidth": 1})
    left.set_xticks([x + width * (len(runs) - 1) / 2 for x in range(len(metrics))],
                    [m.replace("_", " ") for m in metrics])
    left.set_ylim(0, 1)
    left.set_title(f"pass@k, pass^k and mean pass rate ({LEVEL:.0%} intervals over tasks)", fontsize=9)
    left.legend(fontsize=8)
    if changes:
        mid = axes[1]
        for y, change in enumerate(changes):
            color = LABEL_COLORS.get(change.label, "tab:blue")
            mid.errorbar([100 * change.difference], [y], xerr=[[100 * (change.difference - change.low)],
                                                            [100 * (change.high - change.difference)]],
                         fmt="o", color=color, capsize=4)
            mid.annotate(change.label, (100 * change.difference, y), textcoords="offset points", xytext=(0, 7),
                         ha="center", fontsize=7, color=color)
        mid.axvline(0, color="black", linewidth=0.8)
        mid.set_yticks(range(len(changes)), [c.metric.replace("_", " ") for c in changes])
        mid.set_ylim(-0.7, len(changes) - 0.3)
        mid.set_xlabel("after - before (points)")
        mid.set_title(f"paired change ({LEVEL:.0%} interval)", fontsize=9)
    statuses = [s for s in STATUSES if any(r.status_shares.get(s) for r in runs)]
    bottoms = [0.0] * len(runs)
    for status in statuses:
        shares = [r.status_shares.get(status, 0.0) for r in runs]
        right.bar(range(len(runs)), shares, bottom=bottoms, label=status, color=STATUS_COLORS.get(status))
        bottoms = [b + s for b, s in zip(bottoms, shares, strict=True)]
    right.set_xticks(range(len(runs)), [r.name for r in runs], fontsize=7)
    right.set_ylim(0, 1)
    right.set_title("verdicts", fontsize=9)
    right.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _integer_steps(ax) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def moving_mean(values: Sequence[float], window: int) -> list[float]:
    """Trailing mean over ``window`` values (fewer at the start)."""
    out = []
    for i in range(len(values)):
        part = values[max(0, i - window + 1): i + 1]
        out.append(sum(part) / len(part))
    return out


def plot_training(steps: Sequence[int], pass_rate: Sequence[float | None], path: str | Path,
                  reward: Sequence[float | None] = (), statuses: Mapping[str, Sequence[float]] | None = None,
                  sandbox_s: Sequence[float | None] = (), step_s: Sequence[float | None] = (),
                  zero_std: Sequence[float | None] = ()) -> None:
    """A training run per step: pass-rate reward (with its moving mean) and total reward when it
    differs, and the share of zero-variance groups (its moving mean); status shares (stacked, a
    moving mean over a tenth of the steps); seconds per step, whole and in the sandbox (log scale).
    Panels without data are left out. Writes a PNG to ``path``."""
    plt = _pyplot()
    statuses = statuses or {}
    have_status = bool(statuses)
    have_seconds = any(v is not None for v in list(sandbox_s) + list(step_s))
    panels = 1 + have_status + have_seconds
    fig, axes = plt.subplots(1, panels, figsize=(5 * panels, 3.6), dpi=110, squeeze=False)
    axes = list(axes[0])
    ax = axes.pop(0)
    points = [(s, r) for s, r in zip(steps, pass_rate, strict=True) if r is not None]
    if points:
        xs, ys = zip(*points, strict=True)
        ax.plot(xs, ys, marker="o", markersize=3, linewidth=1, label="mean pass rate")
        window = max(1, len(ys) // 5)
        if window > 1:
            ax.plot(xs, moving_mean(ys, window), linewidth=2, label=f"moving mean ({window} steps)")
    totals = [(s, r) for s, r in zip(steps, reward, strict=True) if r is not None]
    if totals and any(abs(t - p) > 1e-6 for (_, t), (_, p) in zip(totals, points, strict=False)):
        ax.plot(*zip(*totals, strict=True), linewidth=1, linestyle="--", label="total reward")
    flat = [(s, v) for s, v in zip(steps, zero_std, strict=True) if v is not None]
    if flat:
        xs, ys = zip(*flat, strict=True)
        ax.plot(xs, moving_mean(ys, max(1, len(ys) // 5)), color="tab:gray", linestyle=":", linewidth=2,
                label="zero-variance groups (share, moving mean)")
    ax.set_xlabel("training step")
    ax.set_ylabel("reward; share")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title("GRPO reward per step", fontsize=9)
    ax.grid(alpha=0.3)
    if points or totals or flat:
        ax.legend(fontsize=7, loc="upper left")
    if have_status:
        ax = axes.pop(0)
        order = [s for s in STATUSES if s in statuses]
        window = max(1, len(steps) // 10)  # a step holds few completions: smooth the shares
        ax.stackplot(list(steps), [moving_mean(list(statuses[s]), window) for s in order], labels=order,
                     alpha=0.85, colors=[STATUS_COLORS.get(s, "tab:blue") for s in order])
        ax.set_xlabel("training step")
        ax.set_ylim(0, 1)
        ax.set_title("verdict shares per step" + (f" (moving mean, {window} steps)" if window > 1 else ""),
                     fontsize=9)
        ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    if have_seconds:
        ax = axes.pop(0)
        for label, values in (("whole step", step_s), ("sandbox", sandbox_s)):
            pts = [(s, v) for s, v in zip(steps, values, strict=True) if v is not None and v > 0]
            if pts:
                ax.plot(*zip(*pts, strict=True), marker=".", linewidth=1, label=label)
        ax.set_yscale("log")
        ax.set_xlabel("training step")
        ax.set_ylabel("seconds")
        ax.set_title("seconds per step", fontsize=9)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7)
    for ax in fig.axes:
        _integer_steps(ax)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_profile(solve_rates: Sequence[float], zero_std: Sequence[float | None], path: str | Path, group_size: int,
                 band: tuple[float, float] | None = None, label: str = "solve rate") -> None:
    """A difficulty profile: a histogram of the tasks' solve rates (``label``), the band a training
    run keeps shaded; and each task's chance of a zero-variance group of ``group_size`` against its
    solve rate, with ``p^G + (1 - p)^G``, the chance for a pass/fail reward. Writes a PNG."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6), dpi=110)
    left.hist(list(solve_rates), bins=[i / 10 for i in range(11)], color="tab:blue", edgecolor="white")
    for ax in (left, right):
        if band is not None:
            ax.axvspan(band[0], band[1], color="tab:green", alpha=0.12, label="kept for training")
        ax.set_xlim(-0.02, 1.02)
        ax.set_xlabel(label)
    left.set_ylabel("tasks")
    left.set_title(f"{len(solve_rates)} tasks by {label}", fontsize=9)
    points = [(r, z) for r, z in zip(solve_rates, zero_std, strict=False) if z is not None]
    if points:
        right.scatter(*zip(*points, strict=False), s=14, color="tab:blue", alpha=0.7, label="tasks")
    grid = [i / 100 for i in range(101)]
    right.plot(grid, [p ** group_size + (1 - p) ** group_size for p in grid], color="tab:gray", linewidth=1,
               label=f"p^{group_size} + (1-p)^{group_size}")
    right.set_ylim(-0.02, 1.02)
    right.set_ylabel("chance of a zero-variance group")
    right.set_title(f"groups of {group_size}: all rewards equal, advantage 0", fontsize=9)
    right.legend(fontsize=7)
    if band is not None:
        left.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
