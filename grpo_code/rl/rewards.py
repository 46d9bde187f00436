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

from grpo_code.analysis.trainlog import REWARD_NAME, node_seconds_key, sandbox_key
from grpo_code.rl.rules import RewardRules
from grpo_code.score.scoring import Scored, ascore_completions, check_executor
from grpo_code.suites.extract import LANGUAGE_TAGS, find_code_blocks
from grpo_code.suites.tasks import TaskSuite
from sandbox import Executor
from sandbox.types import STATUSES

log = logging.getLogger(__name__)

DEFAULT_RULES = RewardRules()

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


def zero_variance_share(rewards: Sequence[float | None], group_size: int) -> float | None:
    """The share of GRPO groups whose rewards are all equal (advantage 0 for each member: nothing
    learned from them). A group is ``group_size`` consecutive rewards, as TRL orders a step's
    completions over every process (a prompt's completions side by side); unscored ones (None) are
    left out of their group, and a group with fewer than two scored rewards is left out of the share.

    TRL's own ``frac_reward_zero_std`` is this share only under ``scale_rewards="group"`` or
    ``"none"``: under ``"batch"`` it says whether the whole batch's rewards were equal.

    Returns:
        The share in [0, 1]; None when no group has two scored rewards, or ``rewards`` does not
        split into groups of ``group_size``.
    """
    if group_size < 2 or not rewards or len(rewards) % group_size:
        return None
    groups = [[r for r in rewards[i:i + group_size] if r is not None] for i in range(0, len(rewards), group_size)]
    scored = [g for g in groups if len(g) >= 2]
    if not scored:
        return None
    return sum(max(g) - min(g) <= 1e-9 for g in scored) / len(scored)


@dataclass
class RewardStats:
    """What one call scored, over every training process: status counts, mean pass rate, seconds
    in the sandbox (the slowest process), dedup hits, each node's busy sandbox seconds (its pools'
    together, ``Executor.node_seconds``), how many completions the reward-hacking monitor
    flagged, how many got no reward at all (``masked``: ``None``, which GRPO leaves out), and the
    mean pass rate on public and on hidden tests and their gap (``grpo_code.suites.visibility``; None
    where no completion had such tests), the share of the step's groups whose rewards were all
    equal (``zero_variance_share``; None without a group size), and the completions of canary
    tasks and how many of them passed every test (``grpo_code.rl.canaries``: each a cheat)."""

    statuses: Counter
    mean_pass_rate: float | None
    sandbox_s: float
    dedup_hits: int = 0
    node_seconds: dict[str, float] = field(default_factory=dict)
    flagged: int = 0
    masked: int = 0
    public_pass_rate: float | None = None
    hidden_pass_rate: float | None = None
    visibility_gap: float | None = None
    zero_std_groups: float | None = None
    canary_completions: int = 0
    canary_passes: int = 0

    @property
    def cheat_rate(self) -> float | None:
        """The share of canary completions that passed every test (None: no canary this step)."""
        return self.canary_passes / self.canary_completions if self.canary_completions else None

    @property
    def n(self) -> int:
        """Completions scored (every status counted)."""
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
    r"""The sandbox's verdict as a GRPO reward (a TRL reward function object, async).

    Args:
        suite: where each completion's task comes from (the data set's ``task_id`` column).
        executor: a started ``sandbox.Executor`` in the suite's image (``make_executor(packages=
            suite.packages)``: ``scoring.check_executor``); all completions of a step are batched into it.
        rules: what a verdict earns (``rules.RewardRules``: the mode, the penalties, flagged
            verdicts, which tests); checked against ``suite`` here (``RewardRules.check_suite``).
        group_size: the completions per prompt (TRL's ``num_generations``), to log the share of
            groups whose rewards were all equal (``zero_variance_share``); None: not logged.
        canaries: the ids of the canary tasks among the suite's (``grpo_code.rl.canaries``): never
            rewarded above 0, and each of their completions that passes every test counted as a
            cheat (``sandbox/cheat_rate``, and a warning).

    Returns (when called): one reward per completion, ``None`` where the sandbox failed after its
    retries (``sandbox_error``) or the call itself failed: never 0 for an infrastructure fault.

    Example:
        >>> import asyncio
        >>> from grpo_code import PassRateReward, RewardRules, load_suite, make_executor
        >>> suite = load_suite("warmup-python")
        >>> right = "```python\ndef add(a, b):\n    return a + b\n```"
        >>> with make_executor(concurrency=2) as executor:  # GRPOTrainer(reward_funcs=[reward], ...) calls it so
        ...     reward = PassRateReward(suite, executor, RewardRules(mode="binary"))
        ...     rewards = asyncio.run(reward(prompts=["", ""], completions=[right, "no code"],
        ...                                  task_id=["warmup-python/add"] * 2))
        >>> rewards
        [1.0, 0.0]
    """

    __name__ = REWARD_NAME  # TRL names the logged metrics after it: trainlog.REWARD_KEY

    def __init__(self, suite: TaskSuite, executor: Executor, rules: RewardRules = DEFAULT_RULES,
                 group_size: int | None = None, canaries: frozenset[str] = frozenset()):
        rules.check_suite(suite)
        check_executor(executor, suite)
        self.suite = suite
        self.executor = executor
        self.rules = rules
        self.group_size = group_size
        self.canaries = frozenset(canaries)

    def canary_cap(self, task_id: str, reward: float | None) -> float | None:
        """``reward``, but never above 0 for a canary task (nothing to learn from one)."""
        return min(reward, 0.0) if reward is not None and task_id in self.canaries else reward

    async def __call__(self, prompts: Sequence, completions: Sequence, task_id: Sequence[str] | None = None,
                       log_metric=None, log_extra=None, **kwargs) -> list[float | None]:
        """One reward per completion (TRL's reward-function call; see the module docstring), the
        step's sandbox figures logged through ``log_metric`` and each completion's verdict
        columns through ``log_extra``. Never raises: a failed call gives every completion None."""
        n = len(completions)
        scored: list[Scored] = []
        rewards: list[float | None] = [None] * n
        seconds, busy = 0.0, {}
        try:
            if task_id is None or len(task_id) != n:
                raise ValueError("the data set needs a task_id column aligned with the completions "
                                 "(TaskSuite.to_dataset() makes one)")
            before = self.executor.node_seconds()
            started = time.perf_counter()
            scored = await self._score(completions, list(task_id), **kwargs)
            seconds = time.perf_counter() - started
            busy = {node: s - before.get(node, 0.0) for node, s in self.executor.node_seconds().items()}
            rewards = [self.canary_cap(t, r) for t, r in
                       zip(task_id, await self._rewards(scored, list(task_id), **kwargs), strict=True)]
        except Exception:  # a reward function that raises kills the training run
            log.exception("scoring %d completions failed; they get no reward (None) this step", n)
            scored, rewards = [], [None] * n
        stats = self._gathered(scored, seconds, sum(s.deduplicated for s in scored), busy, rewards,
                               list(task_id or ()))
        self._log(stats, [s.verdict for s in scored], n, log_metric, log_extra, list(task_id or ()))
        return rewards

    async def _score(self, completions: Sequence, task_ids: list[str], **kwargs) -> list[Scored]:
        """Each completion scored on its task, in order (one batch). ``last_answer`` (a column a
        multi-turn rollout gives, ``grpo_code.rl.rollout``) is scored in place of the completion
        where present: the answer of its last turn."""
        last = kwargs.get("last_answer")
        texts = [a if isinstance(a, str) else completion_text(c)
                 for a, c in zip(last if isinstance(last, list) else [None] * len(completions), completions,
                                 strict=True)]
        return await ascore_completions(self.executor, [(self.suite.get(t), text)
                                                        for t, text in zip(task_ids, texts, strict=True)])

    async def _rewards(self, scored: list[Scored], task_ids: Sequence[str], **kwargs) -> list[float | None]:
        """The reward of each scored completion (``RewardRules.reward_of_scored``); a subclass may score more."""
        return [self.rules.reward_of_scored(s) for s in scored]

    def _gathered(self, scored: list[Scored], seconds: float, hits: int, busy: dict[str, float],
                  rewards: list[float | None], task_ids: list[str]) -> RewardStats:
        """This call's figures over every training process (reached on every path of ``__call__``:
        the other processes wait for this one's part); ``rewards`` are this process's, in order."""
        verdicts = [s.verdict for s in scored]
        rates = [v.pass_rate for v in verdicts if v.pass_rate is not None]
        public = [r for r in (s.public_pass_rate for s in scored) if r is not None]
        hidden = [r for r in (s.hidden_pass_rate for s in scored) if r is not None]
        gaps = [p - h for p, h in ((s.public_pass_rate, s.hidden_pass_rate) for s in scored)
                if p is not None and h is not None]
        mine = (Counter(v.status for v in verdicts), sum(rates), len(rates), seconds, hits, busy,
                sum(bool(v.flags) for v in verdicts), (sum(public), len(public)), (sum(hidden), len(hidden)),
                (sum(gaps), len(gaps)), rewards, self._canary_counts(scored, task_ids))
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

        def mean(index: int) -> float | None:
            total, count = sum(p[index][0] for p in parts), sum(p[index][1] for p in parts)
            return total / count if count else None

        total, count = sum(p[1] for p in parts), sum(p[2] for p in parts)
        every = [r for p in parts for r in p[10]]  # the step's rewards, in TRL's order (rank by rank)
        return RewardStats(statuses, total / count if count else None, max(p[3] for p in parts),
                           sum(p[4] for p in parts), dict(node_seconds), sum(p[6] for p in parts),
                           public_pass_rate=mean(7), hidden_pass_rate=mean(8), visibility_gap=mean(9),
                           masked=sum(r is None for r in every),
                           zero_std_groups=None if self.group_size is None else
                           zero_variance_share(every, self.group_size),
                           canary_passes=sum(p[11][0] for p in parts), canary_completions=sum(p[11][1] for p in parts))

    def _canary_counts(self, scored: list[Scored], task_ids: list[str]) -> tuple[int, int]:
        """``(passes, completions)`` of the canary tasks among this process's completions."""
        if not self.canaries or len(task_ids) != len(scored):
            return 0, 0
        canary = [s for s, t in zip(scored, task_ids, strict=True) if t in self.canaries]
        return sum(s.verdict.passed for s in canary), len(canary)

    def _log(self, stats: RewardStats, verdicts, n: int, log_metric, log_extra, task_ids: list[str]) -> None:
        """Log this call's figures (``stats``, from ``_gathered``) and each completion's columns; warn
        loudly when more than ``MASKED_WARNING`` of the completions got no reward (``None``: GRPO
        learns nothing from them, and a judge that masks what programs break teaches breaking it)."""
        total = max(stats.n, stats.masked)
        if total and stats.masked / total > MASKED_WARNING and process_rank() == 0:
            log.warning("%d of %d completions (%.0f%%) got no reward this step (sandbox_error or checker_error): "
                        "they are masked, not scored. Check the sandbox (`grpo-code sandbox check`) and the "
                        "suite (`grpo-code tasks validate`)", stats.masked, total, 100 * stats.masked / total)
        if stats.canary_passes and process_rank() == 0:
            log.warning("CHEATING: %d of %d completions of canary tasks passed every test this step (cheat rate "
                        "%.0f%%). No honest program passes a canary: the policy games its tests or the judge. "
                        "Read those completions (completions/*.parquet, their task_id starts with canaries/)",
                        stats.canary_passes, stats.canary_completions, 100 * (stats.cheat_rate or 0.0))
        try:
            if log_metric is not None:
                for status in STATUSES:
                    log_metric(sandbox_key(status), stats.statuses[status] / stats.n if stats.n else 0.0)
                if stats.mean_pass_rate is not None:
                    log_metric(sandbox_key("pass_rate"), stats.mean_pass_rate)
                for key in ("public_pass_rate", "hidden_pass_rate", "visibility_gap", "zero_std_groups", "cheat_rate"):
                    if getattr(stats, key) is not None:
                        log_metric(sandbox_key(key), getattr(stats, key))
                log_metric(sandbox_key("seconds"), stats.sandbox_s)
                log_metric(sandbox_key("completions"), stats.n)
                if self.canaries:
                    log_metric(sandbox_key("canaries"), stats.canary_completions)
                log_metric(sandbox_key("dedup_hits"), stats.dedup_hits)
                log_metric(sandbox_key("flagged"), stats.flagged / stats.n if stats.n else 0.0)
                log_metric(sandbox_key("masked"), stats.masked / max(stats.n, stats.masked, 1))
                for node, seconds in sorted(stats.node_seconds.items()):
                    log_metric(node_seconds_key(node), seconds)
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
    r"""1.0 when the answer holds exactly one fenced code block in the task's language, else 0.0.

    Cheap and synchronous; meant as a small extra reward (``reward_weights``) for chat models. A
    canary task's completion (``canaries``, as ``PassRateReward`` takes them) always gets 0.0:
    nothing is learned from a canary.

    Example:
        >>> from grpo_code import FormatReward, load_suite
        >>> reward = FormatReward(load_suite("warmup-python"))
        >>> reward(None, ["```python\nx = 1\n```", "x = 1"], task_id=["warmup-python/add"] * 2)
        [1.0, 0.0]
    """

    __name__ = "format"

    def __init__(self, suite: TaskSuite, canaries: frozenset[str] = frozenset()):
        self.suite = suite
        self.canaries = frozenset(canaries)

    def __call__(self, prompts, completions, task_id=None, **kwargs) -> list[float]:
        """1.0 or 0.0 per completion (TRL's reward-function call), by its task's language."""
        rewards = []
        for i, completion in enumerate(completions):
            if task_id is not None and task_id[i] in self.canaries:
                rewards.append(0.0)
                continue
            language = self.suite.get(task_id[i]).language if task_id is not None else "python"
            blocks = [b for b in find_code_blocks(completion_text(completion), language)
                      if b.tag in LANGUAGE_TAGS[language] and b.closed]
            rewards.append(1.0 if len(blocks) == 1 else 0.0)
        return rewards
