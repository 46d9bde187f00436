"""Harness code: how outputs and values are compared, and what a test may compare.

Stdlib only; baked into the sandbox image beside ``runner.py``, which imports it before any
program runs, so the references bound here (builtins, the C JSON string encoder) are pristine.
Nothing here ever runs code of the program: comparisons work on plain data only.
"""

from __future__ import annotations

import ast
import json
import re

MESSAGE_LIMIT = 500


# --------------------------------------------------------------------------------------
# Output comparison (stdio) and value comparison (call): harness code, never the program's.
# --------------------------------------------------------------------------------------

_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z")
_INTEGER = re.compile(r"[+-]?\d+\Z")


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


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
    for i, (g, w) in enumerate(zip(got_lines, want_lines), start=1):
        if mode == "lines":
            ok = g == w
        else:
            gt, wt = g.split(), w.split()
            ok = len(gt) == len(wt) and all(_token_equal(a, b, tolerance) for a, b in zip(gt, wt))
        if not ok:
            return f"line {i}: expected {_clip(repr(w))}, got {_clip(repr(g))}"
    if len(got_lines) != len(want_lines):
        return f"expected {len(want_lines)} line(s) of output, got {len(got_lines)}"
    return None


def json_equal(got, want) -> bool:
    """Same JSON type and value: bool is not a number, int and float are both numbers."""
    if isinstance(got, bool) or isinstance(want, bool):
        return type(got) is type(want) and got == want
    if isinstance(got, (int, float)) and isinstance(want, (int, float)):
        return got == want or (got != got and want != want)  # NaN equals NaN here
    if type(got) is not type(want):
        return False
    if isinstance(want, list):
        return len(got) == len(want) and all(json_equal(a, b) for a, b in zip(got, want))
    if isinstance(want, dict):
        return got.keys() == want.keys() and all(json_equal(got[k], want[k]) for k in want)
    return got == want


# --------------------------------------------------------------------------------------
# Plain data: the only values a test may compare. Bound to pristine builtins at import time.
# --------------------------------------------------------------------------------------


class NotPlainData(Exception):
    """A test compared a value that is not plain data (its __eq__ is the program's code)."""


_PLAIN_SCALARS = frozenset(
    {int, float, bool, str, bytes, complex, type(None), type(Ellipsis), range, slice}
)
_PLAIN_CONTAINERS = frozenset({list, tuple, set, frozenset, dict})


def _plain(value, _type=type, _id=id, _scalars=_PLAIN_SCALARS, _containers=_PLAIN_CONTAINERS,
           _dict=dict, _list=list, _set=set, _NotPlain=NotPlainData):
    """Return ``value`` if it is built only from builtin data types (exact types), else raise."""
    stack = [value]
    seen = _set()
    while stack:
        v = stack.pop()
        t = _type(v)
        if t in _scalars:
            continue
        if t is type:  # a class object (plain metaclass) compares by identity
            continue
        if t not in _containers:
            raise _NotPlain(f"test compared a value of type {getattr(t, '__qualname__', t)!s}, "
                            "which is not plain data")
        if _id(v) in seen:
            continue
        seen.add(_id(v))
        if t is _dict:
            stack.extend(_dict.keys(v))
            stack.extend(_dict.values(v))
        else:
            stack.extend(_list(v) if t is not _list else v)
    return value


_GUARD_NAME = "__grpo_plain__"
_TESTED = (ast.Assert, ast.If, ast.While, ast.IfExp)


def _located(node, like):
    node.lineno, node.col_offset = like.lineno, like.col_offset
    node.end_lineno, node.end_col_offset = like.end_lineno, like.end_col_offset
    return node


def _wrap(expr):
    return _located(ast.Call(_located(ast.Name(_GUARD_NAME, ast.Load()), expr), [expr], []), expr)


def _guard(node) -> None:
    """Route every compared or truth-tested value under ``node`` through ``__grpo_plain__``."""
    for field in node._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            for item in value:
                if isinstance(item, ast.AST):
                    _guard(item)
        elif isinstance(value, ast.AST):
            _guard(value)
    kind = type(node)
    if kind is ast.Compare:
        node.left = _wrap(node.left)
        node.comparators = [_wrap(c) for c in node.comparators]
    elif kind is ast.BoolOp:
        node.values = [_wrap(v) for v in node.values]
    elif kind is ast.UnaryOp and type(node.op) is ast.Not:
        node.operand = _wrap(node.operand)
    elif kind in _TESTED:
        node.test = _wrap(node.test)


def compile_guarded_test(code: str):
    """Compile test statements into ``def __grpo_test__(__grpo_plain__): <code>``.

    Every compared or truth-tested value passes through the guard (``_plain``), so a value
    whose ``__eq__`` or ``__bool__`` is the program's code fails the test. The guard arrives
    as an argument (a local, or a closure cell in nested functions), so the program cannot
    replace it through the shared globals.

    Raises:
        SyntaxError: the test code does not compile.
    """
    module = ast.parse(code, filename="<test>")
    for stmt in module.body:
        _guard(stmt)
    top = module.body[0] if module.body else _located(ast.Pass(), ast.Pass(lineno=1, col_offset=0,
                                                                             end_lineno=1, end_col_offset=0))
    arg = _located(ast.arg(_GUARD_NAME), top)
    fn = _located(ast.FunctionDef(
        name="__grpo_test__",
        args=ast.arguments(posonlyargs=[], args=[arg], vararg=None, kwonlyargs=[], kw_defaults=[],
                           kwarg=None, defaults=[]),
        body=module.body or [top], decorator_list=[], returns=None), top)
    return compile(ast.Module(body=[fn], type_ignores=[]), "<test>", "exec", dont_inherit=True)


_encode_str = json.encoder.encode_basestring_ascii  # C code: untouched by a program's monkeypatching
_INF = float("inf")
_PRISTINE_BUILTINS = dict(vars(__import__("builtins")))


def to_json(value, _type=type, _repr_int=int.__repr__, _repr_float=float.__repr__, _str=_encode_str,
            _join=", ".join, _append=list.append, _keys=dict.keys, _getitem=dict.__getitem__):
    """Serialize a returned value to JSON text with harness code only.

    Only exact builtin types (so no program code runs here); tuples become lists; dict keys
    must be str, int, float, bool or None (non-str keys are written as JSON text, as json does).

    Raises:
        NotPlainData: the value holds anything else, or nests deeper than 200 levels.
    """

    def scalar(v, t):
        if t is str:
            return _str(v)
        if t is bool:
            return "true" if v else "false"
        if t is int:
            return _repr_int(v)
        if t is float:
            if v != v:
                return "NaN"
            if v == _INF or v == -_INF:
                return "Infinity" if v > 0 else "-Infinity"
            return _repr_float(v)
        if v is None:
            return "null"
        return None

    def walk(v, depth):
        t = _type(v)
        if depth > 200:
            raise NotPlainData("returned value is nested too deeply")
        text = scalar(v, t)
        if text is not None:
            return text
        if t is list or t is tuple:
            parts = []
            for x in v:
                _append(parts, walk(x, depth + 1))
            return "[" + _join(parts) + "]"
        if t is dict:
            parts = []
            for k in _keys(v):
                kt = _type(k)
                if kt not in (str, int, float, bool, type(None)):
                    raise NotPlainData(f"returned dict has a key of type {kt.__qualname__}")
                key = _str(k) if kt is str else _str(scalar(k, kt))
                _append(parts, key + ": " + walk(_getitem(v, k), depth + 1))
            return "{" + _join(parts) + "}"
        raise NotPlainData(f"returned a value of type {getattr(t, '__qualname__', t)!s}, "
                           "which is not plain data")

    return walk(value, 0)


def _restore_builtins(_vars=vars(__import__("builtins")), _pristine=_PRISTINE_BUILTINS,
                      _clear=dict.clear, _update=dict.update) -> None:
    """Undo a program's changes to builtins before harness code runs again."""
    _clear(_vars)
    _update(_vars, _pristine)
