"""A training environment for TRL's ``environment_factory``: test on the public tests, be scored on all.

TRL 1.16's ``GRPOTrainer(environment_factory=...)`` makes one environment per rollout (pooled and
reused across steps, many alive at once), calls ``reset(**row)`` with the data set's row before
generation, offers every public method as a tool the model may call, and once the rollout has
ended calls ``get_reward()``: a reward column named after the class, weight 1.

``CodeEnvironment`` offers one tool, ``run_tests(code)``: the program runs on the task's
**public** tests only, through the same scoring path and executor as everything else
(``scoring.ascore_completions``), and the model reads a bounded report (``feedback.public_report``) that
holds nothing of a hidden test. The last program the model passed to ``run_tests`` is its
answer: ``get_reward`` scores it on **all** tests (or on the hidden ones: ``reward_tests``) with
``PassRateReward``'s rules (None only where the sandbox failed; it never raises). Calls beyond
``max_tool_calls`` are not run (the program still becomes the answer).

Every environment of a training process shares one ``CodeEnvironmentFactory``: one executor (no
pool per rollout) and the reward rules. ``EnvironmentVerdicts``, a reward function logged with
weight 0, scores the answers of a whole step in one batch (``get_reward`` then finds its verdict
ready) and logs the sandbox figures per step as ``PassRateReward`` does: statuses, pass rates on
public and hidden tests and their gap, and each rollout's tool calls.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from grpo_code.analysis.trainlog import REWARD_NAME, TOOL_CALLS_KEY
from grpo_code.errors import ConfigError
from grpo_code.options import spelled
from grpo_code.rl.rewards import PassRateReward
from grpo_code.score.feedback import NO_PUBLIC_TESTS, ReportLimits, public_report
from grpo_code.score.scoring import Scored, ascore_completions
from grpo_code.suites.tasks import Task, TaskSuite

log = logging.getLogger(__name__)

SYSTEM_PROMPT = ("You are a careful programmer. Before you answer, you can run a program on the task's public tests "
                 "with the run_tests tool and read which tests fail.")


@dataclass(frozen=True)
class EnvironmentSettings:
    """How the environment treats a rollout.

    Attributes:
        max_tool_calls: ``run_tests`` calls run per rollout; later calls are not run (their
            program still becomes the answer).
        report: how much a report may say (``feedback.ReportLimits``).
        option_names: how the caller's users spell these options, for the messages
            (``{"max_tool_calls": "--max_tool_calls"}``); default: the attributes' names.

    Raises:
        ConfigError: ``max_tool_calls`` below 1.
    """

    max_tool_calls: int = 4
    report: ReportLimits = field(default_factory=ReportLimits)
    option_names: Mapping[str, str] | None = None

    def __post_init__(self) -> None:
        if self.max_tool_calls < 1:
            raise ConfigError(f"{spelled('max_tool_calls', self.option_names)} must be >= 1, got {self.max_tool_calls}")


class CodeEnvironmentFactory:
    """Makes the ``CodeEnvironment`` of each rollout (TRL's ``environment_factory``); holds what
    they share: the suite, one started executor, the reward rules and the settings.

    Args:
        reward: the ``PassRateReward`` whose suite, executor and rules the environments use.
        settings: ``EnvironmentSettings``.
    """

    def __init__(self, reward: PassRateReward, settings: EnvironmentSettings | None = None):
        self.reward = reward
        self.settings = settings or EnvironmentSettings()
        self._public_tasks: dict[str, Task] = {}

    @property
    def suite(self) -> TaskSuite:
        """The suite the rollouts' tasks come from."""
        return self.reward.suite

    def __call__(self) -> CodeEnvironment:
        """A fresh environment for one rollout (TRL calls the factory once per rollout)."""
        return CodeEnvironment(self)

    def public_task(self, task: Task) -> Task:
        """``task`` with its public tests only: what ``run_tests`` runs."""
        if task.task_id not in self._public_tasks:
            self._public_tasks[task.task_id] = replace(task, tests=task.public_tests)
        return self._public_tasks[task.task_id]

    async def final_scored(self, environments: Sequence[CodeEnvironment]) -> list[Scored]:
        """Each environment's answer scored on all its task's tests, the ones not scored yet in
        one batch; every environment keeps its result (``get_reward`` reads it)."""
        todo = [e for e in environments if e._final is None]
        if todo:
            loop = asyncio.get_running_loop()
            for e in todo:
                e._final = loop.create_future()
            try:
                scored = await ascore_completions(self.reward.executor, [(e.task, e.answer or "") for e in todo])
                outcomes: list = list(scored)
            except Exception as error:  # noqa: BLE001 - every environment waiting for this batch gets it
                outcomes = [error] * len(todo)
            for e, outcome in zip(todo, outcomes, strict=False):
                if e._final is not None and not e._final.done():
                    if isinstance(outcome, Exception):
                        e._final.set_exception(outcome)
                    else:
                        e._final.set_result(outcome)
        # shielded: a waiter that is cancelled leaves the batch's result to the others
        done = await asyncio.gather(*(asyncio.shield(e._final) for e in environments if e._final is not None),
                                    return_exceptions=True)
        failed = [outcome for outcome in done if isinstance(outcome, BaseException)]
        if failed:
            raise failed[0]
        return [outcome for outcome in done if isinstance(outcome, Scored)]


class CodeEnvironment:
    r"""One rollout's environment (TRL makes one per rollout through ``CodeEnvironmentFactory``).

    Its public methods are what TRL calls: ``reset``, the tool ``run_tests`` and ``get_reward``;
    every other attribute is private or a property (TRL would offer any public method as a tool).

    Example:
        >>> import asyncio
        >>> from grpo_code import CodeEnvironmentFactory, PassRateReward, load_suite, make_executor
        >>> suite = load_suite("warmup-python")
        >>> with make_executor(concurrency=2) as executor:  # GRPOTrainer(environment_factory=factory, ...)
        ...     factory = CodeEnvironmentFactory(PassRateReward(suite, executor))
        ...     environment = factory()  # one rollout's
        ...     note = environment.reset(task_id="warmup-python/add")
        ...     report = asyncio.run(environment.run_tests("def add(a, b):\n    return a - b\n"))
        ...     reward = asyncio.run(environment.get_reward())  # its last program, on every test
        >>> print(report.splitlines()[0]); reward
        0 of 1 public tests passed.
        0.25
    """

    def __init__(self, factory: CodeEnvironmentFactory):
        self._factory = factory
        self._task: Task | None = None
        self._answer: str | None = None
        self._calls = 0
        self._final: asyncio.Future | None = None

    @property
    def task(self) -> Task:
        """The task of this rollout (after ``reset``)."""
        if self._task is None:
            raise RuntimeError("the environment was not reset with a task")
        return self._task

    @property
    def answer(self) -> str | None:
        """The last code the model passed to ``run_tests`` (None: it never called it)."""
        return self._answer

    @property
    def tool_calls(self) -> int:
        """``run_tests`` calls in this rollout, those over the limit included."""
        return self._calls

    def reset(self, task_id: str | None = None, **row) -> str:
        """Start a rollout on the row's task (TRL passes the data set's row: ``task_id``, ``prompt``, ...).

        Returns:
            A note appended to the user's message: what ``run_tests`` does for this task.
        """
        if task_id is None:
            raise ValueError("the data set needs a task_id column (TaskSuite.to_dataset() makes one)")
        self._task = self._factory.suite.get(task_id)
        self._answer, self._calls, self._final = None, 0, None
        n, limit = len(self._task.public_tests), self._factory.settings.max_tool_calls
        if not n:
            return ("\n\nThis task has no public tests: run_tests cannot check a program, but the last program you "
                    "pass to it is your answer.")
        return (f"\n\nrun_tests(code) runs a program on this task's {n} public test{'s' if n != 1 else ''} "
                f"(at most {limit} call{'s' if limit != 1 else ''}). The last program you pass to run_tests is your "
                "answer, scored on every test of the task.")

    async def run_tests(self, code: str) -> str:
        """Run a program on the task's public tests and report which of them pass.

        Args:
            code: the complete program, as you would submit it.

        Returns:
            How many public tests passed and, for the first failing ones, the test and what the program did.
        """
        self._answer, self._final = code if isinstance(code, str) else str(code), None
        self._calls += 1
        settings = self._factory.settings
        if self._calls > settings.max_tool_calls:
            return (f"Not run: the limit of {settings.max_tool_calls} run_tests calls is reached. This program is "
                    "your answer.")
        public = self._factory.public_task(self.task)
        if not public.tests:
            return NO_PUBLIC_TESTS
        try:
            scored = (await ascore_completions(self._factory.reward.executor, [(public, self._answer)]))[0]
        except Exception:  # a tool that raises is a failed call to TRL; the model gets a plain answer
            log.exception("run_tests on %s failed", self.task.task_id)
            return "The tests could not be run this time (a failure of the sandbox, not of your program)."
        return public_report(public.tests, scored.verdict, settings.report)

    async def get_reward(self) -> float | None:
        """The reward of the answer (the last program given to ``run_tests``) on every test of the
        task, or on its hidden ones (``RewardRules.reward_tests``): ``PassRateReward``'s rules;
        None only where the sandbox failed; never raises."""
        try:
            scored = (await self._factory.final_scored([self]))[0]
            reward = self._factory.reward
            return reward.canary_cap(self.task.task_id, reward.rules.reward_of_scored(scored))
        except Exception:
            log.exception("scoring the answer of %s failed; no reward (None)",
                          self._task.task_id if self._task else "a rollout")
            return None


class EnvironmentVerdicts(PassRateReward):
    """The sandbox's figures of an environment run, as a reward function (give it weight 0: the
    reward that trains is ``CodeEnvironment.get_reward``'s, and this one returns the same values).

    It scores every environment's answer of a step in one batch (``CodeEnvironmentFactory.
    final_scored``), before TRL asks each environment for its reward, and logs what
    ``PassRateReward`` logs (``sandbox/*``, the completions' ``status`` and ``tests_passed``
    columns), plus each rollout's ``tool_calls``.
    """

    __name__ = REWARD_NAME  # PassRateReward's: the same logged names

    def __init__(self, factory: CodeEnvironmentFactory):
        reward = factory.reward
        super().__init__(reward.suite, reward.executor, reward.rules, reward.group_size, reward.canaries)
        self.factory = factory

    async def __call__(self, prompts: Sequence, completions: Sequence, task_id: Sequence[str] | None = None,
                       log_metric=None, log_extra=None, environments=None, **kwargs) -> list[float | None]:
        """The rewards of the step's answers, and the tool calls each rollout made (logged)."""
        rewards = await super().__call__(prompts, completions, task_id=task_id, log_metric=log_metric,
                                         log_extra=log_extra, environments=environments, **kwargs)
        calls = [getattr(e, "tool_calls", 0) for e in environments or ()]
        try:
            if log_extra is not None:
                log_extra("tool_calls", calls if len(calls) == len(completions) else [0] * len(completions))
            if log_metric is not None and calls:
                log_metric(TOOL_CALLS_KEY, sum(calls) / len(calls))
        except Exception:
            log.exception("could not log the tool calls")
        return rewards

    async def _score(self, completions: Sequence, task_ids: list[str], environments=None, **kwargs) -> list[Scored]:
        if environments is None or len(environments) != len(completions):
            raise ValueError("EnvironmentVerdicts needs TRL's environments (GRPOTrainer(environment_factory=...))")
        for env, task_id in zip(environments, task_ids, strict=False):
            if env.task.task_id != task_id:
                raise ValueError(f"an environment holds task {env.task.task_id!r}, its row {task_id!r}")
        return await self.factory.final_scored(environments)


def environment_dataset(suite: TaskSuite):
    """The suite as TRL's data set for the environment: a system message, then the task's
    formatted prompt as the user's (``reset`` adds what ``run_tests`` does); a ``task_id`` column."""
    from datasets import Dataset

    return Dataset.from_dict({
        "prompt": [[{"role": "system", "content": SYSTEM_PROMPT},
                    {"role": "user", "content": suite.format_prompt(t)}] for t in suite],
        "task_id": [t.task_id for t in suite],
    })


def tool_calling_tokenizer(tokenizer):
    """``tokenizer`` able to render and parse tool calls, as TRL's environments need.

    Kept as it is when its chat template renders tool calls (``trl``'s ``supports_tool_calling``).
    A ChatML model whose template cannot (SmolLM2: ``<|im_start|>`` turns, ``<|im_end|>`` as
    end of turn) gets TRL's own Qwen2.5 template, which has the same turn markers, renders tools in
    its system turn and tool calls as ``<tool_call>{json}</tool_call>``, and which TRL knows how
    to parse.

    Raises:
        ConfigError: neither: the model needs a chat template that renders tool calls.
    """
    from trl.chat_template_utils import qwen2_5_chat_template, supports_tool_calling

    if supports_tool_calling(tokenizer):
        return tokenizer
    if "<|im_start|>" in tokenizer.get_vocab() and tokenizer.eos_token == "<|im_end|>":
        tokenizer.chat_template = qwen2_5_chat_template
        return tokenizer
    raise ConfigError("the model's chat template cannot render tool calls, which --environment tools needs: use a "
                      "model whose template supports tools (Qwen2.5/3, Llama 3.1, ...), set one on its tokenizer, "
                      "or use --environment feedback (no tools)")
