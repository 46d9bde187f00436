"""TRL reward functions: the sandbox's pass rate, and an optional format reward.

TRL (1.16) calls each reward function as ``f(prompts=..., completions=..., completion_ids=...,
<dataset columns>..., trainer_state=..., log_metric=..., log_extra=...)`` on each rank's share of
completions and expects one float (or None) per completion. ``None`` marks an unscorable
completion: TRL leaves it out of its group's baseline and gives it advantage 0 (GRPO, Shao et al.
2024: A_i = (r_i - mean_group(r)) / (std_group(r) + eps) over the scored r only). A reward
function that raises aborts training, so these never raise.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from grpo_code.extract import LANGUAGE_TAGS, find_code_blocks
from grpo_code.scoring import ascore
from grpo_code.tasks import TaskSuite
from sandbox import DockerExecutor
from sandbox.types import STATUSES

log = logging.getLogger(__name__)

REWARD_MODES = ("fraction", "binary")


def completion_text(completion) -> str:
    """The text of a completion: a string (standard data sets) or the last assistant message of a
    conversational completion (a list of ``{"role", "content"}`` dicts)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion:
        content = completion[-1].get("content", "") if isinstance(completion[-1], dict) else ""
        if isinstance(content, list):  # multimodal content parts
            return "".join(part.get("text", "") for part in content if isinstance(part, dict))
        return content or ""
    return ""


@dataclass
class RewardStats:
    """What one call scored: status counts, mean pass rate, seconds in the sandbox."""

    statuses: Counter
    mean_pass_rate: float | None
    sandbox_s: float


class PassRateReward:
    """The sandbox's verdict as a GRPO reward (a TRL reward function object, async).

    Args:
        suite: where each completion's task comes from (the data set's ``task_id`` column).
        executor: a started ``DockerExecutor``; all completions of a step are batched into it.
        mode: ``fraction`` (passed tests / tests, default) or ``binary`` (1.0 only if all pass).
        no_code_penalty: subtracted when nothing runnable was extracted (reward ``-penalty``).
        compile_error_penalty: subtracted on a compile (or Python syntax) error.

    Returns (when called): one reward per completion, ``None`` where the sandbox failed after its
    retries (``sandbox_error``) or the call itself failed: never 0 for an infrastructure fault.
    """

    __name__ = "pass_rate"  # TRL names the logged metrics after it: rewards/pass_rate/mean

    def __init__(self, suite: TaskSuite, executor: DockerExecutor, mode: str = "fraction",
                 no_code_penalty: float = 0.0, compile_error_penalty: float = 0.0):
        if mode not in REWARD_MODES:
            raise ValueError(f"reward mode must be one of {', '.join(REWARD_MODES)}, got {mode!r}")
        self.suite = suite
        self.executor = executor
        self.mode = mode
        self.no_code_penalty = no_code_penalty
        self.compile_error_penalty = compile_error_penalty
        self.last: RewardStats | None = None

    def reward_of(self, verdict) -> float | None:
        rate = verdict.pass_rate
        if rate is None:
            return None
        if verdict.status == "no_code":
            return 0.0 - self.no_code_penalty if self.no_code_penalty else 0.0
        if verdict.status == "compile_error":
            return 0.0 - self.compile_error_penalty if self.compile_error_penalty else 0.0
        if self.mode == "binary":
            return 1.0 if verdict.passed else 0.0
        return rate

    async def __call__(self, prompts: Sequence, completions: Sequence, task_id: Sequence[str] | None = None,
                       log_metric=None, log_extra=None, **kwargs) -> list[float | None]:
        n = len(completions)
        try:
            if task_id is None or len(task_id) != n:
                raise ValueError("the data set needs a task_id column aligned with the completions "
                                 "(TaskSuite.to_dataset() makes one)")
            items = [(self.suite.get(t), completion_text(c)) for t, c in zip(task_id, completions)]
            started = time.perf_counter()
            scored = await ascore(self.executor, items)
            seconds = time.perf_counter() - started
        except Exception:  # noqa: BLE001 - a reward function that raises kills the training run
            log.exception("scoring %d completions failed; they get no reward (None) this step", n)
            return [None] * n
        verdicts = [s.verdict for s in scored]
        rewards = [self.reward_of(v) for v in verdicts]
        rates = [v.pass_rate for v in verdicts if v.pass_rate is not None]
        self.last = RewardStats(Counter(v.status for v in verdicts), sum(rates) / len(rates) if rates else None,
                                seconds)
        self._log(verdicts, log_metric, log_extra, list(task_id))
        return rewards

    def _log(self, verdicts, log_metric, log_extra, task_ids: list[str]) -> None:
        stats = self.last
        try:
            if log_metric is not None:
                n = len(verdicts)
                for status in STATUSES:
                    log_metric(f"sandbox/{status}", stats.statuses[status] / n)
                if stats.mean_pass_rate is not None:
                    log_metric("sandbox/pass_rate", stats.mean_pass_rate)
                log_metric("sandbox/seconds", stats.sandbox_s)
            if log_extra is not None:
                log_extra("task_id", task_ids)
                log_extra("status", [v.status for v in verdicts])
                log_extra("tests_passed", [f"{sum(t.status == 'passed' for t in v.tests)}/{v.n_tests}"
                                           for v in verdicts])
        except Exception:  # noqa: BLE001 - logging must not end training either
            log.exception("could not log sandbox metrics")


class FormatReward:
    """1.0 when the answer holds exactly one fenced code block in the task's language, else 0.0.

    Cheap and synchronous; meant as a small extra reward (``reward_weights``) for chat models.
    """

    __name__ = "format"

    def __init__(self, suite: TaskSuite):
        self.suite = suite

    def __call__(self, prompts, completions, task_id=None, **kwargs) -> list[float]:
        rewards = []
        for i, completion in enumerate(completions):
            language = self.suite.get(task_id[i]).language if task_id is not None else "python"
            blocks = [b for b in find_code_blocks(completion_text(completion), language)
                      if b.tag in LANGUAGE_TAGS[language] and b.closed]
            rewards.append(1.0 if len(blocks) == 1 else 0.0)
        return rewards
