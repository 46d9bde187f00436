r"""APPS (Hendrycks et al. 2021): competitive and interview problems, HF ``codeparrot/apps``.

Record schema: ``problem_id``, ``question``, ``solutions`` (JSON text: a list of Python programs;
may be empty), ``input_output`` (JSON text: ``{"inputs": [...], "outputs": [...]}``, plus
``"fn_name"`` for call-based problems), ``starter_code``, ``difficulty``, ``url``.

Rules:
- no ``fn_name``: ``stdio`` tests; an input or output given as a list of lines is joined with "\n";
- ``fn_name``: one test per input, the input list being the arguments. APPS's own checker accepts
  the return value equal to ``outputs[i]`` or, when that is a list, to ``outputs[i][0]``; here the
  one rule is: a one-element list is the wrapped return value (expected = ``outputs[i][0]``), any
  other output is the return value itself. A returned tuple counts as a list, as in APPS;
- a ``call`` test when the reference (else the starter code) defines ``fn_name`` at top level;
  otherwise (LeetCode's ``class Solution``) an ``assert`` test ``Solution().fn_name(*args) == expected``;
- reference: the first solution; call-based tasks get a ``prelude``: the imports APPS's checker puts
  before every program (``from typing import List`` and friends), which LeetCode solutions rely on.
- 4 s per test, APPS's own timeout;
- every test is hidden: APPS keeps no public split (the statement's examples are prose in it);
- a statement that accepts several answers is named in ``metadata.several_answers``
  (``common.several_answers``): APPS has no checker, so ``grpo-code tasks validate`` names the task.

``problem_task`` holds these rules for every data set in APPS's shape (TACO's too).
"""

from __future__ import annotations

import json
import re

from grpo_code.suites.adapters.common import json_field, method_assert, required_field, several_answers
from grpo_code.suites.tasks import Task
from sandbox import Limits, TestCase

PROMPT_TEMPLATE = ("{prompt}\n"
                   "Answer with the complete {language} program, imports included, in one ```{language} code block.")

# What APPS's testing_util puts before call-based programs (less numpy), so references run.
CALL_PREAMBLE = (
    "import sys\nimport math\nimport heapq\nimport itertools\nimport collections\nimport functools\n"
    "from itertools import accumulate, product, permutations, combinations\n"
    "from collections import Counter, OrderedDict, deque, defaultdict\n"
    "from functools import lru_cache\nfrom heapq import heappush, heappop, heapify\n"
    "from typing import List, Tuple, Dict, Optional\n"
)


def _text(value) -> str:
    text = "\n".join(str(v) for v in value) if isinstance(value, list) else str(value)
    return text if not text or text.endswith("\n") else text + "\n"


def defines_function(code: str, name: str) -> bool:
    """Whether ``code`` defines ``name`` at top level (not as a method)."""
    return re.search(rf"^(async\s+)?def\s+{re.escape(name)}\s*\(", code or "", re.M) is not None


def unwrap(output):
    """APPS wraps most return values in a one-element list: that element is the value."""
    return output[0] if isinstance(output, list) and len(output) == 1 else output


def task_from_record(record: dict, index: int) -> Task:
    """The ``Task`` of one record of the data set (``index``: its place, for ids and errors).

    Raises:
        ValueError: the record does not fit the schema (the message names the field).
    """
    problem_id = required_field(record, "problem_id")
    return problem_task(record, f"apps/{problem_id}", limits=Limits(time_limit_s=4.0),
                        preludes={"call": CALL_PREAMBLE},
                        metadata={"source": "codeparrot/apps", "difficulty": record.get("difficulty"),
                                  "url": record.get("url"), "index": index})


def problem_task(record: dict, task_id: str, limits: Limits, preludes: dict[str, str],
                 metadata: dict) -> Task:
    """The ``Task`` of an APPS-shaped record (``question``, ``input_output``, ``solutions``,
    ``starter_code``: APPS's, and TACO's) judged as APPS's harness judges it (see the module
    docstring), under ``task_id`` with ``limits``; ``preludes`` by the problem's kind (``stdio``
    or ``call``: the imports its harness puts before the program); ``metadata`` gains
    ``several_answers`` where the statement accepts several (``common.several_answers``).

    Raises:
        ValueError: the record does not fit the schema (the message names the field).
    """
    question = required_field(record, "question").strip()
    io = json_field(record, "input_output")
    if not isinstance(io, dict) or not isinstance(io.get("inputs"), list) or not isinstance(io.get("outputs"), list):
        raise ValueError("'input_output' must hold lists 'inputs' and 'outputs'")
    inputs, outputs = io["inputs"], io["outputs"]
    if not inputs or len(inputs) != len(outputs):
        raise ValueError(f"'input_output' has {len(inputs)} inputs and {len(outputs)} outputs")
    solutions = json.loads(record["solutions"]) if (record.get("solutions") or "").strip() else []
    reference = solutions[0] if solutions else None
    starter = (record.get("starter_code") or "").rstrip()
    fn_name = io.get("fn_name")
    if fn_name:
        if not (isinstance(fn_name, str) and fn_name.isidentifier()):
            raise ValueError(f"'fn_name' must be a function name, got {fn_name!r}")
        if any(not isinstance(a, list) for a in inputs):
            raise ValueError("call-based inputs must be lists of arguments")
        top_level = defines_function(reference if reference is not None else starter, fn_name)
        tests = tuple(TestCase(kind="call", fn_name=fn_name, args=a, expected=unwrap(o)) if top_level
                      else method_assert(fn_name, a, unwrap(o)) for a, o in zip(inputs, outputs, strict=True))
        how = "Use the call-based format: write the function below; it is called with the inputs and " \
              "its return value is checked."
    else:
        tests = tuple(TestCase(kind="stdio", stdin=_text(i), expected_stdout=_text(o))
                      for i, o in zip(inputs, outputs, strict=True))
        how = "Use standard input and standard output: read the input from stdin and print the answer."
    prompt = question + "\n\n" + how + "\n"
    if starter:
        prompt += f"\nStarter code:\n```python\n{starter}\n```\n"
    marked = several_answers(question)
    return Task(task_id=task_id, prompt=prompt, tests=tests, language="python", entry_point=fn_name or None,
                reference_solution=reference, limits=limits, prelude=preludes.get("call" if fn_name else "stdio"),
                metadata={**metadata, **({"several_answers": marked} if marked else {})})
