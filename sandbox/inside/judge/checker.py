"""The task's checker: ``check(input, output, expected)``, loaded once per job and run on each
``stdio`` test's output of the program's (``judge``).

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import builtins

from ..records import MESSAGE_LIMIT, clip
from .taskcode import describe, restore


def load_checker(source: str | None):
    """The task's ``check`` function, or why there is none usable (a string)."""
    if source is None:
        return None
    namespace = {"__builtins__": builtins, "__name__": "__checker__"}
    try:
        exec(compile(source, "<checker>", "exec", dont_inherit=True), namespace)
    except BaseException as e:  # noqa: BLE001 - the task's checker is broken: every check says so
        return f"the task's checker failed to load: {describe(e)}"
    finally:
        restore()
    check = namespace.get("check")
    return check if callable(check) else "the task's checker defines no check(input, output, expected)"


def run_check(check, stdin: str, output: str, expected: str) -> tuple[str, str, str, str]:
    """Judge a ``stdio`` test's output with the task's checker (``load_checker``).

    Returns:
        ``(status, message, score, flags)``: ``passed``, ``failed`` (``score``, as text, is
        partial credit in (0, 1) when the checker gave one, else empty; ``flags`` is
        ``checker_fault`` when the checker raised or answered nonsense on this output) or
        ``checker_error`` (the checker does not load: the task's fault).
    """
    if check is None or isinstance(check, str):
        return "checker_error", check or "the job has no checker", "", ""
    try:
        value = check(stdin, output, expected)
    except BaseException as e:  # noqa: BLE001 - the program's output broke the checker
        return "failed", clip(f"the program's output made the task's checker raise {describe(e)}",
                              MESSAGE_LIMIT), "", "checker_fault"
    finally:
        restore()
    if type(value) is bool:
        return ("passed", "", "", "") if value else ("failed", "the task's checker rejected the output", "", "")
    if type(value) in (int, float) and 0 <= value <= 1:
        if value == 1:
            return "passed", "", "", ""
        if value == 0:
            return "failed", "the task's checker rejected the output", "", ""
        return "failed", f"the task's checker gave partial credit ({float(value):g})", repr(float(value)), ""
    try:
        shown = clip(repr(value), 60)
    except BaseException:  # noqa: BLE001
        shown = type(value).__name__
    return "failed", clip(f"the task's checker answered {shown} on the program's output, not a bool nor a "
                          "number in [0, 1]", MESSAGE_LIMIT), "", "checker_fault"
