"""Task difficulty profiles, and the solve-rate filter that keeps a training run on tasks it can learn from.

GRPO learns only from groups whose rewards differ: a group of ``num_generations`` completions
that all pass, or all fail, gets advantage 0 for every member and costs a full step of generation
for nothing (TRL logs the share of such groups as ``frac_reward_zero_std``; it has no dynamic
sampling, DAPO's online filter, Yu et al. 2025). A *profile* measures, per task, how a model does
on it from n samples (an ``eval`` run's results), and a *band* of solve rates picks the tasks worth
training on before the run starts, as Prime's ``code_env`` does with a reference model's
``min_solve_rate`` / ``max_solve_rate``.

A profile (``profile.json`` in an ``eval`` folder, written by ``grpo-code eval --profile``)::

    {"suite", "model", "sampling", "n", "group_size", "summary": {...}, "tasks": [
        {"task_id", "n", "c", "pass@1", "pass@1_ci", "mean_pass_rate", "mean_pass_rate_ci",
         "rewards": {"0.5": 3, "1.0": 5}, "zero_std": {"fraction": p, "binary": p}}, ...]}

per task: ``n`` scored samples, ``c`` of them passing every test, ``pass@1`` = c / n (the solve rate
of the ``binary`` reward), ``mean_pass_rate`` (the solve rate of the ``fraction`` reward), each with
its Wilson interval (``stats.wilson_interval``), the count of each pass-rate value, and the chance
that a group of ``group_size`` completions has rewards all equal (zero variance) under each reward.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from grpo_code.analysis import stats
from grpo_code.errors import ConfigError
from grpo_code.suites.tasks import TaskSuite

PROFILE_FILE = "profile.json"
# The figure a band of solve rates applies to, for each reward mode: the task's expected reward.
SOLVE_RATE_KEYS = {"fraction": "mean_pass_rate", "binary": "pass@1"}
SOLVE_RATE_WORDS = {"mean_pass_rate": "mean pass rate", "pass@1": "share of completions passing every test"}
HISTOGRAM_BINS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


def zero_std_probability(reward_counts: Mapping[float, int], group_size: int) -> float | None:
    """The chance that ``group_size`` completions drawn without replacement from a task's samples
    all get the same reward (their group has zero variance, hence advantage 0 for every member).

    Args:
        reward_counts: reward value -> how many of the task's n samples got it.
        group_size: G, the completions per prompt (TRL's ``num_generations``).

    Returns:
        ``sum_v C(n_v, G) / C(n, G)``, an unbiased estimate of ``sum_v q_v^G`` (q_v: the chance of
        reward v; the pass@k construction of Chen et al. 2021); None when G > n (no value), as
        for pass@k.
    """
    n = sum(reward_counts.values())
    if group_size < 1 or group_size > n:
        return None
    return sum(math.comb(c, group_size) for c in reward_counts.values()) / math.comb(n, group_size)


def _reward_key(value: float) -> str:
    return f"{round(value, 6):g}"


@dataclass(frozen=True)
class TaskProfile:
    """One task as a model does on it (see the module docstring for the fields)."""

    task_id: str
    n: int
    c: int
    pass_rates: tuple[float, ...] = field(repr=False)

    @property
    def pass_at_1(self) -> float:
        """The share of samples passing every test (the ``binary`` reward's solve rate)."""
        return self.c / self.n

    @property
    def mean_pass_rate(self) -> float:
        """The mean pass rate of the samples (the ``fraction`` reward's solve rate)."""
        return sum(self.pass_rates) / self.n

    def reward_counts(self, mode: str) -> Counter[float]:
        """Reward value -> count under ``mode`` (``fraction``: the pass rate; ``binary``: 1 when
        every test passed)."""
        if mode == "binary":
            return Counter({1.0: self.c, 0.0: self.n - self.c})
        return Counter(round(r, 6) for r in self.pass_rates)

    def solve_rate(self, mode: str) -> float:
        """The task's expected reward under ``mode``: its mean pass rate (``fraction``) or the share of
        its completions that pass every test (``binary``)."""
        return self.pass_at_1 if mode == "binary" else self.mean_pass_rate

    def zero_std(self, mode: str, group_size: int) -> float | None:
        """The chance that a group of ``group_size`` has equal rewards under ``mode``."""
        return zero_std_probability(self.reward_counts(mode), group_size)

    def to_dict(self, group_size: int) -> dict:
        """The task's line of ``profile.json``."""
        return {"task_id": self.task_id, "n": self.n, "c": self.c,
                "pass@1": self.pass_at_1, "pass@1_ci": list(stats.wilson_interval(self.pass_at_1, self.n) or ()),
                "mean_pass_rate": self.mean_pass_rate,
                "mean_pass_rate_ci": list(stats.wilson_interval(self.mean_pass_rate, self.n) or ()),
                "rewards": {_reward_key(v): k for v, k in sorted(self.reward_counts("fraction").items())},
                "zero_std": {mode: self.zero_std(mode, group_size) for mode in SOLVE_RATE_KEYS}}

    @classmethod
    def from_dict(cls, data: dict) -> TaskProfile:
        """Read back ``to_dict``'s form."""
        rates = tuple(float(v) for v, k in data["rewards"].items() for _ in range(int(k)))
        return cls(str(data["task_id"]), int(data["n"]), int(data["c"]), rates)


def task_profiles(results: Sequence[dict]) -> list[TaskProfile]:
    """A profile per task from ``results.jsonl`` records (``task_id``, ``status``, ``pass_rate``), in
    the order tasks first appear. Samples without a pass rate (``sandbox_error``, ``checker_error``)
    are left out, as from pass@k; a task with none has no profile."""
    rates: dict[str, list[float]] = defaultdict(list)
    passed: Counter[str] = Counter()
    for r in results:
        if r["status"] == "sandbox_error" or r.get("pass_rate") is None:
            continue
        rates[r["task_id"]].append(float(r["pass_rate"]))
        passed[r["task_id"]] += r["status"] == "passed"
    return [TaskProfile(t, len(v), passed[t], tuple(v)) for t, v in rates.items()]


def mean_zero_std(profiles: Sequence[TaskProfile], mode: str, group_size: int) -> float | None:
    """The expected share of zero-variance groups when training on ``profiles``' tasks, each drawn
    as often as the others (TRL's sampler): the mean over tasks of ``zero_std``; None when a task has
    fewer samples than ``group_size`` or there is no task."""
    values = [p.zero_std(mode, group_size) for p in profiles]
    if not values or any(v is None for v in values):
        return None
    return sum(v for v in values if v is not None) / len(values)


def profile_summary(profiles: Sequence[TaskProfile], group_size: int) -> dict:
    """The distribution of a profile: per reward mode, the tasks never solved (solve rate 0),
    always solved (1) and in between, a histogram of solve rates (``HISTOGRAM_BINS``; the last
    bin holds 1.0), and the expected share of zero-variance groups of ``group_size``."""
    sizes = [p.n for p in profiles]
    summary: dict = {"n_tasks": len(profiles), "group_size": group_size,
                     "samples_per_task": [min(sizes, default=0), max(sizes, default=0)]}
    for mode, key in SOLVE_RATE_KEYS.items():
        rates = [p.solve_rate(mode) for p in profiles]
        last = HISTOGRAM_BINS[-1]
        counts = [sum(lo <= r < hi or r == hi == last for r in rates) for lo, hi in pairwise(HISTOGRAM_BINS)]
        summary[mode] = {"solve_rate": key, "never_solved": sum(r == 0 for r in rates),
                         "always_solved": sum(r == 1 for r in rates),
                         "in_between": sum(0 < r < 1 for r in rates),
                         "histogram": {"edges": list(HISTOGRAM_BINS), "counts": counts},
                         "expected_zero_std": mean_zero_std(profiles, mode, group_size)}
    return summary


def profile_record(profiles: Sequence[TaskProfile], group_size: int, **header) -> dict:
    """The ``profile.json`` object: ``header`` (suite, model, sampling, n), ``group_size``, the
    summary (``profile_summary``) and every task's profile."""
    return {**header, "group_size": group_size, "summary": profile_summary(profiles, group_size),
            "tasks": [p.to_dict(group_size) for p in profiles]}


def write_profile(folder: str | Path, record: dict) -> Path:
    """Write ``record`` as ``folder``'s ``profile.json``; return its path."""
    path = Path(folder) / PROFILE_FILE
    path.write_text(json.dumps(record, indent=2) + "\n")
    return path


def read_profile(path: str | Path) -> tuple[dict, list[TaskProfile]]:
    """A profile file (or an ``eval`` folder holding ``profile.json``): its record and its tasks.

    Raises:
        ConfigError: the file does not exist or is not a profile (the message says how to make one).
    """
    path = Path(path)
    if path.is_dir():
        path = path / PROFILE_FILE
    how = "make one with `grpo-code eval --suite SUITE --profile --out DIR` (DIR/profile.json)"
    if not path.is_file():
        raise ConfigError(f"the profile {path} does not exist: {how}")
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        profiles = [TaskProfile.from_dict(t) for t in record["tasks"]]
    except (ValueError, KeyError, TypeError) as e:
        raise ConfigError(f"{path} is not a task profile ({type(e).__name__}: {e}): {how}") from None
    return record, profiles


@dataclass(frozen=True)
class SolveRateBand:
    """The tasks a run keeps: those whose solve rate (by ``profile``) is within ``[low, high]``.

    Attributes:
        profile: the profile file.
        mode: the run's reward mode; the band applies to that reward's solve rate
            (``SOLVE_RATE_KEYS``).
        low, high: the band, inclusive.
        kept, below, above: task ids of the suite, in suite order.
        group_size: the run's ``num_generations``.
        zero_std_before, zero_std_after: the expected share of zero-variance groups over every
            task of the suite and over the kept ones (``mean_zero_std``).
    """

    profile: str
    mode: str
    low: float
    high: float
    kept: tuple[str, ...]
    below: tuple[str, ...]
    above: tuple[str, ...]
    group_size: int
    zero_std_before: float | None
    zero_std_after: float | None

    def to_dict(self) -> dict:
        """The ``task_filter`` of a run's summary."""
        key = SOLVE_RATE_KEYS[self.mode]
        return {"profile": self.profile, "solve_rate": key, "min_solve_rate": self.low, "max_solve_rate": self.high,
                "tasks_in_suite": len(self.kept) + len(self.below) + len(self.above), "kept": len(self.kept),
                "below_band": len(self.below), "above_band": len(self.above), "group_size": self.group_size,
                "expected_zero_std_all_tasks": self.zero_std_before,
                "expected_zero_std_kept_tasks": self.zero_std_after,
                "kept_task_ids": list(self.kept)}

    def describe(self) -> str:
        """One line: how many tasks were kept, and why the others were not."""
        words = SOLVE_RATE_WORDS[SOLVE_RATE_KEYS[self.mode]]
        total = len(self.kept) + len(self.below) + len(self.above)
        text = (f"{len(self.kept)} of {total} tasks kept by {self.profile}: {words} in [{self.low:g}, {self.high:g}] "
                f"({len(self.below)} below, {len(self.above)} above)")
        if self.zero_std_before is not None and self.zero_std_after is not None:
            text += (f"; expected share of zero-variance groups of {self.group_size}: "
                     f"{self.zero_std_before:.0%} on all of them, {self.zero_std_after:.0%} on the kept ones")
        return text


def check_band(low: float, high: float) -> None:
    """Raises ConfigError unless ``0 <= low <= high <= 1``."""
    if not 0 <= low <= high <= 1:
        raise ConfigError(f"the solve-rate band needs 0 <= --min_solve_rate <= --max_solve_rate <= 1, "
                          f"got [{low:g}, {high:g}]")


def select_band(suite: TaskSuite, profile_path: str | Path, mode: str, low: float, high: float,
                group_size: int) -> tuple[TaskSuite, SolveRateBand]:
    """The tasks of ``suite`` whose solve rate under ``mode`` (by the profile) is within ``[low, high]``.

    Args:
        suite: the training suite.
        profile_path: a ``profile.json`` or the ``eval`` folder holding one.
        mode: the reward mode (``fraction`` or ``binary``): the band applies to its solve rate.
        low: the band's lower end, inclusive (``0 <= low <= high``).
        high: the band's upper end, inclusive (``high <= 1``).
        group_size: the run's completions per prompt, for the expected zero-variance shares.

    Returns:
        The suite of the kept tasks (suite order) and the ``SolveRateBand`` that says why.

    Raises:
        ConfigError: a bad band, a profile that lacks some task of the suite, or no task in the band.
    """
    check_band(low, high)
    _, profiles = read_profile(profile_path)
    by_id = {p.task_id: p for p in profiles}
    missing = [t.task_id for t in suite if t.task_id not in by_id]
    if missing:
        shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
        raise ConfigError(f"the profile {profile_path} has no entry for {len(missing)} task(s) of {suite.name} "
                          f"({shown}): profile the suite you train on (grpo-code eval --suite SUITE --profile)")
    rates = {t.task_id: by_id[t.task_id].solve_rate(mode) for t in suite}
    kept = tuple(t for t, r in rates.items() if low <= r <= high)
    below = tuple(t for t, r in rates.items() if r < low)
    above = tuple(t for t, r in rates.items() if r > high)
    band = SolveRateBand(str(profile_path), mode, low, high, kept, below, above, group_size,
                         mean_zero_std([by_id[t] for t in rates], mode, group_size),
                         mean_zero_std([by_id[t] for t in kept], mode, group_size))
    if not kept:
        words = SOLVE_RATE_WORDS[SOLVE_RATE_KEYS[mode]]
        raise ConfigError(f"no task of {suite.name} has a {words} in [{low:g}, {high:g}] by {profile_path} "
                          f"({len(below)} below, {len(above)} above): widen --min_solve_rate / --max_solve_rate")
    return suite.select(kept), band
