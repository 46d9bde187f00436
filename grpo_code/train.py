"""GRPO training on code tasks: a suite, the sandbox reward and a policy wired into TRL.

``trl.GRPOTrainer`` does the work (sampling a group of ``num_generations`` completions per
prompt, group-relative advantages, the clipped policy loss; Shao et al. 2024, DeepSeekMath); this
module only builds its inputs, runs it, and writes the run's outputs:

    <output_dir>/checkpoint-*/          resumable checkpoints (--resume_from_checkpoint)
    <output_dir>/completions/*.parquet  every logged step's completions, rewards, verdicts, advantages
    <output_dir>/trainer_state.json     transformers' TrainerState: ``log_history``, one entry per step
    <output_dir>/reward_curve.png       reward, verdict shares and seconds per step (``plots.plot_training``)
    <output_dir>/summary.json           the run's figures
    <output_dir>/                        the final model and tokenizer

``grpo-code report <output_dir>`` turns these into a report (``grpo_code.trainlog`` reads them).
"""

from __future__ import annotations

import json
import logging
import os
import time
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path

from grpo_code.models import DEFAULT_MODEL, load_tokenizer, resolve_model
from grpo_code.registry import load_suite
from grpo_code.rewards import REWARD_MODES, FormatReward, PassRateReward

log = logging.getLogger(__name__)


@dataclass
class CodeRLArguments:
    """grpo-code's own training options (any ``trl.GRPOConfig`` field may be given beside them)."""

    suite: str = field(default="warmup-python?split=train", metadata={
        "help": "Training suite: a name, path or hf: spec. Default: the train split of warmup-python "
                "(HumanEval stays for evaluation)."})
    model: str = field(default=DEFAULT_MODEL, metadata={
        "help": f"Policy: a checkpoint folder, a hub name, or '{DEFAULT_MODEL}' (embedded)."})
    reward_mode: str = field(default="fraction", metadata={
        "help": f"Reward: {' or '.join(REWARD_MODES)} (fraction of tests passed, or 1.0 only if all pass)."})
    no_code_penalty: float = field(default=0.0, metadata={
        "help": "Subtracted from the reward when no code could be extracted."})
    compile_error_penalty: float = field(default=0.0, metadata={
        "help": "Subtracted from the reward on a compile (or Python syntax) error."})
    format_reward_weight: float = field(default=0.0, metadata={
        "help": "Weight of an extra reward for answering in one fenced code block (0: off)."})
    sandbox_concurrency: int | None = field(default=None, metadata={
        "help": "Sandbox containers per training process (default: CPU cores / processes on the node)."})
    max_tasks: int | None = field(default=None, metadata={"help": "Use only the first N tasks of the suite."})

    def __post_init__(self) -> None:
        if self.reward_mode not in REWARD_MODES:
            raise ValueError(f"--reward_mode must be one of {', '.join(REWARD_MODES)}, got {self.reward_mode!r}")
        if self.format_reward_weight < 0:
            raise ValueError("--format_reward_weight must be >= 0")


def cpu_friendly_defaults() -> dict:
    """GRPOConfig defaults for this tool: a short run that works on a CPU-only machine.

    A config file and command-line flags override every one of them.
    """
    import torch

    cuda = torch.cuda.is_available()
    return dict(
        output_dir="runs/train",
        use_cpu=not cuda,
        bf16=bool(cuda and torch.cuda.is_bf16_supported()),
        activation_checkpointing=cuda,  # the new name: `gradient_checkpointing` warns (transformers 5)
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


def parse_train_args(argv: list[str] | None = None):
    """``(CodeRLArguments, GRPOConfig)`` from ``--config FILE.yaml`` and flags (TRL's TrlParser)."""
    from trl import GRPOConfig, TrlParser

    parser = TrlParser((CodeRLArguments, GRPOConfig), prog="grpo-code train",
                       description="GRPO training of a code model against the sandbox. grpo-code's own options "
                                   "(--suite, --model, --reward_mode, ...) come first below, then every "
                                   "trl.GRPOConfig / TrainingArguments field; --config FILE.yaml sets any of them.")
    parser.set_defaults(**cpu_friendly_defaults())
    code_args, grpo_args = parser.parse_args_and_config(args=argv)
    return code_args, grpo_args


def local_concurrency(requested: int | None) -> int:
    """Sandbox containers for this process: split the node's cores among its training processes."""
    if requested:
        return requested
    local_world = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
    return max(1, (os.cpu_count() or 1) // max(1, local_world))


@dataclass
class TrainResult:
    output_dir: Path
    summary: dict


def build_trainer(code_args: CodeRLArguments, grpo_args, executor, callbacks=(), **trainer_kwargs):
    """A ``trl.GRPOTrainer`` on the suite, with the sandbox reward scored by ``executor``.

    The policy is ``code_args.model``; ``trainer_kwargs`` go to ``GRPOTrainer`` as they are
    (``peft_config``, ``rollout_func``, ...).
    """
    from trl import GRPOTrainer

    suite = load_suite(code_args.suite)
    if code_args.max_tasks:
        suite = suite.select([t.task_id for t in suite][: code_args.max_tasks])
    reward_funcs = [PassRateReward(suite, executor, mode=code_args.reward_mode,
                                   no_code_penalty=code_args.no_code_penalty,
                                   compile_error_penalty=code_args.compile_error_penalty)]
    if code_args.format_reward_weight > 0:
        reward_funcs.append(FormatReward(suite))
        grpo_args.reward_weights = [1.0, code_args.format_reward_weight]
    path = resolve_model(code_args.model, progress=lambda msg: log.warning("%s", msg))
    return GRPOTrainer(model=path, reward_funcs=reward_funcs, args=grpo_args,
                       train_dataset=suite.to_dataset(chat=True), processing_class=load_tokenizer(path),
                       callbacks=list(callbacks), **trainer_kwargs)


def reward_history(log_history: list[dict]) -> list[tuple[int, float]]:
    """``(step, mean pass-rate reward)`` for each logged training step."""
    return [(entry["step"], entry["rewards/pass_rate/mean"]) for entry in log_history
            if entry.get("rewards/pass_rate/mean") is not None and "step" in entry]


def summarize_run(trainer, code_args: CodeRLArguments, seconds: float) -> dict:
    history = reward_history(trainer.state.log_history)
    rewards = [r for _, r in history]
    k = max(1, len(rewards) // 4)
    losses = [e["loss"] for e in trainer.state.log_history if "loss" in e]
    sandbox = [e["sandbox/seconds"] for e in trainer.state.log_history if "sandbox/seconds" in e]
    step_times = [e["step_time"] for e in trainer.state.log_history if "step_time" in e]
    return {
        "suite": code_args.suite,
        "model": code_args.model,
        "output_dir": str(trainer.args.output_dir),
        "steps": trainer.state.global_step,
        "seconds": round(seconds, 1),
        "num_generations": trainer.args.num_generations,
        "reward_first_quarter": sum(rewards[:k]) / k if rewards else None,
        "reward_last_quarter": sum(rewards[-k:]) / k if rewards else None,
        "reward_per_step": [[s, r] for s, r in history],
        "final_loss": losses[-1] if losses else None,
        "mean_step_time_s": sum(step_times) / len(step_times) if step_times else None,
        "mean_sandbox_s_per_step": sum(sandbox) / len(sandbox) if sandbox else None,
        "options": asdict(code_args),
    }


def train(code_args: CodeRLArguments, grpo_args, callbacks=(), print_logs: bool = True,
          **trainer_kwargs) -> TrainResult:
    """Run GRPO; write checkpoints, the completions log, trainer_state.json, reward_curve.png and
    summary.json.

    ``print_logs=False`` drops transformers' printing of each log dict (a caller's callback
    shows progress instead).

    Raises:
        DockerUnavailable / ImageMissing: the sandbox is not ready (before any model is loaded).
    """
    from grpo_code.plots import plot_training
    from grpo_code.trainlog import curves
    from sandbox import DockerExecutor

    output_dir = Path(grpo_args.output_dir)
    with DockerExecutor(concurrency=local_concurrency(code_args.sandbox_concurrency)) as executor, \
            warnings.catch_warnings():
        # TRL 1.16 reads transformers' deprecated `is_gradient_checkpointing` before every
        # generation, and its FutureWarning was printed again at every step: nothing for a user to fix.
        warnings.filterwarnings("ignore", message=r"`is_gradient_checkpointing` is deprecated", category=FutureWarning)
        trainer = build_trainer(code_args, grpo_args, executor, callbacks, **trainer_kwargs)
        if not print_logs:
            from transformers import PrinterCallback

            trainer.remove_callback(PrinterCallback)
        started = time.perf_counter()
        trainer.train(resume_from_checkpoint=grpo_args.resume_from_checkpoint)
        seconds = time.perf_counter() - started
    summary = summarize_run(trainer, code_args, seconds)
    if trainer.accelerator.is_main_process:
        trainer.save_model(str(output_dir))
        trainer.save_state()  # trainer_state.json: the log history the report reads
        c = curves(trainer.state.log_history)
        plot_training(c.steps, c.pass_rate, output_dir / "reward_curve.png", reward=c.reward, statuses=c.statuses,
                      sandbox_s=c.sandbox_s, step_s=c.step_s)
        (output_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return TrainResult(output_dir, summary)
