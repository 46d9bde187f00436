"""The reward rules on verdicts made by hand (no Docker), and the reward functions on the real sandbox."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from grpo_code.errors import ConfigError
from grpo_code.rl.rewards import FormatReward, PassRateReward, completion_text, zero_variance_share
from grpo_code.rl.rules import RewardRules
from grpo_code.score.scoring import Scored
from grpo_code.suites.registry import load_suite
from grpo_code.suites.tasks import TaskSuite, parse_task
from sandbox import TestResult, Verdict

GOOD = "```python\ndef add(a, b):\n    return a + b\n```"
HALF = "```python\ndef add(a, b):\n    return 5 if (a, b) == (2, 3) else 0\n```"
BROKEN = "```python\ndef add(a, b)\n    return a + b\n```"
PROSE = "I would add them."
# right, but it also reached for the garbage collector's objects (refused, flagged gc_walk)
FLAGGED = ("```python\nimport gc\ndef add(a, b):\n    try:\n        gc.get_objects()\n    except RuntimeError:\n"
           "        pass\n    return a + b\n```")


def chat(text):
    return [{"role": "assistant", "content": text}]


@pytest.fixture(scope="module")
def suite():
    return load_suite("warmup-python")


def call(reward, completions, task_ids, **kwargs):
    return asyncio.run(reward(prompts=[""] * len(completions), completions=completions, task_id=task_ids, **kwargs))


@pytest.mark.docker
def test_modes_and_penalties(executor, suite):
    ids = ["warmup-python/add"] * 4
    completions = [chat(GOOD), chat(HALF), chat(BROKEN), chat(PROSE)]
    fraction = call(PassRateReward(suite, executor), completions, ids)
    assert fraction[0] == 1.0 and 0.0 < fraction[1] < 1.0 and fraction[2:] == [0.0, 0.0]
    binary = call(PassRateReward(suite, executor, RewardRules(mode="binary")), completions, ids)
    assert binary == [1.0, 0.0, 0.0, 0.0]
    penalised = call(PassRateReward(suite, executor, RewardRules(no_code_penalty=0.5, compile_error_penalty=0.25)),
                     completions, ids)
    assert penalised[2:] == [-0.25, -0.5]


@pytest.mark.docker
def test_metrics_and_extra_columns_are_logged(executor, suite):
    metrics: dict[str, float] = {}
    extra: dict[str, list] = {}
    reward = PassRateReward(suite, executor, group_size=2)  # groups: (GOOD, GOOD) equal, (GOOD, PROSE) not
    call(reward, [chat(GOOD), chat(GOOD), chat(GOOD), chat(PROSE)], ["warmup-python/add"] * 4,
         log_metric=lambda k, v: metrics.__setitem__(k, v), log_extra=lambda k, v: extra.__setitem__(k, v))
    assert metrics["sandbox/passed"] == 0.75 and metrics["sandbox/no_code"] == 0.25
    assert metrics["sandbox/pass_rate"] == 0.75 and metrics["sandbox/seconds"] > 0
    assert metrics["sandbox/zero_std_groups"] == 0.5
    assert extra["status"] == ["passed", "passed", "passed", "no_code"]
    assert extra["tests_passed"][0].endswith("/4") and extra["tests_passed"][0].split("/")[0] == "4"


@pytest.mark.docker
def test_flags_are_logged_and_only_change_the_reward_when_asked(executor, suite):
    metrics: dict[str, float] = {}
    extra: dict[str, list] = {}
    ids = ["warmup-python/add"] * 2
    kept = call(PassRateReward(suite, executor), [chat(FLAGGED), chat(GOOD)], ids,
                log_metric=lambda k, v: metrics.__setitem__(k, v), log_extra=lambda k, v: extra.__setitem__(k, v))
    assert kept == [1.0, 1.0]
    assert metrics["sandbox/flagged"] == 0.5 and extra["flags"] == ["gc_walk", ""]
    assert call(PassRateReward(suite, executor, RewardRules(flagged_reward="zero")), [chat(FLAGGED), chat(GOOD)],
                ids) == [0.0, 1.0]


def test_never_raises_into_the_trainer(suite):
    class Broken:
        async def arun(self, jobs):
            raise RuntimeError("the pool is gone")

    reward = PassRateReward(suite, Broken())  # type: ignore[arg-type]  # a fault injected: an executor that raises
    assert call(reward, [chat(GOOD), chat(GOOD)], ["warmup-python/add"] * 2) == [None, None]
    assert call(reward, [chat(GOOD)], ["no/such-task"]) == [None]  # an unknown task id: no reward, no raise
    assert call(reward, [chat(GOOD)], None) == [None]




def test_format_reward(suite):
    fmt = FormatReward(suite)
    two = GOOD + "\nand\n" + GOOD
    assert fmt(None, [chat(GOOD), chat(PROSE), chat(two), "```py\nx = 1\n```"], task_id=["warmup-python/add"] * 4) == \
        [1.0, 0.0, 0.0, 1.0]


def test_completion_text_shapes():
    assert completion_text("abc") == "abc"
    assert completion_text(chat("x")) == "x"
    parts = [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    assert completion_text([{"role": "assistant", "content": parts}]) == "ab"
    assert completion_text([]) == ""


# -- the rules, on verdicts made by hand ------------------------------------------------------

PASSED, FAILED = TestResult("passed"), TestResult("failed")
HALF_VERDICT = Verdict("failed", (PASSED, FAILED), n_tests=2)
ALL_PASSED = Verdict("passed", (PASSED, PASSED), n_tests=2)


@pytest.mark.parametrize(("verdict", "rules", "reward"), [
    (ALL_PASSED, RewardRules(), 1.0),
    (HALF_VERDICT, RewardRules(), 0.5),
    (HALF_VERDICT, RewardRules(mode="binary"), 0.0),
    (ALL_PASSED, RewardRules(mode="binary"), 1.0),
    (ALL_PASSED, RewardRules(all_pass_bonus=0.5), 1.5),
    (HALF_VERDICT, RewardRules(all_pass_bonus=0.5), 0.5),
    (Verdict("passed", (PASSED, PASSED), n_tests=2, flags=("gc_walk",)), RewardRules(all_pass_bonus=0.5,
                                                                                     flagged_reward="zero"), 0.0),
    (Verdict("failed", (PASSED, TestResult("failed", score=0.5), FAILED, FAILED), n_tests=4), RewardRules(), 0.375),
    (Verdict("no_code", n_tests=2), RewardRules(), 0.0),
    (Verdict("no_code", n_tests=2), RewardRules(no_code_penalty=0.5, compile_error_penalty=0.25), -0.5),
    (Verdict("compile_error", n_tests=2), RewardRules(no_code_penalty=0.5, compile_error_penalty=0.25), -0.25),
    (Verdict("runtime_error", n_tests=2), RewardRules(no_code_penalty=0.5, compile_error_penalty=0.25), 0.0),
    (Verdict("passed", (PASSED, PASSED), n_tests=2, flags=("gc_walk",)), RewardRules(), 1.0),
    (Verdict("passed", (PASSED, PASSED), n_tests=2, flags=("gc_walk",)), RewardRules(flagged_reward="zero"), 0.0),
    (Verdict("sandbox_error", n_tests=2), RewardRules(no_code_penalty=0.5), None),
    # the task's checker failed on a test: the task's fault, so no pass rate and no reward, not 0
    (Verdict("checker_error", (PASSED, TestResult("checker_error", message="the checker raised")), n_tests=2),
     RewardRules(), None),
])
def test_the_reward_rules(verdict, rules, reward):
    assert rules.reward_of(verdict) == reward


def test_hidden_tests_as_the_reward_count_only_the_hidden_tests():
    scored = Scored("program", Verdict("failed", (PASSED, FAILED, PASSED), n_tests=3), visibility=("public", "hidden",
                                                                                                   "hidden"))
    assert RewardRules().reward_of_scored(scored) == pytest.approx(2 / 3)
    assert RewardRules(reward_tests="hidden").reward_of_scored(scored) == 0.5
    assert RewardRules(reward_tests="hidden", mode="binary").reward_of_scored(scored) == 0.0
    shown_only = Scored("program", Verdict("failed", (PASSED, FAILED), n_tests=2), visibility=("public", "hidden"))
    assert RewardRules(reward_tests="hidden").reward_of_scored(shown_only) == 0.0  # the public pass earns nothing


def test_bad_rules_are_refused_in_the_caller_s_words():
    cases: tuple[tuple[dict[str, Any], str], ...] = (
        ({"mode": "partial"}, "mode must be one of fraction, binary, got 'partial'"),
        ({"flagged_reward": "halve"}, "flagged_reward must be one of keep, zero, got 'halve'"),
        ({"reward_tests": "public"}, "reward_tests must be one of all, hidden, got 'public'"),
        ({"all_pass_bonus": -1.0}, "all_pass_bonus must be >= 0, got -1.0"))
    for kwargs, words in cases:
        with pytest.raises(ConfigError, match=f"^{words}$"):
            RewardRules(**kwargs)
        with pytest.raises(ConfigError, match=f"^--reward_{words}$"):
            RewardRules(**kwargs, option_names={name: f"--reward_{name}" for name in kwargs})
    with pytest.raises(ConfigError, match=r"^all_pass_bonus needs mode fraction \(binary pays only a whole program"):
        RewardRules(mode="binary", all_pass_bonus=0.5)


def test_hidden_tests_as_the_reward_need_a_hidden_test_in_every_task():
    shown = parse_task({"task_id": "t/shown", "prompt": "", "tests": [
        {"kind": "assert", "code": "assert True", "visibility": "public"}]})
    both = parse_task({"task_id": "t/both", "prompt": "", "tests": [
        {"kind": "assert", "code": "assert True", "visibility": "public"}, {"kind": "assert", "code": "assert 1"}]})
    RewardRules(reward_tests="hidden").check_suite(TaskSuite("s", (both,)))
    RewardRules().check_suite(TaskSuite("s", (shown, both)))
    with pytest.raises(ConfigError, match=r"^--tests hidden needs a hidden test in every task; 1 task\(s\) have none "
                                          r"\(the first: t/shown\)"):
        RewardRules(reward_tests="hidden", option_names={"reward_tests": "--tests"}).check_suite(
            TaskSuite("s", (shown, both)))
    with pytest.raises(ConfigError, match="needs a hidden test in every task"):
        PassRateReward(TaskSuite("s", (shown,)), None, RewardRules(reward_tests="hidden"))  # type: ignore[arg-type]


@pytest.mark.docker
def test_each_step_logs_the_public_hidden_gap_and_hidden_tests_can_be_the_reward(executor, suite):
    # warmup-python/add: its first test (add(2, 3) == 5) is public; SHOWN passes it and nothing else
    shown = "```python\ndef add(a, b):\n    return 5 if (a, b) == (2, 3) else -1\n```"
    metrics: dict[str, float] = {}
    ids = ["warmup-python/add"] * 2
    every = call(PassRateReward(suite, executor), [chat(shown), chat(GOOD)], ids, log_metric=metrics.__setitem__)
    assert every == [0.25, 1.0]
    assert (metrics["sandbox/public_pass_rate"], metrics["sandbox/hidden_pass_rate"]) == (1.0, 0.5)
    assert metrics["sandbox/visibility_gap"] == 0.5  # SHOWN's 1.0 - 0.0, GOOD's 0.0
    hidden = call(PassRateReward(suite, executor, RewardRules(reward_tests="hidden")), [chat(shown), chat(GOOD)], ids)
    assert hidden == [0.0, 1.0]  # what was shown earns nothing by itself
    # a multi-turn rollout's last answer is scored in place of the whole completion
    last = call(PassRateReward(suite, executor), [chat(GOOD + "\n" + shown)] * 2, ids, last_answer=[shown, GOOD])
    assert last == [0.25, 1.0]


def test_what_the_reward_logs_is_what_the_readers_read(suite):
    # One owner of the logged names (grpo_code.analysis.trainlog): the reward writes them; the run's curves,
    # summary and the step line read them. TRL names the reward's mean after its __name__.
    from collections import Counter

    from grpo_code.analysis.trainlog import REWARD_KEY, curves, node_seconds
    from grpo_code.display import step_line
    from grpo_code.rl.rewards import RewardStats
    from grpo_code.rl.train import visibility_figures

    logged: dict[str, float] = {}
    stats = RewardStats(Counter(passed=3, failed=1), 0.8, 1.5, dedup_hits=1, node_seconds={"a": 1.0, "b": 0.5},
                        public_pass_rate=0.9, hidden_pass_rate=0.7, visibility_gap=0.2, zero_std_groups=0.25)
    reward = PassRateReward(suite, executor=None)  # type: ignore[arg-type]  # _log needs none
    reward._log(stats, [], 4, logged.__setitem__, None, [])
    entry = {"step": 1, f"rewards/{reward.__name__}/mean": 0.8, **logged}
    assert REWARD_KEY in entry
    c = curves([entry])
    assert (c.pass_rate, c.statuses, c.sandbox_s) == ([0.8], {"passed": [0.75], "failed": [0.25]}, [1.5])
    assert c.zero_std == [0.25]
    assert node_seconds(entry) == {"a": 1.0, "b": 0.5}
    assert visibility_figures([entry])["mean_visibility_gap"] == 0.2
    assert step_line(7, entry) == ("step    7  reward 0.800  zero-std 25%  loss nan  step 0.0s  "
                                   "sandbox 1.50s [a 1.00s, b 0.50s]  (passed 75%, failed 25%)")


@pytest.mark.parametrize(("rewards", "group_size", "share"), [
    ([1.0, 1.0, 0.0, 1.0], 2, 0.5),  # (1, 1) equal; (0, 1) not
    ([0.5, 0.5, 0.5, 0.5, 0.0, 0.25, 0.25, 0.25], 4, 0.5),  # one group of four equal, one not
    ([0.2, 0.2 + 1e-12, 0.3, 0.3], 2, 1.0),  # equal up to float noise
    ([1.0, None, 1.0, 0.0, None, None], 3, 1.0),  # None left out of its group; (None, None) with one reward: no group
    ([None, None, 1.0, 0.0], 2, 0.0),  # a group of unscored rewards is no group
    ([None, 1.0], 2, None),  # no group with two scored rewards
    ([1.0, 1.0, 1.0], 2, None),  # not whole groups
    ([1.0, 1.0], 1, None),  # a group of one has no variance to speak of
    ([], 4, None),
])
def test_zero_variance_share_counts_groups_of_equal_rewards(rewards, group_size, share):
    assert zero_variance_share(rewards, group_size) == share
