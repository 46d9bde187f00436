"""The scripts of examples/ run as a user runs them, so they never go stale: scoring completions
in full, and the TRL training script for one step on the embedded model (the verl configuration
is run against ``grpo-code serve`` in test_serve.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox import STATUSES

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

pytestmark = pytest.mark.docker


def run(script: str, *args: str, timeout: int = 600) -> str:
    proc = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_scoring_completions_from_python():
    assert run("score_completions.py").splitlines() == [
        "warmup-python/add: passed, pass rate 1.00",
        "warmup-python/add: failed, pass rate 0.25",
        "warmup-python/add: no_code, pass rate 0.00",
        "warmup-python/square: passed, pass rate 1.00",
        "warmup-python/square: passed, pass rate 1.00",
        "warmup-python/square: compile_error, pass rate 0.00",
        "warmup-python/add: 1 of 3 passed, pass@1 0.33, pass@2 0.67",
        "warmup-python/square: 2 of 3 passed, pass@1 0.67, pass@2 1.00",
    ]


@pytest.mark.slow
def test_the_trl_script_trains_a_step_of_the_embedded_model(tmp_path):
    run("train_trl.py", "--max-steps", "1", "--output-dir", str(tmp_path))
    assert (tmp_path / "model.safetensors").is_file() and (tmp_path / "config.json").is_file()
    step, = [e for e in json.loads((tmp_path / "trainer_state.json").read_text())["log_history"] if "loss" in e]
    # a step of 8 completions, each scored in the sandbox: the status shares sum to one, and the
    # reward that trained is the pass rate plus 0.2 of the format reward (TRL's reward_weights)
    assert step["step"] == 1 and step["sandbox/completions"] == 8
    assert sum(step[f"sandbox/{status}"] for status in STATUSES) == pytest.approx(1.0)
    assert step["reward"] == pytest.approx(step["rewards/pass_rate/mean"] + 0.2 * step["rewards/format/mean"])
