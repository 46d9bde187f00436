"""GRPO training on code tasks: a suite, the sandbox reward and a policy wired into TRL.

``trl.GRPOTrainer`` does the work (sampling a group of ``num_generations`` completions per
prompt, group-relative advantages, the clipped policy loss; Shao et al. 2024, DeepSeekMath); this
module only builds its inputs, runs it, and writes the run's outputs:

    <output_dir>/checkpoint-*/          resumable checkpoints (--resume_from_checkpoint)
    <output_dir>/completions/*.parquet  every logged step's completions, rewards, verdicts, advantages
    <output_dir>/trainer_state.json     transformers' TrainerState: ``log_history``, one entry per step
    <output_dir>/reward_curve.png       reward, zero-variance share, verdict shares and seconds per step
                                        (``plots.plot_training``)
    <output_dir>/summary.json           the run's figures (with ``--profile``: the tasks kept, and why)
    <output_dir>/                        the final model and tokenizer

``grpo-code report <output_dir>`` turns these into a report (``grpo_code.analysis.trainlog`` reads them).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grpo_code.analysis.difficulty import SolveRateBand, check_band, select_band
from grpo_code.analysis.strength import StrengthFilter, audit_path, select_strong
from grpo_code.analysis.trainlog import (
    STEP_TIME_KEY,
    TOOL_CALLS_KEY,
    curves,
    node_seconds,
    quarter_means,
    sandbox_key,
)
from grpo_code.errors import ConfigError, require_modules, yaml_problem
from grpo_code.generate.models import DEFAULT_MODEL, check_model, load_tokenizer, resolve_model
from grpo_code.rl.canaries import canary_count, mix_canaries
from grpo_code.rl.rewards import FormatReward, PassRateReward, process_rank
from grpo_code.rl.rules import REWARD_MODES, RewardRules
from grpo_code.suites.registry import in_language, load_suite
from grpo_code.suites.tasks import TaskSuite
from sandbox import Executor

if TYPE_CHECKING:
    from grpo_code.rl.environment import EnvironmentSettings
    from grpo_code.rl.rollout import FeedbackSettings

log = logging.getLogger(__name__)

ENVIRONMENTS = ("none", "tools", "feedback")
# grpo-code train's spelling of the settings its options fill (TRL's parser: underscores), for the
# messages of their owners: sandbox.make_executor's, RewardRules', EnvironmentSettings', FeedbackSettings'
OPTION_NAMES = {"kind": "--executor", "concurrency": "--sandbox_concurrency", "ray_address": "--ray_address",
                "mode": "--reward_mode", "all_pass_bonus": "--all_pass_bonus", "flagged_reward": "--flagged_reward",
                "reward_tests": "--reward_tests",
                "max_tool_calls": "--max_tool_calls", "max_turns": "--feedback_turns",
                "improvement_bonus": "--improvement_bonus"}


@dataclass
class GrpoCodeArguments:
    """grpo-code's own training options (any ``trl.GRPOConfig`` field may be given beside them)."""

    suite: str = field(default="warmup-python?split=train", metadata={
        "help": "Training suite: a name, path or hf: spec. Default: the train split of warmup-python "
                "(HumanEval stays for evaluation)."})
    model: str = field(default=DEFAULT_MODEL, metadata={
        "help": f"Policy: a checkpoint folder, a hub name, or '{DEFAULT_MODEL}' (embedded)."})
    reward_mode: str = field(default="fraction", metadata={
        "help": f"Reward: {' or '.join(REWARD_MODES)} (fraction of tests passed, or 1.0 only if all pass)."})
    all_pass_bonus: float = field(default=0.0, metadata={
        "help": "With --reward_mode fraction: added to the reward of a completion that passes every test (0: none)."})
    no_code_penalty: float = field(default=0.0, metadata={
        "help": "Subtracted from the reward when no code could be extracted."})
    compile_error_penalty: float = field(default=0.0, metadata={
        "help": "Subtracted from the reward on a compile (or Python syntax) error."})
    flagged_reward: str = field(default="keep", metadata={
        "help": "keep: the reward-hacking monitor's flags leave a completion's reward as it is (default); "
                "zero: a flagged completion gets 0. Penalising flags can teach a policy to hide its attempts."})
    format_reward_weight: float = field(default=0.0, metadata={
        "help": "Weight of an extra reward for answering in one fenced code block (0: off)."})
    sandbox_concurrency: int | None = field(default=None, metadata={
        "help": "Sandbox containers per training process (default: docker: CPU cores / processes on the node; "
                "ray: each sandbox node's CPUs / training processes)."})
    executor: str = field(default="docker", metadata={
        "help": "Where completions are verified: docker (this machine's Docker daemon) or ray (the sandbox "
                "nodes of a Ray cluster; pip install 'grpo-code[ray]')."})
    ray_address: str | None = field(default=None, metadata={
        "help": "The Ray cluster of --executor ray: auto, HOST:PORT or ray://HOST:PORT (default: join the "
                "local Ray, or start one)."})
    max_tasks: int | None = field(default=None, metadata={"help": "Use only the first N tasks of the suite."})
    language: str | None = field(default=None, metadata={
        "help": "Train on the suite's tasks in this language only (javascript, java, ...): its tasks of that "
                "language, and the problems whose data has a reference in it (codecontests)."})
    profile: str | None = field(default=None, metadata={
        "help": "A task profile (profile.json, or the folder of `grpo-code eval --profile`): train only on the tasks "
                "whose solve rate is within [--min_solve_rate, --max_solve_rate]."})
    min_solve_rate: float = field(default=0.0, metadata={
        "help": "With --profile: keep tasks whose solve rate (the mean pass rate; with --reward_mode binary, the "
                "share of completions passing every test) is at least this."})
    max_solve_rate: float = field(default=1.0, metadata={
        "help": "With --profile: keep tasks whose solve rate is at most this (below 1 drops tasks always solved)."})
    min_test_strength: float | None = field(default=None, metadata={
        "help": "Train only on the tasks that no cheat program passes and whose mutation score is at least this "
                "(0 to 1), by the suite's test-strength audit (grpo-code tasks audit SUITE --write; --audit)."})
    audit: str | None = field(default=None, metadata={
        "help": "The audit file of --min_test_strength (default: the suite's own audit.json, beside its suite.yaml)."})
    canary_rate: float = field(default=0.0, metadata={
        "help": "Mix canary tasks (no honest program passes one) into training at this share of the tasks, e.g. "
                "0.05 (default 0: none). They are never rewarded above 0; the share of their completions that "
                "pass every test is logged as sandbox/cheat_rate, and any is warned about."})
    environment: str = field(default="none", metadata={
        "help": "none: one answer per prompt (default); tools: TRL's environment_factory, the model may call "
                "run_tests(code) on the public tests and its last tested program is scored (needs a chat template "
                "with tools); feedback: the public-test report of each answer comes back as a user turn and the "
                "model answers again (no tools)."})
    reward_tests: str = field(default="all", metadata={
        "help": "all: the reward is the verdict on every test (default); hidden: on the hidden tests only."})
    max_tool_calls: int = field(default=4, metadata={
        "help": "--environment tools: run_tests calls run per rollout."})
    feedback_turns: int = field(default=2, metadata={
        "help": "--environment feedback: answers per rollout, the first included."})
    improvement_bonus: float = field(default=0.0, metadata={
        "help": "--environment feedback: add bonus * (last answer's reward - first answer's) to the reward."})
    stop_after_code_block: bool = field(default=False, metadata={
        "help": "End each completion after its first closed code block (the prompts ask for one): generation "
                "stops there and the loss sees the answer and an end token, not the prose after it "
                "(transformers generation; with vLLM give its stop strings in generation_kwargs)."})

    def __post_init__(self) -> None:
        self.reward_rules()  # each owner checks its own options, naming them as this command spells them
        if self.format_reward_weight < 0:
            raise ConfigError("--format_reward_weight must be >= 0")
        if self.max_tasks is not None and self.max_tasks < 1:
            raise ConfigError(f"--max_tasks must be >= 1, got {self.max_tasks}")
        from sandbox import check_executor_options

        try:  # the sandbox owns the executor options' rules
            check_executor_options(self.executor, self.sandbox_concurrency, self.ray_address,
                                   option_names=OPTION_NAMES)
        except ValueError as e:
            raise ConfigError(str(e)) from None
        check_band(self.min_solve_rate, self.max_solve_rate)
        if self.profile is None and (self.min_solve_rate, self.max_solve_rate) != (0.0, 1.0):
            raise ConfigError("--min_solve_rate and --max_solve_rate need --profile FILE (a task profile: "
                              "grpo-code eval --suite SUITE --profile)")
        if self.min_test_strength is not None and not 0.0 <= self.min_test_strength <= 1.0:
            raise ConfigError(f"--min_test_strength must be within [0, 1], got {self.min_test_strength}")
        if self.audit is not None and self.min_test_strength is None:
            raise ConfigError("--audit is the audit file of --min_test_strength: give --min_test_strength too")
        if self.min_test_strength is not None and self.audit is None and audit_path(self.suite) is None:
            raise ConfigError(f"{self.suite} has no place for an audit of its own: give its audit file with --audit "
                              "(grpo-code tasks audit SUITE --out DIR writes DIR/audit.json)")
        if not 0.0 <= self.canary_rate < 1.0:
            raise ConfigError(f"--canary_rate must be within [0, 1), got {self.canary_rate}")
        self._check_environment()

    def _check_environment(self) -> None:
        if self.environment not in ENVIRONMENTS:
            raise ConfigError(f"--environment must be one of {', '.join(ENVIRONMENTS)}, got {self.environment!r}")
        self.environment_settings()
        self.feedback_settings()
        if self.improvement_bonus and self.environment != "feedback":
            raise ConfigError("--improvement_bonus needs --environment feedback")
        if self.stop_after_code_block and self.environment == "tools":
            raise ConfigError("--stop_after_code_block does not go with --environment tools (a tool call is no "
                              "code block; the model's program is the argument of its last run_tests call)")

    def reward_rules(self) -> RewardRules:
        """The run's reward rules (``--reward_mode``, ``--all_pass_bonus``, the penalties, ``--flagged_reward``,
        ``--reward_tests``).

        Raises:
            ConfigError: a value ``RewardRules`` refuses, named as this command spells it.
        """
        return RewardRules(mode=self.reward_mode, all_pass_bonus=self.all_pass_bonus,
                           no_code_penalty=self.no_code_penalty, compile_error_penalty=self.compile_error_penalty,
                           flagged_reward=self.flagged_reward,
                           reward_tests=self.reward_tests, option_names=OPTION_NAMES)

    def environment_settings(self) -> EnvironmentSettings:
        """The settings of ``--environment tools`` (``--max_tool_calls``).

        Raises:
            ConfigError: a value ``EnvironmentSettings`` refuses, named as this command spells it.
        """
        from grpo_code.rl.environment import EnvironmentSettings

        return EnvironmentSettings(max_tool_calls=self.max_tool_calls, option_names=OPTION_NAMES)

    def feedback_settings(self) -> FeedbackSettings:
        """The settings of ``--environment feedback`` (``--feedback_turns``, ``--improvement_bonus``).

        Raises:
            ConfigError: a value ``FeedbackSettings`` refuses, named as this command spells it.
        """
        from grpo_code.rl.rollout import FeedbackSettings

        return FeedbackSettings(max_turns=self.feedback_turns, improvement_bonus=self.improvement_bonus,
                                option_names=OPTION_NAMES)


def cpu_friendly_defaults() -> dict:
    """GRPOConfig defaults for this tool: a short run that works on a CPU-only machine.

    A config file and command-line flags override every one of them.
    """
    from dataclasses import fields

    import torch
    from trl import GRPOConfig

    cuda = torch.cuda.is_available()
    # transformers 5.x renamed gradient_checkpointing, whose old name now warns whenever it is set
    checkpointing = ("activation_checkpointing" if "activation_checkpointing" in {f.name for f in fields(GRPOConfig)}
                     else "gradient_checkpointing")
    return dict(
        output_dir="runs/train",
        use_cpu=not cuda,
        bf16=bool(cuda and torch.cuda.is_bf16_supported()),
        **{checkpointing: cuda},
        num_generations=4,
        per_device_train_batch_size=8,
        max_completion_length=160,
        temperature=0.9,
        learning_rate=1e-5,
        max_steps=10,
        logging_steps=1,
        save_steps=10,
        save_total_limit=2,
        report_to="none",
        log_completions=True,
        num_completions_to_print=0,  # the parquet log keeps them all; >0 also prints a table per step
        disable_tqdm=True,
        seed=0,
    )


TRAIN_MODULES = ("torch", "trl", "transformers", "accelerate", "datasets", "matplotlib")


def parse_train_args(argv: list[str] | None = None):
    """``(GrpoCodeArguments, GRPOConfig)`` from ``--config FILE.yaml`` and flags (TRL's TrlParser).

    Raises:
        MissingExtraError: the ``train`` extra (or torch) is not installed.
        ConfigError: a bad flag or value, or a config file that is missing, not YAML, or holds
            unknown keys (the message names the file, and the line for YAML errors).
    """
    require_modules("grpo-code train", *TRAIN_MODULES)
    import yaml
    from trl import GRPOConfig, TrlParser

    class Parser(TrlParser):
        def error(self, message: str):  # argparse prints usage and exits; we raise one line instead
            raise ConfigError(f"{message} (grpo-code train --help lists the options)")

    parser = Parser((GrpoCodeArguments, GRPOConfig), prog="grpo-code train",
                    description="GRPO training of a code model against the sandbox. grpo-code's own options "
                                "(--suite, --model, --reward_mode, ...) come first below, then every "
                                "trl.GRPOConfig / TrainingArguments field; --config FILE.yaml sets any of them.")
    parser.set_defaults(**cpu_friendly_defaults())
    argv = list(sys.argv[1:] if argv is None else argv)
    config = argv[argv.index("--config") + 1] if "--config" in argv[:-1] else None
    if "--config" in argv and config is None:
        raise ConfigError("--config needs a YAML file: --config train.yaml")
    try:
        code_args, grpo_args = parser.parse_args_and_config(args=argv)
    except ConfigError:
        raise
    except FileNotFoundError as e:
        raise ConfigError(f"the config file {e.filename} does not exist") from None
    except yaml.YAMLError as e:
        line, problem = yaml_problem(e)
        raise ConfigError(f"{config}:{line}: {problem}" if line else f"{config}: {problem}") from None
    except (ValueError, TypeError) as e:  # TRL's and transformers' checks of the values
        message = " ".join(str(e).split())
        unknown = [s.strip("'[],") for s in message.split() if s.startswith(("'--", "['--"))]
        if message.startswith("Unknown arguments from config file"):  # TRL's words suggest editing its code
            message = f"{config}: unknown option(s) {', '.join(u.removeprefix('--') for u in unknown)}"
        elif message.startswith("Some specified arguments are not used"):  # transformers' words
            message = f"unknown option(s) {', '.join(unknown)}"
        raise ConfigError(message + " (grpo-code train --help lists the options)") from None
    return code_args, grpo_args


def training_suite(code_args: GrpoCodeArguments) -> TaskSuite:
    """The suite to train on: ``code_args.suite``, its tasks in ``code_args.language`` if given,
    its first ``max_tasks`` tasks if given."""
    suite = load_suite(code_args.suite)
    if code_args.language:
        suite = in_language(suite, code_args.language)
    if code_args.max_tasks:
        suite = suite.select([t.task_id for t in suite][: code_args.max_tasks])
    return suite


@dataclass
class TaskSelection:
    """The tasks a run trains on (``training_tasks``) and the account of each filter.

    Attributes:
        suite: the tasks, the canaries among them.
        band: the solve-rate band's account (``--profile``), else None.
        strength: the test-strength filter's account (``--min_test_strength``), else None.
        canaries: the ids of the canary tasks (``--canary_rate``).
        canary_rate: the share of canaries asked for.
    """

    suite: TaskSuite
    band: SolveRateBand | None = None
    strength: StrengthFilter | None = None
    canaries: frozenset[str] = frozenset()
    canary_rate: float = 0.0

    def describe_canaries(self) -> str | None:
        """One line on the canaries mixed in (None without): how many, the share asked and had."""
        if not self.canaries:
            return None
        n, total = len(self.canaries), len(self.suite)
        wanted = canary_count(total - n, self.canary_rate)
        short = f"; the rate asked for {wanted}, and there are no more that fit" if wanted > n else ""
        return (f"{n} canary task(s) mixed in ({n / total:.1%} of {total} tasks, --canary_rate {self.canary_rate:g}"
                f"{short}): never rewarded above 0; a completion that passes one is a cheat (sandbox/cheat_rate)")


def training_tasks(code_args: GrpoCodeArguments, group_size: int) -> TaskSelection:
    """The tasks a run trains on: ``training_suite``, then, with ``--profile``, those whose solve
    rate is within the band (``difficulty.select_band``; ``group_size``, the run's
    ``num_generations``, for the expected share of zero-variance groups); with
    ``--min_test_strength``, those its test-strength audit keeps (``strength.select_strong``); with
    ``--canary_rate``, canary tasks added (``canaries.mix_canaries``).

    Raises:
        ConfigError: a profile or an audit that cannot be read or lacks some task (or is stale), a
            filter that keeps no task, or no canary that fits.
    """
    suite = training_suite(code_args)
    band = strength = None
    if code_args.profile is not None:
        suite, band = select_band(suite, code_args.profile, code_args.reward_mode, code_args.min_solve_rate,
                                  code_args.max_solve_rate, group_size)
    if code_args.min_test_strength is not None:
        path = code_args.audit or audit_path(code_args.suite)  # one or the other: checked with the options
        suite, strength = select_strong(suite, path or "", code_args.min_test_strength)
    suite, canaries = mix_canaries(suite, code_args.canary_rate)
    return TaskSelection(suite, band, strength, canaries, code_args.canary_rate)


def check_generation(code_args: GrpoCodeArguments, grpo_args) -> None:
    """``--stop_after_code_block`` acts on transformers' generation only.

    Raises:
        ConfigError: it is given with ``use_vllm``.
    """
    if code_args.stop_after_code_block and getattr(grpo_args, "use_vllm", False):
        raise ConfigError("--stop_after_code_block acts on transformers' generation, not vLLM's: give vLLM's own "
                          "stop strings instead (--generation_kwargs '{\"stop\": [\"\\n```\\n\"]}')")


def local_concurrency(requested: int | None) -> int:
    """Sandbox containers for this process: split the node's cores among its training processes
    (``LOCAL_WORLD_SIZE``, set by accelerate / torchrun)."""
    if requested is not None:
        return requested
    local_world = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
    return max(1, (os.cpu_count() or 1) // max(1, local_world))


def is_main_process() -> bool:
    """Whether this is the training run's main process (``RANK`` 0, or the only one)."""
    return process_rank() == 0


def make_train_executor(code_args: GrpoCodeArguments, packages: tuple[str, ...] = ()):
    """This training process's executor (not started): a pool on this node's Docker daemon
    with its share of the node's cores, or on a Ray cluster its share of every sandbox node, in
    the image of ``packages`` (the suite's: ``TaskSuite.packages``).

    Raises:
        ConfigError: an option the sandbox refuses (``sandbox.check_executor_options``).
        SandboxError: the Ray executor without Ray installed.
    """
    from sandbox import make_executor

    try:
        if code_args.executor == "ray":
            world = max(1, int(os.environ.get("WORLD_SIZE", "1")))
            return make_executor("ray", concurrency=code_args.sandbox_concurrency, ray_address=code_args.ray_address,
                                 option_names=OPTION_NAMES, node_share=1.0 / world, packages=packages)
        return make_executor(code_args.executor, concurrency=local_concurrency(code_args.sandbox_concurrency),
                             ray_address=code_args.ray_address, option_names=OPTION_NAMES, packages=packages)
    except ValueError as e:
        raise ConfigError(str(e)) from None


@dataclass
class TrainingPlan:
    """A training run, checked and made once before anything big loads (``plan_training``): what
    ``build_trainer`` and ``train`` take.

    Attributes:
        code_args: grpo-code's options.
        grpo_args: ``trl.GRPOConfig``.
        selection: the tasks it trains on and the account of each filter (``training_tasks``: the
            suite, its language, its first ``max_tasks``, the solve-rate band, the test-strength
            filter, the canaries).
        rules: the reward rules (``GrpoCodeArguments.reward_rules``), checked against the tasks.
        executor: this process's executor, not started (``make_train_executor``): ``train``
            starts it, and stops it when the run ends.
    """

    code_args: GrpoCodeArguments
    grpo_args: Any
    selection: TaskSelection
    rules: RewardRules
    executor: Executor

    @property
    def suite(self) -> TaskSuite:
        """The tasks it trains on, the canaries among them."""
        return self.selection.suite

    @property
    def band(self) -> SolveRateBand | None:
        """The solve-rate band's account (None without ``--profile``)."""
        return self.selection.band


def plan_training(code_args: GrpoCodeArguments, grpo_args) -> TrainingPlan:
    """What can be checked before a run starts, and what the run is made of, without loading
    anything big: the generation options fit, the suite loads (once), the solve-rate band and the
    test-strength filter keep some task (for groups of ``num_generations``), the reward rules fit
    its tasks, the model can
    be found, and the executor is built (Ray asked for and not installed is reported here).

    Raises:
        GrpoCodeError: UnknownSuiteError, ConfigError, TaskFormatError or ModelNotFoundError.
        SandboxError: the Ray executor without Ray installed.
    """
    check_generation(code_args, grpo_args)
    selection = training_tasks(code_args, grpo_args.num_generations)
    rules = code_args.reward_rules()
    rules.check_suite(selection.suite)
    if code_args.environment == "feedback":
        from grpo_code.rl.rollout import check_distinct_prompts

        check_distinct_prompts(selection.suite)
    check_model(code_args.model)
    executor = make_train_executor(code_args, selection.suite.packages)  # the suite's image
    return TrainingPlan(code_args, grpo_args, selection, rules, executor)


OUTPUTS = ("checkpoint-*/", "completions/*.parquet", "trainer_state.json", "reward_curve.png", "summary.json")


@dataclass
class TrainResult:
    """What a training run wrote: its folder, its figures (``summary.json``) and, from the main
    process, its report (``report.html``, None elsewhere)."""

    output_dir: Path
    summary: dict
    report: Path | None = None

    def outputs(self) -> list[str]:
        """The kinds of file the run wrote into ``output_dir`` beside the model (``OUTPUTS``), in order."""
        return [pattern for pattern in OUTPUTS if any(self.output_dir.glob(pattern.rstrip("/")))]


@dataclass
class EnvironmentSetup:
    """What ``--environment`` changes in the trainer's inputs: the sandbox reward function, its
    weight, the data set, the tokenizer and ``GRPOTrainer``'s own keyword arguments
    (``environment_factory`` or ``rollout_func``)."""

    reward: PassRateReward
    weight: float
    dataset: object
    tokenizer: object
    trainer_kwargs: dict


def environment_setup(plan: TrainingPlan, tokenizer) -> EnvironmentSetup:
    """The trainer's inputs for the plan's ``--environment``: ``none``, one answer scored by
    ``PassRateReward``; ``tools``, ``environment.CodeEnvironment`` through TRL's
    ``environment_factory`` (the reward is its ``get_reward``; ``EnvironmentVerdicts`` logs the
    sandbox's figures with weight 0); ``feedback``, ``rollout.FeedbackRollout`` as TRL's
    ``rollout_func`` and ``rollout.FeedbackReward`` on the last answer. The reward logs the share
    of groups (TRL's ``num_generations``) whose rewards were all equal, and never pays a canary
    task (the plan's ``TaskSelection.canaries``) above 0. The plan's executor must be started.

    Raises:
        ConfigError: ``tools`` with a model whose chat template cannot render tool calls.
    """
    code_args, suite, executor = plan.code_args, plan.suite, plan.executor
    group_size, canaries = plan.grpo_args.num_generations, plan.selection.canaries
    if code_args.environment == "tools":
        from grpo_code.rl.environment import (
            CodeEnvironmentFactory,
            EnvironmentVerdicts,
            environment_dataset,
            tool_calling_tokenizer,
        )

        factory = CodeEnvironmentFactory(PassRateReward(suite, executor, plan.rules, group_size, canaries),
                                         code_args.environment_settings())
        return EnvironmentSetup(EnvironmentVerdicts(factory), 0.0, environment_dataset(suite),
                                tool_calling_tokenizer(tokenizer), {"environment_factory": factory})
    if code_args.environment == "feedback":
        from grpo_code.rl.rollout import FeedbackReward, FeedbackRollout

        settings = code_args.feedback_settings()
        return EnvironmentSetup(FeedbackReward(suite, executor, plan.rules, settings, group_size), 1.0,
                                suite.to_dataset(chat=True), tokenizer,
                                {"rollout_func": FeedbackRollout(suite, executor, settings)})
    return EnvironmentSetup(PassRateReward(suite, executor, plan.rules, group_size, canaries), 1.0,
                            suite.to_dataset(chat=True), tokenizer, {})


def share_answer_tokens(grpo_args, turns: int) -> None:
    """Cap each answer of a feedback rollout at ``max_completion_length // turns`` tokens (transformers
    generation: ``generation_kwargs["max_new_tokens"]``), so that a first answer leaves room for the
    report and the next one; all turns together stay within ``max_completion_length``. A
    ``max_new_tokens`` the user gave is kept, and so are vLLM's settings (its ``max_tokens``)."""
    kwargs = dict(grpo_args.generation_kwargs or {})
    if grpo_args.use_vllm or "max_new_tokens" in kwargs:
        return
    kwargs["max_new_tokens"] = max(1, grpo_args.max_completion_length // turns)
    grpo_args.generation_kwargs = kwargs


def build_trainer(plan: TrainingPlan, callbacks=(), **trainer_kwargs):
    """A ``trl.GRPOTrainer`` on the plan's tasks (its ``selection``), with the sandbox reward scored
    by the plan's executor, which the caller has started (``--environment``: ``environment_setup``).

    The policy is ``code_args.model``; ``trainer_kwargs`` go to ``GRPOTrainer`` as they are
    (``peft_config``, ``rollout_func``, ...).

    Raises:
        ConfigError: a ``rollout_func`` given with ``--environment feedback`` (which brings its own).
    """
    from trl import GRPOTrainer

    code_args, grpo_args, suite = plan.code_args, plan.grpo_args, plan.suite
    path = resolve_model(code_args.model, progress=lambda msg: log.warning("%s", msg))
    setup = environment_setup(plan, load_tokenizer(path))
    clash = sorted(set(setup.trainer_kwargs) & set(trainer_kwargs))
    if clash:
        raise ConfigError(f"--environment {code_args.environment} brings its own {', '.join(clash)}")
    reward_funcs: list[PassRateReward | FormatReward] = [setup.reward]
    weights = [setup.weight]
    if code_args.format_reward_weight > 0:
        reward_funcs.append(FormatReward(suite, plan.selection.canaries))
        weights.append(code_args.format_reward_weight)
    if weights != [1.0]:
        grpo_args.reward_weights = weights
    if code_args.environment == "feedback":
        share_answer_tokens(grpo_args, code_args.feedback_turns)
    trainer = GRPOTrainer(model=path, reward_funcs=reward_funcs, args=grpo_args, train_dataset=setup.dataset,
                          processing_class=setup.tokenizer, callbacks=list(callbacks),
                          **setup.trainer_kwargs, **trainer_kwargs)
    from grpo_code.generate.decoding import install

    install(trainer.model, trainer.processing_class, code_args.stop_after_code_block)
    return trainer


def reward_history(log_history: list[dict]) -> list[tuple[int, float]]:
    """``(step, mean pass-rate reward)`` for each logged training step with one
    (``trainlog.REWARD_KEY``; a step whose reward is NaN, every completion unscorable, is left out)."""
    c = curves(log_history)
    return [(step, rate) for step, rate in zip(c.steps, c.pass_rate, strict=True) if rate is not None]


def zero_std_summary(log_history: list[dict]) -> dict:
    """The run's share of zero-variance groups (``trainlog.ZERO_STD_KEY``: groups whose sandbox
    rewards were all equal, advantage 0, nothing learned): per logged step, its mean, and the means
    of the first and last quarter of steps (None where never logged)."""
    c = curves(log_history)
    per_step = [(step, v) for step, v in zip(c.steps, c.zero_std, strict=True) if v is not None]
    quarters = quarter_means([v for _, v in per_step])
    return {"mean_zero_std": sum(v for _, v in per_step) / len(per_step) if per_step else None,
            "zero_std_first_quarter": quarters[0] if quarters else None,
            "zero_std_last_quarter": quarters[1] if quarters else None,
            "zero_std_per_step": [[s, v] for s, v in per_step]}


def cheat_summary(log_history: list[dict]) -> dict:
    """The run's canary figures (``trainlog.CHEAT_RATE_KEY``): the completions of canary tasks,
    how many passed every test (each a cheat), their share, and the rate per step that had any
    (None and [] without canaries)."""
    c = curves(log_history)
    counts = c.cheats()
    return {"canary_completions": counts[1] if counts else None, "canary_passes": counts[0] if counts else None,
            "cheat_rate": counts[0] / counts[1] if counts and counts[1] else None,
            "cheat_rate_per_step": [[s, r] for s, r in zip(c.steps, c.cheat_rate, strict=True) if r is not None]}


def summarize_run(trainer, code_args: GrpoCodeArguments, seconds: float,
                  selection: TaskSelection | None = None) -> dict:
    """The run's figures (``summary.json``): the reward and the zero-variance share early and
    late and per step, the last loss, step and sandbox seconds (per node too), dedup hits, the
    solve-rate band, the test-strength filter, the canaries and the cheat rate, and the options
    (``trainer``: the ``GRPOTrainer`` after ``train``)."""
    band = selection.band if selection else None
    strength = selection.strength if selection else None
    history = reward_history(trainer.state.log_history)
    quarters = quarter_means([r for _, r in history])
    losses = [e["loss"] for e in trainer.state.log_history if "loss" in e]
    logged = trainer.state.log_history
    sandbox = [e[sandbox_key("seconds")] for e in logged if sandbox_key("seconds") in e]
    step_times = [e[STEP_TIME_KEY] for e in logged if STEP_TIME_KEY in e]
    per_node: dict[str, list[float]] = {}
    for entry in logged:
        for node, value in node_seconds(entry).items():
            per_node.setdefault(node, []).append(value)
    hits = [e[sandbox_key("dedup_hits")] for e in logged if sandbox_key("dedup_hits") in e]
    return {
        "suite": code_args.suite,
        "model": code_args.model,
        "output_dir": str(trainer.args.output_dir),
        "steps": trainer.state.global_step,
        "seconds": round(seconds, 1),
        "num_generations": trainer.args.num_generations,
        "reward_first_quarter": quarters[0] if quarters else None,
        "reward_last_quarter": quarters[1] if quarters else None,
        "reward_per_step": [[s, r] for s, r in history],
        **zero_std_summary(trainer.state.log_history),
        "final_loss": losses[-1] if losses else None,
        "mean_step_time_s": sum(step_times) / len(step_times) if step_times else None,
        "step_times_s": [round(t, 3) for t in step_times],
        "mean_sandbox_s_per_step": sum(sandbox) / len(sandbox) if sandbox else None,
        "mean_sandbox_s_per_step_per_node": {node: sum(v) / len(v) for node, v in sorted(per_node.items())},
        "mean_dedup_hits_per_step": sum(hits) / len(hits) if hits else None,
        "processes": trainer.accelerator.num_processes,
        "task_filter": band.to_dict() if band else None,
        "test_strength": strength.to_dict() if strength else None,
        "canary_tasks": sorted(selection.canaries) if selection else [],
        **cheat_summary(trainer.state.log_history),
        "options": asdict(code_args),
    }


def visibility_figures(log_history: list[dict]) -> dict:
    """The run's mean pass rates on public and on hidden tests and their gap, over the logged
    steps that have each (``sandbox/public_pass_rate``, ...; None where none has), and the mean
    ``run_tests`` calls per rollout (``trainlog.TOOL_CALLS_KEY``; None without the environment)."""
    def mean(key: str) -> float | None:
        values = [e[key] for e in log_history if e.get(key) is not None]
        return sum(values) / len(values) if values else None

    return {"mean_public_pass_rate": mean(sandbox_key("public_pass_rate")),
            "mean_hidden_pass_rate": mean(sandbox_key("hidden_pass_rate")),
            "mean_visibility_gap": mean(sandbox_key("visibility_gap")),
            "mean_tool_calls": mean(TOOL_CALLS_KEY)}


def train(plan: TrainingPlan, callbacks=(), print_logs: bool = True, **trainer_kwargs) -> TrainResult:
    """Run GRPO as ``plan`` says (``plan_training``); write checkpoints, the completions log,
    trainer_state.json, reward_curve.png, summary.json and the run's report
    (``report.write_report``: report.html and report.md).

    ``print_logs=False`` drops transformers' printing of each log dict (a caller's callback
    shows progress instead).

    Every training process scores its own completions with its own executor (the plan's, started
    here and stopped when the run ends); only the main process writes the model, the plot,
    ``summary.json`` and the report.

    Raises:
        DockerUnavailable / ImageMissing / SandboxError: the sandbox is not ready (before any
            model is loaded).
    """
    from grpo_code.analysis.plots import plot_training

    code_args, grpo_args = plan.code_args, plan.grpo_args
    output_dir = Path(grpo_args.output_dir)
    selection = plan.selection
    for line in (selection.band and selection.band.describe(), selection.strength and selection.strength.describe(),
                 selection.describe_canaries()):
        if line:
            log.info("%s", line)
    with plan.executor, warnings.catch_warnings():
        # TRL 1.16 reads transformers' deprecated `is_gradient_checkpointing` before every
        # generation, and its FutureWarning was printed again at every step: nothing for a user to fix.
        warnings.filterwarnings("ignore", message=r"`is_gradient_checkpointing` is deprecated", category=FutureWarning)
        trainer = build_trainer(plan, callbacks, **trainer_kwargs)
        if not print_logs:
            from transformers import PrinterCallback

            trainer.remove_callback(PrinterCallback)
        started = time.perf_counter()
        trainer.train(resume_from_checkpoint=grpo_args.resume_from_checkpoint)
        seconds = time.perf_counter() - started
    summary = {**summarize_run(trainer, code_args, seconds, selection),
               **visibility_figures(trainer.state.log_history)}
    trainer.save_model(str(output_dir))  # every process takes part (ZeRO-3 gathers); the main one writes
    if trainer.accelerator.is_main_process:
        trainer.save_state()  # trainer_state.json: the log history the report reads
        c = curves(trainer.state.log_history)
        plot_training(c.steps, c.pass_rate, output_dir / "reward_curve.png", reward=c.reward, statuses=c.statuses,
                      sandbox_s=c.sandbox_s, step_s=c.step_s, zero_std=c.zero_std)
        (output_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        from grpo_code.analysis.report import write_report

        return TrainResult(output_dir, summary, write_report([], output_dir, train_dir=output_dir).files["html"])
    return TrainResult(output_dir, summary)
