"""`make demo`'s settings, as the Makefile sets them (`make demo-settings`, which benchmarks/demo_runs.py
reads too): they parse as the commands' options and keep the tasks docs/training.md says."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from grpo_code.analysis.difficulty import select_band
from grpo_code.cli import build_parser
from grpo_code.rl.train import parse_train_args
from grpo_code.suites.registry import load_suite

ROOT = Path(__file__).resolve().parent.parent


def demo_settings(*variables: str) -> tuple[list[str], list[str]]:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    out = subprocess.run(["make", "-s", "-C", str(ROOT), "demo-settings", *variables], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    assert len(out) == 2, out
    return shlex.split(out[0]), shlex.split(out[1])


def test_the_demo_settings_are_the_commands_options_and_keep_75_train_tasks(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the Makefile's paths are the repository's
    eval_args, train_args = demo_settings()
    parsed = build_parser().parse_args(["eval", *eval_args, "--out", str(tmp_path / "eval")])
    assert (parsed.suite, parsed.n, parsed.temperature, parsed.max_new_tokens, parsed.stop_after_code_block) == (
        "warmup-python?split=heldout", 2, 0.8, 96, True)
    assert len(load_suite(parsed.suite)) == 256
    code_args, grpo_args = parse_train_args(["--output_dir", str(tmp_path / "train"), *train_args])
    assert (grpo_args.max_steps, grpo_args.per_device_train_batch_size, grpo_args.num_generations) == (12, 16, 4)
    assert (grpo_args.scale_rewards, code_args.reward_mode, code_args.format_reward_weight) == (
        "batch", "fraction", 0.2)
    kept, band = select_band(load_suite(code_args.suite), code_args.profile, code_args.reward_mode,
                             code_args.min_solve_rate, code_args.max_solve_rate, grpo_args.num_generations)
    assert (len(kept), len(band.below), len(band.above)) == (75, 53, 0)  # docs/training.md's count
    assert band.zero_std_before == pytest.approx(0.40, abs=0.005)
    assert band.zero_std_after == pytest.approx(0.14, abs=0.005)


def test_the_demo_settings_follow_the_variables_benchmarks_give():
    eval_args, train_args = demo_settings("DEMO_SEED=7", "DEMO_REWARD=binary", "DEMO_SCALE=group", "DEMO_FILTER=",
                                          "DEMO_CANARY=0.05", "DEMO_TEMP=0.2")
    assert eval_args[eval_args.index("--temperature") + 1] == "0.2"
    assert eval_args[eval_args.index("--seed") + 1] == "7" and train_args[train_args.index("--seed") + 1] == "7"
    assert train_args[train_args.index("--reward_mode") + 1] == "binary"
    assert train_args[train_args.index("--scale_rewards") + 1] == "group" and "--profile" not in train_args
    assert train_args[train_args.index("--canary_rate") + 1] == "0.05"
