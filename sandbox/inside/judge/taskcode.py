"""A task's code in the judge (a test, its setup, a checker): it runs with the builtins the fork
server loaded (``PRISTINE``), put back after it (``restore``), and what it raised is said in one
line (``describe``). ``ProgramError`` is what an exception of the program's becomes for a test.

Whether the builtins changed is told by their dict's version tag (``dicttag``), not by comparing
them: a comparison or a put-back writes every builtin's reference count, and in a job's judge (a
fresh fork) copies every page that holds one.

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import builtins

from ..dicttag import version_tag
from ..records import MESSAGE_LIMIT, clip

RAISED_IN = "_raised_in"  # judge.exceptions.RAISED_IN (that module imports this one)

BUILTINS = vars(builtins)  # the judge's own builtins, which task code may change: ``restore``
PRISTINE = dict(BUILTINS)  # as the fork server loads this module, before any task code ran: what every judge puts back
_TAG = version_tag(BUILTINS)  # None where it cannot be read: then the builtins count as changed, always
_PUT_BACK = [_TAG.value if _TAG is not None else None]  # their tag when they last were ``PRISTINE``


class ProgramError(Exception):
    """An exception the program raised that is not a builtin one, or that would steer the test's
    control flow (its type name is in the message)."""


def builtins_changed(_tag=_TAG, _put_back=_PUT_BACK) -> bool:
    """Whether the builtins may differ from ``PRISTINE``: their dict changed since they last were
    (even back), or its tag cannot be read."""
    return _tag is None or _tag.value != _put_back[0]


def restore(_clear=BUILTINS.clear, _update=BUILTINS.update, _tag=_TAG, _put_back=_PUT_BACK) -> None:
    """Give the builtins back the state ``PRISTINE`` holds, where anything changed them."""
    if builtins_changed():
        _clear()
        _update(PRISTINE)
        if _tag is not None:
            _put_back[0] = _tag.value


def take_test_builtins(_dict=dict) -> dict | None:
    """Before the judge's own code runs in the middle of a test (a request to the program): where
    the test changed the builtins, its builtins, taken aside for ``give_test_builtins``, and
    ``PRISTINE``'s in their place, so that no patch of the test's (``builtins.len = ...``) changes
    what the judge's code does; None where it changed none."""
    if not builtins_changed():
        return None
    taken = _dict(BUILTINS)
    restore()
    return taken


def give_test_builtins(taken: dict | None, _clear=BUILTINS.clear, _update=BUILTINS.update) -> None:
    """Give the test back the builtins ``take_test_builtins`` took aside (nothing if None)."""
    if taken is not None:
        _clear()
        _update(taken)


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
