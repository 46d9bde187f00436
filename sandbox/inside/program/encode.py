"""The writer of the values a program's process sends out: tagged JSON, read by ``values``.

Exact builtin types only, so none of the program's code runs while a value is written: None,
bool, int, float (NaN and infinities as JSON's extensions), str and list as JSON; tuple, set,
frozenset, dict, bytes, bytearray, complex, range, Ellipsis and very long ints as one-key objects
(``values`` lists the tags). For the judge, anything else becomes a handle (``{"h": [id, type
name]}``): the object stays here and the judge may call it, read its attributes, iterate it
(``calls``); and a callback of the judge's that the program hands back is ``{"k": id}``.
"""

from __future__ import annotations

from _json import encode_basestring_ascii as _encode_str  # C code: untouched by a program's monkeypatching

from ..procs import MAX_VALUE_DEPTH


class NotPlainData(Exception):
    """A value that is not plain data where only plain data may go (a ``call`` test's value)."""


class Handles:
    """The objects of the program's that the judge holds handles to, by number (one number per
    object: the same object always gets the same handle); and the judge's callbacks given to the
    program (``calls.Callback``), which go back as themselves."""

    __slots__ = ("by_id", "objects")

    def __init__(self):
        self.objects: list = []
        self.by_id: dict[int, int] = {}

    def forget(self, number, _type=type, _len=len, _id=id) -> None:
        """Let go of handle ``number``'s object (the judge no longer holds it): it may be freed."""
        if _type(number) is int and 0 <= number < _len(self.objects) and self.objects[number] is not None:
            self.by_id.pop(_id(self.objects[number]), None)
            self.objects[number] = None

    def handle(self, obj, _id=id, _len=len) -> int:
        """The number of ``obj``'s handle (the same object, the same number), kept alive here."""
        number = self.by_id.get(_id(obj))
        if number is None:
            number = self.by_id[_id(obj)] = _len(self.objects)
            self.objects.append(obj)  # kept alive: its id stays its own
        return number


_INF = float("inf")
_DECIMAL_BITS = 13000  # ints longer than this are written in hex (decimal text is capped at 4300 digits)
CALLBACK_TYPE: list = [None]  # ``calls.Callback``, set by that module (it imports this one)


def encode_value(value, handles: Handles | None = None, _type=type, _str=_encode_str, _repr_int=int.__repr__,
                 _bit_length=int.bit_length) -> str:
    """Write ``value`` as tagged JSON.

    Args:
        value: what the program returned (or passes to a callback).
        handles: where objects that are not plain data go (the judge's calls); None: they may
            not (a ``call`` test, compared as JSON by the runner).

    Raises:
        NotPlainData: ``handles`` is None and the value holds anything but the plain types (a
            subclass, an object of the program's own, a function), or it nests deeper than
            ``MAX_VALUE_DEPTH`` levels.
    """
    t = _type(value)  # the common answers first, without a call
    if t is str:
        return _str(value)
    if t is int and _bit_length(value) <= _DECIMAL_BITS:
        return _repr_int(value)
    if t is bool:
        return "true" if value else "false"
    return _encode_walk(value, 0, handles)


def _encode_walk(v, depth, handles, _type=type, _repr_int=int.__repr__, _repr_float=float.__repr__,
                 _str=_encode_str, _hex=bytes.hex, _hex_array=bytearray.hex, _format=int.__format__,
                 _bit_length=int.bit_length, _join=", ".join, _append=list.append, _items=dict.items) -> str:
    t = _type(v)
    if t is str:
        return _str(v)
    if t is int:
        if _bit_length(v) > _DECIMAL_BITS:
            return '{"i": "' + ("-" if v < 0 else "") + _format(-v if v < 0 else v, "x") + '"}'
        return _repr_int(v)
    if t is bool:
        return "true" if v else "false"
    if t is float:
        if v != v:
            return "NaN"
        if v == _INF or v == -_INF:
            return "Infinity" if v > 0 else "-Infinity"
        return _repr_float(v)
    if v is None:
        return "null"
    if depth > MAX_VALUE_DEPTH:
        raise NotPlainData(f"the value nests deeper than {MAX_VALUE_DEPTH} levels")
    parts: list[str]
    if t is list or t is tuple or t is set or t is frozenset:
        parts = []
        for x in v:
            _append(parts, _encode_walk(x, depth + 1, handles))
        body = "[" + _join(parts) + "]"
        return body if t is list else '{"' + ("t" if t is tuple else "s" if t is set else "f") + '": ' + body + "}"
    if t is dict:
        parts = []
        for k, x in _items(v):
            _append(parts, "[" + _encode_walk(k, depth + 1, handles) + ", " + _encode_walk(x, depth + 1, handles) + "]")
        return '{"d": [' + _join(parts) + "]}"
    if t is bytes or t is bytearray:
        return '{"' + ("b" if t is bytes else "y") + '": "' + (_hex(v) if t is bytes else _hex_array(v)) + '"}'
    if t is complex:
        return '{"c": [' + _encode_walk(v.real, depth + 1, handles) + ", " + _encode_walk(v.imag, depth + 1, handles) \
            + "]}"
    if t is range:
        return '{"r": [' + _repr_int(v.start) + ", " + _repr_int(v.stop) + ", " + _repr_int(v.step) + "]}"
    if v is ...:
        return '{"e": 0}'
    if handles is None:
        raise NotPlainData(f"returned a value of type {_type_name(t)}, which is not plain data")
    if t is CALLBACK_TYPE[0]:
        return '{"k": ' + _repr_int(v.number) + "}"
    return '{"h": [' + _repr_int(handles.handle(v)) + ", " + _str(_type_name(t)) + "]}"


def _type_name(t, _qualname=type.__dict__["__qualname__"].__get__, _str=str, _type=type) -> str:
    """A type's name, read without running the program's code (a metaclass may define properties)."""
    try:
        name = _qualname(t)
    except BaseException:  # noqa: BLE001 - not a type after all
        return "object"
    return name if _type(name) is _str else "object"
