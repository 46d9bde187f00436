"""TACO (Li et al. 2023): algorithmic problems, HF ``BAAI/TACO``.

Record schema: ``question``, ``solutions`` (JSON text: a list of Python programs; may be empty),
``starter_code``, ``input_output`` (JSON text: ``{"inputs": [...], "outputs": [...]}``, plus
``"fn_name"`` for call-based problems), ``difficulty``, ``source``, ``tags``, ``skill_types``,
``url``, ``name``, ``time_limit`` and ``memory_limit`` as TACO writes them (``"1 second"``,
``"2.0 seconds"``, ``"256.0 megabytes"``, ``"None"``), ``raw_tags``, ``date``, ``picture_num``,
``Expected Time Complexity``, ``Expected Auxiliary Space``. No ``problem_id``.

Rules:
- judged as APPS's harness judges it, which TACO's is a copy of (``apps.problem_task``: stdio
  tests without ``fn_name``, else a call with the inputs as arguments, a ``class Solution``
  method where the reference defines no function of that name; a one-element output list is the
  wrapped return value; first solution as the reference; every test hidden; a statement that
  accepts several answers named in ``metadata.several_answers``);
- task id ``taco/<index>``: the row's place in the file or split read (TACO has no id of its own;
  its test split is cited by index);
- prelude: the imports TACO's harness puts before every program, call-based and stdio alike
  (``metrics/testing_util.py``, less ``numpy``, which the lean image lacks), and for stdio
  programs its ``stdin``/``stdout`` names;
- limits: at least 4 s a test, TACO's harness's timeout; a longer ``time_limit`` of the record is
  kept (clamped to 10 s); ``memory_limit`` clamped to [64, 1024] MiB (256 MiB when absent or
  unreadable). The record's own texts stay in ``metadata``.
"""

from __future__ import annotations

import re

from grpo_code.suites.adapters.apps import problem_task
from grpo_code.suites.adapters.common import MEMORY_BOUNDS_MB, TIME_BOUNDS_S, clamp
from grpo_code.suites.tasks import DEFAULT_LIMITS, Task
from sandbox import Limits

PROMPT_TEMPLATE = ("{prompt}\n"
                   "Answer with the complete {language} program, imports included, in one ```{language} code block.")

HARNESS_TIMEOUT_S = 4.0  # TACO's testing_util.TIMEOUT, per test

# What TACO's testing_util puts before every program (synthesize_cb_code, synthesize_std_code), less numpy.
IMPORTS = (
    "import sys\nimport time\nimport itertools\nfrom itertools import accumulate, product, permutations, combinations\n"
    "import collections\nfrom collections import Counter, OrderedDict, deque, defaultdict, ChainMap\n"
    "from functools import lru_cache\nimport math\n"
    "from math import sqrt, sin, cos, tan, ceil, fabs, floor, gcd, exp, log, log2\nimport fractions\n"
    "from typing import List, Tuple\nimport random\nimport heapq\nfrom heapq import *\n"
)
PRELUDES = {"call": IMPORTS, "stdio": IMPORTS + "stdin = sys.stdin\nstdout = sys.stdout\n"}

_AMOUNT = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-z]*)", re.I)
_SECONDS = {"": 1.0, "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0, "ms": 1e-3,
            "millisecond": 1e-3, "milliseconds": 1e-3}
_MEBIBYTES = {"": 1.0, "mb": 1.0, "mib": 1.0, "megabyte": 1.0, "megabytes": 1.0, "kb": 1 / 1024,
              "kilobytes": 1 / 1024, "gb": 1024.0, "gigabyte": 1024.0, "gigabytes": 1024.0}


def amount(text, units: dict[str, float]) -> float | None:
    """A limit as TACO writes it (``"2.0 seconds"``, ``"256 megabytes"``) in the unit ``units``
    maps to 1; None when absent (``None``, ``"None"``, empty) or in a form not read here."""
    match = _AMOUNT.match(str(text)) if text not in (None, "") else None
    if match is None or match.group(2).lower() not in units:
        return None
    value = float(match.group(1)) * units[match.group(2).lower()]
    return value if value > 0 else None


def task_from_record(record: dict, index: int) -> Task:
    """The ``Task`` of one record of the data set (``index``: its place, its id).

    Raises:
        ValueError: the record does not fit the schema (the message names the field).
    """
    seconds = amount(record.get("time_limit"), _SECONDS)
    mebibytes = amount(record.get("memory_limit"), _MEBIBYTES)
    limits = Limits(time_limit_s=max(HARNESS_TIMEOUT_S, float(clamp(seconds, TIME_BOUNDS_S)) if seconds else 0.0),
                    memory_limit_mb=int(clamp(mebibytes, MEMORY_BOUNDS_MB)) if mebibytes
                    else DEFAULT_LIMITS.memory_limit_mb)
    metadata = {"source": "BAAI/TACO", "origin": record.get("source"), "name": record.get("name"),
                "difficulty": record.get("difficulty"), "url": record.get("url"), "tags": record.get("tags"),
                "skill_types": record.get("skill_types"), "time_limit": record.get("time_limit"),
                "memory_limit": record.get("memory_limit"), "index": index}
    return problem_task(record, f"taco/{index}", limits, PRELUDES, metadata)
