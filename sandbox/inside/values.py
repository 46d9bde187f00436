"""Plain values that cross from the program's process: read them, strictly, in trusted code.

Stdlib only, and light (the C JSON scanner, no ``json`` package): the judge process loads it.
The program's process writes each value with harness code (``program.encode``) as *tagged JSON*:
JSON's own types (null, true/false, integers, floats with NaN and Infinity, strings, arrays for
lists), and one-key objects for the rest:

    ``{"t": [...]}`` tuple, ``{"s": [...]}`` set, ``{"f": [...]}`` frozenset, ``{"d": [[k, v], ...]}``
    dict, ``{"b": "<hex>"}`` bytes, ``{"y": "<hex>"}`` bytearray, ``{"c": [re, im]}`` complex,
    ``{"i": "<hex>"}`` an integer too long for decimal, ``{"r": [start, stop, step]}`` range,
    ``{"e": 0}`` Ellipsis; for the judge only, the standard library's value types as themselves:
    ``{"q": [items, maxlen]}`` deque, ``{"C": [[k, v], ...]}`` Counter, ``{"O": [[k, v], ...]}``
    OrderedDict, ``{"DD": [factory name or null, [[k, v], ...]]}`` defaultdict, ``{"F": [numerator,
    denominator]}`` Fraction, ``{"N": "text"}`` Decimal, ``{"dt": [kind, ...]}`` a ``datetime``
    value (``d`` date, ``t`` time, ``dt`` datetime, ``td`` timedelta, ``tz`` timezone:
    ``_time_value``); and ``{"h": [number, type name, kind]}`` a handle to an object of the program's
    (``kind``: ``await``, ``aiter`` or empty),
    ``{"k": number}`` a callable, ``{"K": number}`` an iterator and ``{"j": number}`` an object of
    the judge's handed back,
    ``{"S": number}`` a container the program shares with the test (the test's own object),
    ``{"V": [number, value]}`` one it shares from now on,
    ``{"G": name}`` a global of the program's, ``{"X": parts}`` an exception (``program.lineage``),
    ``{"P": [value, plain base, handle]}`` an object of a plain type's subclass (a NamedTuple).

Everything the program's process writes is untrusted text: ``decode_value`` builds only those
types, refuses anything else, and never runs code of the program's. It is total: any text gives a
value or ``NotPlain``, never another exception, within bounds on size (the caller's), nesting
(the interpreter's recursion limit; ``to_json_form`` then allows ``MAX_VALUE_DEPTH``) and number
size (``MAX_INT_BITS``).
"""

from __future__ import annotations

import _json
import math

from .procs import MAX_VALUE_DEPTH

MAX_INT_BITS = 1 << 22  # 4 Mbit: larger integers are refused (a program's answer is never that large)
_RANGE_LIMIT = 1 << 63


class NotPlain(ValueError):
    """The text is not a plain value in the tagged form (malformed, too deep, or too big)."""


class _Decoder:
    """What ``_json.make_scanner`` reads off a decoder; ``refs(tag, body)`` builds the judge's
    handles (None: a handle is refused)."""

    strict = True
    object_hook = None
    parse_float = float

    def __init__(self, refs=None):
        self.refs = refs

    @staticmethod
    def parse_int(text: str) -> int:
        if len(text) > MAX_INT_BITS // 3:
            raise NotPlain("an integer too large to read")
        return int(text)

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[name]

    def object_pairs_hook(self, pairs: list) -> object:
        if len(pairs) != 1:
            raise NotPlain("an encoded object must have exactly one tag")
        tag, body = pairs[0]
        if tag == "t" and type(body) is list:
            return tuple(body)
        if tag == "s" and type(body) is list:
            return set(body)
        if tag == "f" and type(body) is list:
            return frozenset(body)
        if tag == "d" and type(body) is list:
            out = {}
            for item in body:
                if type(item) is not list or len(item) != 2:
                    raise NotPlain("a dict item must be a [key, value] pair")
                out[item[0]] = item[1]
            return out
        if tag in ("b", "y") and type(body) is str:
            data = bytes.fromhex(body)
            return data if tag == "b" else bytearray(data)
        if tag == "i" and type(body) is str:
            if len(body) > MAX_INT_BITS // 4 + 1:
                raise NotPlain("an integer too large to read")
            return int(body, 16)
        if tag == "c" and type(body) is list and len(body) == 2 and all(type(x) in (int, float) for x in body):
            return complex(float(body[0]), float(body[1]))
        if tag == "r" and type(body) is list and len(body) == 3 and all(type(x) is int for x in body) \
                and all(-_RANGE_LIMIT < x < _RANGE_LIMIT for x in body):
            return range(*body)
        if tag == "e" and body == 0:
            return ...
        if self.refs is not None:  # the judge's: the standard library's values, handles
            if tag in ("h", "k", "K", "j", "S", "V", "G", "X", "P", "A"):
                return self.refs(tag, body)
            return _standard(tag, body)
        raise NotPlain(f"unknown tag {tag!r}")


_FACTORIES = {"int": int, "float": float, "str": str, "list": list, "dict": dict, "set": set, "tuple": tuple,
              "bool": bool, "complex": complex, "bytes": bytes, "frozenset": frozenset}
_DECIMAL_TEXT = 20000  # characters of a Decimal's text (its digits are bounded like an int's)


def _pairs(body) -> list:
    if type(body) is not list or not all(type(item) is list and len(item) == 2 for item in body):
        raise NotPlain("a mapping's items must be [key, value] pairs")
    return body


def _standard(tag: str, body) -> object:
    """A standard library value from its tagged form (imported here only when one crosses)."""
    if tag == "q" and type(body) is list and len(body) == 2 and type(body[0]) is list \
            and (body[1] is None or (type(body[1]) is int and 0 <= body[1] < _RANGE_LIMIT)):
        from collections import deque

        return deque(body[0], body[1])
    if tag in ("C", "O"):
        from collections import Counter, OrderedDict

        return Counter(dict(_pairs(body))) if tag == "C" else OrderedDict(_pairs(body))
    if tag == "DD" and type(body) is list and len(body) == 2 and (body[0] is None or body[0] in _FACTORIES):
        from collections import defaultdict

        return defaultdict(None if body[0] is None else _FACTORIES[body[0]], _pairs(body[1]))
    if tag == "F" and type(body) is list and len(body) == 2 and all(type(x) is int for x in body) and body[1] > 0:
        from fractions import Fraction

        return Fraction(body[0], body[1])
    if tag == "N" and type(body) is str and len(body) <= _DECIMAL_TEXT:
        from decimal import Decimal, InvalidOperation

        try:
            return Decimal(body)
        except (InvalidOperation, ValueError):
            raise NotPlain("a malformed Decimal") from None
    if tag == "dt" and type(body) is list and body and type(body[0]) is str:
        try:
            return _time_value(body[0], body[1:])
        except (TypeError, ValueError, OverflowError):
            raise NotPlain("a malformed date or time") from None
    raise NotPlain(f"unknown tag {tag!r}")


def _time_value(kind: str, fields: list) -> object:
    """A ``datetime`` value: ``d`` [y, m, d], ``t`` [H, M, S, us, fold, tz], ``dt`` [y, m, d, H, M, S,
    us, fold, tz], ``td`` [days, seconds, us], ``tz`` [days, seconds, us, name or null]; a tz is
    null or ``tz``'s fields."""
    import datetime

    def tz(value):
        if value is None:
            return None
        if type(value) is not list or len(value) != 4 or not all(type(x) is int for x in value[:3]) \
                or not (value[3] is None or type(value[3]) is str):
            raise ValueError("a malformed timezone")
        offset = datetime.timedelta(value[0], value[1], value[2])
        return datetime.timezone(offset) if value[3] is None else datetime.timezone(offset, value[3])

    ints = fields[:-1] if kind in ("t", "dt") else fields
    if not all(type(x) is int for x in ints):
        raise ValueError("a malformed date or time")
    if kind == "d" and len(fields) == 3:
        return datetime.date(*fields)
    if kind == "td" and len(fields) == 3:
        return datetime.timedelta(*fields)
    if kind == "tz" and len(fields) == 4:
        return tz(fields)
    if kind == "t" and len(fields) == 6:
        hour, minute, second, microsecond, fold, zone = fields
        return datetime.time(hour, minute, second, microsecond, tz(zone), fold=fold)
    if kind == "dt" and len(fields) == 9:
        year, month, day, hour, minute, second, microsecond, fold, zone = fields
        return datetime.datetime(year, month, day, hour, minute, second, microsecond, tz(zone), fold=fold)
    raise ValueError("a malformed date or time")


def decode_value(text: str, refs=None) -> object:
    """The plain value that ``text`` (tagged JSON, see the module docstring) encodes.

    Args:
        text: what the program's process wrote (any text).
        refs: for the judge, ``refs(tag, body)`` builds the object a ``{"h": ...}`` or ``{"k":
            ...}`` item stands for (it raises ``NotPlain`` for a malformed one); None refuses them.

    Raises:
        NotPlain: ``text`` is not exactly one encoded value (garbage, an unknown tag, nesting past
            the interpreter's recursion limit, an unhashable set element
            or dict key, a number too large, a range out of bounds).
    """
    decoder = _Decoder(refs)
    try:
        value, end = _json.make_scanner(decoder)(text, 0)  # type: ignore[arg-type]  # a duck-typed context
    except NotPlain:
        raise
    except Exception as e:  # noqa: BLE001 - any text: every failure is the program's value's
        raise NotPlain(f"not a plain value: {type(e).__name__}") from None
    if text[end:].strip():
        raise NotPlain("extra data after the value")
    return value


def non_finite(value, _depth: int = 0) -> bool:
    """Whether ``value`` holds a NaN anywhere: a float (of any subclass) or a ``Decimal``, either
    part of a complex, an item of a list, tuple, set, frozenset or deque, a key or a value of a dict
    (of any kind), nested to any depth a value may have (``MAX_VALUE_DEPTH``). An infinity is a
    number like any other (a distance never reached): it passes no comparison a finite value
    fails, where a NaN passes every ``not (got != want)`` and ``not abs(got - want) > eps``."""
    if isinstance(value, float):
        return value != value
    if isinstance(value, complex):
        return value.real != value.real or value.imag != value.imag
    if _depth > MAX_VALUE_DEPTH or isinstance(value, (str, bytes, bytearray, int)):
        return False
    if isinstance(value, dict):
        return any(non_finite(k, _depth + 1) or non_finite(v, _depth + 1) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)) or type(value).__name__ == "deque":
        return any(non_finite(v, _depth + 1) for v in value)
    is_nan = getattr(value, "is_nan", None) if type(value).__name__ == "Decimal" else None
    return bool(is_nan()) if is_nan is not None else False


def to_json_form(value, _depth: int = 0):
    """``value`` as JSON data, the form ``call`` tests compare in: tuples become lists, and dict
    keys that are int, float, bool or None become their JSON text, as ``json.dumps`` writes them.

    Raises:
        NotPlain: the value holds something JSON has no form for (a set, bytes, a complex, ...).
    """
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if _depth > MAX_VALUE_DEPTH:
        raise NotPlain("the value nests too deeply")
    if kind in (list, tuple):
        return [to_json_form(v, _depth + 1) for v in value]
    if kind is dict:
        out = {}
        for k, v in value.items():
            if type(k) is str:
                key = k
            elif k is None or type(k) is bool:
                key = "null" if k is None else "true" if k else "false"
            elif type(k) is int:
                key = _int_text(k)
            elif type(k) is float:
                key = "NaN" if k != k else "Infinity" if k == math.inf else "-Infinity" \
                    if k == -math.inf else float.__repr__(k)
            else:
                raise NotPlain(f"returned dict has a key of type {type(k).__qualname__}")
            out[key] = to_json_form(v, _depth + 1)
        return out
    raise NotPlain(f"returned a value of type {kind.__qualname__}, which JSON has no form for")


def _int_text(n: int) -> str:
    """An integer as decimal text, or as ``0x...`` where decimal text would be refused or slow."""
    return int.__repr__(n) if n.bit_length() <= 13000 else ("-" if n < 0 else "") + hex(abs(n))


def preview(value, limit: int = 200) -> str:
    """A short, bounded text of a plain value for a message (never raises, never slow: long ints
    and long containers are cut before they are written out)."""
    parts: list[str] = []
    size = [0]

    def put(text: str) -> bool:
        parts.append(text)
        size[0] += len(text)
        return size[0] < limit

    def walk(v, depth: int) -> bool:
        kind = type(v)
        if kind is int:
            return put(_int_text(v) if v.bit_length() <= 2000 else f"<an integer of {v.bit_length()} bits>")
        if kind is str:
            return put(_json.encode_basestring_ascii(v[:limit]))
        if v is None or kind in (bool, float):
            return put("null" if v is None else "true" if v is True else "false" if v is False else
                       "NaN" if v != v else "Infinity" if v == math.inf else "-Infinity" if v == -math.inf
                       else float.__repr__(v))
        if depth > 20:
            return put("...")
        if kind is list:
            put("[")
            for i, x in enumerate(v):
                if (i and not put(", ")) or not walk(x, depth + 1):
                    return False
            return put("]")
        if kind is dict:
            put("{")
            for i, (k, x) in enumerate(v.items()):
                if (i and not put(", ")) or not walk(k, depth + 1) or not put(": ") or not walk(x, depth + 1):
                    return False
            return put("}")
        return put(f"<{kind.__qualname__}>")

    walk(value, 0)
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 3] + "..."
