"""Time limits calibrated from the reference solutions: references of known CPU time (a loop that
runs until its process has used 0.4 CPU seconds) measured in the real sandbox, and the rule."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from grpo_code.curate.calibrate import Rule, calibrate, tasks_file
from grpo_code.errors import ConfigError
from grpo_code.suites.registry import load_suite
from grpo_code.suites.tasks import parse_task

# 0.4 CPU seconds in the test's process, whatever the machine's speed
BUSY = ("import time\n\ndef work(x):\n    start = time.process_time()\n"
        "    while time.process_time() - start < 0.4:\n        pass\n    return x\n")
QUICK = "def work(x):\n    return x\n"
TESTS = [{"kind": "assert", "code": "assert work(1) == 1"}, {"kind": "assert", "code": "assert work(2) == 2"}]
# Kattis's multipliers with a finer resolution and floor, so that a 0.4 s reference is told apart
RULE = Rule(ac_to_time_limit=2.0, time_limit_to_tle=1.5, time_resolution_s=0.5, min_time_limit_s=0.5)


def task(task_id: str, reference: str | None, limit: float) -> dict:
    data = {"task_id": task_id, "prompt": "Write work(x).", "entry_point": "work", "tests": TESTS,
            "time_limit_s": limit}
    return data if reference is None else {**data, "reference_solution": reference}


TASKS = [task("t/slow-too-tight", BUSY, 0.2), task("t/slow-tight", BUSY, 0.6), task("t/slow-ok", BUSY, 1.0),
         task("t/quick-loose", QUICK, 5.0), task("t/quick-ok", QUICK, 0.5), task("t/none", None, 2.0),
         task("t/broken", "def work(x):\n    return 0\n", 2.0)]


@pytest.mark.docker
def test_the_proposed_limit_follows_the_rule_and_a_limit_below_the_reference_is_reported(executor):
    results = {c.task_id: c for c in calibrate(executor, [parse_task(t) for t in TASKS], RULE, repeats=2)}
    for task_id in ("t/slow-too-tight", "t/slow-tight", "t/slow-ok"):
        c = results[task_id]
        # measured under the generous limit, not cut off at 0.2 s
        assert c.reference_s is not None and 0.4 <= c.reference_s < 0.5, c
        assert c.proposed_s == 1.0  # 2 x 0.4.. = 0.8.. rounded up to a multiple of 0.5
    quick = results["t/quick-loose"].reference_s
    assert quick is not None and quick < 0.05 and results["t/quick-loose"].proposed_s == 0.5  # the floor
    assert {t: c.status for t, c in results.items()} == {
        "t/slow-too-tight": "too_tight", "t/slow-tight": "tight", "t/slow-ok": "ok", "t/quick-loose": "loose",
        "t/quick-ok": "ok", "t/none": "no_reference", "t/broken": "reference_fails"}
    assert "the reference needs 0.4" in results["t/slow-too-tight"].message
    assert "above the limit 0.2 s" in results["t/slow-too-tight"].message
    assert results["t/broken"].proposed_s is None and results["t/broken"].message.startswith("failed")


def test_the_rule_by_hand():
    assert Rule().limit_for(0.01) == 1.0  # Kattis's defaults with our floor of 1 s
    assert Rule().limit_for(1.2) == 3.0  # 2.4 rounded up to a whole second
    assert RULE.limit_for(0.25) == 0.5 and RULE.limit_for(0.26) == 1.0 and RULE.limit_for(1.0) == 2.0
    assert Rule(ac_to_time_limit=3.0, time_resolution_s=0.1, min_time_limit_s=0.1).limit_for(0.05) == \
        pytest.approx(0.2)  # 0.15 rounded up to a tenth
    with pytest.raises(ConfigError, match="must be >= 1"):
        Rule(ac_to_time_limit=0.5)


def test_write_refuses_suites_not_read_from_a_tasks_file_of_their_own():
    with pytest.raises(ConfigError, match=r"make_problems\.py: set the time limits in the generator"):
        tasks_file(load_suite("stdio-basics"), "stdio-basics")
    with pytest.raises(ConfigError, match=r"--write rewrites a suite.s tasks \.jsonl file"):
        tasks_file(load_suite("humaneval?limit=2"), "humaneval?limit=2")
    with pytest.raises(ConfigError, match="drop \\?language="):
        tasks_file(load_suite("warmup-python?language=python"), "warmup-python?language=python")


@pytest.mark.docker
def test_validate_calibrate_write_sets_the_proposed_limits(tmp_path):
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "suite.yaml").write_text("name: calibrated\ndefaults: {time_limit_s: 2.0}\n")
    rows = [task("t/slow-too-tight", BUSY, 0.2), {k: v for k, v in task("t/quick", QUICK, 1.0).items()
                                                   if k != "time_limit_s"}, task("t/quick-ok", QUICK, 0.5)]
    text = "".join(json.dumps(row) + "\n" for row in rows)
    (folder / "problems.jsonl").write_text(text)
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "tasks", "validate", str(folder), "--calibrate",
                           "--write", "--repeats", "1", "--time-resolution", "0.5", "--min-time-limit", "0.5"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1, proc.stderr  # the too-tight reference times out under its own limit
    assert "FAIL t/slow-too-tight: timeout" in proc.stdout
    assert "too_tight" in proc.stdout and "calibration: ok 1, too_tight 1, loose 1" in proc.stdout
    assert f"wrote time_limit_s of 2 task(s) into {folder / 'problems.jsonl'}" in proc.stdout
    lines = (folder / "problems.jsonl").read_text().splitlines(keepends=True)
    assert lines[2] == text.splitlines(keepends=True)[2]  # unchanged, byte for byte
    assert [json.loads(line).get("time_limit_s") for line in lines] == [1.0, 0.5, 0.5]
    assert [t.limits.time_limit_s for t in load_suite(str(folder))] == [1.0, 0.5, 0.5]
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "tasks", "validate", str(folder), "--write"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2 and "--write writes the calibrated time limits: give --calibrate too" in proc.stderr
