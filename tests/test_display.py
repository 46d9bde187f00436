"""What ``grpo-code`` prints, as a user's pipe receives it: every table keeps each id whole, on
one line (rich fits a table to 80 columns where the output is no terminal, and cuts what does
not fit with an ellipsis), and each command group's help names every command of the group.

Each printer runs in a real subprocess whose standard output is a pipe, as ``grpo-code ... |
grep`` runs it; this file is that subprocess's script too (``python tests/test_display.py NAME``).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# ids longer than a terminal's 80 columns, as an hf: suite's name and a task id of it can be
SUITE = "hf-" + "a-data-set-with-a-long-name-" * 3 + "test"
TASK = SUITE + "/problem-0042-with-a-long-id-of-its-own"
CHECK = "the-check-of-an-isolation-property-whose-name-is-longer-than-eighty-columns-of-a-terminal"


def suites_listed(folder: Path):
    """``print_suites``' input: one suite of a real tasks file, its audit's figures."""
    from grpo_code.suites.registry import SuiteRef, load_suite

    path = folder / f"{SUITE}.jsonl"
    path.write_text(json.dumps({"task_id": TASK, "prompt": "p", "reference_solution": "def f():\n    return 1\n",
                                "tests": [{"kind": "assert", "code": "assert f() == 1"}]}) + "\n")
    return [(SuiteRef(SUITE, "bundled", str(path)), load_suite(str(path)))], ["mbpp"], {SUITE: (0.5, 1, 1)}


def results() -> list[dict]:
    return [{"task_id": TASK, "status": s, "pass_rate": 1.0 if s == "passed" else 0.0, "tests": []}
            for s in ("passed", "failed", "failed", "passed")]


def print_table(name: str, folder: Path) -> None:
    """Call the printer ``name`` of ``grpo_code.display`` with ids longer than 80 columns."""
    from grpo_code import display
    from grpo_code.analysis.difficulty import profile_record, task_profiles
    from grpo_code.analysis.results import summarize
    from grpo_code.analysis.strength import SuiteAudit, TaskAudit
    from grpo_code.curate.calibrate import Calibration, Rule
    from sandbox.check import Check

    if name == "print_suites":
        display.print_suites(*suites_listed(folder))
    elif name == "print_summary":
        display.print_summary(summarize(SUITE, results(), [1, 2]), [1, 2])
    elif name == "print_profile":
        display.print_profile(profile_record(task_profiles(results()), 4, suite=SUITE, n=4))
    elif name == "print_checks":
        display.print_checks([Check(CHECK, "refused", "refused", True)], "grpo-code-sandbox:0123456789ab")
    elif name == "print_calibrations":
        display.print_calibrations([Calibration(TASK, 1.0, 0.9, 3.0, "too_tight", "the reference needs 0.9 s")],
                                   Rule(), 3)
    elif name == "print_audit":
        task = TaskAudit(TASK, "fingerprint", "passed", mutants=4, killed=3, survived=1, cheats=2,
                         passing_cheats=["echo"], best_cheat_pass_rate=1.0)
        display.print_audit(SuiteAudit(SUITE, 1, [task]), 20, [])
    elif name == "audit_without_references":  # no table to check: the reason its scores are "-"
        tasks = [TaskAudit(f"t/{i}", "fingerprint", "missing", cheats=2) for i in range(7)]
        display.print_audit(SuiteAudit("mine", 1, [tasks[0], TaskAudit("t/ok", "f", "passed", 4, 4), *tasks[1:]]),
                            20, [])
        display.print_audit(SuiteAudit("none", 1, tasks[:2]), 20, [])


# each printer that draws a table: the ids its title and its rows must show whole
TABLES = {"print_suites": ([], [SUITE]), "print_summary": ([SUITE], []), "print_profile": ([], []),
          "print_checks": ([], [CHECK]), "print_calibrations": ([], [TASK]), "print_audit": ([SUITE], [TASK])}


def piped(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR", "TTY_COMPATIBLE")}
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True, env=env, timeout=120, cwd=cwd)


@pytest.mark.parametrize("name", TABLES)
def test_a_table_printed_to_a_pipe_keeps_every_id_whole_on_one_line(name, tmp_path):
    proc = piped(__file__, name, str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    title, *lines = proc.stdout.splitlines()
    rows = [line for line in lines if line.startswith("│")]
    assert "…" not in proc.stdout and rows, proc.stdout
    in_title, in_rows = TABLES[name]
    assert all(shown in title for shown in in_title), f"the title is not whole on its line:\n{proc.stdout}"
    for shown in in_rows:
        assert any(shown in row for row in rows), f"{shown} is not whole on one row:\n{proc.stdout}"


def test_every_printer_that_draws_a_table_is_checked():
    tree = ast.parse((ROOT / "grpo_code" / "display.py").read_text(encoding="utf-8"))
    drawing = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)
               and any(isinstance(call, ast.Call) and getattr(call.func, "id", None) == "Table"
                       for call in ast.walk(node))}
    assert drawing == set(TABLES)


def test_an_audit_says_why_a_task_without_a_reference_has_no_score(tmp_path):
    proc = piped(__file__, "audit_without_references", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    reasons = [line for line in proc.stdout.splitlines() if line.startswith("no reference solution")]
    assert reasons == [
        "no reference solution, no mutation score (-): a mutant is a changed reference solution, and 7 task(s) have "
        "none: t/0, t/1, t/2, t/3, t/4 and 2 more. Give each task its reference_solution (docs/task-format.md) and "
        "audit again",
        "no reference solution, no mutation score (-): a mutant is a changed reference solution, and no task has one. "
        "Give each task its reference_solution (docs/task-format.md) and audit again"]


def test_tasks_list_into_a_pipe_keeps_each_suite_on_one_line():
    from grpo_code.suites.registry import load_available

    proc = piped("-m", "grpo_code.cli", "tasks", "list")
    assert proc.returncode == 0, proc.stderr
    rows = {line.split("│")[1].strip(): line for line in proc.stdout.splitlines() if line.startswith("│ ")}
    listed = {ref.name: suite for ref, suite in load_available()}
    assert set(rows) == set(listed) and "…" not in proc.stdout
    for name, suite in listed.items():
        assert not isinstance(suite, Exception), suite
        assert f"│ {len(suite)} " in rows[name] and suite.source.rpartition("/")[2] in rows[name]


def test_a_narrow_terminal_folds_an_id_and_never_cuts_it(tmp_path):
    proc = subprocess.run([sys.executable, __file__, "print_suites", str(tmp_path)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "COLUMNS": "60"})
    assert proc.returncode == 0, proc.stderr
    cells = [line.split("│")[1].strip() for line in proc.stdout.splitlines() if line.startswith("│ ")]
    assert "".join(cells) == SUITE and max(len(line) for line in proc.stdout.splitlines() if "│" in line) <= 60


def test_tasks_show_of_an_hf_suite_prints_no_bar_of_the_datasets_library(tmp_path):
    from datasets.utils import are_progress_bars_disabled

    from grpo_code.suites.registry import load_suite

    fixture = tmp_path / "mbpp.jsonl"  # a file datasets has not seen: it generates the split afresh
    fixture.write_text((ROOT / "tests" / "fixtures" / "adapters" / "mbpp.jsonl").read_text())
    spec = f"hf:{fixture}?adapter=mbpp"
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "tasks", "show", spec, "--max", "1"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "HF_DATASETS_CACHE": str(tmp_path / "cache")})
    assert proc.returncode == 0 and proc.stdout.startswith("mbpp.jsonl-test v1: 3 tasks"), proc.stderr
    assert proc.stderr == ""
    assert len(load_suite(spec)) == 3 and not are_progress_bars_disabled()  # a caller's own bars are left on


def parsers_of_groups(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """``(the group's command words, its help in the listing above it, its commands)`` for every
    command group under ``parser`` (argparse's sub-parsers, walked down)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                commands = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
                if commands:
                    yield (*path, name), helps.get(name) or "", list(commands[0].choices)
                yield from parsers_of_groups(sub, (*path, name))


def test_the_help_of_each_command_group_names_every_command_of_it():
    from grpo_code.cli import build_parser

    groups = list(parsers_of_groups(build_parser()))
    assert {path for path, _, _ in groups} == {("sandbox",), ("tasks",)}
    for path, text, commands in groups:
        missing = [c for c in commands if c not in text.replace(",", " ").split()]
        assert not missing, f"`grpo-code {' '.join(path)}` is described as {text!r}, without {missing}"


if __name__ == "__main__":
    print_table(sys.argv[1], Path(sys.argv[2]))
