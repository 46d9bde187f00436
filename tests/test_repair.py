"""Repair prompts built offline from a scored run (``grpo-code tasks repair``), with the real sandbox."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from grpo_code.curate.repair import repair_suite
from grpo_code.errors import ConfigError
from grpo_code.suites.registry import load_suite

pytestmark = pytest.mark.docker

ADD = {"task_id": "crafted/add", "prompt": "Write a Python function `add(a, b)` that returns a + b.",
       "entry_point": "add", "reference_solution": "def add(a, b):\n    return a + b\n",
       "tests": [{"kind": "assert", "code": "assert add(2, 3) == 5", "visibility": "public"},
                 {"kind": "call", "fn_name": "add", "args": [40, 2], "expected": 42, "visibility": "public"},
                 {"kind": "assert", "code": "assert add(1234, 4321) == 5555"}]}
SHOUT = {"task_id": "crafted/shout", "prompt": "Read a line and print it in capitals.",
         "reference_solution": "print(input().upper())\n",
         "tests": [{"kind": "stdio", "stdin": "hi\n", "expected_stdout": "HI\n", "visibility": "public"},
                   {"kind": "stdio", "stdin": "zebra-crossing\n", "expected_stdout": "ZEBRA-CROSSING\n"}]}
HIDDEN = ("1234", "4321", "5555", "zebra", "ZEBRA")
ATTEMPTS = [("crafted/add", "def add(a, b):\n    return a - b\n"),          # fails a public test: kept
            ("crafted/add", "def add(a, b):\n    return a + b\n"),          # passes: nothing to repair
            ("crafted/add", "def add(a, b)\n    return a + b\n"),           # does not compile: kept
            ("crafted/shout", "print(input())\n"),                        # fails the public test: kept
            ("crafted/shout", "s = input()\nprint('HI' if s == 'hi' else s)\n"),  # passes what it was shown
            ("crafted/shout", "I cannot do that.")]                       # no program


def grpo_code(*args):
    return subprocess.run([sys.executable, "-m", "grpo_code.cli", *args], capture_output=True, text=True, timeout=600)


def test_repair_prompts_show_the_attempt_and_its_public_report_never_a_hidden_test(tmp_path):
    suite_dir = tmp_path / "crafted"
    suite_dir.mkdir()
    (suite_dir / "suite.yaml").write_text("name: crafted\nprompt_template: |\n  {prompt}\n"
                                          "  Answer in one code block.\n")
    (suite_dir / "problems.jsonl").write_text("".join(json.dumps(t) + "\n" for t in (ADD, SHOUT)))
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps({"task_id": t, "completion": c}) + "\n" for t, c in ATTEMPTS))
    assert grpo_code("score", str(samples), "--suite", str(suite_dir), "-k", "1").returncode == 0
    results = str(tmp_path / "samples.results.jsonl")
    refused = grpo_code("tasks", "repair", results)  # its summary names the suite, not its folder
    assert refused.returncode == 2 and "names suite 'crafted', which does not load" in refused.stderr
    proc = grpo_code("tasks", "repair", results, "--suite", str(suite_dir), "--out", str(tmp_path / "repair"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("3 repair tasks from 6 results of crafted -> ")
    assert "passed every public test 2" in proc.stdout and "no program (no_code) 1" in proc.stdout
    built = load_suite(str(tmp_path / "repair"))
    assert built.name == "crafted-repair" and [t.task_id for t in built] == [
        "crafted/add/repair/0", "crafted/add/repair/2", "crafted/shout/repair/0"]
    wrong, broken, shout = built.tasks
    text = built.format_prompt(wrong)
    assert text.startswith(str(ADD["prompt"]) + "\n\nAn earlier attempt at this problem:\n```python\ndef add(a, b):\n"
                           "    return a - b\n```\nIts run on the public tests: 0 of 2 public tests passed.")
    assert text.endswith("Write a corrected program.\nAnswer in one code block.\n")
    assert "The program does not compile" in built.format_prompt(broken)
    assert 'Input:\n```\nhi\n```\nExpected output:\n```\nHI\n```' in built.format_prompt(shout)
    for task in built:
        assert not any(mark in built.format_prompt(task) for mark in HIDDEN)
        original = load_suite(str(suite_dir)).get(task.metadata["repair_of"])
        assert (task.prompt, task.tests, task.reference_solution) == \
            (original.prompt, original.tests, original.reference_solution)  # judged as its original
    assert (wrong.metadata["attempt"], wrong.metadata["attempt_status"]) == (0, "failed")
    validate = grpo_code("tasks", "validate", str(tmp_path / "repair"))
    assert validate.returncode == 0 and "3 references pass, 0 fail" in validate.stdout


def test_results_of_another_suite_are_refused(tmp_path):
    suite = load_suite("warmup-python?limit=1")
    line = {"task_id": "crafted/add", "completion_id": 0, "program": "x", "status": "failed", "pass_rate": 0.0,
            "tests": [{"status": "failed"}]}
    with pytest.raises(ConfigError, match="which suite 'warmup-python' lacks: give the --suite"):
        repair_suite(suite, [line])
    line = {**line, "task_id": suite.tasks[0].task_id}  # the right task, but not its tests
    with pytest.raises(ConfigError, match="has 1 test results, the task 4 tests"):
        repair_suite(suite, [line])
