"""The sandbox's share of a GRPO step: the same steps with the sandbox reward and with a constant one.

Runs ``trl.GRPOTrainer`` twice in one process on the same suite, model, seed and config: once
rewarded by ``PassRateReward`` (the real sandbox), once by a constant reward. Prints the mean step
time of each, the sandbox's share of a step measured two ways (the reward's own sandbox seconds
over the step time, and the difference of the two runs' step times), on lines containing ``share``.

    python benchmarks/train_step.py [--model smollm2-135m-instruct] [--steps 4] [--suite ...]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile

from grpo_code.analysis.trainlog import STEP_TIME_KEY, sandbox_key
from grpo_code.generate.models import load_tokenizer, resolve_model
from grpo_code.rl.train import build_trainer, parse_train_args, plan_training
from grpo_code.suites.registry import load_suite


async def constant_reward(prompts, completions, **kwargs):
    return [0.5] * len(completions)


def run(reward: str, args, out: str) -> list[dict]:
    code_args, grpo_args = parse_train_args([
        "--suite", args.suite, "--model", args.model, "--output_dir", out, "--max_steps", str(args.steps + 1),
        "--save_strategy", "no", "--log_completions", "false", "--seed", "0"])
    if reward == "constant":  # the same trainer inputs, but a reward that costs nothing
        from trl import GRPOTrainer

        path = resolve_model(code_args.model)
        trainer = GRPOTrainer(model=path, reward_funcs=[constant_reward], args=grpo_args,
                              train_dataset=load_suite(code_args.suite).to_dataset(chat=True),
                              processing_class=load_tokenizer(path))
        trainer.train()
    else:
        plan = plan_training(code_args, grpo_args)
        with plan.executor:
            trainer = build_trainer(plan)
            trainer.train()
    return [e for e in trainer.state.log_history if STEP_TIME_KEY in e][1:]  # the first step warms up


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="smollm2-135m-instruct")
    parser.add_argument("--suite", default="warmup-python?split=train")
    parser.add_argument("--steps", type=int, default=4, help="measured steps per run (after one warm-up)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sandboxed = run("sandbox", args, f"{tmp}/sandbox")
        constant = run("constant", args, f"{tmp}/constant")
    t_sandbox = statistics.mean(e[STEP_TIME_KEY] for e in sandboxed)
    t_constant = statistics.mean(e[STEP_TIME_KEY] for e in constant)
    in_sandbox = statistics.mean(e[sandbox_key("seconds")] for e in sandboxed)
    print(f"model {args.model}, suite {args.suite}, {args.steps} measured steps per run")
    print(f"step time with sandbox reward : {t_sandbox:8.2f} s   (of which in the sandbox {in_sandbox:.3f} s)")
    print(f"step time with constant reward: {t_constant:8.2f} s")
    print(f"sandbox share of the step (sandbox seconds / step time): {in_sandbox / t_sandbox:.4f}")
    print(f"sandbox share of the step (step-time difference): {(t_sandbox - t_constant) / t_sandbox:+.4f}"
          "  (noisy: generation lengths differ between runs)")


if __name__ == "__main__":
    main()
