"""Plain values that cross from the program's process: read them, strictly, in trusted code.

Stdlib only, and light (the C JSON scanner, no ``json`` package): the judge process loads it.
The program's process writes each value with harness code (``program_process.encode_value``) as
*tagged JSON*: JSON's own types (null, true/false, integers, floats with NaN and Infinity,
strings, arrays for lists), and one-key objects for the rest:

    ``{"t": [...]}`` tuple, ``{"s": [...]}`` set, ``{"f": [...]}`` frozenset, ``{"d": [[k, v], ...]}``
    dict, ``{"b": "<hex>"}`` bytes, ``{"y": "<hex>"}`` bytearray, ``{"c": [re, im]}`` complex,
    ``{"i": "<hex>"}`` an integer too long for decimal, ``{"r": [start, stop, step]}`` range,
    ``{"e": 0}`` Ellipsis.

Everything the program's process writes is untrusted text: ``decode_value`` builds only those
types, refuses anything else, and never runs code of the program's. The bytes come from the
program, so a value can be anything a program could have returned; it cannot be anything else.
"""

from __future__ import annotations

import _json

from .procs import MAX_VALUE_DEPTH


class NotPlain(ValueError):
    """The text is not a plain value in the tagged form (malformed, too deep, or too big)."""


def _tagged(pairs: list) -> object:
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
    if tag in ("b", "y", "i") and type(body) is str:
        if tag == "i":
            return int(body, 16)
        data = bytes.fromhex(body)
        return data if tag == "b" else bytearray(data)
    if tag == "c" and type(body) is list and len(body) == 2 and all(type(x) in (int, float) for x in body):
        return complex(body[0], body[1])
    if tag == "r" and type(body) is list and len(body) == 3 and all(type(x) is int for x in body):
        return range(*body)
    if tag == "e" and body == 0:
        return ...
    raise NotPlain(f"unknown tag {tag!r}")


class _Context:
    """What ``_json.make_scanner`` reads off a decoder."""

    strict = True
    object_hook = None
    object_pairs_hook = staticmethod(_tagged)
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}[name]


_SCAN = _json.make_scanner(_Context())


def decode_value(text: str) -> object:
    """The plain value that ``text`` (tagged JSON, see the module docstring) encodes.

    Raises:
        NotPlain: ``text`` is not exactly one encoded value (garbage, an unknown tag, nesting
            past the interpreter's recursion limit, an unhashable set element or dict key, an
            integer the decimal limit refuses).
    """
    try:
        value, end = _SCAN(text, 0)
    except NotPlain:
        raise
    except (StopIteration, ValueError, TypeError, RecursionError, MemoryError, KeyError) as e:
        raise NotPlain(f"not a plain value: {type(e).__name__}") from None
    if text[end:].strip():
        raise NotPlain("extra data after the value")
    return value


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
                key = int.__repr__(k)
            elif type(k) is float:
                key = "NaN" if k != k else "Infinity" if k == float("inf") else "-Infinity" \
                    if k == float("-inf") else float.__repr__(k)
            else:
                raise NotPlain(f"returned dict has a key of type {type(k).__qualname__}")
            out[key] = to_json_form(v, _depth + 1)
        return out
    raise NotPlain(f"returned a value of type {kind.__qualname__}, which JSON has no form for")
