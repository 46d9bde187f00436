"""Intervals and tests of grpo_code.analysis.stats against hand-computed values and known cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from grpo_code.analysis import stats
from grpo_code.analysis.results import summarize


def test_standard_error_hand_computed():
    # equal weights: s / sqrt(T) with s the sample standard deviation (0.2) -> 0.2 / sqrt(3)
    assert stats.standard_error([0.2, 0.4, 0.6]) == pytest.approx(0.2 / math.sqrt(3))
    # weights 1 and 3: mean 0.75, w(v - m) = -0.75, +0.75; sqrt(2 * 1.125) / 4 = 0.375
    assert stats.standard_error([0.0, 1.0], [1, 3]) == pytest.approx(0.375)
    assert stats.standard_error([0.5]) is None
    assert stats.standard_error([0.0, 1.0], [0.25, 0.75]) == pytest.approx(0.375)  # only the weights' ratio counts
    # a task with no scored samples weighs 0 and still counts in T: sqrt(3 / 2 * 1.125) / 4
    assert stats.standard_error([0.0, 1.0, 0.5], [1, 3, 0]) == pytest.approx(math.sqrt(1.6875) / 4)
    for weights in ([1], [-1, 3], [0, 0]):  # wrong shape, negative, all zero
        with pytest.raises(ValueError, match=r"^weights must be non-negative, one per task, not all zero$"):
            stats.standard_error([0.1, 0.2], weights)


def test_bootstrap_interval_is_about_two_standard_errors_wide():
    values = [0.0, 1.0] * 50  # mean 0.5, standard error 0.0503
    interval = stats.bootstrap_interval(values)
    assert interval is not None
    low, high = interval
    # the resampled means lie on a grid of 0.01: the 2.5% and 97.5% quantiles are the grid points
    # nearest 0.5 -+ 1.96 * 0.05 (the bootstrap's standard error uses T, not T - 1)
    assert low == pytest.approx(0.5 - 1.96 * 0.05, abs=0.005)
    assert high == pytest.approx(0.5 + 1.96 * 0.05, abs=0.005)
    assert stats.bootstrap_interval([0.3] * 5) == (pytest.approx(0.3), pytest.approx(0.3))
    assert stats.bootstrap_interval([0.3]) is None
    # two tasks: the resampled means are 0, 0.5 and 1 with chances 1/4, 1/2, 1/4
    assert stats.bootstrap_interval([0.0, 1.0]) == (0.0, 1.0)
    # weights 1 and 3: the weighted mean 0.75, its standard error 0.0377
    weighted = stats.bootstrap_interval(values, [1, 3] * 50)
    assert weighted is not None and stats.standard_error(values, [1, 3] * 50) == pytest.approx(0.0377, abs=1e-4)
    assert weighted == (pytest.approx(0.75 - 1.96 * 0.0377, abs=0.012), pytest.approx(0.75 + 1.96 * 0.0377, abs=0.012))


def test_every_figure_is_reproducible():
    """Fixed seeds: the same data give the same interval and p-values, Monte Carlo ones too."""
    rng = np.random.default_rng(5)
    before = rng.random(20)  # 20 tasks: random sign patterns
    after = np.clip(before + rng.normal(0.03, 0.2, 20), 0, 1)
    values = rng.random(30)
    x, y = [0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 0], [1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1]  # C(24, 12) splits: random ones
    for figure in (lambda: stats.bootstrap_interval(values), lambda: stats.paired_test(before, after),
                   lambda: stats.two_sample_p(x, y)):
        assert figure() == figure()
    # and a p-value near no change, where a Monte Carlo estimate varies from draw to draw
    assert 0.05 < stats.paired_test(before, after).p_value < 0.5 and 0.05 < stats.two_sample_p(x, y) < 0.5


def test_sign_flip_p_value_hand_computed():
    # d = 1, 1, 1, -1: sum 2; of the 16 sign patterns, 6 give sum 0 and 10 give |sum| >= 2
    result = stats.paired_test([0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 1.0, 0.0])
    assert result.p_value == pytest.approx(10 / 16)
    assert result.difference == pytest.approx(0.5) and result.label == "within noise"
    # three tasks can never be told apart from noise: the smallest p-value is 2 / 8
    three = stats.paired_test([0.1, 0.2, 0.3], [0.4, 0.5, 0.7])
    assert three.p_value == pytest.approx(0.25) and three.label == "within noise"
    assert (three.low, three.high) == (-1.0, 1.0)


def test_a_change_obviously_beyond_noise_is_better_or_worse():
    before = np.linspace(0.1, 0.5, 13)
    after = before + np.linspace(0.2, 0.4, 13)  # every task up by 20 to 40 points
    up = stats.paired_test(before, after)
    assert up.label == "better" and up.p_value == pytest.approx(2 / 2 ** 13)
    assert 0.2 <= up.low < up.difference < up.high <= 0.4 and up.difference == pytest.approx(0.3)
    assert up.method == "paired sign-flip permutation test over 13 tasks (exact)" and up.n_tasks == 13
    assert up.level == 0.95
    down = stats.paired_test(after, before)
    assert down.label == "worse" and down.high < 0
    assert (down.low, down.high) == (pytest.approx(-up.high, abs=1e-4), pytest.approx(-up.low, abs=1e-4))


def test_an_obvious_noise_is_within_noise_and_identical_runs_too():
    before = [0.5] * 12
    after = [0.7, 0.3, 0.6, 0.4, 0.9, 0.1, 0.55, 0.45, 0.8, 0.2, 0.5, 0.5]  # ups and downs that cancel
    noise = stats.paired_test(before, after)
    assert noise.label == "within noise" and noise.p_value == pytest.approx(1.0)
    assert noise.low < 0 < noise.high
    same = stats.paired_test([0.2, 0.9, 0.4, 0.0, 1.0, 0.6], [0.2, 0.9, 0.4, 0.0, 1.0, 0.6])
    assert same.label == "within noise" and same.p_value == 1.0 and same.difference == 0.0


def test_sixteen_tasks_are_still_enumerated_and_one_task_is_noise():
    before = np.linspace(0.1, 0.5, 16)
    up = stats.paired_test(before, before + 0.2)  # all 2^16 sign patterns: only the two all-same ones are as large
    assert up.p_value == pytest.approx(2 / 2 ** 16) and up.method.endswith("over 16 tasks (exact)")
    one = stats.paired_test([0.2], [0.8])  # one task: both signs are as large, p = 1
    assert one.p_value == 1.0 and one.label == "within noise" and one.difference == pytest.approx(0.6)
    with pytest.raises(ValueError, match="same tasks in both runs, got 0 and 0"):
        stats.paired_test([], [])


def test_the_level_decides_the_label():
    # six tasks all up: p = 2 / 2^6 = 0.031, a change at 95%, noise at 99%
    assert stats.paired_test([0.1] * 6, [0.3] * 6).label == "better"
    strict = stats.paired_test([0.1] * 6, [0.3] * 6, level=0.99)
    assert strict.label == "within noise" and strict.level == 0.99 and strict.low <= 0 <= strict.high
    # p <= 1 - level is a change, at the boundary too: three tasks all up give p = 0.25 exactly
    assert stats.paired_test([0.1] * 3, [0.3] * 3, level=0.75).label == "better"
    assert stats.label(0.1, 0.25, level=0.75) == "better" and stats.label(-0.1, 0.25, level=0.75) == "worse"
    assert stats.label(0.0, 0.001) == "within noise"  # no difference is never a change


def test_many_tasks_use_random_sign_patterns():
    rng = np.random.default_rng(3)
    before = rng.random(40)
    after = np.clip(before + 0.1 + rng.normal(0, 0.1, 40), 0, 1)
    result = stats.paired_test(before, after)
    assert "random sign patterns" in result.method and result.label == "better" and result.p_value < 0.001
    with pytest.raises(ValueError, match="same tasks"):
        stats.paired_test([0.1, 0.2], [0.3])


@pytest.mark.slow  # 200 random cases, each a bisection of permutation tests
def test_interval_and_label_agree():
    rng = np.random.default_rng(7)
    for _ in range(200):
        t = int(rng.integers(6, 30))
        before = rng.random(t)
        result = stats.paired_test(before, np.clip(before + rng.normal(0.05, 0.2, t), 0, 1))
        assert (result.label == "within noise") == (result.low <= 0 <= result.high), result


def test_two_runs_of_one_model_are_rarely_labelled_a_change():
    """A model evaluated twice (13 tasks, 8 samples each, per-task pass probabilities fixed):
    the paired test at 95% should call it a change in about 5% of reports, not more."""
    rng = np.random.default_rng(11)
    p = rng.uniform(0.05, 0.95, 13)
    called = sum(stats.paired_test(rng.binomial(8, p) / 8, rng.binomial(8, p) / 8).label != "within noise"
                 for _ in range(400))
    assert called / 400 <= 0.08


def test_two_sample_permutation_test_hand_computed():
    # 8 failures against 8 passes: only the observed split and its mirror are as extreme: 2 / C(16, 8)
    assert stats.two_sample_p([0.0] * 8, [1.0] * 8) == pytest.approx(2 / 12870)
    # pooled 0, 1, 1, 1 in groups of 2: every split differs by 0.5 in means
    assert stats.two_sample_p([0.0, 1.0], [1.0, 1.0]) == pytest.approx(1.0)
    # two samples per run can never show a change: the smallest p-value is 2 / C(4, 2)
    assert stats.two_sample_p([0.0, 0.0], [1.0, 1.0]) == pytest.approx(2 / 6)
    assert stats.two_sample_p([], [1.0]) == 1.0 and stats.two_sample_p([1.0], []) == 1.0
    # one sample after: of the 6 splits only the observed one differs by 1 (the others by 0.2)
    assert stats.two_sample_p([0.0] * 5, [1.0]) == pytest.approx(1 / 6)
    assert stats.two_sample_p([0.0] * 12, [1.0] * 12) < 0.001  # Monte Carlo: C(24, 12) splits


def test_holm_adjustment_hand_computed():
    assert stats.holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert stats.holm([0.6, 0.9]) == pytest.approx([1.0, 1.0])


def test_summary_carries_standard_errors_and_intervals():
    outcomes = {"a": [(1, 1.0), (0, 0.5)], "b": [(0, 0.0), (0, 0.0)], "c": [(1, 1.0), (1, 1.0)]}
    results = [{"task_id": t, "status": "passed" if ok else "failed", "pass_rate": rate}
               for t, samples in outcomes.items() for ok, rate in samples]
    summary = summarize("s", results, [1, 2])
    assert summary["pass@1"] == pytest.approx(0.5)   # tasks 0.5, 0, 1
    assert summary["pass@1_se"] == pytest.approx(0.5 / math.sqrt(3))
    assert summary["pass@2"] == pytest.approx(2 / 3)   # tasks 1, 0, 1
    assert summary["pass@2_se"] == pytest.approx(math.sqrt(1 / 3) / math.sqrt(3))
    assert summary["mean_pass_rate"] == pytest.approx(3.5 / 6)
    rates = [0.75, 0.0, 1.0]  # per task, two samples each: equal weights
    assert summary["mean_pass_rate_se"] == pytest.approx(np.std(rates, ddof=1) / math.sqrt(3))
    ci = summary["ci"]
    assert ci["level"] == 0.95 and "bootstrap" in ci["method"]
    # 3 tasks (0.5, 0, 1): a resample of task b alone, or of c alone, is 1 in 27 (3.7%, above the 2.5% tails)
    assert ci["pass@1"] == [0.0, 1.0]
    assert summarize("s", results, [3])["pass@3_se"] is None and summarize("s", results, [3])["ci"]["pass@3"] is None


def test_summary_has_pass_hat_k_beside_pass_at_k_with_its_uncertainty():
    # a: 1 of 2 passed, b: 0 of 2, c: 2 of 2 -> pass^2 per task 0, 0, 1 (pass@2: 1, 0, 1)
    outcomes = {"a": [(1, 1.0), (0, 0.5)], "b": [(0, 0.0), (0, 0.0)], "c": [(1, 1.0), (1, 1.0)]}
    results = [{"task_id": t, "status": "passed" if ok else "failed", "pass_rate": rate}
               for t, samples in outcomes.items() for ok, rate in samples]
    summary = summarize("s", results, [1, 2, 3])
    assert summary["pass^1"] == summary["pass@1"] == pytest.approx(0.5)
    assert summary["pass^2"] == pytest.approx(1 / 3) and summary["pass@2"] == pytest.approx(2 / 3)
    assert summary["pass^2_se"] == pytest.approx(np.std([0, 0, 1], ddof=1) / math.sqrt(3))
    assert summary["ci"]["pass^2"] == [0.0, 1.0]  # per task 0, 0, 1: c alone is 1 in 27 resamples (3.7%)
    assert summary["pass^3"] is None and summary["pass^3_se"] is None and summary["ci"]["pass^3"] is None
    assert list(summary)[3:9] == ["pass@1", "pass@2", "pass@3", "pass^1", "pass^2", "pass^3"]


def test_wilson_interval_hand_computed():
    # 3 of 10 at 95%: the textbook interval [0.1078, 0.6032]
    interval = stats.wilson_interval(0.3, 10)
    assert interval is not None
    low, high = interval
    assert (low, high) == (pytest.approx(0.1078, abs=1e-4), pytest.approx(0.6032, abs=1e-4))
    assert stats.wilson_interval(0.0, 8) == (0.0, pytest.approx(0.3244, abs=1e-4))  # never 0 to 0
    assert stats.wilson_interval(1.0, 8) == (pytest.approx(0.6756, abs=1e-4), 1.0)
    assert stats.wilson_interval(0.5, 0) is None
    # 1 of 1: centre (1 + z^2 / 2) / (1 + z^2), the interval [0.2065, 1]
    assert stats.wilson_interval(1.0, 1) == (pytest.approx(0.2065, abs=1e-4), 1.0)


def test_runs_pooled_resolve_a_change_that_each_run_alone_cannot():
    # Two seeds of one setting on the same 10 tasks, 2 samples each: every task fails before; after,
    # one seed passes tasks 0-4, the other tasks 5-9. Each run alone: +0.5 on 5 tasks, p = 2/32.
    # Pooled: +0.5 on every task, p = 2/1024, better.
    from grpo_code.analysis.comparison import compare, pooled_change

    def results(passed: set[int]) -> list[dict]:
        return [{"task_id": f"t{i}", "status": "passed" if i in passed else "failed",
                 "pass_rate": 1.0 if i in passed else 0.0} for i in range(10) for _ in range(2)]

    pairs = [(results(set()), results(set(range(5)))), (results(set()), results(set(range(5, 10))))]
    for before, after in pairs:
        alone = compare(before, after, [1]).figure("pass@1")
        assert alone is not None
        assert (alone.test.difference, alone.test.p_value, alone.test.label) == (0.5, 2 / 32, "within noise")
    together = pooled_change(pairs, "pass@1")
    assert together is not None
    assert (together.before, together.after) == (0.0, 0.5)
    assert (together.test.difference, together.test.p_value, together.test.label) == (0.5, 2 / 1024, "better")
    assert pooled_change(pairs, "pass@3") is None  # 2 samples a task: no pass@3
