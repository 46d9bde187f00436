"""open-r1 coding problems: HF ``open-r1/verifiable-coding-problems-python`` and ``open-r1/codeforces``.

Verifiable-problems record schema: ``problem_id`` (also ``source``, ``task_type``, ``in_source_id``),
``problem`` (the statement, I/O instructions included), ``gold_standard_solution`` (markdown with a
fenced python block), ``verification_info`` (a dict, or its JSON text: ``{"language": "python",
"test_cases": [{"type": "stdin_stdout", "input", "output", "fn_name"}]}``), ``metadata``.

Rules:
- ``stdin_stdout`` test cases are ``stdio`` tests; any other type is an error (none in the data set);
  all hidden (the data set keeps no public split);
- reference: the program extracted from the gold solution's fenced block (None when there is none).

Codeforces record schema (a record with ``official_tests``): ``id`` (``"1A"``), ``title``,
``description``, ``input_format``, ``output_format``, ``note``, ``examples`` and ``official_tests``
(``[{"input", "output"}]``), ``time_limit`` (seconds), ``memory_limit`` (MB), ``input_mode``
(``stdio`` or ``file``), ``interaction_format`` (interactive problems), ``generated_checker``
(None, or a Python script for problems that accept several right outputs), ``rating``, ``tags``.

Rules:
- ``official_tests`` are ``stdio`` tests (the examples when there are none); no reference solution;
  a test equal to one of the statement's ``examples`` (input and output) is ``visibility: public``,
  the others hidden;
- limits from the record, clamped to [1, 10] s and [64, 1024] MiB;
- several right answers: the data marks them with ``generated_checker``, which becomes the task's
  ``checker`` (``checker_from_script``); a statement that accepts several answers ("print any of
  them", ``common.several_answers``) is named in ``metadata.several_answers``, and ``grpo-code
  tasks validate`` names such a task that has no checker; a statement's tolerance of floats is the
  tokens comparison's ``float_tolerance`` (``common.statement_tolerance``);
- interactive problems (``interaction_format``: an interactor talks to the program, which no
  checker of one output can judge) and problems that read files are left out (None).
"""

from __future__ import annotations

from grpo_code.suites.adapters.common import (
    MEMORY_BOUNDS_MB,
    TIME_BOUNDS_S,
    clamp,
    json_field,
    required_field,
    several_answers,
    statement_tolerance,
)
from grpo_code.suites.extract import extract_program
from grpo_code.suites.tasks import DEFAULT_LIMITS, Task
from sandbox import Limits, TestCase

PROMPT_TEMPLATE = "{prompt}\nAnswer with the complete {language} program in one ```{language} code block."


def _test(case: dict) -> TestCase:
    if case.get("type") != "stdin_stdout":
        raise ValueError(f"unsupported test case type {case.get('type')!r}; expected stdin_stdout")
    return TestCase(kind="stdio", stdin=case.get("input") or "", expected_stdout=case["output"])


# open-r1 runs a generated checker as `checker.py input.txt correct_output.txt solution_output.txt`
# and accepts when it prints 1 (open-r1's cf_scoring). Wrapped as a task checker: the script runs
# in the judge as __main__ with those three files, and what it prints is the score.
CHECKER_TEMPLATE = '''import contextlib
import io
import os
import sys
import tempfile

SCRIPT = {script!r}


def check(input, output, expected):
    """open-r1's generated checker: a number it prints is the score (1 accepts, 0 rejects); with
    nothing printed, exit status 1 or 2 rejects (testlib's wrong answer and presentation error)."""
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for name, text in (("input.txt", input), ("correct_output.txt", expected), ("solution_output.txt", output)):
            paths.append(os.path.join(folder, name))
            with open(paths[-1], "w", encoding="utf-8") as f:
                f.write(text)
        printed, argv, status = io.StringIO(), sys.argv, 0
        sys.argv = ["checker.py", *paths]
        try:
            with contextlib.redirect_stdout(printed):
                try:
                    exec(compile(SCRIPT, "checker.py", "exec"), {{"__name__": "__main__"}})
                except SystemExit as e:
                    status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        finally:
            sys.argv = argv
    words = printed.getvalue().split()
    if words:
        return min(1.0, max(0.0, float(words[-1])))
    if status in (1, 2):
        return 0.0
    raise ValueError(f"the checker printed no score (exit status {{status}})")
'''


def checker_from_script(script: str) -> str:
    """A task checker (``check(input, output, expected)``) that runs open-r1's checker script."""
    return CHECKER_TEMPLATE.format(script=script)


def _codeforces_task(record: dict, index: int) -> Task | None:
    if record.get("interaction_format") or record.get("input_mode", "stdio") != "stdio":
        return None  # interactive, or reads and writes files: not a stdio task
    problem_id = required_field(record, "id")
    cases = record.get("official_tests") or record.get("examples") or []
    if not cases:
        raise ValueError("the record has no official_tests and no examples")
    shown = {(e.get("input") or "", e.get("output") or "") for e in record.get("examples") or []}
    tests = tuple(TestCase(kind="stdio", stdin=c.get("input") or "", expected_stdout=required_field(c, "output"),
                           visibility="public" if (c.get("input") or "", c["output"]) in shown else "hidden")
                  for c in cases)
    parts = [str(record.get("title") or problem_id), required_field(record, "description").strip()]
    for heading, name in (("Input", "input_format"), ("Output", "output_format")):
        if record.get(name):
            parts.append(f"{heading}\n{record[name].strip()}")
    for i, example in enumerate(record.get("examples") or [], start=1):
        parts.append(f"Example {i}\nInput:\n```\n{example.get('input', '')}```\n"
                     f"Output:\n```\n{example.get('output', '')}```")
    if record.get("note"):
        parts.append(f"Note\n{record['note'].strip()}")
    checker = record.get("generated_checker")
    statement = "\n".join(str(record.get(name) or "") for name in ("description", "output_format", "note"))
    marked = several_answers(statement)
    limits = Limits(time_limit_s=float(clamp(record.get("time_limit") or DEFAULT_LIMITS.time_limit_s, TIME_BOUNDS_S)),
                    memory_limit_mb=int(clamp(int(record.get("memory_limit") or DEFAULT_LIMITS.memory_limit_mb),
                                              MEMORY_BOUNDS_MB)))
    return Task(task_id=f"open-r1/codeforces/{problem_id}", prompt="\n\n".join(parts) + "\n", tests=tests,
                language="python", checker=checker_from_script(checker) if checker else None,
                limits=limits, float_tolerance=statement_tolerance(statement) or Task.float_tolerance,
                metadata={"source": "open-r1/codeforces", "rating": record.get("rating"),
                          "tags": list(record.get("tags") or []), "contest_id": record.get("contest_id"),
                          "index": index, **({"several_answers": marked} if marked else {})})


def task_from_record(record: dict, index: int) -> Task | None:
    """The ``Task`` of one record (``index``: its place, for ids and errors); None for a record
    this adapter leaves out (see the module docstring).

    Raises:
        ValueError: the record does not fit the schema (the message names the field).
    """
    if "official_tests" in record:
        return _codeforces_task(record, index)
    problem_id = required_field(record, "problem_id")
    problem = required_field(record, "problem").strip()
    info = json_field(record, "verification_info")
    language = info.get("language") or "python"
    if language != "python":
        raise ValueError(f"'verification_info' is for {language!r}; this adapter reads python problems")
    cases = info.get("test_cases") or []
    if not cases:
        raise ValueError("'verification_info' has no test_cases")
    gold = record.get("gold_standard_solution")
    reference = extract_program(gold, "python") if gold else None
    meta = record.get("metadata")
    return Task(task_id=f"open-r1/{problem_id}", prompt=problem + "\n", tests=tuple(_test(c) for c in cases),
                language="python", reference_solution=reference,
                metadata={"source": "open-r1/verifiable-coding-problems-python",
                          "origin": record.get("source"), "in_source_id": record.get("in_source_id"),
                          **({"problem_metadata": meta} if isinstance(meta, dict) else {}), "index": index})
