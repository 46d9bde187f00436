"""`grpo-code eval --profile`: the difficulty profile of a crafted suite whose tasks have known solve
rates. The samples are written beforehand (reference solutions, half-right and wrong programs mixed,
as a forced rollout does in test_train.py), so eval draws nothing and scores them in the real sandbox."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from grpo_code.analysis.report import write_report
from grpo_code.generate.models import DEFAULT_MODEL

pytestmark = pytest.mark.docker

TESTS = [{"kind": "assert", "code": "assert add(1, 2) == 3"}, {"kind": "assert", "code": "assert add(2, 2) == 4"},
         {"kind": "assert", "code": "assert add(0, 0) == 0"}, {"kind": "assert", "code": "assert add(-1, 1) == 0"}]
RIGHT = "```python\ndef add(a, b):\n    return a + b\n```"
HALF = "```python\ndef add(a, b):\n    return 0\n```"  # passes the two tests whose sum is 0
WRONG = "```python\ndef add(a, b):\n    return a - b + 100\n```"
COMPLETIONS = {"p/always": [RIGHT] * 8, "p/some": [RIGHT] * 3 + [WRONG] * 5, "p/partial": [HALF, WRONG] * 4}
SAMPLING = {"greedy": False, "temperature": 0.9, "top_p": 1.0, "max_new_tokens": 128}


def test_eval_profile_of_tasks_with_known_solve_rates(tmp_path):
    suite = tmp_path / "crafted.jsonl"
    suite.write_text("".join(json.dumps({"task_id": t, "prompt": "Write add(a, b).", "entry_point": "add",
                                         "tests": TESTS, "reference_solution": RIGHT}) + "\n" for t in COMPLETIONS))
    out = tmp_path / "eval"
    out.mkdir()
    (out / "samples.jsonl").write_text("".join(
        json.dumps({"task_id": t, "completion_id": i, "completion": c, "model": DEFAULT_MODEL, "n_tokens": 10,
                    "sampling": SAMPLING}) + "\n" for t, cs in COMPLETIONS.items() for i, c in enumerate(cs)))
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "eval", "--suite", str(suite), "-n", "8",
                           "-k", "1,4", "--temperature", "0.9", "--top-p", "1.0", "--max-new-tokens", "128",
                           "--profile", "--group-size", "4", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "0 to generate" in proc.stderr and "profile.json" in proc.stdout
    profile = json.loads((out / "profile.json").read_text())
    assert profile["model"] == DEFAULT_MODEL and profile["sampling"] == SAMPLING and profile["group_size"] == 4
    tasks = {t["task_id"]: t for t in profile["tasks"]}
    c84 = math.comb(8, 4)
    assert (tasks["p/always"]["pass@1"], tasks["p/always"]["mean_pass_rate"]) == (1.0, 1.0)
    assert tasks["p/always"]["zero_std"] == {"fraction": 1.0, "binary": 1.0}
    assert (tasks["p/some"]["c"], tasks["p/some"]["pass@1"]) == (3, 3 / 8)
    assert tasks["p/some"]["zero_std"]["binary"] == pytest.approx(math.comb(5, 4) / c84)  # 4 wrong of 5
    assert tasks["p/partial"]["pass@1"] == 0.0 and tasks["p/partial"]["mean_pass_rate"] == pytest.approx(0.25)
    assert tasks["p/partial"]["rewards"] == {"0": 4, "0.5": 4}
    assert tasks["p/partial"]["zero_std"] == {"fraction": pytest.approx(2 / c84), "binary": 1.0}
    low, high = tasks["p/some"]["pass@1_ci"]
    assert 0.0 < low < 3 / 8 < high < 1.0
    s = profile["summary"]
    assert (s["binary"]["never_solved"], s["binary"]["in_between"], s["binary"]["always_solved"]) == (1, 1, 1)
    assert s["fraction"]["expected_zero_std"] == pytest.approx((1 + 5 / c84 + 2 / c84) / 3)
    assert "difficulty profile: 3 tasks, 8 samples each" in proc.stdout
    # pass^k beside pass@k: 4 of 4 pass only on p/always
    summary = json.loads((out / "summary.json").read_text())
    assert summary["pass^4"] == pytest.approx(1 / 3) and summary["pass@4"] == pytest.approx((1 + 1 - 5 / c84) / 3)
    assert "pass^4" in proc.stdout
    md = write_report([out], tmp_path / "report").files["md"].read_text()
    assert "## Difficulty profile: eval (3 tasks, 8 samples each)" in md
    assert "| binary | share of completions passing every test | 1 | 1 | 1 |" in md
