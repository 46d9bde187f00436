"""Output comparison (``stdio``) and value comparison (``call``): harness code, never the program's.

Stdlib only; runs in the runner. The host imports it too (tests, the task validator).
"""

from __future__ import annotations

import re

from .records import clip as _clip

# ASCII digits only, as every contest judge reads numbers (``\d`` would take any Unicode digit,
# and ``float`` would read them)
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z", re.ASCII)
_INTEGER = re.compile(r"[+-]?\d+\Z", re.ASCII)


def _significant_lines(text: str) -> list[str]:
    """Lines with trailing whitespace removed and trailing blank lines dropped."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _token_equal(got: str, want: str, tolerance: float) -> bool:
    if got == want:
        return True
    # Tolerance applies when the expected token is a float literal; integers and words are exact.
    if _INTEGER.match(want) or not _NUMBER.match(want) or not _NUMBER.match(got):
        return False
    a, b = float(got), float(want)
    diff = abs(a - b)
    return diff <= tolerance or diff <= tolerance * abs(b)


def compare_output(got: str, want: str, mode: str, tolerance: float) -> str | None:
    """Compare a program's stdout with the expected stdout.

    Args:
        got: the program's stdout (decoded).
        want: the expected stdout.
        mode: ``tokens`` (per line, whitespace-separated tokens, floats within ``tolerance``;
            trailing whitespace and trailing blank lines ignored, the line count must match),
            ``lines`` (per line, trailing whitespace and trailing blank lines ignored) or
            ``exact``.
        tolerance: absolute-or-relative tolerance for float tokens (``tokens`` mode).

    Returns:
        None when the output is accepted, else a short message saying where it differs.
    """
    if mode == "exact":
        if got == want:
            return None
        return f"output differs (exact comparison): expected {_clip(repr(want))}, got {_clip(repr(got))}"
    got_lines, want_lines = _significant_lines(got), _significant_lines(want)
    for i, (g, w) in enumerate(zip(got_lines, want_lines, strict=False), start=1):  # counts: after the loop
        if mode == "lines":
            ok = g == w
        else:
            gt, wt = g.split(), w.split()
            ok = len(gt) == len(wt) and all(_token_equal(a, b, tolerance) for a, b in zip(gt, wt, strict=True))
        if not ok:
            return f"line {i}: expected {_clip(repr(w))}, got {_clip(repr(g))}"
    if len(got_lines) != len(want_lines):
        return f"expected {len(want_lines)} line(s) of output, got {len(got_lines)}"
    return None


def json_equal(got, want, atol: float = 0.0, rtol: float = 0.0) -> bool:
    """Same JSON type and value: bool is not a number, int and float are both numbers (compared
    exactly), NaN equals NaN; lists element by element, dicts by their keys and values.

    With a tolerance (``atol``, ``rtol`` >= 0, the ``call`` test's), a float in ``want`` matches a
    float in ``got`` (both floats: types must match, as evalplus holds them) when
    ``|got - want| <= atol + rtol * |want|`` (numpy's ``allclose``, which evalplus uses); every
    other value as without one.
    """
    if isinstance(got, bool) or isinstance(want, bool):
        return type(got) is type(want) and got == want
    if isinstance(got, (int, float)) and isinstance(want, (int, float)):
        if got == want or (got != got and want != want):  # NaN equals NaN here
            return True
        return (atol > 0 or rtol > 0) and type(got) is float and type(want) is float \
            and abs(got - want) <= atol + rtol * abs(want)
    if type(got) is not type(want):
        return False
    if isinstance(want, list):
        return len(got) == len(want) and all(json_equal(a, b, atol, rtol) for a, b in zip(got, want, strict=True))
    if isinstance(want, dict):
        return got.keys() == want.keys() and all(json_equal(got[k], want[k], atol, rtol) for k in want)
    return got == want
