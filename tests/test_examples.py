"""The scripts of examples/ and the README's Python run as a user runs them, so they never go
stale: scoring completions in full, the TRL training script for one step on the embedded model,
and the README's own script as written, on this CPU, offline (the verl configuration is run
against ``grpo-code serve`` in test_serve.py)."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from grpo_code import load_suite
from sandbox import STATUSES

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
# no hub: what runs must run on a machine that cannot reach one
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}

pytestmark = pytest.mark.docker


def run(script: str | Path, *args: str, timeout: int = 600, cwd: Path | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env={**os.environ, **OFFLINE})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def test_scoring_completions_from_python():
    assert run("score_completions.py").stdout.splitlines() == [
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
    proc = run("train_trl.py", "--max-steps", "1", "--output-dir", str(tmp_path))
    # what `grpo-code train` shows: a line per step, not TRL's dict of figures nor a library's warnings
    lines = proc.stderr.splitlines()
    assert re.match(r"step +1  reward \d\.\d{3}  zero-std \d+%  loss ", lines[0]), proc.stderr
    assert lines[1:] == [line for line in lines[1:] if line.startswith("GRPO ")] and proc.stdout == "", proc.stderr
    assert (tmp_path / "model.safetensors").is_file() and (tmp_path / "config.json").is_file()
    step, = [e for e in json.loads((tmp_path / "trainer_state.json").read_text())["log_history"] if "loss" in e]
    # a step of 8 completions, each scored in the sandbox: the status shares sum to one, and the
    # reward that trained is the pass rate plus 0.2 of the format reward (TRL's reward_weights)
    assert step["step"] == 1 and step["sandbox/completions"] == 8
    assert sum(step[f"sandbox/{status}"] for status in STATUSES) == pytest.approx(1.0)
    assert step["reward"] == pytest.approx(step["rewards/pass_rate/mean"] + 0.2 * step["rewards/format/mean"])


def python_blocks(page: Path) -> list[str]:
    """The page's ```python blocks, as written."""
    return re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.M | re.S)


@pytest.mark.slow
def test_the_readme_s_own_script_runs_as_written_on_this_cpu_offline(tmp_path):
    (block,) = python_blocks(ROOT / "README.md")
    script = tmp_path / "readme.py"
    script.write_text(block)
    proc = run(script, cwd=tmp_path)
    logged = [ast.literal_eval(line) for line in proc.stdout.splitlines() if line.startswith("{")]  # TRL's dicts
    # the run as it asks: its steps done, and every completion of a step scored in the sandbox
    done = next(entry for entry in logged if "train_runtime" in entry)
    prompts = 2 * 8 / 4  # 2 steps of 8 completions, 4 a prompt
    assert float(done["epoch"]) == pytest.approx(prompts / len(load_suite("warmup-python?split=train")), rel=0.01)
    assert float(done["sandbox/completions"]) == 8


def test_the_readme_s_service_answers_its_own_request():
    from helpers import Server

    (block,) = [b for b in re.findall(r"^```bash\n(.*?)^```", (ROOT / "README.md").read_text(encoding="utf-8"),
                                      re.M | re.S) if "grpo-code serve" in b]
    serve, request, _ = block.splitlines()
    assert serve == "grpo-code serve --port 8080" and request.startswith("curl -s localhost:8080/v1/jobs ")
    server = Server()  # the command as written, on a free port (another program may hold 8080)
    try:
        proc = subprocess.run(request.replace(":8080", f":{server.port}"), shell=True, capture_output=True, text=True,
                              timeout=120)
    finally:
        server.stop()
    (verdict,) = json.loads(proc.stdout)["verdicts"]
    assert verdict["status"] == "passed" and verdict["pass_rate"] == 1.0, proc.stdout
