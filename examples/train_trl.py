"""GRPO on code tasks with TRL's own GRPOTrainer and grpo-code's sandbox reward: the whole script.

    python examples/train_trl.py --model Qwen/Qwen2.5-0.5B-Instruct --max-steps 100

Without --model it trains grpo-code's embedded model (SmolLM2-135M-Instruct, no download). It
shows what ``grpo-code train`` shows: a progress bar and one line per step (reward, loss, seconds,
the sandbox's verdicts). ``grpo-code report OUTPUT_DIR`` then draws its curves from the
trainer_state.json it leaves.
"""

from __future__ import annotations

import argparse
import warnings

import torch
from transformers import PrinterCallback
from trl import GRPOConfig, GRPOTrainer

from grpo_code import FormatReward, PassRateReward, RewardRules, load_suite, make_executor
from grpo_code.display import progress_callback, quiet_libraries
from grpo_code.generate.models import resolve_model


def main(argv: list[str] | None = None) -> None:
    """Train on a suite's tasks, rewarded by the pass rate of each completion's program."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a hub name or checkpoint folder (default: the embedded model)")
    parser.add_argument("--suite", default="warmup-python?split=train")
    parser.add_argument("--max-steps", type=int, default=10)
    parser.add_argument("--output-dir", default="runs/example-trl")
    args = parser.parse_args(argv)

    quiet_libraries()  # transformers' own bars (loading and writing the weights)
    suite = load_suite(args.suite)
    gpu = torch.cuda.is_available()  # TRL's default is bf16 on a GPU; a CPU trains in float32
    config = GRPOConfig(output_dir=args.output_dir, max_steps=args.max_steps, num_generations=4,
                        per_device_train_batch_size=8, max_completion_length=128, temperature=0.9,
                        learning_rate=1e-5, reward_weights=[1.0, 0.2], logging_steps=1, save_strategy="no",
                        report_to="none", seed=0, use_cpu=not gpu, bf16=gpu, activation_checkpointing=gpu,
                        disable_tqdm=True)
    with make_executor() as executor, warnings.catch_warnings():  # warm sandbox containers, removed at the end
        # TRL 1.16 reads transformers' deprecated `is_gradient_checkpointing` at every step: nothing to fix here
        warnings.filterwarnings("ignore", message="`is_gradient_checkpointing` is deprecated", category=FutureWarning)
        reward = PassRateReward(suite, executor, RewardRules(mode="fraction"), group_size=config.num_generations)
        trainer = GRPOTrainer(model=resolve_model(args.model), args=config, train_dataset=suite.to_dataset(),
                              reward_funcs=[reward, FormatReward(suite)], callbacks=[progress_callback()])
        trainer.remove_callback(PrinterCallback)  # its dict of every figure per step: progress_callback prints a line
        trainer.train()
    trainer.save_model(args.output_dir)
    trainer.save_state()  # trainer_state.json: every step's reward and sandbox figures


if __name__ == "__main__":
    main()
