"""The demo's measurements: `make demo`'s commands for several seeds and reward shapes, one run at a
time under the machine's heavy lock, and one table of what each run showed.

Each run is the demo: held-out pass@k before (``eval``), GRPO training (``train``), held-out pass@k
after, and the report, with the Makefile's settings (``make demo-settings`` prints them) but those
the options change. A run holds the lock (``flock``, as ``flock /tmp/grpo-heavy.lock CMD`` takes
it) from its first command to its last, so that its wall time is its own; the load average before
and after is recorded, since other processes slow it.
The held-out evaluation before training depends on the seed and the evaluation's settings only: a second
run of a seed with the same evaluation (another reward shape, no filter) reuses it, and its record says so.

    python benchmarks/demo_runs.py --seeds 0,1,2 --reward-modes fraction,binary [--no-filter]
        [--scale-rewards group] [--steps 12] [--band 0.05,0.95] [-n 2] [--temperature 0.2]
        [--train-extra '--OPTION VALUE'] [--out runs/demo-runs]
    python benchmarks/demo_runs.py --pool RUN,RUN,... [--out runs/demo-runs]

Prints one line per run (seed, reward, filter, wall time; for pass@1, pass@2 and the mean pass rate the
held-out change with its interval, p and label; the share of zero-variance groups expected by the
profile on all train tasks and on the kept ones, and measured in the first and last quarter of steps)
and appends each run's record to ``OUT/runs.jsonl``. With ``--pool`` it runs nothing and prints
the held-out change pooled over those runs of ``OUT/runs.jsonl``: one run's interval of pass@1
(about +-4 points with 2 samples of 256 tasks) hides a change of a few points that several seeds
of one setting, pooled task by task, resolve.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from grpo_code.analysis.comparison import compare, pooled_change
from grpo_code.analysis.report import load_run

ROOT = Path(__file__).resolve().parent.parent
LOCK = "/tmp/grpo-heavy.lock"


def grpo_code(*args: str) -> float:
    """Run ``grpo-code ARGS`` (this interpreter, this checkout, from its root: the Makefile's paths are
    relative to it); returns its wall seconds."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "grpo_code.cli", *args], check=True, cwd=ROOT)
    return time.perf_counter() - started


def demo_settings(variables: dict[str, object]) -> tuple[list[str], list[str]]:
    """The demo's eval and train arguments as the Makefile sets them (``make demo-settings``: its
    ``DEMO_EVAL_ARGS`` and ``DEMO_TRAIN``, the one place they are set), with ``variables`` (``DEMO_SEED``,
    ``DEMO_REWARD``, ...) overriding its own."""
    command = ["make", "-s", "-C", str(ROOT), "demo-settings", *(f"{k}={v}" for k, v in variables.items())]
    lines = subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines()
    return shlex.split(lines[0]), shlex.split(lines[1])


def flag(args: list[str], name: str) -> str | None:
    """The value that follows ``name`` in ``args`` (None if absent)."""
    return args[args.index(name) + 1] if name in args else None


def before_folder(out: Path, seed: int, eval_settings: list[str]) -> Path:
    """Where the held-out evaluation before training of ``seed`` with these settings is (shared by runs)."""
    return out / f"heldout-before-seed{seed}-{hashlib.sha1(shlex.join(eval_settings).encode()).hexdigest()[:8]}"


def pooled(out: Path, names: list[str]) -> list[str]:
    """The held-out change of pass@1, pass@2 and the mean pass rate pooled over the runs ``names``
    of ``OUT/runs.jsonl`` (seeds of one setting): ``comparison.pooled_change``, one line each."""
    records = {r["run"]: r for r in map(json.loads, (out / "runs.jsonl").read_text().splitlines())}
    missing = [name for name in names if name not in records]
    if missing:
        raise SystemExit(f"--pool: no run {', '.join(missing)} in {out / 'runs.jsonl'}")
    pairs = [(load_run(before_folder(out, records[n]["seed"], records[n]["eval_args"])).results,
              load_run(out / n / "heldout-after").results) for n in names]
    lines = []
    for metric in ("pass@1", "pass@2", "mean_pass_rate"):
        change = pooled_change(pairs, metric)
        if change is not None:
            t = change.test
            lines.append(f"pooled over {len(names)} runs, {metric}: {100 * change.before:.1f}% -> "
                         f"{100 * change.after:.1f}%, {100 * t.difference:+.1f} pts [{100 * t.low:+.1f}, "
                         f"{100 * t.high:+.1f}], p = {t.p_value:.4f}, {t.label} ({t.method})")
    return lines


def one_run(out: Path, seed: int, mode: str, variables: dict[str, object], extra: list[str]) -> dict:
    """One demo run of ``seed`` with reward ``mode`` and the Makefile's other settings but ``variables``,
    and ``extra`` train options after them (the caller holds the lock); returns its record."""
    eval_settings, train_settings = demo_settings({**variables, "DEMO_SEED": seed, "DEMO_REWARD": mode})
    train_settings += extra
    scale = flag(train_settings, "--scale_rewards") or "group"
    band = (None if "--profile" not in train_settings
            else [float(flag(train_settings, f"--{end}_solve_rate") or "nan") for end in ("min", "max")])
    name = f"{mode}-{scale}-{'band' if band else 'all'}{''.join(extra).replace('--', '-')}-seed{seed}"
    run = out / name
    before = before_folder(out, seed, eval_settings)
    shutil.rmtree(run, ignore_errors=True)  # fresh: an after-evaluation must never resume another model's samples
    record: dict = {"run": name, "seed": seed, "reward_mode": mode, "scale_rewards": scale, "band": band,
                    "steps": int(flag(train_settings, "--max_steps") or 0), "eval_args": eval_settings,
                    "train_args": train_settings, "load_before": os.getloadavg()[0]}
    started = time.perf_counter()
    record["eval_before_reused"] = (before / "summary.json").is_file()
    record["eval_before_s"] = (0.0 if record["eval_before_reused"]
                               else grpo_code("eval", *eval_settings, "--out", str(before)))
    record["train_s"] = grpo_code("train", "--output_dir", str(run / "train"), *train_settings)
    record["eval_after_s"] = grpo_code("eval", *eval_settings, "--model", str(run / "train"),
                                       "--out", str(run / "heldout-after"))
    record["report_s"] = grpo_code("report", str(before), str(run / "heldout-after"), "--train", str(run / "train"),
                                   "--out", str(run / "report"))
    record["wall_s"] = time.perf_counter() - started
    record["load_after"] = os.getloadavg()[0]
    compared = compare(load_run(before).results, load_run(run / "heldout-after").results, [1, 2])
    for metric, prefix in (("mean_pass_rate", ""), ("pass@1", "pass1_"), ("pass@2", "pass2_")):
        change = compared.figure(metric)
        if change is not None:
            t = change.test
            record.update({f"{prefix}before": change.before, f"{prefix}after": change.after,
                           f"{prefix}change": t.difference, f"{prefix}low": t.low, f"{prefix}high": t.high,
                           f"{prefix}p": t.p_value, f"{prefix}label": t.label})
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


def figure(r: dict, prefix: str, name: str) -> str:
    """One held-out figure's change in a run's record: before -> after, the change with its interval, p, label."""
    if f"{prefix}change" not in r:
        return f"{name} -"
    return (f"{name} {100 * r[prefix + 'before']:.1f}% -> {100 * r[prefix + 'after']:.1f}%, "
            f"{100 * r[prefix + 'change']:+.1f} pts [{100 * r[prefix + 'low']:+.1f}, {100 * r[prefix + 'high']:+.1f}], "
            f"p = {r[prefix + 'p']:.3f}, {r[prefix + 'label']}")


def line(r: dict) -> str:
    reuse = " (eval before reused)" if r["eval_before_reused"] else ""
    band = "band " + str(r["band"]) if r["band"] else "all tasks"
    return (f"seed {r['seed']} {r['reward_mode']:8} scale {r.get('scale_rewards', 'group'):5} {band:18} "
            f"{r['wall_s'] / 60:5.1f} min{reuse} (train {r['train_s']:.0f} s; load {r['load_before']:.1f} -> "
            f"{r['load_after']:.1f}): {figure(r, 'pass1_', 'pass@1')}; {figure(r, 'pass2_', 'pass@2')}; "
            f"{figure(r, '', 'mean pass rate')}; zero-variance groups: expected {pct(r['zero_std_all'])} all tasks -> "
            f"{pct(r['zero_std_kept'])} kept, measured {pct(r['zero_std_first_quarter'])} first quarter -> "
            f"{pct(r['zero_std_last_quarter'])} last")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--reward-modes", default="fraction")
    parser.add_argument("--band", help="the solve-rate band of the profile (min,max); default: the Makefile's")
    parser.add_argument("--no-filter", action="store_true", help="train on every train task (no profile)")
    parser.add_argument("--scale-rewards", choices=("group", "batch", "none"),
                        help="TRL's scale_rewards: the std that divides the advantages (the group's, the batch's, "
                             "or none); default: the Makefile's")
    parser.add_argument("--steps", type=int, help="training steps; default: the Makefile's")
    parser.add_argument("-n", type=int, help="held-out samples per task; default: the Makefile's")
    parser.add_argument("--temperature", type=float, help="the held-out evaluations' temperature; default: the "
                        "Makefile's")
    parser.add_argument("--train-extra", default="", help="more train options, appended to the Makefile's "
                        "(as one string: --train-extra '--learning_rate 8e-5')")
    parser.add_argument("--out", default="runs/demo-runs")
    parser.add_argument("--lock", default=LOCK)
    parser.add_argument("--pool", metavar="RUN,RUN,...", help="run nothing: the held-out change pooled over these "
                        "runs of OUT/runs.jsonl (seeds of one setting; per task the mean over the runs, then the "
                        "paired test)")
    args = parser.parse_args()
    out = Path(args.out).resolve()  # the commands run from the checkout's root
    if args.pool:
        print("\n".join(pooled(out, args.pool.split(","))))
        return
    out.mkdir(parents=True, exist_ok=True)
    variables: dict[str, object] = {}
    if args.band:
        low, high = args.band.split(",")
        variables.update(DEMO_MIN_SOLVE=float(low), DEMO_MAX_SOLVE=float(high))
    if args.no_filter:
        variables["DEMO_FILTER"] = ""
    for key, value in (("DEMO_SCALE", args.scale_rewards), ("DEMO_STEPS", args.steps), ("DEMO_N", args.n),
                       ("DEMO_TEMP", args.temperature)):
        if value is not None:
            variables[key] = value
    for seed in map(int, args.seeds.split(",")):
        for mode in args.reward_modes.split(","):
            with open(args.lock, "a") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
                record = one_run(out, seed, mode, variables, shlex.split(args.train_extra))
            with (out / "runs.jsonl").open("a") as f:
                f.write(json.dumps(record) + "\n")
            print(line(record), flush=True)


if __name__ == "__main__":
    main()
