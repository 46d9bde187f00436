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
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from grpo_code.errors import ConfigError
from grpo_code.extract import LANGUAGE_TAGS, find_code_blocks
from grpo_code.scoring import ascore
from grpo_code.tasks import TaskSuite
from sandbox import Executor
from sandbox.types import STATUSES

log = logging.getLogger(__name__)

REWARD_MODES = ("fraction", "binary")
FLAGGED_REWARDS = ("keep", "zero")


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


MASKED_WARNING = 0.05  # share of a step's completions with no reward above which training warns


@dataclass
class RewardStats:
    """What one call scored, over every training process: status counts, mean pass rate, seconds
    in the sandbox (the slowest process), dedup hits, each node's busy sandbox seconds (its pools'
    together, ``Executor.node_seconds``), how many completions the reward-hacking monitor
    flagged, and how many got no reward at all (``masked``: ``None``, which GRPO leaves out)."""

    statuses: Counter
    mean_pass_rate: float | None
    sandbox_s: float
    dedup_hits: int = 0
    node_seconds: dict[str, float] = field(default_factory=dict)
    flagged: int = 0
    masked: int = 0

    @property
    def n(self) -> int:
        return sum(self.statuses.values())


def process_rank() -> int:
    """This training process's rank (``RANK``, set by accelerate / torchrun; 0 alone)."""
    return int(os.environ.get("RANK", "0"))


def gather(payload) -> list:
    """Every training process's ``payload``, in rank order (``[payload]`` in a single process).
    Every process must call it the same number of times (TRL calls each reward function once per
    step on every process)."""
    dist = sys.modules.get("torch.distributed")
    if dist is None or not dist.is_available() or not dist.is_initialized() or dist.get_world_size() == 1:
        return [payload]
    from accelerate.utils import gather_object

    return gather_object([payload])


class PassRateReward:
    """The sandbox's verdict as a GRPO reward (a TRL reward function object, async).

    Args:
        suite: where each completion's task comes from (the data set's ``task_id`` column).
        executor: a started ``sandbox.Executor``; all completions of a step are batched into it.
        mode: ``fraction`` (passed tests / tests, default) or ``binary`` (1.0 only if all pass).
        no_code_penalty: subtracted when nothing runnable was extracted (reward ``-penalty``).
        compile_error_penalty: subtracted on a compile (or Python syntax) error.
        flagged_reward: ``keep`` (default): a verdict's flags (``sandbox.FLAGS``: what the program
            attempted against the harness) leave its reward as it is; ``zero``: a flagged
            completion gets 0. Penalising a monitor's flags can teach a policy to hide what it
            does rather than to stop (Baker et al. 2025, "Monitoring reasoning models for
            misbehavior"); the judge, not the penalty, is what makes hacks pay nothing.

    Returns (when called): one reward per completion, ``None`` where the sandbox failed after its
    retries (``sandbox_error``) or the call itself failed: never 0 for an infrastructure fault.
    """

    __name__ = "pass_rate"  # TRL names the logged metrics after it: rewards/pass_rate/mean

    def __init__(self, suite: TaskSuite, executor: Executor, mode: str = "fraction",
                 no_code_penalty: float = 0.0, compile_error_penalty: float = 0.0, flagged_reward: str = "keep"):
        if mode not in REWARD_MODES:
            raise ConfigError(f"reward mode must be one of {', '.join(REWARD_MODES)}, got {mode!r}")
        if flagged_reward not in FLAGGED_REWARDS:
            raise ConfigError(f"flagged reward must be one of {', '.join(FLAGGED_REWARDS)}, got {flagged_reward!r}")
        self.flagged_reward = flagged_reward
        self.suite = suite
        self.executor = executor
        self.mode = mode
        self.no_code_penalty = no_code_penalty
        self.compile_error_penalty = compile_error_penalty

    def reward_of(self, verdict) -> float | None:
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
        return rate

    async def __call__(self, prompts: Sequence, completions: Sequence, task_id: Sequence[str] | None = None,
                       log_metric=None, log_extra=None, **kwargs) -> list[float | None]:
        n = len(completions)
        scored, seconds, busy = [], 0.0, {}
        try:
            if task_id is None or len(task_id) != n:
                raise ValueError("the data set needs a task_id column aligned with the completions "
                                 "(TaskSuite.to_dataset() makes one)")
            items = [(self.suite.get(t), completion_text(c)) for t, c in zip(task_id, completions)]
            before = self.executor.node_seconds()
            started = time.perf_counter()
            scored = await ascore(self.executor, items)
            seconds = time.perf_counter() - started
            busy = {node: s - before.get(node, 0.0) for node, s in self.executor.node_seconds().items()}
        except Exception:  # a reward function that raises kills the training run
            log.exception("scoring %d completions failed; they get no reward (None) this step", n)
        verdicts = [s.verdict for s in scored]
        stats = self._gathered(verdicts, seconds, sum(s.deduplicated for s in scored), busy, n)
        self._log(stats, verdicts, n, log_metric, log_extra, list(task_id or ()))
        return [self.reward_of(v) for v in verdicts] if scored else [None] * n

    def _gathered(self, verdicts, seconds: float, hits: int, busy: dict[str, float], n: int) -> RewardStats:
        """This call's figures over every training process (reached on every path of ``__call__``:
        the other processes wait for this one's part)."""
        rates = [v.pass_rate for v in verdicts if v.pass_rate is not None]
        mine = (Counter(v.status for v in verdicts), sum(rates), len(rates), seconds, hits, busy,
                sum(bool(v.flags) for v in verdicts), len(verdicts) - len(rates) if verdicts else n)
        try:
            parts = gather(mine)
        except Exception:  # this process's own figures, rather than none
            log.exception("could not gather the sandbox figures of the other training processes")
            parts = [mine]
        statuses: Counter[str] = Counter()
        node_seconds: Counter[str] = Counter()
        for part in parts:
            statuses.update(part[0])
            node_seconds.update(part[5])
        total, count = sum(p[1] for p in parts), sum(p[2] for p in parts)
        return RewardStats(statuses, total / count if count else None, max(p[3] for p in parts),
                           sum(p[4] for p in parts), dict(node_seconds), sum(p[6] for p in parts),
                           sum(p[7] for p in parts))

    def _log(self, stats: RewardStats, verdicts, n: int, log_metric, log_extra, task_ids: list[str]) -> None:
        """Log this call's figures (``stats``, from ``_gathered``) and each completion's columns; warn
        loudly when more than ``MASKED_WARNING`` of the completions got no reward (``None``: GRPO
        learns nothing from them, and a judge that masks what programs break teaches breaking it)."""
        total = max(stats.n, stats.masked)
        if total and stats.masked / total > MASKED_WARNING and process_rank() == 0:
            log.warning("%d of %d completions (%.0f%%) got no reward this step (sandbox_error or checker_error): "
                        "they are masked, not scored. Check the sandbox (`grpo-code sandbox check`) and the "
                        "suite (`grpo-code tasks validate`)", stats.masked, total, 100 * stats.masked / total)
        try:
            if log_metric is not None:
                for status in STATUSES:
                    log_metric(f"sandbox/{status}", stats.statuses[status] / stats.n if stats.n else 0.0)
                if stats.mean_pass_rate is not None:
                    log_metric("sandbox/pass_rate", stats.mean_pass_rate)
                log_metric("sandbox/seconds", stats.sandbox_s)
                log_metric("sandbox/completions", stats.n)
                log_metric("sandbox/dedup_hits", stats.dedup_hits)
                log_metric("sandbox/flagged", stats.flagged / stats.n if stats.n else 0.0)
                log_metric("sandbox/masked", stats.masked / max(stats.n, stats.masked, 1))
                for node, seconds in sorted(stats.node_seconds.items()):
                    log_metric(f"sandbox/node/{node}/seconds", seconds)
            if log_extra is not None:
                log_extra("task_id", task_ids if len(task_ids) == n else ["-"] * n)
                log_extra("status", [v.status for v in verdicts] if verdicts else ["sandbox_error"] * n)
                log_extra("tests_passed", [f"{sum(t.status == 'passed' for t in v.test_results)}/{v.n_tests}"
                                           for v in verdicts] if verdicts else ["-"] * n)
                log_extra("rank", [process_rank()] * n)
                log_extra("flags", [",".join(v.flags) for v in verdicts] if verdicts else [""] * n)
        except Exception:  # logging must not end training either
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
