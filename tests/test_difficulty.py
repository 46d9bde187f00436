"""Difficulty profiles and the solve-rate band, against direct computations (no sandbox: the
profile of real verdicts is in test_cli.py, the band in a real training run in test_train.py)."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

from grpo_code.analysis.difficulty import (
    profile_record,
    read_profile,
    select_band,
    task_profiles,
    write_profile,
    zero_std_probability,
)
from grpo_code.errors import ConfigError
from grpo_code.suites.tasks import Task, TaskSuite
from sandbox import TestCase


def _all_equal_share(rewards: list[float], group_size: int) -> float:
    """The share of the group_size-subsets of the samples whose rewards are all equal, by enumeration."""
    groups = list(itertools.combinations(rewards, group_size))
    return sum(len(set(g)) == 1 for g in groups) / len(groups)


def test_zero_std_probability_is_the_share_of_groups_with_equal_rewards():
    for rewards in ([1.0] * 8, [0.0] * 3 + [1.0] * 5, [0.0, 0.25, 0.25, 0.5, 1.0, 1.0, 1.0, 1.0],
                    [0.5] * 4 + [0.0] * 2 + [1.0] * 2):
        for g in (2, 3, 4, 8):
            got = zero_std_probability(Counter(rewards), g)
            assert got == pytest.approx(_all_equal_share(rewards, g)), (rewards, g)
    assert zero_std_probability(Counter([1.0, 0.0]), 3) is None  # G > n: no value, like pass@k


def results_of(outcomes: dict[str, list[float]]) -> list[dict]:
    """results.jsonl records: one per pass rate given (1.0: passed)."""
    return [{"task_id": t, "status": "passed" if r == 1.0 else "failed", "pass_rate": r}
            for t, rates in outcomes.items() for r in rates]


OUTCOMES = {"s/never": [0.0] * 8, "s/half": [1.0] * 4 + [0.0] * 4, "s/partial": [0.5] * 6 + [1.0] * 2,
            "s/always": [1.0] * 8}


def test_task_profiles_and_the_summary():
    records = [*results_of(OUTCOMES), {"task_id": "s/half", "status": "sandbox_error", "pass_rate": None}]
    profiles = {p.task_id: p for p in task_profiles(records)}
    half, partial = profiles["s/half"], profiles["s/partial"]
    assert half.n == 8 and half.c == 4  # the sandbox error is left out
    assert half.pass_at_1 == half.mean_pass_rate == 0.5
    assert partial.pass_at_1 == 0.25 and partial.mean_pass_rate == pytest.approx(0.625)
    # fraction: 0.5 x 6, 1.0 x 2 -> C(6,4)/C(8,4) = 15/70; binary: 0 x 6, 1 x 2 -> the same counts
    assert partial.zero_std("fraction", 4) == pytest.approx(15 / 70) == partial.zero_std("binary", 4)
    assert half.zero_std("binary", 4) == pytest.approx(2 / 70)
    record = profile_record(list(profiles.values()), 4, suite="s", model="m", sampling={}, n=8)
    s = record["summary"]
    assert (s["fraction"]["never_solved"], s["fraction"]["in_between"], s["fraction"]["always_solved"]) == (1, 2, 1)
    assert s["fraction"]["histogram"]["counts"] == [1, 0, 1, 1, 1]  # 0 | 0.5 | 0.625 | 1.0 (in the last bin)
    assert s["binary"]["histogram"]["counts"] == [1, 1, 1, 0, 1]  # 0 | 0.25 | 0.5 | 1.0
    assert s["fraction"]["expected_zero_std"] == pytest.approx((1 + 2 / 70 + 15 / 70 + 1) / 4)
    task = next(t for t in record["tasks"] if t["task_id"] == "s/never")
    assert task["pass@1_ci"] == [0.0, pytest.approx(0.3244, abs=1e-4)] and task["rewards"] == {"0": 8}


def suite_of(ids) -> TaskSuite:
    return TaskSuite(name="s", tasks=tuple(Task(task_id=t, prompt=t, tests=(TestCase(kind="assert", code="pass"),))
                                           for t in ids))


@pytest.fixture
def profile_file(tmp_path):
    profiles = task_profiles(results_of(OUTCOMES))
    return write_profile(tmp_path, profile_record(profiles, 4, suite="s", model="m", sampling={}, n=8))


def test_the_band_keeps_exactly_the_tasks_inside_it(profile_file):
    suite = suite_of(OUTCOMES)
    kept, band = select_band(suite, profile_file, "fraction", 0.1, 0.9, group_size=4)
    assert [t.task_id for t in kept] == ["s/half", "s/partial"]
    assert (band.below, band.above) == (("s/never",), ("s/always",))
    assert band.zero_std_before == pytest.approx((1 + 2 / 70 + 15 / 70 + 1) / 4)
    assert band.zero_std_after == pytest.approx((2 / 70 + 15 / 70) / 2)
    # the band is inclusive at both ends, and binary rewards use the share passing every test
    kept, _ = select_band(suite, profile_file, "fraction", 0.5, 0.625, group_size=4)
    assert [t.task_id for t in kept] == ["s/half", "s/partial"]
    kept, band = select_band(suite, profile_file, "binary", 0.25, 0.25, group_size=4)
    assert [t.task_id for t in kept] == ["s/partial"]
    assert "1 of 4 tasks kept" in band.describe() and "share of completions passing every test in [0.25, 0.25]" \
        in band.describe()
    summary = band.to_dict()
    assert summary["kept"] == 1 and summary["below_band"] == 1 and summary["above_band"] == 2
    assert summary["kept_task_ids"] == ["s/partial"]


def test_an_empty_band_a_missing_task_and_a_bad_profile_are_clear_errors(profile_file, tmp_path):
    suite = suite_of(OUTCOMES)
    with pytest.raises(ConfigError, match=r"no task of s has a mean pass rate in \[0.7, 0.9\] .* \(3 below, 1 above\): "
                                          "widen --min_solve_rate / --max_solve_rate"):
        select_band(suite, profile_file, "fraction", 0.7, 0.9, group_size=4)
    with pytest.raises(ConfigError, match=r"no entry for 1 task\(s\) of s \(s/new\)"):
        select_band(suite_of([*OUTCOMES, "s/new"]), profile_file, "fraction", 0.0, 1.0, group_size=4)
    with pytest.raises(ConfigError, match="0 <= --min_solve_rate <= --max_solve_rate <= 1"):
        select_band(suite, profile_file, "fraction", 0.8, 0.2, group_size=4)
    with pytest.raises(ConfigError, match="does not exist: make one with `grpo-code eval"):
        read_profile(tmp_path / "nowhere.json")
    (tmp_path / "bad.json").write_text(json.dumps({"tasks": [{"task_id": "x"}]}))
    with pytest.raises(ConfigError, match="is not a task profile"):
        read_profile(tmp_path / "bad.json")
    record, profiles = read_profile(profile_file.parent)  # the folder holding profile.json
    assert record["group_size"] == 4 and [p.task_id for p in profiles] == list(OUTCOMES)
    assert profiles[2].mean_pass_rate == pytest.approx(0.625)  # read back from the counts of rewards


def test_the_shipped_profile_of_the_demo_covers_the_train_split_as_the_trainer_samples():
    # `make demo` trains by it: it must hold every train task of the bundled suite, drawn as the
    # trainer draws (the Makefile's demo-profile target: temperature 0.9, top-p 1.0, the demo's 96 tokens
    # and answer stop)
    from pathlib import Path

    from grpo_code.suites.registry import load_suite

    path = Path(__file__).parent.parent / "tasks" / "warmup-python" / "profile-smollm2-135m-instruct.json"
    record, profiles = read_profile(path)
    assert [p.task_id for p in profiles] == [t.task_id for t in load_suite("warmup-python?split=train")]
    assert record["model"] == "smollm2-135m-instruct" and record["group_size"] == 4 and record["n"] == 8
    assert record["sampling"] == {"greedy": False, "temperature": 0.9, "top_p": 1.0, "max_new_tokens": 96,
                                  "stop_after_code_block": True}
    assert all(p.n == 8 for p in profiles)
    makefile = (Path(__file__).parent.parent / "Makefile").read_text()
    assert "-n 8 -k 1,4 --temperature 0.9 --top-p 1.0 \\\n\t  --max-new-tokens 96 --stop-after-code-block" in makefile
