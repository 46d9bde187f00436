"""Does GRPO learn? Held-out warmup-python pass rate before and after a time-boxed CPU run.

1. Evaluates the base policy on the held-out tasks of ``warmup-python`` (``?split=heldout``, never
   trained on) twice with different sampling seeds: the spread is the run-to-run noise.
2. Trains it with ``grpo-code train`` defaults on ``?split=train`` for at most ``--minutes``.
3. Evaluates the trained policy the same two ways, and prints before, after, the change, and
   whether it exceeds the noise, on a line containing ``learning``.

    python benchmarks/learning.py [--minutes 30] [--n 6] [--learning-rate 2e-5] [--out runs/bench-learning]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from transformers import TrainerCallback

from grpo_code.generate.evaluate import evaluate
from grpo_code.generate.models import DEFAULT_MODEL
from grpo_code.generate.sampling import SamplingConfig
from grpo_code.rl.train import parse_train_args, plan_training, train
from grpo_code.suites.registry import load_suite
from sandbox import DockerExecutor

HELDOUT = "warmup-python?split=heldout"


class TimeBox(TrainerCallback):
    """Stop training once ``minutes`` have passed (checked after each step)."""

    def __init__(self, minutes: float):
        self.deadline = time.monotonic() + 60 * minutes

    def on_step_end(self, args, state, control, **kwargs):
        if time.monotonic() > self.deadline:
            control.should_training_stop = True


def heldout_rates(model: str | None, out: Path, n: int, seeds=(0, 1)) -> list[float]:
    suite = load_suite(HELDOUT)
    rates = []
    with DockerExecutor() as executor:
        for seed in seeds:
            config = SamplingConfig(n=n, temperature=0.8, max_new_tokens=160, batch_size=16, seed=seed)
            result = evaluate(suite, list(suite), model, config, [1], out / f"seed{seed}", executor)
            rates.append(result.summary["mean_pass_rate"])
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="training time box")
    parser.add_argument("--max-steps", type=int, default=200)
    parser.add_argument("--n", type=int, default=6, help="samples per held-out task per seed")
    parser.add_argument("--learning-rate", type=float, default=2e-5)
    parser.add_argument("--out", default="runs/bench-learning")
    args = parser.parse_args()
    out = Path(args.out)
    before = heldout_rates(None, out / "before", args.n)
    code_args, grpo_args = parse_train_args(["--output_dir", str(out / "train"), "--max_steps", str(args.max_steps),
                                             "--learning_rate", str(args.learning_rate),
                                             "--max_completion_length", "128", "--save_steps", "50",
                                             "--num_completions_to_print", "0"])
    started = time.monotonic()
    result = train(plan_training(code_args, grpo_args), callbacks=[TimeBox(args.minutes)])
    minutes = (time.monotonic() - started) / 60
    after = heldout_rates(str(out / "train"), out / "after", args.n)
    noise = max(abs(before[0] - before[1]), abs(after[0] - after[1]))
    change = statistics.mean(after) - statistics.mean(before)
    report = {"before": before, "after": after, "change": change, "noise": noise, "train_minutes": minutes,
              "train_steps": result.summary["steps"],
              "train_reward_first_quarter": result.summary["reward_first_quarter"],
              "train_reward_last_quarter": result.summary["reward_last_quarter"], "model": DEFAULT_MODEL}
    (out / "learning.json").write_text(json.dumps(report, indent=2) + "\n")
    print(f"held-out mean pass rate before: {before} (seeds 0, 1)")
    print(f"held-out mean pass rate after : {after} ({result.summary['steps']} GRPO steps, {minutes:.1f} min)")
    print(f"training reward, first vs last quarter of steps: {result.summary['reward_first_quarter']:.3f} -> "
          f"{result.summary['reward_last_quarter']:.3f}")
    print(f"learning: change {change:+.3f}, run-to-run noise {noise:.3f}: "
          f"{'a rise beyond the noise' if change > noise else 'not beyond the noise'}")


if __name__ == "__main__":
    main()
