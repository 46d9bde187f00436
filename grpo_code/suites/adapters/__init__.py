"""Readers for outside task formats, by name (``loader:`` in suite.yaml, ``?adapter=`` in hf: specs).

Each adapter turns records of a public data set's exact schema into ``Task`` objects.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from grpo_code.suites.adapters import (
    apps,
    bigcodebench,
    codecontests,
    evalplus,
    humaneval,
    kodcode,
    leetcode,
    livecodebench,
    mbpp,
    open_r1,
    taco,
)

# name -> function(options: dict) -> list[Task], for suites whose data ships in an installed package.
PACKAGE_LOADERS: dict[str, Callable] = {
    "humaneval": humaneval.load_tasks,
}

# name -> module with task_from_record(record: dict, index: int) -> Task (None: a record left out)
# and PROMPT_TEMPLATE, for data sets read through `datasets` (hf:<name>?adapter=NAME); optionally
# prepare(records), called once with every record first (evalplus: the references' answers, in
# one sandbox batch).
RECORD_ADAPTERS: dict[str, ModuleType] = {
    "mbpp": mbpp,
    "apps": apps,
    "codecontests": codecontests,
    "livecodebench": livecodebench,
    "open-r1": open_r1,
    "taco": taco,
    "leetcode": leetcode,
    "evalplus": evalplus,
    "kodcode": kodcode,
    "bigcodebench": bigcodebench,
}
