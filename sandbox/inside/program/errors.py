"""Exception text for the program's stderr and for the messages of a call's answer.

Written here rather than taken from ``traceback``: that module and what it imports (``re``,
``tokenize``, ``linecache``) would be copied into every test process with the fork server.
"""

from __future__ import annotations

from ..records import MESSAGE_LIMIT, clip


def frames(exc: BaseException) -> list[tuple[str, int, str]]:
    """(file name, line, function) of each frame of ``exc``'s traceback, outermost first."""
    out, tb = [], exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        out.append((code.co_filename, tb.tb_lineno, code.co_name))
        tb = tb.tb_next
    return out


def exception_only(exc: BaseException) -> str:
    """``Type: message``, as the interpreter prints the last line of a traceback."""
    kind = type(exc)
    name = kind.__qualname__
    if kind.__module__ not in ("builtins", "__main__", "main"):
        name = f"{kind.__module__}.{name}"
    text = str(exc)
    if isinstance(exc, SyntaxError) and exc.lineno is not None:
        text = f"{exc.msg} ({exc.filename or '<string>'}, line {exc.lineno})"
    return f"{name}: {text}" if text else name


def exception_message(exc: BaseException, filenames: tuple[str, ...] = ("main.py",)) -> str:
    """``Type: message (main.py, line N)``, clipped; never raises (a program can make ``str`` raise)."""
    try:
        where = ""
        for filename, lineno, _ in reversed(frames(exc)):
            if filename in filenames:
                where = f" ({filename}, line {lineno})"
                break
        return clip(exception_only(exc) + where, MESSAGE_LIMIT)
    except BaseException:  # noqa: BLE001 - the program's exception cannot be shown
        return "the program raised an exception that cannot be shown"


def print_exception(exc: BaseException, stream) -> None:
    """A traceback on ``stream`` (the program's stderr), without source lines; never raises."""
    try:
        lines = ["Traceback (most recent call last):\n"]
        lines += [f'  File "{filename}", line {lineno}, in {name}\n' for filename, lineno, name in frames(exc)]
        stream.write("".join(lines) + exception_only(exc) + "\n")
    except BaseException:  # noqa: BLE001 - a closed stream, an exception that cannot be shown
        pass
