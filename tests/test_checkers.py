"""Checkers: problems with more than one right answer, judged by the task's own code in the
sandbox's judge, never in the program's process (real Docker)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import statuses
from sandbox import Job, Limits, TestCase

pytestmark = pytest.mark.docker

SUITES_PAGE = (Path(__file__).resolve().parent.parent / "docs" / "suites.md").read_text(encoding="utf-8")
PERMUTATION, FLOATS = re.findall(r"```python\n(.*?)```", SUITES_PAGE.split("## Checkers", 1)[1].split("\n## ", 1)[0],
                                 re.S)
PERMUTATION_TESTS = (TestCase(kind="stdio", stdin="3\n", expected_stdout="1 2 3\n"),
                     TestCase(kind="stdio", stdin="4\n", expected_stdout="1 2 3 4\n"))


def job(program: str, checker: str, tests=PERMUTATION_TESTS, **limits) -> Job:
    return Job(program=program, tests=tests, checker=checker, limits=Limits(**limits))


def test_every_right_answer_passes_and_a_wrong_one_fails(executor):
    programs = {
        "ascending": "n = int(input())\nprint(*range(1, n + 1))\n",
        "descending": "n = int(input())\nprint(*range(n, 0, -1))\n",
        "one per line": "n = int(input())\nfor i in range(n):\n    print((i + 1) % n + 1)\n",
        "one missing": "n = int(input())\nprint(*range(1, n))\n",
        "a repeat": "n = int(input())\nprint(*([1] * n))\n",
        "not numbers": "input()\nprint('a b c')\n",
    }
    verdicts = dict(zip(programs, executor.run([job(p, PERMUTATION) for p in programs.values()]), strict=True))
    for name in ("ascending", "descending", "one per line"):
        assert verdicts[name].passed and verdicts[name].pass_rate == 1.0, (name, verdicts[name].test_results)
    for name in ("one missing", "a repeat", "not numbers"):
        assert statuses(verdicts[name]) == ["failed", "failed"] and verdicts[name].pass_rate == 0.0
        assert "checker rejected" in verdicts[name].test_results[0].message


def test_partial_credit_counts_in_the_pass_rate(executor):
    tests = (TestCase(kind="stdio", stdin="", expected_stdout="0.5 0.25\n"),
             TestCase(kind="stdio", stdin="", expected_stdout="0.5 0.25\n"))
    verdict = executor.run_one(job("print('5e-1 0.3')\n", FLOATS, tests))  # one of two numbers right
    assert statuses(verdict) == ["failed", "failed"]
    assert [t.score for t in verdict.test_results] == [0.5, 0.5] and verdict.pass_rate == 0.5
    assert verdict.to_dict()["tests"][0]["score"] == 0.5
    exact = executor.run_one(job("print('0.50000000001 2.5e-1')\n", FLOATS, tests))
    assert exact.passed and exact.pass_rate == 1.0


def test_a_checker_that_does_not_load_is_the_tasks_fault(executor):
    program = "n = int(input())\nprint(*range(1, n + 1))\n"
    verdict = executor.run_one(job(program, "raise ImportError('no such helper')\n"))
    assert "checker_error" in statuses(verdict) and verdict.pass_rate is None
    assert "failed to load: ImportError" in verdict.test_results[0].message
    assert executor.run_one(job("n = int(input())\nprint(*range(1, n + 1))\n", PERMUTATION)).passed  # it recovers


@pytest.mark.parametrize("checker, why", [
    ("def check(input, output, expected):\n    return 1 / 0\n", "raise ZeroDivisionError"),
    ("def check(input, output, expected):\n    return 'yes'\n", "answered 'yes'"),
    ("def check(input, output, expected):\n    return 1.5\n", "not a bool nor a number in [0, 1]"),
    ("def check(input, output, expected):\n    while True:\n        pass\n", "did not answer in time"),
])
def test_a_checker_that_breaks_on_an_output_fails_that_test_with_a_flag(executor, checker, why):
    # What breaks a checker that loaded (and passed ``tasks validate`` on the reference's output and
    # on malformed ones) is the output: the program's failure, reward 0, never a masked sample.
    verdict = executor.run_one(job("n = int(input())\nprint(*range(1, n + 1))\n", checker, wall_time_limit_s=2.0))
    assert set(statuses(verdict)) == {"failed"} and verdict.pass_rate == 0.0
    assert why in verdict.test_results[0].message and "checker_fault" in verdict.flags
    assert executor.run_one(job("n = int(input())\nprint(*range(1, n + 1))\n", PERMUTATION)).passed  # it recovers


def test_the_checker_never_enters_the_programs_process(executor):
    # The program searches its memory and files for the checker's code and the expected output.
    marker = "CHECKER" + "_SECRET_7d1"
    checker = f"# {marker}\n" + PERMUTATION
    expected = "EXPECTED" + "_9f3c\n"  # the permutation checker reads no expected output: a marker only
    program = ("import os, sys\nneedles = ['CHECKER' + '_SECRET_7d1', 'EXPECTED' + '_9f3c']\nhits = []\n"
               "for root, _, files in os.walk('/'):\n    if root.startswith(('/proc', '/sys', '/dev')):\n"
               "        continue\n    for f in files:\n        try:\n"
               "            data = open(os.path.join(root, f), 'rb').read(1 << 20).decode('latin-1')\n"
               "        except OSError:\n            continue\n        hits += [n for n in needles if n in data]\n"
               "seen, stack = set(), [vars(m) for m in list(sys.modules.values()) if hasattr(m, '__dict__')]\n"
               "while stack and len(seen) < 200000:\n    o = stack.pop()\n    if id(o) in seen or o is needles:\n"
               "        continue\n    seen.add(id(o))\n    if type(o) is str:\n"
               "        hits += [n for n in needles if n in o and o != n]\n"
               "    elif type(o) is dict:\n        stack += list(o.values())\n"
               "    elif type(o) in (list, tuple):\n        stack += list(o)\n"
               "n = int(input())\nprint(*range(1, n + 1)) if not hits else print(hits)\n")
    tests = (TestCase(kind="stdio", stdin="17\n", expected_stdout=expected),)
    verdict = executor.run_one(job(program, checker, tests, time_limit_s=10))
    assert verdict.passed, verdict.test_results[0].message


def test_tasks_validate_runs_each_reference_through_its_checker(tmp_path):
    import json
    import subprocess
    import sys

    folder = tmp_path / "perms"
    folder.mkdir()
    (folder / "suite.yaml").write_text("name: perms\ndefaults: {language: python}\n")
    tasks = [{"task_id": f"perms/{name}", "prompt": "Print any permutation of 1..n.", "reference_solution": program,
              "checker": PERMUTATION, "tests": [t.to_dict() | {"stdin": t.stdin} for t in PERMUTATION_TESTS]}
             for name, program in (("descending", "n = int(input())\nprint(*range(n, 0, -1))\n"),
                                   ("wrong", "n = int(input())\nprint(*range(n))\n"))]
    (folder / "problems.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks))
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "tasks", "validate", str(folder)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FAIL perms/wrong: failed (0.00)" in proc.stdout and "1 references pass, 1 fail" in proc.stdout
    assert "2 task(s) judged by their own checker" in proc.stdout
    assert "2 checker(s) survive malformed outputs, 0 do not" in proc.stdout


def test_tasks_validate_rejects_a_checker_that_a_programs_output_can_break(tmp_path):
    # A checker that trusts the output's shape raises on what a program may print; programs would
    # then be scored by its bugs (a raise is the program's failure): validate refuses it.
    import json
    import subprocess
    import sys

    fragile = "def check(input, output, expected):\n    return int(output.split()[0]) == int(expected)\n"
    folder = tmp_path / "fragile"
    folder.mkdir()
    (folder / "suite.yaml").write_text("name: fragile\ndefaults: {language: python}\n")
    task = {"task_id": "fragile/double", "prompt": "Print twice n.", "reference_solution": "print(2 * int(input()))\n",
            "checker": fragile, "tests": [{"kind": "stdio", "stdin": "3\n", "expected_stdout": "6"}]}
    (folder / "problems.jsonl").write_text(json.dumps(task) + "\n")
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "tasks", "validate", str(folder)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "1 references pass, 0 fail" in proc.stdout
    assert "FAIL fragile/double: its checker breaks on empty output" in proc.stdout
    assert "FAIL fragile/double: its checker breaks on words output" in proc.stdout
    assert "0 checker(s) survive malformed outputs, 1 do not" in proc.stdout
