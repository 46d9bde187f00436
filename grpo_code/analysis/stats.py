"""Uncertainty of evaluation figures over tasks: standard errors, intervals, paired tests.

An evaluation's tasks are a sample of the tasks the suite stands for, and each task's figure is
itself an estimate from n sampled completions. Following Miller (2024), "Adding Error Bars to
Evals: A Statistical Approach to Language Model Evaluations" (arXiv 2411.00640), the unit of
analysis is the task:

- **Standard error** of a mean over tasks: the cluster-robust form (Miller 2024, section 2.2,
  clusters = tasks), which covers a mean over samples weighted by each task's sample count
  (``mean_pass_rate``) as well as a plain mean of per-task values (pass@k). With equal weights it
  is the usual ``s / sqrt(T)``.
- **Interval** of one run's figure: the percentile bootstrap over tasks (Efron & Tibshirani 1993,
  "An Introduction to the Bootstrap", ch. 13), resampling whole tasks with their samples.
- **Comparison of two runs** on the same tasks (Miller 2024, section 4, paired differences): the
  per-task differences ``d_t = after_t - before_t`` are tested with the paired sign-flip
  permutation test (Fisher 1935, "The Design of Experiments", section 21; exact enumeration of
  all 2^T sign patterns up to ``EXACT_MAX_TASKS`` tasks, Monte Carlo above). Under "no change"
  the before and after figures of a task are exchangeable, so each ``d_t`` is as likely to have
  either sign. Its interval for the mean difference is the set of shifts the same test does not
  reject (test inversion; Good 2005, "Permutation, Parametric and Bootstrap Tests of
  Hypotheses", section 3.7), so the interval and the label always agree: "better" or "worse"
  when the interval excludes 0 (p <= 1 - level), else "within noise".
- **One task** before and after: its samples are independent draws, so the two sets of per-sample
  pass rates are compared with the two-sample permutation test (Fisher 1935; exact up to
  ``EXACT_MAX_SPLITS`` splits), and the p-values of all tasks are adjusted with Holm's step-down
  method (Holm 1979, "A Simple Sequentially Rejective Multiple Test Procedure") so that two runs
  of one model get a "better" or "worse" task in at most 5% of reports.

Everything is deterministic (fixed random seeds), so a summary or report is reproducible.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# One figure per task (or per sample): a list or a NumPy array.
Figures = Sequence[float] | np.ndarray

LEVEL = 0.95
BOOTSTRAP_RESAMPLES = 10_000
EXACT_MAX_TASKS = 16          # 2^16 sign patterns: exact; more tasks: Monte Carlo
EXACT_MAX_SPLITS = 20_000     # two-sample test: exact when C(n1 + n2, n1) is at most this
MONTE_CARLO_DRAWS = 20_000
SEED = 0
TOLERANCE = 1e-9              # statistics equal up to float error count as ties


def _weights(values: np.ndarray, weights: Figures | None) -> np.ndarray:
    w = np.ones_like(values) if weights is None else np.asarray(weights, dtype=float)
    if w.shape != values.shape or (w < 0).any() or not w.sum() > 0:
        raise ValueError("weights must be non-negative, one per task, not all zero")
    return w


def standard_error(values: Figures, weights: Figures | None = None) -> float | None:
    """Cluster-robust standard error of the weighted mean of per-task values.

    Args:
        values: one figure per task (T,), e.g. a task's pass@k or mean pass rate, in [0, 1].
        weights: one per task (T,), e.g. its number of scored samples; None: equal weights.

    Returns:
        ``sqrt(T / (T - 1) * sum_t w_t^2 (v_t - m)^2) / sum_t w_t`` with ``m`` the weighted mean
        (Miller 2024, eq. 4 with clusters = tasks; ``s / sqrt(T)`` for equal weights), or None
        for fewer than two tasks.

    Raises:
        ValueError: weights of the wrong shape, negative, or all zero.
    """
    v = np.asarray(values, dtype=float)
    if v.size < 2:
        return None
    w = _weights(v, weights)
    mean = (w * v).sum() / w.sum()
    return float(math.sqrt(v.size / (v.size - 1) * ((w * (v - mean)) ** 2).sum()) / w.sum())


def bootstrap_interval(values: Figures, weights: Figures | None = None, level: float = LEVEL,
                       resamples: int = BOOTSTRAP_RESAMPLES, seed: int = SEED) -> tuple[float, float] | None:
    """Percentile bootstrap interval over tasks of the weighted mean (Efron & Tibshirani 1993).

    Args:
        values: one figure per task (T,), as for ``standard_error``.
        weights: each task's weight (T,), as for ``standard_error``.
        level: coverage, e.g. 0.95.
        resamples: bootstrap resamples of the T tasks (with replacement).
        seed: the resamples' random seed (fixed: the same data give the same interval).

    Returns:
        ``(low, high)``, or None for fewer than two tasks.
    """
    v = np.asarray(values, dtype=float)
    if v.size < 2:
        return None
    w = _weights(v, weights)
    idx = np.random.default_rng(seed).integers(0, v.size, size=(resamples, v.size))
    means = (w * v)[idx].sum(axis=1) / np.maximum(w[idx].sum(axis=1), np.finfo(float).tiny)
    low, high = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return float(low), float(high)


def wilson_interval(mean: float, n: int, level: float = LEVEL) -> tuple[float, float] | None:
    """Wilson score interval of a share (Wilson 1927, "Probable inference, the law of succession,
    and statistical inference"), the interval for a binomial proportion that stays sensible at
    small n and at 0 or 1 (a normal interval would be [0, 0] for 0 of 8).

    Args:
        mean: the observed share in [0, 1] (c / n), or the mean of n values in [0, 1] such as pass
            rates: a variable in [0, 1] with mean m has variance at most m (1 - m), so the
            interval is conservative for it.
        n: observations (>= 1).
        level: coverage, e.g. 0.95.

    Returns:
        ``(low, high)`` within [0, 1], or None for n < 1.
    """
    if n < 1:
        return None
    from statistics import NormalDist

    z = NormalDist().inv_cdf((1 + level) / 2)
    centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(max(0.0, mean * (1 - mean)) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def _sign_patterns(n_tasks: int, draws: int, seed: int) -> np.ndarray:
    """All 2^T sign patterns (T <= EXACT_MAX_TASKS), else ``draws`` random ones plus the identity."""
    if n_tasks <= EXACT_MAX_TASKS:
        bits = (np.arange(2 ** n_tasks)[:, None] >> np.arange(n_tasks)) & 1
        return 1.0 - 2.0 * bits
    signs = np.random.default_rng(seed).choice([-1.0, 1.0], size=(draws, n_tasks))
    return np.vstack([np.ones(n_tasks), signs])


def _sign_flip_p(d: np.ndarray, signs: np.ndarray, shift: float) -> float:
    e = d - shift
    observed = abs(e.sum())
    return float((np.abs(signs @ e) >= observed - TOLERANCE * max(1.0, observed)).mean())


@dataclass(frozen=True)
class PairedComparison:
    """Two runs compared on the tasks both have.

    Attributes:
        difference: mean over tasks of ``after_t - before_t`` (a fraction; +0.1 is +10 points).
        low, high: the ``level`` interval of the difference (sign-flip test inversion).
        p_value: two-sided p-value of "no change" (paired sign-flip test).
        label: "better", "worse" or "within noise".
        n_tasks: tasks compared (T).
        level: the interval's coverage; the test's level is ``1 - level``.
        method: the test, in words.
    """

    difference: float
    low: float
    high: float
    p_value: float
    label: str
    n_tasks: int
    level: float
    method: str


def paired_test(before: Figures, after: Figures, level: float = LEVEL,
                draws: int = MONTE_CARLO_DRAWS, seed: int = SEED) -> PairedComparison:
    """Paired sign-flip permutation test and interval of the mean per-task difference.

    Args:
        before: one figure per task (T,), in [0, 1].
        after: one figure per task (T,), the same tasks in the same order, in [0, 1].
        level: the interval's coverage; a change is "better" or "worse" when p < 1 - level.
        draws: random sign patterns when T > ``EXACT_MAX_TASKS`` (else all 2^T are enumerated).
        seed: the random sign patterns' seed.

    Returns:
        A ``PairedComparison``. The smallest p-value is ``2 / 2^T``: with 5 tasks or fewer (at
        95%) no change can be told from noise, and the interval is the whole range [-1, 1].

    Raises:
        ValueError: the two runs have different numbers of tasks, or none.

    The p-value is the share of sign patterns ``s`` with ``|sum_t s_t d_t| >= |sum_t d_t|``
    (Fisher 1935); the interval holds every shift ``delta`` for which the test on ``d - delta``
    gives p > 1 - level (Good 2005), found by bisection to 1e-4 within [-1, 1].
    """
    b, a = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    if b.shape != a.shape or b.ndim != 1 or b.size == 0:
        raise ValueError(f"a paired test needs the same tasks in both runs, got {b.size} and {a.size} values")
    d = a - b
    signs = _sign_patterns(d.size, draws, seed)
    alpha = 1 - level
    p = _sign_flip_p(d, signs, 0.0)
    mean = float(d.mean())

    def bound(limit: float) -> float:
        if _sign_flip_p(d, signs, limit) > alpha:
            return limit
        inside, outside = mean, limit
        while abs(outside - inside) > 1e-4:
            mid = (inside + outside) / 2
            inside, outside = (mid, outside) if _sign_flip_p(d, signs, mid) > alpha else (inside, mid)
        return inside

    low, high = bound(-1.0), bound(1.0)
    exact = "exact" if d.size <= EXACT_MAX_TASKS else f"{draws} random sign patterns"
    return PairedComparison(mean, low, high, p, label(mean, p, level), int(d.size), level,
                            f"paired sign-flip permutation test over {d.size} tasks ({exact})")


def two_sample_p(before: Figures, after: Figures, draws: int = MONTE_CARLO_DRAWS,
                 seed: int = SEED) -> float:
    """Two-sided permutation p-value of "same mean" for two independent sets of samples.

    Args:
        before: per-sample figures (n1,), e.g. one task's pass rates in the first run.
        after: per-sample figures (n2,), e.g. the same task's pass rates in the second run.
        draws: random splits when there are more than ``EXACT_MAX_SPLITS``.
        seed: the random splits' seed.

    Returns:
        The share of the splits of the pooled samples into groups of n1 and n2 whose difference
        of means is at least the observed one in size (Fisher 1935); exact when there are at
        most ``EXACT_MAX_SPLITS`` splits, else from ``draws`` random ones (plus the observed).
        1.0 when either set is empty.
    """
    x, y = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    if x.size == 0 or y.size == 0:
        return 1.0
    pooled, n1 = np.concatenate([x, y]), x.size
    total = pooled.sum()
    observed = abs(y.mean() - x.mean())
    if math.comb(pooled.size, n1) <= EXACT_MAX_SPLITS:
        groups = np.array(list(itertools.combinations(range(pooled.size), n1)))
        first = pooled[groups].sum(axis=1)
    else:
        rng = np.random.default_rng(seed)
        perms = np.argsort(rng.random((draws, pooled.size)), axis=1)[:, :n1]
        first = np.concatenate([[x.sum()], pooled[perms].sum(axis=1)])
    diffs = np.abs((total - first) / y.size - first / n1)
    return float((diffs >= observed - TOLERANCE * max(1.0, observed)).mean())


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of m p-values (Holm 1979): ``p_(i) * (m - i + 1)``, made
    monotone and capped at 1, returned in the input order."""
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, np.maximum.accumulate(p[order] * (p.size - np.arange(p.size))))
    adjusted = np.empty_like(p)
    adjusted[order] = scaled
    return adjusted.tolist()


def label(difference: float, p_value: float, level: float = LEVEL) -> str:
    """"better" / "worse" when ``p_value <= 1 - level`` (by the sign of ``difference``), else
    "within noise"."""
    if p_value > 1 - level or difference == 0:
        return "within noise"
    return "better" if difference > 0 else "worse"
