"""Harness code that runs inside a test process: the plain-data guard, value serialization,
and the restoring of builtins.

Stdlib only, and light (no ``ast``, ``json`` or ``re``): it is loaded by the fork server, and
every module loaded there is copied into every test process. It is imported before any program
runs, so the references bound here (builtins, the C JSON string encoder) are pristine. Nothing
here runs code of the program: the guard and the serializer look at exact builtin types only.
"""

from __future__ import annotations

from _json import encode_basestring_ascii as _encode_str  # C code: untouched by a program's monkeypatching

MESSAGE_LIMIT = 500


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
