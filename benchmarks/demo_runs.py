"""The demo's measurements: `make demo`'s commands for several seeds and reward shapes, one run at a
time under the machine's heavy lock, and one table of what each run showed.

Each run is the demo: held-out pass@k before (``eval``), GRPO training (``train``), held-out pass@k
after, and the report, with the Makefile's settings (keep them in step with its ``DEMO_EVAL``,
``DEMO_TRAIN``). A run holds the lock (``flock``, as
``flock /tmp/grpo-heavy.lock CMD`` takes it) from its first command to its last, so that its wall
time is its own; the load average before and after is recorded, since other processes slow it.
The held-out evaluation before training depends on the seed only: a second run of a seed (another
reward shape, no filter) reuses it, and its record says so.

    python benchmarks/demo_runs.py --seeds 0,1,2 --reward-modes fraction,binary [--no-filter]
        [--steps 12] [--band 0.05,0.95] [--out runs/demo-runs]

Prints one line per run (seed, reward, filter, wall time, held-out change with its interval, p, the
label, the share of zero-variance groups expected by the profile on all train tasks and on the kept
ones, and measured in the first and last quarter of steps) and appends each run's record to
``OUT/runs.jsonl``.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from grpo_code.comparison import compare
from grpo_code.report import load_run

ROOT = Path(__file__).resolve().parent.parent
PROFILE = ROOT / "tasks" / "warmup-python" / "profile-smollm2-135m-instruct.json"
LOCK = "/tmp/grpo-heavy.lock"


def grpo_code(*args: str) -> float:
    """Run ``grpo-code ARGS`` (this interpreter, this checkout); returns its wall seconds."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "grpo_code.cli", *args], check=True)
    return time.perf_counter() - started


def eval_args(seed: int, n: int, out: Path, model: Path | None = None) -> list[str]:
    """The Makefile's ``DEMO_EVAL``."""
    return ["eval", "--suite", "warmup-python?split=heldout", "-n", str(n), "-k", "1,2", "--max-new-tokens", "96",
            "--stop-after-code-block", "--batch-size", "96", "--seed", str(seed), "--out", str(out),
            *(["--model", str(model)] if model else [])]


def train_args(seed: int, steps: int, out: Path, mode: str, band: tuple[float, float] | None) -> list[str]:
    """The Makefile's ``DEMO_TRAIN``, with the reward shape and the solve-rate band."""
    args = ["train", "--output_dir", str(out), "--max_steps", str(steps), "--per_device_train_batch_size", "16",
            "--learning_rate", "4e-5", "--lr_scheduler_type", "constant", "--max_completion_length", "96",
            "--stop_after_code_block", "--save_strategy", "no", "--seed", str(seed), "--reward_mode", mode]
    if band is not None:
        args += ["--profile", str(PROFILE), "--min_solve_rate", str(band[0]), "--max_solve_rate", str(band[1])]
    return args


def one_run(out: Path, seed: int, mode: str, band: tuple[float, float] | None, steps: int, n: int) -> dict:
    """One demo run (the caller holds the lock); returns its record."""
    name = f"{mode}-{'band' if band else 'all'}-seed{seed}"
    run = out / name
    before = out / f"heldout-before-seed{seed}"
    shutil.rmtree(run, ignore_errors=True)  # fresh: an after-evaluation must never resume another model's samples
    record: dict = {"run": name, "seed": seed, "reward_mode": mode, "band": band, "steps": steps,
                    "load_before": os.getloadavg()[0]}
    started = time.perf_counter()
    record["eval_before_reused"] = (before / "summary.json").is_file()
    record["eval_before_s"] = 0.0 if record["eval_before_reused"] else grpo_code(*eval_args(seed, n, before))
    record["train_s"] = grpo_code(*train_args(seed, steps, run / "train", mode, band))
    record["eval_after_s"] = grpo_code(*eval_args(seed, n, run / "heldout-after", run / "train"))
    record["report_s"] = grpo_code("report", str(before), str(run / "heldout-after"), "--train", str(run / "train"),
                                   "--out", str(run / "report"))
    record["wall_s"] = time.perf_counter() - started
    record["load_after"] = os.getloadavg()[0]
    change = compare(load_run(before).results, load_run(run / "heldout-after").results, [1, 2]).figure("mean_pass_rate")
    if change is not None:
        t = change.test
        record.update(before=change.before, after=change.after, change=t.difference, low=t.low, high=t.high,
                      p=t.p_value, label=t.label)
    summary = json.loads((run / "train" / "summary.json").read_text())
    band_summary = summary.get("task_filter") or {}
    record.update(kept=band_summary.get("kept"), zero_std_all=band_summary.get("expected_zero_std_all_tasks"),
                  zero_std_kept=band_summary.get("expected_zero_std_kept_tasks"),
                  zero_std_first_quarter=summary["zero_std_first_quarter"],
                  zero_std_last_quarter=summary["zero_std_last_quarter"], mean_zero_std=summary["mean_zero_std"],
                  train_seconds=summary["seconds"])
    return record


def pct(value) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def line(r: dict) -> str:
    reuse = " (eval before reused)" if r["eval_before_reused"] else ""
    return (f"seed {r['seed']} {r['reward_mode']:8} {'band ' + str(r['band']) if r['band'] else 'all tasks':18} "
            f"{r['wall_s'] / 60:5.1f} min{reuse} (train {r['train_s']:.0f} s; load {r['load_before']:.1f} -> "
            f"{r['load_after']:.1f}): {100 * r['before']:.1f}% -> {100 * r['after']:.1f}%, "
            f"{100 * r['change']:+.1f} pts [{100 * r['low']:+.1f}, {100 * r['high']:+.1f}], p = {r['p']:.3f}, "
            f"{r['label']}; zero-variance groups: expected {pct(r['zero_std_all'])} all tasks -> "
            f"{pct(r['zero_std_kept'])} kept, measured {pct(r['zero_std_first_quarter'])} first quarter -> "
            f"{pct(r['zero_std_last_quarter'])} last")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--reward-modes", default="fraction")
    parser.add_argument("--band", default="0.05,0.95", help="the solve-rate band of the profile (min,max)")
    parser.add_argument("--no-filter", action="store_true", help="train on every train task (no profile)")
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("-n", type=int, default=6, help="held-out samples per task")
    parser.add_argument("--out", default="runs/demo-runs")
    parser.add_argument("--lock", default=LOCK)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    low, high = (float(x) for x in args.band.split(","))
    band = None if args.no_filter else (low, high)
    for seed in map(int, args.seeds.split(",")):
        for mode in args.reward_modes.split(","):
            with open(args.lock, "a") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
                record = one_run(out, seed, mode, band, args.steps, args.n)
            with (out / "runs.jsonl").open("a") as f:
                f.write(json.dumps(record) + "\n")
            print(line(record), flush=True)


if __name__ == "__main__":
    main()
