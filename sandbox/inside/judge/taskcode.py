"""A task's code in the judge (a test, its setup, a checker): it runs with the builtins the judge
started with, put back after it (``restore``), and what it raised is said in one line
(``describe``). ``ProgramError`` is what an exception of the program's becomes for a test.

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import builtins

from ..records import MESSAGE_LIMIT, clip

RAISED_IN = "_raised_in"  # judge.exceptions.RAISED_IN (that module imports this one)

BUILTINS = vars(builtins)  # the judge's own builtins, which task code may change: ``restore``


class ProgramError(Exception):
    """An exception the program raised that is not a builtin one, or that would steer the test's
    control flow (its type name is in the message)."""


def restore(pristine: dict, _clear=BUILTINS.clear, _update=BUILTINS.update) -> None:
    """Give the builtins back the state ``pristine`` holds (the judge's at its start)."""
    _clear()
    _update(pristine)


def describe(exc: BaseException) -> str:
    """An exception of task code, or of the program's (``ProgramError``), as a verdict says it."""
    try:
        text = str(exc)
    except BaseException:  # noqa: BLE001 - cannot be shown
        text = ""
    name = type(exc).__name__ if not isinstance(exc, ProgramError) else "the program raised"
    where = exc.__dict__.get(RAISED_IN) if hasattr(exc, "__dict__") else None
    if type(where) is str:  # where the program raised it (``judge.exceptions``)
        text = f"{text} {where}" if text else where
    return clip(f"{name}: {text}" if text else name, MESSAGE_LIMIT)


def assert_message(exc: AssertionError, code: str) -> str:
    """A failed assertion of task code ``code`` (compiled as ``<test>``) as a verdict says it: its
    message, or where it has none, the line of the test that failed."""
    text = str(exc)
    line, tb = None, exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<test>":
            line = tb.tb_lineno
        tb = tb.tb_next
    source = ""
    lines = code.splitlines()
    if line is not None and 0 < line <= len(lines):
        source = lines[line - 1].strip()
    return clip(f"AssertionError: {text or source}", MESSAGE_LIMIT)
