"""BigCodeBench (Zhuo et al. 2024): practical Python tasks that call libraries, each verified by a
``unittest`` class; HF ``bigcode/bigcodebench`` (and ``bigcode/bigcodebench-hard``).

Record schema: ``task_id`` (``BigCodeBench/13``), ``complete_prompt`` (the imports, constants and
``def task_func(...)`` with its docstring), ``instruct_prompt`` (the task in prose, ending with the
code to start from), ``canonical_solution`` (the body that continues ``complete_prompt``),
``code_prompt`` (the imports and the signature), ``test`` (a ``unittest.TestCase`` class
``TestCases`` that calls ``task_func`` without importing it), ``entry_point`` (``task_func``),
``doc_struct``, ``libs`` (the libraries it uses, a list as text: ``"['pandas', 'random']"``).

Its harness (``bigcodebench/eval/__init__.py``, ``unsafe_execute``) executes the program and the
test as one module (``__test__``, with ``sys``, ``os`` and ``environ`` bound) in a fresh process in a
temporary folder, runs ``TestCases`` with ``unittest.TestResult``, and passes a sample when no
case failed or raised; its image holds 73 pinned packages. Here:

- one ``unittest`` test per row: the judge runs ``TestCases`` against the program's process
  (docs/task-format.md, "Test case kinds"); the test's free names are the program's globals, as in
  one module (``task_func``, a constant of the prompt's), each method a case of its own (its
  ``subTest`` blocks part of it). The test passes when every case passes, and its ``score``
  (partial credit) is the share that passed; pass@k is its harness's;
- the modules the harness's one module gives the test are the judge's own: the task's
  ``test_setup`` holds ``complete_prompt``'s imports and ``import os, sys`` with ``environ``, so a
  test's ``np`` and ``pd`` (its ``numpy.testing`` and ``pandas.testing``) and ``os.path`` are never
  the program's (a program's own ``np`` cannot judge its answer). What a test patches
  (``unittest.mock.patch`` of ``os``, ``builtins``, ``subprocess``, ``urllib``, ...) reaches the
  program's process, where the program looks the names up;
- the reference is ``complete_prompt`` + ``canonical_solution`` (the harness's ground truth);
  the prompt is ``instruct_prompt`` (it ends with the code to start from);
- the task id is ``bigcodebench/<task_id>``, the id as given (``bigcodebench/BigCodeBench/13``);
- third-party libraries: the suite names them, pinned (``hf:...?adapter=bigcodebench&packages=
  numpy==2.2.6,pandas==2.3.3``), and runs in their image; a task whose code imports a module
  that neither the standard library nor those packages provide is refused when the suite loads,
  naming the task, the module and the package (``libs`` is kept in ``metadata.libs``; what only a
  library loads by itself, an ``openpyxl`` behind ``pandas.to_excel``, is not seen);
- limits: 20 CPU seconds for the whole class (its wall clock 61 s: SandboxFusion's 60 s for
  BigCodeBench; the harness's own default is 240 s a task, its references need about a second),
  1024 MiB a process.
"""

from __future__ import annotations

import ast

from grpo_code.suites.adapters.common import text_field
from grpo_code.suites.tasks import Task
from sandbox import Limits, TestCase

PROMPT_TEMPLATE = ("{prompt}\n"
                   "Answer with the complete {language} program, its imports and the function, in one "
                   "```{language} code block.")

TIME_LIMIT_S = 20.0  # CPU seconds for the whole class; its wall clock 3 x 20 + 1 s
MEMORY_MB = 1024
HARNESS_NAMES = "import os\nimport sys\nfrom os import environ\n"  # what unsafe_execute binds in the module


def libs_of(record: dict) -> list[str]:
    """``libs`` read: a list, or its text (``"['pandas', 'random']"``); empty when absent."""
    libs = record.get("libs")
    if libs is None or libs == "":
        return []
    if isinstance(libs, str):
        try:
            libs = ast.literal_eval(libs)
        except (ValueError, SyntaxError, RecursionError):
            raise ValueError(f"'libs' must be a list of library names (or its text), got {libs[:60]!r}") from None
    if not isinstance(libs, (list, tuple)) or not all(isinstance(lib, str) for lib in libs):
        raise ValueError(f"'libs' must be a list of library names, got {libs!r:.60}")
    return list(libs)


def imports_of(code: str, field: str) -> str:
    """The top-level import statements of ``code`` (the record's ``field``), as written.

    Raises:
        ValueError: the code does not parse (naming the field).
    """
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError) as e:
        raise ValueError(f"{field!r} is not Python code: {e}") from None
    lines = code.splitlines()
    return "".join("\n".join(lines[node.lineno - 1:node.end_lineno]) + "\n" for node in tree.body
                   if isinstance(node, (ast.Import, ast.ImportFrom)))


def task_from_record(record: dict, index: int) -> Task:
    """The ``Task`` of one record of the data set (``index``: its place, for errors).

    Raises:
        ValueError: the record does not fit the schema (the message names the field), or its test
            is one the judge cannot run (``'test': ...``).
    """
    task_id = text_field(record, "task_id")
    complete = text_field(record, "complete_prompt")
    instruct = text_field(record, "instruct_prompt")
    body = text_field(record, "canonical_solution")
    test = text_field(record, "test")
    entry_point = record.get("entry_point") or "task_func"
    if not (isinstance(entry_point, str) and entry_point.isidentifier()):
        raise ValueError(f"'entry_point' must be a function name, got {entry_point!r}")
    reference = complete + "\n" + body
    try:
        ast.parse(reference)
    except (SyntaxError, ValueError, RecursionError) as e:
        raise ValueError(f"'complete_prompt' + 'canonical_solution' is not Python code: {e}") from None
    try:
        tests = (TestCase(kind="unittest", code=test),)
    except ValueError as e:
        raise ValueError(f"'test': {e}") from None
    task = Task(task_id=f"bigcodebench/{task_id}", prompt=instruct.rstrip() + "\n", tests=tests, language="python",
                entry_point=entry_point, reference_solution=reference,
                limits=Limits(time_limit_s=TIME_LIMIT_S, memory_limit_mb=MEMORY_MB),
                test_setup=imports_of(complete, "complete_prompt") + HARNESS_NAMES,
                metadata={"source": "BigCodeBench", "index": index, "libs": libs_of(record)})
    try:
        task.job("")  # the sandbox's rules: a test class the judge cannot run is refused here, named
    except ValueError as e:
        raise ValueError(f"'test': {str(e).partition(': ')[2] or e}") from None
    return task
