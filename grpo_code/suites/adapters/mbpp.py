"""MBPP (Austin et al. 2021): short Python function tasks, HF ``mbpp`` / google-research ``mbpp``.

Record schema (``full`` config): ``task_id`` (int), ``text`` (the problem), ``code`` (reference),
``test_list`` (assert statements), ``test_setup_code`` (str, often empty), ``challenge_test_list``.
The ``sanitized`` config's ``prompt`` and ``test_imports`` (a list) are read in place of ``text``
and ``test_setup_code``.

Rules:
- one ``assert`` test per ``test_list`` entry, with the setup code before it; challenge tests unused;
  every test is ``visibility: public``: MBPP's standard prompt shows them all;
- entry point: the first function called in the first test that the reference defines, else the
  first called name that is not a builtin, else the reference's first ``def``;
- prompt: the standard MBPP prompt, the problem then "Your code should pass these tests:" and
  the asserts;
- an MBPP+ row (evalplus's: ``base_input`` and ``plus_input``, or a ``test`` that holds the plus
  inputs) is refused, named: read here it would keep its ``test_list`` and lose the plus inputs and
  their tolerance; ``?adapter=evalplus`` reads it whole.
"""

from __future__ import annotations

import ast
import builtins
import re

from grpo_code.suites.adapters.common import required_field
from grpo_code.suites.tasks import Task
from sandbox import TestCase

PROMPT_TEMPLATE = ("You are an expert Python programmer, and here is your task: {prompt}\n"
                   "Answer with the complete Python program in one ```python code block.")


def _defined_functions(code: str) -> list[str]:
    try:
        return [n.name for n in ast.parse(code).body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    except SyntaxError:
        return re.findall(r"^def\s+(\w+)\s*\(", code, re.M)


def _called_names(test: str) -> list[str]:
    try:
        calls = [(n.lineno, n.col_offset, n.func.id) for n in ast.walk(ast.parse(test))
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    except SyntaxError:
        return re.findall(r"(\w+)\s*\(", test)
    return [name for _, _, name in sorted(calls)]  # in the order they are written


def entry_point_of(first_test: str, code: str) -> str | None:
    """The function under test (see the module docstring)."""
    defined = _defined_functions(code)
    called = _called_names(first_test)
    for name in called:
        if name in defined:
            return name
    for name in called:
        if not hasattr(builtins, name) and name != "assert":
            return name
    return defined[0] if defined else None


def plus_inputs(record: dict) -> str | None:
    """What makes ``record`` an MBPP+ row, said in words (its base and plus inputs); None for MBPP's own."""
    if record.get("plus_input") is not None or record.get("base_input") is not None:
        n = len(record.get("base_input") or []) + len(record.get("plus_input") or [])
        return f"{n} base and plus inputs"
    test = record.get("test")
    if isinstance(test, str) and re.search(r"^inputs\s*=", test, re.M) and re.search(r"^results\s*=", test, re.M):
        return "plus inputs in its 'test'"
    return None


def task_from_record(record: dict, index: int) -> Task:
    """The ``Task`` of one record of the data set (``index``: its place, for ids and errors).

    Raises:
        ValueError: the record does not fit the schema (the message names the field).
    """
    task_id = required_field(record, "task_id")
    plus = plus_inputs(record)
    if plus is not None:
        raise ValueError(f"this is an MBPP+ row ({plus}): ?adapter=mbpp would keep its test_list and drop those inputs "
                         "and its atol; read it with ?adapter=evalplus")
    text = required_field(record, "text", "prompt").strip()
    code = required_field(record, "code").replace("\r\n", "\n")
    test_list = required_field(record, "test_list")
    if not isinstance(test_list, list) or not test_list or not all(isinstance(t, str) for t in test_list):
        raise ValueError("'test_list' must be a non-empty list of assert statements")
    setup = record.get("test_setup_code")
    if setup is None and isinstance(record.get("test_imports"), list):
        setup = "\n".join(record["test_imports"])
    setup = (setup or "").replace("\r\n", "\n").strip()
    tests = tuple(TestCase(kind="assert", code=f"{setup}\n{t.strip()}" if setup else t.strip(), visibility="public")
                  for t in test_list)
    prompt = f"{text}\nYour code should pass these tests:\n\n" + "\n".join(t.strip() for t in test_list) + "\n"
    return Task(task_id=f"mbpp/{task_id}", prompt=prompt, tests=tests, language="python",
                entry_point=entry_point_of(test_list[0], code), reference_solution=code,
                metadata={"source": "mbpp", "index": index,
                          "challenge_tests": len(record.get("challenge_test_list") or [])})
