"""LiveCodeBench code generation (Jain et al. 2024), HF ``livecodebench/code_generation_lite``.

Record schema: ``question_title``, ``question_content``, ``platform``, ``question_id``,
``contest_id``, ``contest_date``, ``starter_code``, ``difficulty``, ``public_test_cases`` (JSON text:
a list of ``{"input", "output", "testtype": "stdin" | "functional"}``), ``private_test_cases`` (the
same, as JSON text or compressed: base64 of zlib of a pickled JSON string), ``metadata`` (JSON
text, ``func_name`` for functional problems).

Rules:
- tests: public then private (``visibility: public`` and ``hidden``); ``stdin`` ones are ``stdio`` tests;
- ``functional`` ones (LeetCode): the input is one JSON value per line (the arguments), the
  output a JSON value; with ``class Solution`` starter code they become ``assert`` tests
  ``Solution().func_name(*args) == expected`` (a returned tuple counts as a list, as in
  LiveCodeBench's checker), otherwise ``call`` tests of ``func_name``;
- the compressed form is unpickled with every global refused (so no code can run while
  loading), and only a str (JSON text) or a list of dicts is accepted;
- no reference solution; 6 s per test, LiveCodeBench's own timeout.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import pickle
import zlib
from dataclasses import replace

from grpo_code.suites.adapters.common import method_assert, required_field
from grpo_code.suites.tasks import Task
from sandbox import Limits, TestCase

# What LiveCodeBench's own runner puts before every program (lcb_runner/evaluation/testing_util.py),
# so that solutions using List, defaultdict, ... without importing them score as they do there.
PRELUDE = (
    "from string import *\nfrom re import *\nfrom datetime import *\nfrom collections import *\n"
    "from heapq import *\nfrom bisect import *\nfrom copy import *\nfrom math import *\nfrom random import *\n"
    "from statistics import *\nfrom itertools import *\nfrom functools import *\nfrom operator import *\n"
    "from io import *\nfrom sys import *\nfrom json import *\nfrom builtins import *\nfrom typing import *\n"
    "import string\nimport re\nimport datetime\nimport collections\nimport heapq\nimport bisect\nimport copy\n"
    "import math\nimport random\nimport statistics\nimport itertools\nimport functools\nimport operator\n"
    "import io\nimport sys\nimport json\nsys.setrecursionlimit(50000)\n"
)

PROMPT_TEMPLATE = "{prompt}\nAnswer with the complete {language} program in one ```{language} code block."


class _NoGlobals(pickle.Unpickler):
    """An unpickler that builds plain data only: any class or function reference is refused."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refusing to load {module}.{name} from the data set")


def decode_test_cases(text: str, name: str) -> list[dict]:
    """A test case list from JSON text or from its base64(zlib(pickle(JSON text))) form."""
    if not text.strip():
        return []
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        try:
            value = _NoGlobals(io.BytesIO(zlib.decompress(base64.b64decode(text, validate=True)))).load()
        except (binascii.Error, zlib.error, pickle.UnpicklingError, EOFError, ValueError) as e:
            raise ValueError(f"{name!r} is neither JSON text nor base64+zlib+pickle data: {e}") from None
        if isinstance(value, str):
            value = json.loads(value)
    if not (isinstance(value, list) and all(isinstance(t, dict) for t in value)):
        raise ValueError(f"{name!r} must decode to a list of test case objects, got {type(value).__name__}")
    return value


def _test(case: dict, func_name: str | None, method: bool) -> TestCase:
    kind = case.get("testtype")
    if kind == "stdin":
        return TestCase(kind="stdio", stdin=case["input"], expected_stdout=case["output"])
    if kind != "functional":
        raise ValueError(f"unknown testtype {kind!r}; expected stdin or functional")
    if not func_name:
        raise ValueError("a functional test needs 'func_name' in 'metadata'")
    args = [json.loads(line) for line in case["input"].split("\n") if line.strip()]
    expected = json.loads(case["output"])
    if method:
        return method_assert(func_name, args, expected)
    return TestCase(kind="call", fn_name=func_name, args=args, expected=expected)


def task_from_record(record: dict, index: int) -> Task:
    """The ``Task`` of one record of the data set (``index``: its place, for ids and errors).

    Raises:
        ValueError: the record does not fit the schema (the message names the field).
    """
    question_id = required_field(record, "question_id")
    content = required_field(record, "question_content").strip()
    starter = (record.get("starter_code") or "").rstrip()
    meta = record.get("metadata") or "{}"
    meta = json.loads(meta) if isinstance(meta, str) else meta
    func_name = meta.get("func_name")
    if func_name is not None and not (isinstance(func_name, str) and func_name.isidentifier()):
        raise ValueError(f"'func_name' must be a function name, got {func_name!r}")
    method = "class Solution" in starter
    cases = decode_test_cases(required_field(record, "public_test_cases"), "public_test_cases")
    n_public = len(cases)
    cases += decode_test_cases(record.get("private_test_cases") or "", "private_test_cases")
    if not cases:
        raise ValueError("the record has no test cases")
    tests = tuple(replace(_test(c, func_name, method), visibility="public" if i < n_public else "hidden")
                  for i, c in enumerate(cases))
    if starter:
        prompt = (f"{content}\n\nUse the following starter code and complete it:\n"
                  f"```python\n{starter}\n```\n")
    else:
        prompt = f"{content}\n\nRead the input from standard input and write the answer to standard output.\n"
    return Task(task_id=f"livecodebench/{question_id}", prompt=prompt, tests=tests, language="python",
                entry_point=func_name if any(t.kind != "stdio" for t in tests) else None,
                reference_solution=None, limits=Limits(time_limit_s=6.0), prelude=PRELUDE,
                metadata={"source": "livecodebench/code_generation_lite", "title": record.get("question_title"),
                          "platform": record.get("platform"), "contest_id": record.get("contest_id"),
                          "contest_date": str(record.get("contest_date") or ""), "difficulty": record.get("difficulty"),
                          "public_tests": n_public, "index": index})
