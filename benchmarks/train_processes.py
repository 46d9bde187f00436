"""GRPO step time with two training processes against one, the same completions per step.

Runs ``grpo-code train`` twice with the same model, suite, seed and global batch: once as one
process (``per_device_train_batch_size`` = BATCH), once as two processes under
``accelerate launch --multi_gpu --num_processes 2`` (BATCH/2 each; on a machine without GPUs
this starts two CPU processes through torchrun), each process with its own sandbox pool (the
node's cores split between them). Prints the mean step time of each (the first step, a warm-up,
left out), the sandbox seconds per step, and the ratio two / one.

    python benchmarks/train_processes.py [--model smollm2-135m-instruct] [--steps 3] [--batch 8]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(processes: int, args, out: Path) -> dict:
    train = ["-m", "grpo_code.cli", "train", "--model", args.model, "--suite", args.suite, "--output_dir", str(out),
             "--max_steps", str(args.steps + 1), "--per_device_train_batch_size", str(args.batch // processes),
             "--num_generations", "4", "--max_completion_length", str(args.max_completion_length),
             "--save_strategy", "no", "--log_completions", "false", "--seed", "0"]
    if processes == 1:
        command = [sys.executable, *train]
    else:
        command = [str(Path(sys.executable).with_name("accelerate")), "launch", "--multi_gpu", "--num_processes",
                   str(processes), "--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no",
                   "--main_process_port", str(free_port()), *train]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{processes} process(es) failed:\n{proc.stderr[-3000:]}")
    summary = json.loads((out / "summary.json").read_text())
    if summary["processes"] != processes:
        sys.exit(f"asked for {processes} processes, the run had {summary['processes']}")
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="smollm2-135m-instruct")
    parser.add_argument("--suite", default="warmup-python?split=train")
    parser.add_argument("--steps", type=int, default=3, help="measured steps per run (after one warm-up)")
    parser.add_argument("--batch", type=int, default=8, help="completions per step, all processes together")
    parser.add_argument("--max-completion-length", type=int, default=96)
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for processes in (1, 2):
            summary = run(processes, args, Path(tmp) / f"p{processes}")
            times = summary["step_times_s"][1:]  # the first step warms up
            results[processes] = statistics.mean(times)
            steps = ", ".join(f"{t:.1f}" for t in times)
            print(f"{processes} process(es): mean step {results[processes]:7.2f} s over {len(times)} steps "
                  f"(steps: {steps}), sandbox {summary['mean_sandbox_s_per_step']:.3f} s per step, "
                  f"{args.batch} completions per step")
    print(f"ratio step time two processes / one: {results[2] / results[1]:.2f}  (below 1: faster with two)")


if __name__ == "__main__":
    main()
