"""Feedback as a user turn, for models that do not call tools: a multi-turn rollout for TRL.

``FeedbackRollout`` is a TRL ``rollout_func`` (``GRPOTrainer(rollout_func=...)``): the policy
answers; the program of its answer runs on the task's **public** tests (``scoring.score_completions``, the
executor every reward uses); the report (``feedback.public_report``, nothing of a hidden test) is
appended as the next user message; the policy answers again, up to ``max_turns`` answers. A
rollout stops early when its answer passes every public test, when the completion budget
(``max_completion_length``, all turns together) or the model's context would be exceeded, or when
its task has no public test. An answer cut by the per-answer token cap (``max_new_tokens``) gets
its end-of-turn token from the rollout (masked) and its report like any other.

Generation is TRL's own (``trl.GRPOTrainer._generate_single_turn``: transformers, paged or vLLM, as
configured), and the turns are joined by token ids, as TRL's tool loop joins a tool's result: the
feedback turns' tokens are masked out of the loss (``env_mask``) and get logprob 0. The rollout
hands the reward functions each rollout's ``last_answer`` and ``first_answer`` (extra columns):
``PassRateReward`` scores the last answer on all tests (or the hidden ones), and
``FeedbackReward`` may add an improvement bonus, ``bonus * (r_last - r_first)`` (rLLM's
competition-coding environment rewarded improvement so).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from grpo_code.analysis.trainlog import FEEDBACK_TURNS_KEY
from grpo_code.errors import ConfigError
from grpo_code.options import spelled
from grpo_code.rl.rewards import DEFAULT_RULES, PassRateReward
from grpo_code.rl.rules import RewardRules
from grpo_code.score.feedback import ReportLimits, public_report
from grpo_code.score.scoring import Scored, ascore_completions, score_completions
from grpo_code.suites.tasks import Task, TaskSuite
from sandbox import Executor

log = logging.getLogger(__name__)

RETRY_REQUEST = "Fix the program so that every test passes, and answer with the complete program again."


@dataclass(frozen=True)
class FeedbackSettings:
    """How a feedback rollout goes.

    Attributes:
        max_turns: answers per rollout, the first included (2: one feedback turn at most).
        improvement_bonus: ``FeedbackReward``'s coefficient of the improvement from the first
            answer to the last (>= 0; 0: the last answer's reward alone).
        report: how much a report may say (``feedback.ReportLimits``).
        option_names: how the caller's users spell these options, for the messages
            (``{"max_turns": "--feedback_turns", ...}``); default: the attributes' names.

    Raises:
        ConfigError: ``max_turns`` below 1 or a negative ``improvement_bonus``.
    """

    max_turns: int = 2
    improvement_bonus: float = 0.0
    report: ReportLimits = field(default_factory=ReportLimits)
    option_names: Mapping[str, str] | None = None

    def __post_init__(self) -> None:
        if self.max_turns < 1:
            raise ConfigError(f"{spelled('max_turns', self.option_names)} must be >= 1, got {self.max_turns}")
        if self.improvement_bonus < 0:
            raise ConfigError(f"{spelled('improvement_bonus', self.option_names)} must be >= 0, "
                              f"got {self.improvement_bonus}")


DEFAULT_FEEDBACK = FeedbackSettings()


@dataclass
class _Rollout:
    """One rollout being built: its task, token ids, loss mask, logprobs and answers."""

    task: Task
    prompt_ids: list[int]
    completion_ids: list[int] = field(default_factory=list)
    env_mask: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    open: bool = True
    cut: bool = False  # the last answer ended without its end-of-turn token


def check_distinct_prompts(suite: TaskSuite) -> dict[str, Task]:
    """Each formatted prompt of ``suite`` -> its task (a rollout function is given prompts only).

    Raises:
        ConfigError: two tasks have the same prompt.
    """
    by_prompt: dict[str, Task] = {}
    for task in suite:
        text = suite.format_prompt(task)
        if text in by_prompt:
            raise ConfigError(f"tasks {by_prompt[text].task_id!r} and {task.task_id!r} have the same prompt, and "
                              "feedback turns find a prompt's task by its text: make the prompts differ")
        by_prompt[text] = task
    return by_prompt


class FeedbackRollout:
    """A TRL ``rollout_func`` with the public-test report as a user turn between answers.

    Args:
        suite: the training suite; each prompt's task is found by its text (the user message the
            data set holds: ``TaskSuite.to_dataset``), so no two tasks may share a prompt.
        executor: a started executor (the one the reward functions use).
        settings: ``FeedbackSettings``.

    Raises:
        ConfigError: two tasks of the suite have the same prompt.
    """

    def __init__(self, suite: TaskSuite, executor: Executor, settings: FeedbackSettings | None = None):
        self.suite = suite
        self.executor = executor
        self.settings = settings or FeedbackSettings()
        self._by_prompt = check_distinct_prompts(suite)
        self._public: dict[str, Task] = {}

    def task_of(self, prompt) -> Task:
        """The task of a data set prompt (chat messages: its last user message; or text)."""
        text = prompt if isinstance(prompt, str) else prompt[-1]["content"]
        try:
            return self._by_prompt[text]
        except (KeyError, TypeError):
            raise ValueError("a prompt that is no task's of the suite reached the feedback rollout") from None

    def __call__(self, prompts: list, trainer) -> dict:
        """Generate every prompt's rollout (TRL calls it with this process's prompts, a group's
        copies one after the other); returns TRL's ``prompt_ids``, ``completion_ids``,
        ``logprobs`` and ``env_mask``, and the ``last_answer``, ``first_answer`` and
        ``feedback_turns`` columns."""
        generate = getattr(trainer, "_generate_single_turn", None)
        if generate is None:
            raise RuntimeError("feedback turns need trl.GRPOTrainer 1.16's generation (_generate_single_turn)")
        tokenizer = trainer.processing_class
        rollouts = [_Rollout(self.task_of(p), self._prompt_ids(tokenizer, p, trainer)) for p in prompts]
        first_group = trainer.num_generations if trainer.model.training else trainer.num_generations_eval
        with_logprobs = True
        for turn in range(self.settings.max_turns):
            active = [r for r in rollouts if r.open]
            if not active:
                break
            if turn == 0:
                inputs = [r.prompt_ids for r in active]
            else:
                inputs = self._feedback(active, tokenizer, trainer)
                active = [r for r in active if r.open]
                if not active:
                    break
            ids, logprobs = generate(inputs, None, {}, first_group if turn == 0 else 1)
            with_logprobs = with_logprobs and logprobs is not None
            for k, r in enumerate(active):
                room = trainer.max_completion_length - len(r.completion_ids)
                new = list(ids[k])[:max(room, 0)]
                r.completion_ids += new
                r.env_mask += [1] * len(new)
                r.logprobs += list(logprobs[k])[:len(new)] if logprobs is not None else [0.0] * len(new)
                r.answers.append(tokenizer.decode(new, skip_special_tokens=True))
                r.cut = not new or new[-1] not in _end_ids(trainer)
                r.open = len(r.completion_ids) < trainer.max_completion_length
        return {"prompt_ids": [r.prompt_ids for r in rollouts],
                "completion_ids": [r.completion_ids for r in rollouts],
                "logprobs": [r.logprobs for r in rollouts] if with_logprobs else None,
                "env_mask": [r.env_mask for r in rollouts],
                "last_answer": [r.answers[-1] if r.answers else "" for r in rollouts],
                "first_answer": [r.answers[0] if r.answers else "" for r in rollouts],
                "feedback_turns": [max(len(r.answers) - 1, 0) for r in rollouts]}

    def _feedback(self, active: list[_Rollout], tokenizer, trainer) -> list[list[int]]:
        """Run each active rollout's last answer on its public tests and append the report as a
        user turn; returns the next turn's inputs (rollouts with nothing to fix or no room are
        closed)."""
        for r in active:
            if not r.task.public_tests:
                r.open = False
        checked = [r for r in active if r.open]
        publics = [self._public_task(r.task) for r in checked]
        pairs = [(t, r.answers[-1]) for t, r in zip(publics, checked, strict=False)]
        scored = score_completions(self.executor, pairs) if checked else []
        limit = _max_model_len(trainer)
        inputs = []
        for r, task, s in zip(checked, publics, scored, strict=False):
            if s.verdict.passed:
                r.open = False
                continue
            report = public_report(task.tests, s.verdict, self.settings.report)
            suffix = user_turn_ids(tokenizer, f"{report}\n\n{RETRY_REQUEST}", trainer.chat_template_kwargs)
            if r.cut:  # the answer was cut: its turn is closed for it
                suffix = [tokenizer.eos_token_id, *suffix]
            total = len(r.completion_ids) + len(suffix)
            if total >= trainer.max_completion_length or len(r.prompt_ids) + total >= limit:
                r.open = False
                continue
            r.completion_ids += suffix
            r.env_mask += [0] * len(suffix)
            r.logprobs += [0.0] * len(suffix)
            inputs.append(r.prompt_ids + r.completion_ids)
        return inputs

    def _public_task(self, task: Task) -> Task:
        if task.task_id not in self._public:
            self._public[task.task_id] = replace(task, tests=task.public_tests)
        return self._public[task.task_id]

    @staticmethod
    def _prompt_ids(tokenizer, prompt, trainer) -> list[int]:
        if isinstance(prompt, str):
            return tokenizer(prompt, add_special_tokens=False)["input_ids"]
        return tokenizer.apply_chat_template(prompt, add_generation_prompt=True, tokenize=True, return_dict=True,
                                             **trainer.chat_template_kwargs)["input_ids"]


def user_turn_ids(tokenizer, content: str, template_kwargs: dict | None = None) -> list[int]:
    """The token ids that follow an assistant turn's end-of-turn token when a user message
    ``content`` comes next: the rest of the end of the turn, the user turn, and the next
    assistant turn's header (as TRL finds a tool result's ids: render a short conversation with
    and without the message and keep the difference).

    Raises:
        ValueError: the chat template renders the earlier turns differently once a message is
            added (it is not prefix-preserving), so the turns cannot be joined by ids.
    """
    kwargs = template_kwargs or {}
    base = [{"role": "user", "content": "dummy"}, {"role": "assistant", "content": "dummy"}]
    before = tokenizer.apply_chat_template(base, tokenize=True, return_dict=True, **kwargs)["input_ids"]
    after = tokenizer.apply_chat_template([*base, {"role": "user", "content": content}], add_generation_prompt=True,
                                          tokenize=True, return_dict=True, **kwargs)["input_ids"]
    ends = [i for i, token in enumerate(before) if token == tokenizer.eos_token_id]
    if ends:
        before = before[: ends[-1] + 1]
    if after[: len(before)] != before:
        raise ValueError("the chat template is not prefix-preserving: feedback turns cannot be joined by token ids")
    return after[len(before):]


def _end_ids(trainer) -> set[int]:
    """The ids that end an answer: the trainer's end-of-sequence ids and the pad id."""
    return {*trainer.eos_token_ids, trainer.processing_class.pad_token_id}


def _max_model_len(trainer) -> int:
    """The most tokens a sequence may hold: vLLM's in colocate mode, else the model's positions."""
    if getattr(trainer, "use_vllm", False) and getattr(trainer, "vllm_mode", "") == "colocate":
        return trainer.vllm_generation.llm.llm_engine.model_config.max_model_len
    config = trainer.model.config
    config = getattr(config, "text_config", None) or config
    return getattr(config, "max_position_embeddings", None) or 1 << 30


class FeedbackReward(PassRateReward):
    """``PassRateReward`` on the rollout's last answer, with an improvement bonus: the reward is
    ``r_last + bonus * (r_last - r_first)``, both on the tests ``reward_tests`` names (the first
    answer is scored too, in one batch, where it differs from the last); ``r_last`` where
    ``r_first`` has no value, None where ``r_last`` has none.

    Args:
        settings: the rollout's ``FeedbackSettings`` (its ``improvement_bonus``: the coefficient;
            0 is ``PassRateReward`` on the last answer).
        Others: ``PassRateReward``'s.
    """

    def __init__(self, suite: TaskSuite, executor: Executor, rules: RewardRules = DEFAULT_RULES,
                 settings: FeedbackSettings = DEFAULT_FEEDBACK, group_size: int | None = None):
        super().__init__(suite, executor, rules, group_size)
        self.improvement_bonus = settings.improvement_bonus

    async def __call__(self, prompts: Sequence, completions: Sequence, task_id: Sequence[str] | None = None,
                       log_metric=None, log_extra=None, feedback_turns=None, **kwargs) -> list[float | None]:
        """The rewards of the last answers (and the bonus), with the turns each rollout took (logged)."""
        rewards = await super().__call__(prompts, completions, task_id=task_id, log_metric=log_metric,
                                         log_extra=log_extra, feedback_turns=feedback_turns, **kwargs)
        turns = list(feedback_turns) if isinstance(feedback_turns, list) else []
        try:
            if log_extra is not None:
                log_extra("feedback_turns", turns if len(turns) == len(completions) else [0] * len(completions))
            if log_metric is not None and turns:
                log_metric(FEEDBACK_TURNS_KEY, sum(turns) / len(turns))
        except Exception:
            log.exception("could not log the feedback turns")
        return rewards

    async def _rewards(self, scored: list[Scored], task_ids: Sequence[str], **kwargs) -> list[float | None]:
        last = [self.rules.reward_of_scored(s) for s in scored]
        first_answers, last_answers = kwargs.get("first_answer"), kwargs.get("last_answer")
        if not self.improvement_bonus or not isinstance(first_answers, list) or not isinstance(last_answers, list):
            return last
        changed = [i for i, (a, b) in enumerate(zip(first_answers, last_answers, strict=False)) if a != b]
        firsts = await ascore_completions(self.executor, [(self.suite.get(task_ids[i]), first_answers[i])
                                                          for i in changed])
        first = list(last)
        for i, s in zip(changed, firsts, strict=False):
            first[i] = self.rules.reward_of_scored(s)
        return [r if r is None or f is None else r + self.improvement_bonus * (r - f)
                for r, f in zip(last, first, strict=False)]
