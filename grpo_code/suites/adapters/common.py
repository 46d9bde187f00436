"""What the adapters share: reading a record's fields, the bounds of a record's limits, and the
LeetCode-style method test.

Errors are ``ValueError`` naming the field; ``grpo_code.suites.registry`` turns them into a
``TaskFormatError`` that names the record.
"""

from __future__ import annotations

import json
from typing import Any

from sandbox import TestCase

# a contest record's own limits are clamped to these (seconds of CPU per test; MiB)
TIME_BOUNDS_S = (1.0, 10.0)
MEMORY_BOUNDS_MB = (64, 1024)


def clamp(value: float, bounds: tuple[float, float]) -> float:
    """``value`` moved into ``[bounds[0], bounds[1]]``."""
    return min(max(value, bounds[0]), bounds[1])


def required_field(record: dict, name: str, alias: str | None = None) -> Any:
    """``record[name]`` (else ``record[alias]``); raises ValueError when neither is there or both are None."""
    for key in (name, alias):
        if key is not None and record.get(key) is not None:
            return record[key]
    raise ValueError(f"the record has no {name!r}" + (f" (nor {alias!r})" if alias else ""))


def json_field(record: dict, name: str) -> Any:
    """A required field that holds JSON text (data sets store nested data so), decoded; a field
    that is not text is returned as it is."""
    text = required_field(record, name)
    if not isinstance(text, str):
        return text
    if not text.strip():
        raise ValueError(f"{name!r} is empty")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{name!r} is not JSON text: {e.msg}") from None


def method_assert(fn_name: str, args: list, expected: Any) -> TestCase:
    """``Solution().fn_name(*args) == expected``, a returned tuple counting as a list (as APPS and
    LiveCodeBench judge LeetCode problems)."""
    return TestCase(kind="assert", code=(
        f"_out = Solution().{fn_name}(*{args!r})\n"
        "if isinstance(_out, tuple):\n    _out = list(_out)\n"
        f"assert _out == {expected!r}"))
