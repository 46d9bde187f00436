"""Canary tasks mixed into training (grpo_code.rl.canaries) and what the reward does with them: no
Docker here; the reward on real verdicts is tests/test_rewards.py's, the training run tests/test_train.py's."""

from __future__ import annotations

from collections import Counter

import pytest

from grpo_code.analysis.trainlog import CANARIES_KEY, CHEAT_RATE_KEY, REWARD_KEY, curves
from grpo_code.curate.inputs import observed_calls
from grpo_code.display import step_line
from grpo_code.errors import ConfigError
from grpo_code.rl.canaries import CANARY_SUITE, canary_count, fitting, mix_canaries
from grpo_code.rl.rewards import PassRateReward, RewardStats
from grpo_code.suites.registry import load_suite

POOL = load_suite(CANARY_SUITE)


def test_the_bundled_canaries_have_no_reference_and_contradict_themselves_or_the_prompt():
    assert len(POOL) == 14
    for task in POOL:
        assert task.reference_solution is None and task.metadata["canary"] is True
        assert task.metadata["kind"] in ("conflicting", "one_off")
        assert len(task.public_tests) == 1 and task.hidden_tests  # only a consistent example is shown
        if task.metadata["kind"] == "conflicting":  # the same input with two answers
            inputs = [t.stdin for t in task.tests] if task.entry_point is None else \
                [c.key for c in observed_calls(task)]
            assert len(inputs) == len(task.tests) and len(set(inputs)) < len(inputs), task.task_id


@pytest.mark.parametrize(("n", "rate", "count"), [(23, 0.05, 1), (100, 0.05, 5), (10, 0.5, 10), (3, 0.0, 0)])
def test_canary_count_makes_the_rate(n, rate, count):
    assert canary_count(n, rate) == count


def test_canaries_fit_the_suite_s_languages_and_kinds():
    python = load_suite("warmup-python?split=train")
    assert {t.task_id for t in fitting(python, POOL)} == {t.task_id for t in POOL if t.entry_point}
    stdio = load_suite("stdio-basics?language=rust")
    made = fitting(stdio, POOL)
    assert {t.language for t in made} == {"rust"} and all(t.task_id.endswith("/rust") for t in made)
    assert len(made) == sum(t.entry_point is None for t in POOL)


def test_mix_canaries_adds_them_at_the_rate_with_the_suite_s_template():
    suite = load_suite("warmup-python?split=train&limit=32")
    mixed, ids = mix_canaries(suite, 0.2)
    assert len(ids) == canary_count(len(suite), 0.2) == 8 and len(mixed) == len(suite) + 8
    assert [t.task_id for t in mixed][: len(suite)] == [t.task_id for t in suite]
    assert ids == {t.task_id for t in mixed.tasks[len(suite):]} and all(i.startswith("canaries/") for i in ids)
    assert mixed.prompt_template == suite.prompt_template and mix_canaries(suite, 0.2) == (mixed, ids)
    assert mix_canaries(suite, 0.0) == (suite, frozenset())
    big, all_of_them = mix_canaries(load_suite("warmup-python"), 0.5)  # more than there are: each once
    assert len(all_of_them) == 8 and len(big) == 384 + 8
    with pytest.raises(ConfigError, match=r"within \[0, 1\)"):
        mix_canaries(suite, 1.0)


def test_a_canary_is_never_rewarded_above_zero():
    reward = PassRateReward(load_suite("warmup-python?limit=2"), None,  # type: ignore[arg-type]  # no scoring here
                            canaries=frozenset({"canaries/double"}))
    assert reward.canary_cap("canaries/double", 1.0) == 0.0 and reward.canary_cap("canaries/double", -0.5) == -0.5
    assert reward.canary_cap("canaries/double", None) is None
    assert reward.canary_cap("warmup-python/add", 1.0) == 1.0


def test_the_cheat_rate_is_logged_read_and_shown(caplog):
    suite = load_suite("warmup-python?limit=2")
    reward = PassRateReward(suite, None, canaries=frozenset({"canaries/double"}))  # type: ignore[arg-type]
    logged: dict[str, float] = {}
    stats = RewardStats(Counter(passed=4), 1.0, 0.5, canary_completions=4, canary_passes=1)
    with caplog.at_level("WARNING"):
        reward._log(stats, [], 4, logged.__setitem__, None, [])
    assert logged[CHEAT_RATE_KEY] == 0.25 and logged[CANARIES_KEY] == 4
    assert "CHEATING: 1 of 4 completions of canary tasks passed every test" in caplog.text
    quiet: dict[str, float] = {}
    reward._log(RewardStats(Counter(passed=4), 1.0, 0.5), [], 4, quiet.__setitem__, None, [])
    assert CHEAT_RATE_KEY not in quiet and quiet[CANARIES_KEY] == 0  # a step without a canary has no rate
    steps = [{"step": 1, REWARD_KEY: 0.5, **logged}, {"step": 2, REWARD_KEY: 0.5, **quiet},
             {"step": 3, REWARD_KEY: 0.5, CANARIES_KEY: 4, CHEAT_RATE_KEY: 0.0}]
    c = curves(steps)
    assert c.cheat_rate == [0.25, None, 0.0] and c.cheats() == (1, 8)
    assert curves([{"step": 1, REWARD_KEY: 0.5}]).cheats() is None
    assert "cheat 25% CHEATING" in (step_line(1, steps[0]) or "")
    assert "cheat" not in (step_line(2, steps[1]) or "")


def test_the_format_reward_pays_nothing_on_a_canary():
    from grpo_code.rl.rewards import FormatReward

    suite, _ = mix_canaries(load_suite("warmup-python?limit=2"), 0.5)
    canary = next(t.task_id for t in suite if t.task_id.startswith("canaries/"))
    fenced = "```python\ndef f():\n    return 1\n```"
    assert FormatReward(suite, frozenset({canary}))([], [fenced, fenced], task_id=[canary, "warmup-python/add"]) == \
        [0.0, 1.0]


def test_train_keeps_the_strong_tasks_then_mixes_in_the_canaries():
    from grpo_code.analysis.strength import audit_path, read_audit, select_strong
    from grpo_code.rl.train import GrpoCodeArguments, training_tasks

    args = GrpoCodeArguments(suite="warmup-python?split=train", min_test_strength=0.95, canary_rate=0.05)
    selection = training_tasks(args, group_size=4)
    train = load_suite("warmup-python?split=train")
    kept, _ = select_strong(train, audit_path("warmup-python") or "", 0.95)
    assert selection.strength is not None and selection.strength.kept == [t.task_id for t in kept]
    by_id = read_audit(audit_path("warmup-python") or "").by_id()
    assert all((by_id[t].mutation_score or 0) < 0.95 for t in selection.strength.below) and selection.strength.below
    assert [t.task_id for t in selection.suite][: len(kept)] == [t.task_id for t in kept]
    n = canary_count(len(kept), 0.05)
    assert len(selection.canaries) == n == 6 and len(selection.suite) == len(kept) + n  # 120 kept: 6.3 rounds to 6
    assert "canary task(s) mixed in" in (selection.describe_canaries() or "")
    with pytest.raises(ConfigError, match="--audit is the audit file of --min_test_strength"):
        GrpoCodeArguments(audit="x.json")
    with pytest.raises(ConfigError, match="has no place for an audit of its own"):
        GrpoCodeArguments(suite="hf:x?adapter=mbpp", min_test_strength=0.5)  # before anything loads
