"""What the adapters share: reading a record's fields, the bounds of a record's limits, the
LeetCode-style method test, and what a statement says of its answers (several right ones, a
tolerance of floats).

Errors are ``ValueError`` naming the field; ``grpo_code.suites.registry`` turns them into a
``TaskFormatError`` that names the record.
"""

from __future__ import annotations

import json
import re
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


def text_field(record: dict, name: str) -> str:
    """A required field that must be non-empty text."""
    value = required_field(record, name)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name!r} must be non-empty text, got {type(value).__name__} {str(value)[:40]!r}")
    return value


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


# A statement's sentence that accepts several right answers, as contest statements word it: "If
# there are multiple answers, print any of them", "output any such permutation", "any of them will
# be accepted". Judged against one stored output, a right answer other than it fails.
_SENTENCE = re.compile(r"(?:[^.!?\n]|[.!?](?![\s]|$))+[.!?]?")  # a stop ends it only before a space or the end
_SEVERAL = (
    re.compile(r"\b(multiple|several|many|more than one)\b.{0,80}\b(answers?|solutions?|outputs?|ways|"
               r"possibilities|variants|options)\b.{0,80}\bany\b", re.I),
    re.compile(r"\b(print|output)\s+any\b(?!\s+(number|amount)\s+of)", re.I),
    re.compile(r"\bany\b.{0,60}\bwill be accepted\b|\bany\b.{0,40}\bis (also )?accepted\b", re.I),
)
# "absolute or relative error does not exceed 10^{-6}" (also 1e-6, 10^-6, 10 - 6 as text renders it)
_TOLERANCE = re.compile(r"\b(absolute|relative)\b[^.]{0,40}\b(relative|absolute)\b[^.]{0,40}\berror\b[^.]{0,80}?"
                        r"(?:10\s*\^\s*\{?\s*[-\u2212]\s*(\d{1,2})\s*\}?|1\s*e\s*-\s*(\d{1,2})\b|10\s*-\s*(\d{1,2})\b)",
                        re.I | re.S)
SENTENCE_CHARS = 200  # of a statement's sentence kept in a task's metadata


def several_answers(statement: str) -> str | None:
    """The first sentence of ``statement`` that accepts several right answers (a contest's "print
    any of them"), cut at ``SENTENCE_CHARS``; None when none does. A tolerance of floats is not one
    of these (``statement_tolerance``)."""
    for match in _SENTENCE.finditer(statement or ""):
        sentence = " ".join(match.group(0).split())
        if any(p.search(sentence) for p in _SEVERAL):
            return sentence[:SENTENCE_CHARS]
    return None


def statement_tolerance(statement: str) -> float | None:
    """The absolute-or-relative error a statement allows in its floats (``10^{-6}`` -> 1e-06):
    what the ``tokens`` comparison's ``float_tolerance`` holds; None when it states none."""
    match = _TOLERANCE.search(statement or "")
    if match is None:
        return None
    digits = next(d for d in match.groups()[2:] if d is not None)
    return 10.0 ** -int(digits)
