"""CodeContests (Li et al. 2022, AlphaCode): contest problems, HF ``deepmind/code_contests``.

Record schema: ``name``, ``description``, ``public_tests`` / ``private_tests`` / ``generated_tests``
(each ``{"input": [str], "output": [str]}``), ``solutions`` (``{"language": [int], "solution": [str]}``,
language ids 1 PYTHON (2), 2 CPP, 3 PYTHON3, 4 JAVA), ``time_limit`` (``{"seconds", "nanos"}`` or
None), ``memory_limit_bytes``, ``difficulty``, ``source``, ``cf_rating``.

Rules:
- ``stdio`` tests: public, then private, then generated, compared as tokens; the public tests
  (the statement's examples) are ``visibility: public``, the private and generated ones hidden;
- several right answers: CodeContests has no checker field (its own tester compares with the one
  output stored). A statement's tolerance of floats ("absolute or relative error does not exceed
  10^{-9}") is the tokens comparison's ``float_tolerance`` (``common.statement_tolerance``); a
  statement that accepts several answers ("print any of them") is named in
  ``metadata.several_answers`` (``common.several_answers``), and ``grpo-code tasks validate``
  names such a task: judged against the one stored output, a right answer other than it fails,
  until the task gets a ``checker`` (docs/suites.md, "Bring your data");
- reference and language: the first PYTHON3 solution (python), else the first CPP one (cpp), else
  the first JAVA one (java), else none (python); the first solution in each other of those languages
  is kept in ``reference_solutions`` (``--language cpp`` or ``java`` picks it; PYTHON 2 solutions
  are left out: the sandbox runs Python 3);
- limits from the record, clamped: time to [1, 10] s (2 s when absent), memory to [64, 1024] MiB
  (256 MiB when absent: the sandbox's defaults).
"""

from __future__ import annotations

from grpo_code.suites.adapters.common import (
    MEMORY_BOUNDS_MB,
    TIME_BOUNDS_S,
    clamp,
    required_field,
    several_answers,
    statement_tolerance,
)
from grpo_code.suites.tasks import DEFAULT_LIMITS, Task
from sandbox import Limits, TestCase

PROMPT_TEMPLATE = ("{prompt}\n"
                   "Read the input from standard input and write the answer to standard output.\n"
                   "Answer with the complete {language} program in one ```{language} code block.")

PYTHON3, CPP, JAVA = 3, 2, 4
LANGUAGE_IDS = ((PYTHON3, "python"), (CPP, "cpp"), (JAVA, "java"))  # in order of preference
TEST_GROUPS = ("public_tests", "private_tests", "generated_tests")


def _tests(record: dict, group: str) -> list[TestCase]:
    data = required_field(record, group)
    inputs, outputs = data.get("input") or [], data.get("output") or []
    if len(inputs) != len(outputs):
        raise ValueError(f"{group!r} has {len(inputs)} inputs and {len(outputs)} outputs")
    visibility = "public" if group == "public_tests" else "hidden"
    return [TestCase(kind="stdio", stdin=i, expected_stdout=o, visibility=visibility)
            for i, o in zip(inputs, outputs, strict=True)]


def references_of(solutions: dict | None) -> dict[str, str]:
    """Language -> the first solution in it, for python (PYTHON3), cpp and java, in that order."""
    pairs = list(zip((solutions or {}).get("language") or [], (solutions or {}).get("solution") or [], strict=False))
    found = {}
    for wanted, language in LANGUAGE_IDS:
        code = next((code for lang, code in pairs if lang == wanted), None)
        if code is not None:
            found[language] = code
    return found


def task_from_record(record: dict, index: int) -> Task:
    """The ``Task`` of one record of the data set (``index``: its place, for ids and errors).

    Raises:
        ValueError: the record does not fit the schema (the message names the field).
    """
    name = required_field(record, "name")
    description = required_field(record, "description").strip()
    groups = {g: _tests(record, g) for g in TEST_GROUPS}
    tests = tuple(t for g in TEST_GROUPS for t in groups[g])
    if not tests:
        raise ValueError("the record has no tests (public, private and generated are all empty)")
    references = references_of(record.get("solutions"))
    language = next(iter(references), "python")
    reference = references.pop(language, None)
    limit = record.get("time_limit")
    seconds = (limit.get("seconds") or 0) + (limit.get("nanos") or 0) / 1e9 if limit else 0
    memory_bytes = record.get("memory_limit_bytes") or 0
    marked = several_answers(description)
    return Task(task_id=f"codecontests/{name}", prompt=description + "\n", tests=tests, language=language,
                reference_solution=reference, reference_solutions=references,
                limits=Limits(time_limit_s=float(clamp(seconds, TIME_BOUNDS_S)) if seconds
                              else DEFAULT_LIMITS.time_limit_s,
                              memory_limit_mb=(int(clamp(memory_bytes // (1 << 20), MEMORY_BOUNDS_MB)) if memory_bytes
                                               else DEFAULT_LIMITS.memory_limit_mb)),
                float_tolerance=statement_tolerance(description) or Task.float_tolerance,
                metadata={"source": "deepmind/code_contests", "contest_source": record.get("source"),
                          "difficulty": record.get("difficulty"), "cf_rating": record.get("cf_rating"),
                          "tests_per_group": {g: len(v) for g, v in groups.items()}, "index": index,
                          **({"several_answers": marked} if marked else {})})
