"""The reward rules: how a verdict becomes a GRPO reward, owned once.

Pure (no executor, no TRL): ``RewardRules`` is a frozen value that checks itself when it is made,
naming each option as its caller's users write it (``grpo-code train``'s ``--reward_mode``, a
script's ``mode``), and turns a verdict into a reward. ``rewards.PassRateReward`` holds one, and
the environment and the feedback rollout read the same one through it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from grpo_code.errors import ConfigError
from grpo_code.options import spelled
from grpo_code.score.scoring import Scored
from grpo_code.suites.tasks import TaskSuite
from grpo_code.suites.visibility import HIDDEN, restrict
from sandbox.types import Verdict

REWARD_MODES = ("fraction", "binary")
FLAGGED_REWARDS = ("keep", "zero")
REWARD_TESTS = ("all", "hidden")


@dataclass(frozen=True)
class RewardRules:
    """What a verdict earns.

    Attributes:
        mode: ``fraction`` (passed tests / tests, default) or ``binary`` (1.0 only if all pass).
        all_pass_bonus: added to a ``fraction`` reward when every test passed (0: none), so that a
            whole program is worth more than its last test: a group whose best answer passes
            everything then stands apart from one whose best misses an edge case, while partial
            answers keep their signal (docs/training.md, "The reward's shape").
        no_code_penalty: subtracted when nothing runnable was extracted (reward ``-penalty``).
        compile_error_penalty: subtracted on a compile (or Python syntax) error.
        flagged_reward: ``keep`` (default): a verdict's flags (``sandbox.FLAGS``: what the program
            attempted against the harness) leave its reward as it is; ``zero``: a flagged
            completion gets 0. Penalising a monitor's flags can teach a policy to hide what it
            does rather than to stop (Baker et al. 2025, "Monitoring reasoning models for
            misbehavior"); the judge, not the penalty, is what makes hacks pay nothing.
        reward_tests: ``all`` (default): the verdict on every test of the task; ``hidden``: on its
            hidden tests only (``visibility.restrict``), so that passing the tests a model was
            shown earns nothing by itself. Every task must then have hidden tests (``check_suite``).
        option_names: how the caller's users spell these options, for the messages
            (``{"mode": "--reward_mode", ...}``); default: the attributes' names.

    Raises:
        ConfigError: an unknown mode, flagged reward or choice of tests, or a negative bonus (or one
            with ``binary``), named as ``option_names`` says.

    Example:
        >>> from sandbox import TestResult, Verdict
        >>> half = Verdict("failed", (TestResult("passed"), TestResult("failed")), n_tests=2)
        >>> RewardRules().reward_of(half), RewardRules(mode="binary").reward_of(half)
        (0.5, 0.0)
        >>> whole = Verdict("passed", (TestResult("passed"), TestResult("passed")), n_tests=2)
        >>> RewardRules(all_pass_bonus=0.5).reward_of(whole), RewardRules(all_pass_bonus=0.5).reward_of(half)
        (1.5, 0.5)
        >>> RewardRules(mode="partial", option_names={"mode": "--reward_mode"})
        Traceback (most recent call last):
        ...
        grpo_code.errors.ConfigError: --reward_mode must be one of fraction, binary, got 'partial'
    """

    mode: str = "fraction"
    all_pass_bonus: float = 0.0
    no_code_penalty: float = 0.0
    compile_error_penalty: float = 0.0
    flagged_reward: str = "keep"
    reward_tests: str = "all"
    option_names: Mapping[str, str] | None = None

    def __post_init__(self) -> None:
        for name, value, choices in (("mode", self.mode, REWARD_MODES),
                                     ("flagged_reward", self.flagged_reward, FLAGGED_REWARDS),
                                     ("reward_tests", self.reward_tests, REWARD_TESTS)):
            if value not in choices:
                raise ConfigError(f"{self._name(name)} must be one of {', '.join(choices)}, got {value!r}")
        if self.all_pass_bonus < 0:
            raise ConfigError(f"{self._name('all_pass_bonus')} must be >= 0, got {self.all_pass_bonus}")
        if self.all_pass_bonus and self.mode == "binary":
            raise ConfigError(f"{self._name('all_pass_bonus')} needs {self._name('mode')} fraction "
                              "(binary pays only a whole program already)")

    def _name(self, option: str) -> str:
        return spelled(option, self.option_names)

    def check_suite(self, suite: TaskSuite) -> None:
        """Raises ConfigError unless every task of ``suite`` can be rewarded by these rules: with
        ``reward_tests=hidden``, each needs a hidden test."""
        if self.reward_tests == HIDDEN:
            without = [t.task_id for t in suite if not t.hidden_tests]
            if without:
                raise ConfigError(f"{self._name('reward_tests')} hidden needs a hidden test in every task; "
                                  f"{len(without)} task(s) have none (the first: {without[0]}): mark tests hidden, "
                                  "or reward all tests")

    def reward_of(self, verdict: Verdict) -> float | None:
        """The reward of a verdict: None without a pass rate (``sandbox_error``, a ``checker_error``
        test), the penalties of ``no_code`` and ``compile_error``, a flagged verdict's 0 under
        ``zero``, then the pass rate (``fraction``, plus ``all_pass_bonus`` when every test passed) or
        1.0 only when every test passed (``binary``)."""
        rate = verdict.pass_rate
        if rate is None:
            return None
        if verdict.status == "no_code":
            return 0.0 - self.no_code_penalty if self.no_code_penalty else 0.0
        if verdict.status == "compile_error":
            return 0.0 - self.compile_error_penalty if self.compile_error_penalty else 0.0
        if verdict.flags and self.flagged_reward == "zero":
            return 0.0
        if self.mode == "binary":
            return 1.0 if verdict.passed else 0.0
        return rate + self.all_pass_bonus if verdict.passed else rate

    def reward_of_scored(self, scored: Scored) -> float | None:
        """The reward of a scored completion: ``reward_of`` its verdict on the tests that
        ``reward_tests`` names."""
        verdict = scored.verdict
        if self.reward_tests == HIDDEN:
            verdict = restrict(verdict, scored.visibility, HIDDEN)
        return self.reward_of(verdict)
