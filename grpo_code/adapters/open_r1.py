"""open-r1 verifiable coding problems, HF ``open-r1/verifiable-coding-problems-python``.

Record schema: ``problem_id`` (also ``source``, ``task_type``, ``in_source_id``), ``problem`` (the
statement, I/O instructions included), ``gold_standard_solution`` (markdown with a fenced
python block), ``verification_info`` (a dict, or its JSON text: ``{"language": "python",
"test_cases": [{"type": "stdin_stdout", "input", "output", "fn_name"}]}``), ``metadata``.

Rules:
- ``stdin_stdout`` test cases are ``stdio`` tests; any other type is an error (none in the data set);
- reference: the program extracted from the gold solution's fenced block (None when there is none).
"""

from __future__ import annotations

import json

from grpo_code.adapters.common import required_field
from grpo_code.extract import extract_program
from grpo_code.tasks import Task
from sandbox import TestCase

PROMPT_TEMPLATE = "{prompt}\nAnswer with the complete {language} program in one ```{language} code block."


def _test(case: dict) -> TestCase:
    if case.get("type") != "stdin_stdout":
        raise ValueError(f"unsupported test case type {case.get('type')!r}; expected stdin_stdout")
    return TestCase(kind="stdio", stdin=case.get("input") or "", expected_stdout=case["output"])


def task_from_record(record: dict, index: int) -> Task:
    problem_id = required_field(record, "problem_id")
    problem = required_field(record, "problem").strip()
    info = required_field(record, "verification_info")
    if isinstance(info, str):
        info = json.loads(info)
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
