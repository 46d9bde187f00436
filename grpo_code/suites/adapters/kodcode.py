"""KodCode (Xu et al. 2025): Python exercises, each verified by a pytest file; HF ``KodCode/KodCode-V1``
and ``KodCode/KodCode-Light-RL-10K``.

Record schema: ``question_id`` (``Leetcode_3_I``, ``Docs: Python310_4_C``), ``question`` (the
exercise: prose, or for the ``complete`` style a function to complete), ``solution`` (a module,
the reference), ``test`` (a pytest file that imports the program as ``solution``: ``from solution
import f``, or ``from solution import *``), ``test_info`` (a list of ``function_name``,
``parameter_list``, ``function_declaration``, ``docstring``), ``subset``, ``style``,
``gpt_difficulty``, ``gpt_pass_percentage``, ... (the Light-RL rows add ``gpt_pass_sequence``,
``r1_*`` fields; both read the same).

Its harness writes ``solution.py`` and ``test_solution.py`` and runs ``pytest`` on them
(``timeout 30``; code-r1's RL reward: 20 s); a sample passes when pytest passes. Here:

- one ``pytest`` test per row, its ``module`` ``solution``: the judge runs the file with pytest
  against the program's process (docs/task-format.md, "Test case kinds"), each test function, each
  method of a test class and each parameter set of a parametrized one a case of its own. The test
  passes when every case passes, and its ``score`` (partial credit) is the share of cases that
  passed: a GRPO group whose completions each pass some cases gets rewards that differ, where
  pytest's exit status would give them all 0. pass@k is its harness's: a sample passes the test
  exactly when pytest passes the file (a skip of the file's own does not count either way);
- the test file runs alone, as in its harness: the judge runs no code of the question before it
  (``test_setup`` empty), so its names are what it imports, from ``solution`` (the program's) or
  elsewhere (its own);
- the prompt is the question and the declarations of ``test_info``'s functions (the names the test
  imports: a program that names them otherwise fails every case); the entry point is the first of
  them;
- the task id is ``kodcode/<question_id>``, the id as given;
- no public tests: the file is hidden, the question's examples are what the model sees;
- limits: 10 CPU seconds for the whole file (its wall clock 31 s: the pipeline's ``timeout 30``),
  1024 MiB.
"""

from __future__ import annotations

from grpo_code.suites.adapters.common import required_field, text_field
from grpo_code.suites.tasks import Task
from sandbox import Limits, TestCase

PROMPT_TEMPLATE = ("{prompt}\n"
                   "Answer with the complete {language} module, its functions and imports, in one "
                   "```{language} code block.")

MODULE = "solution"  # what KodCode's test files import the program as
TIME_LIMIT_S = 10.0  # CPU seconds for the whole file: its wall clock, 3 x 10 + 1 s, is the pipeline's timeout 30
MEMORY_MB = 1024


def functions(record: dict) -> list[dict]:
    """``test_info``'s entries (none when the record has no ``test_info``).

    Raises:
        ValueError: ``test_info`` is not a list of objects with a ``function_name`` that is an
            identifier.
    """
    info = record.get("test_info")
    if info is None:
        return []
    if not isinstance(info, list) or not all(isinstance(entry, dict) for entry in info):
        raise ValueError(f"'test_info' must be a list of objects (function_name, function_declaration, ...), "
                         f"got {type(info).__name__}")
    for i, entry in enumerate(info):
        name = entry.get("function_name")
        if not (isinstance(name, str) and name.isidentifier()):
            raise ValueError(f"'test_info[{i}].function_name' must be a function name, got {name!r}")
    return info


def prompt_of(question: str, info: list[dict]) -> str:
    """The question, then the declarations the test imports (``test_info``)."""
    declarations = [str(entry.get("function_declaration") or "").strip() or f"def {entry['function_name']}(...)"
                    for entry in info]
    if not declarations:
        return question.rstrip() + "\n"
    said = "is" if len(declarations) == 1 else "are"
    return (question.rstrip() + f"\n\nNote that the function declaration{'s' if len(declarations) > 1 else ''} "
            f"{said}: " + "; ".join(f"`{d}`" for d in declarations) + ".\n")


def task_from_record(record: dict, index: int) -> Task:
    """The ``Task`` of one record of the data set (``index``: its place, for errors).

    Raises:
        ValueError: the record does not fit the schema (the message names the field), or its test
            file is one the judge cannot run (``'test': ...``).
    """
    question_id = required_field(record, "question_id")
    if not isinstance(question_id, (str, int)) or not str(question_id).strip():
        raise ValueError(f"'question_id' must be text, got {question_id!r}")
    question = text_field(record, "question")
    test = text_field(record, "test")
    solution = record.get("solution")
    if solution is not None and not isinstance(solution, str):
        raise ValueError(f"'solution' must be text (a Python module), got {type(solution).__name__}")
    info = functions(record)
    try:
        tests = (TestCase(kind="pytest", code=test, module=MODULE),)
    except ValueError as e:
        raise ValueError(f"'test': {e}") from None
    task = Task(task_id=f"kodcode/{question_id}", prompt=prompt_of(question, info), tests=tests, language="python",
                entry_point=info[0]["function_name"] if info else None, reference_solution=solution or None,
                limits=Limits(time_limit_s=TIME_LIMIT_S, memory_limit_mb=MEMORY_MB), test_setup="",
                metadata={"source": "KodCode", "question_id": str(question_id), "index": index,
                          **{key: record[key] for key in ("subset", "style", "gpt_difficulty", "gpt_pass_percentage")
                             if record.get(key) is not None}})
    try:
        task.job("")  # the sandbox's rules: a test file the judge cannot run is refused here, named
    except ValueError as e:
        raise ValueError(f"'test': {str(e).partition(': ')[2] or e}") from None
    return task
