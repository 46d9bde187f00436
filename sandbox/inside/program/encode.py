"""The writer of the values a program's process sends out: tagged JSON, read by ``values``.

Exact builtin types only, so none of the program's code runs while a value is written: None,
bool, int, float (NaN and infinities as JSON's extensions), str and list as JSON; tuple, set,
frozenset, dict, bytes, bytearray, complex, range, Ellipsis and very long ints as one-key objects
(``values`` lists the tags). For the judge, the standard library's value types cross as themselves
too, read by their own C or library code (``_standard``): ``deque``, ``Counter``, ``OrderedDict``,
``defaultdict`` (of a builtin type, or none), ``Fraction``, ``Decimal``, and ``date``, ``time``,
``datetime`` (naive, or with a fixed ``timezone``), ``timedelta`` and ``timezone``; anything else
becomes a handle (``{"h": [id, type name, kind]}``, the kind the special methods its type has: a
bit per name of ``procs.HANDLE_DUNDERS``), but a plain type's subclass (a NamedTuple, an IntEnum),
which crosses as its plain value with its handle (``{"P": [value, base, handle]}``), and an
exception, which crosses as the judge rebuilds it (``{"X": parts}``, ``lineage.exception_parts``):
the object stays here and the judge may call it, read its attributes, iterate it (``calls``); and a
callback of the judge's that the program hands back is ``{"k": id}``, an iterator of the judge's
``{"K": id}``, an object of the test's ``{"j": id}``.
"""

from __future__ import annotations

from _json import encode_basestring_ascii as _encode_str  # C code: untouched by a program's monkeypatching

# The builtins this module uses: a program that replaces one (``builtins.isinstance = ...``)
# changes nothing of what this module reads and writes.
from builtins import (  # noqa: UP029 - bound once, as the fork server loaded them
    bool,
    bytearray,
    bytes,
    complex,
    dict,
    float,
    frozenset,
    id,
    int,
    isinstance,
    issubclass,
    len,
    list,
    map,
    max,
    object,
    range,
    reversed,
    set,
    str,
    tuple,
    type,
)
from typing import Any

from ..arrays import form
from ..procs import HANDLE_DUNDERS, MAX_VALUE_DEPTH


class NotPlainData(Exception):
    """A value that is not plain data where only plain data may go (a ``call`` test's value)."""


class Handles:
    """The objects of the program's that the judge holds handles to, by number (one number per
    object: the same object always gets the same handle), and the containers the program shares
    with the test (``shared``: kept by both sides, numbered in the order they became shared; each
    crosses as its number, ``{"S": number}``, and its changes are synced with each answer:
    ``calls.Server.sync_up``)."""

    __slots__ = ("by_id", "copy_ids", "next_shared", "objects", "shared", "shared_ids", "snapshots")

    def __init__(self):
        self.objects: list = []
        self.by_id: dict[int, int] = {}
        self.shared: dict[int, object] = {}
        self.shared_ids: dict[int, int] = {}
        self.snapshots: dict[int, bytes | None] = {}  # each shared container's state as last synced
        self.next_shared = 0  # the number the next shared container gets (the judge counts alike)
        self.copy_ids: dict[int, int] = {}  # the program's copies of the test's objects: id -> the judge's number

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

    def share(self, obj, number: int | None = None) -> int:
        """Share ``obj`` with the test from now on, as ``number`` (the judge's) or the next one."""
        if number is None:
            number = self.next_shared
        self.next_shared = max(self.next_shared, number + 1)
        self.shared[number] = obj
        self.shared_ids[id(obj)] = number
        return number

    def unshare(self, number: int) -> None:
        """The test no longer holds shared container ``number``: its changes no longer matter."""
        obj = self.shared.pop(number, None)
        if obj is not None:
            self.shared_ids.pop(id(obj), None)
        self.snapshots.pop(number, None)


# A plain type's subclass (a NamedTuple, an IntEnum) as the plain value it holds: read by the plain
# type's own code, never by the subclass's (its value is data, compared in the judge).
PLAIN_BASES: tuple[tuple[type, Any], ...] = (
    (bool, bool.__bool__), (int, int.__int__), (float, float.__float__), (complex, complex.__complex__),
    (str, str.__str__), (bytes, bytes), (bytearray, bytearray), (tuple, tuple), (list, list), (dict, dict.copy),
    (frozenset, frozenset), (set, set))


def plain_value(value, _type=type, _issubclass=issubclass):
    """``value`` as plain data where it is an instance of a plain type's subclass (its base's own
    value, read by the base's code), else ``value`` itself."""
    kind = _type(value)
    for base, convert in PLAIN_BASES:
        if kind is not base and _issubclass(kind, base):
            converted = convert(value)
            if _type(converted) is dict:
                return {plain_value(k): plain_value(v) for k, v in dict.items(converted)}
            if _type(converted) in (list, tuple, set, frozenset):
                return _type(converted)(plain_value(v) for v in converted)
            return converted
    if kind in (list, tuple, set, frozenset):
        return kind(plain_value(v) for v in value)
    if kind is dict:
        return {plain_value(k): plain_value(v) for k, v in dict.items(value)}
    return value


def plain_base(t, _issubclass=issubclass):
    """The plain type ``t`` is a subclass of (a NamedTuple's ``tuple``, an IntEnum's ``int``), and
    its converter, or None."""
    for base, convert in PLAIN_BASES:
        if t is not base and _issubclass(t, base):
            return base, convert
    return None


_INF = float("inf")
_DECIMAL_BITS = 13000  # ints longer than this are written in hex (decimal text is capped at 4300 digits)
CALLBACK_TYPE: list = [None, None, None]  # ``receive``'s Callback, TestIterator and TestObject, set there
EXCEPTION_PARTS: list = [None]  # ``lineage.exception_parts``, set by that module (it imports this one)
_DICT_ITEMS = dict.items
_FACTORIES = {int: "int", float: "float", str: "str", list: "list", dict: "dict", set: "set", tuple: "tuple",
              bool: "bool", complex: "complex", bytes: "bytes", frozenset: "frozenset"}  # a defaultdict's, by name


def encode_value(value, handles: Handles | None = None, inline: bool = False, _type=type, _str=_encode_str,
                 _repr_int=int.__repr__, _bit_length=int.bit_length) -> str:
    """Write ``value`` as tagged JSON.

    Args:
        value: what the program returned (or passes to a callback).
        handles: where objects that are not plain data go (the judge's calls); None: they may
            not (a ``call`` test, compared as JSON by the runner).
        inline: write ``value`` itself whole even where it is a shared container (its state).

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
    if inline:
        return _encode_walk(value, 0, handles, None)
    return _encode_walk(value, 0, handles)


def _encode_walk(v, depth, handles, top=0, _type=type, _repr_int=int.__repr__, _repr_float=float.__repr__,
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
    if handles is not None and handles.shared_ids and (top is not None or depth):
        number = handles.shared_ids.get(id(v))
        if number is not None:  # a container the program shares with the test: the test's own object
            return '{"S": ' + _repr_int(number) + "}"
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
    if t is CALLBACK_TYPE[1]:
        return '{"K": ' + _repr_int(v.number) + "}"
    if t is CALLBACK_TYPE[2]:
        return '{"j": ' + _repr_int(object.__getattribute__(v, "_number")) + "}"
    copy = handles.copy_ids.get(id(v))
    if copy is not None:  # the program's copy of an object of the test's (or its class): the test's own
        return '{"j": ' + _repr_int(copy) + "}"
    standard = _standard(v, t, depth, handles)
    if standard is not None:
        return standard
    base = plain_base(t)
    if base is not None:  # a NamedTuple, an IntEnum: its plain value, with the object behind it
        return ('{"P": [' + _encode_walk(base[1](v), depth + 1, handles) + ", " + _str(base[0].__name__) + ", "
                + _encode_walk(handle_of(v, t, handles), depth + 1, None) + "]}")
    if isinstance(v, BaseException):  # an exception as a value (kept, returned): as the judge rebuilds it
        try:
            return '{"X": [' + EXCEPTION_PARTS[0](v) + "]}"
        except NotPlainData:
            pass
    return '{"h": ' + _encode_walk(handle_of(v, t, handles), depth + 1, None) + "}"


def handle_of(v, t, handles) -> list:
    """``[number, type name, kind]`` of ``v``'s handle (``kind``: ``_kind``, its special methods)."""
    return [handles.handle(v), _type_name(t), _kind(t)]


def _pairs(items, depth, handles) -> str:
    return "[" + ", ".join("[" + _encode_walk(k, depth + 1, handles) + ", " + _encode_walk(x, depth + 1, handles) + "]"
                           for k, x in items) + "]"


def _standard(v, t, depth, handles, _modules=__import__("sys").modules, _repr_int=int.__repr__) -> str | None:
    """A standard library value type's tagged form (``values`` reads it), or None: ``t`` is none of
    them. Each is known by its exact type in the module the program loaded (a type the program never
    imported cannot be the type of its value) and read by its own code."""
    collections = _modules.get("collections")
    if collections is not None:
        if t is collections.deque:
            maxlen = v.maxlen
            return ('{"q": [' + _encode_walk(list(v), depth + 1, handles) + ", "
                    + ("null" if maxlen is None else _repr_int(maxlen)) + "]}")
        if t is collections.Counter:
            return '{"C": ' + _pairs(_DICT_ITEMS(v), depth, handles) + "}"
        if t is collections.OrderedDict:
            return '{"O": ' + _pairs(collections.OrderedDict.items(v), depth, handles) + "}"
        if t is collections.defaultdict:
            factory = v.default_factory
            name = "null" if factory is None else _FACTORIES.get(factory)
            if name is not None:
                return ('{"DD": [' + (name if name == "null" else '"' + name + '"') + ", "
                        + _pairs(_DICT_ITEMS(v), depth, handles) + "]}")
    fractions = _modules.get("fractions")
    if fractions is not None and t is fractions.Fraction:
        return '{"F": [' + _encode_walk(v.numerator, depth + 1, None) + ", " \
            + _encode_walk(v.denominator, depth + 1, None) + "]}"
    decimal = _modules.get("decimal")
    if decimal is not None and t is decimal.Decimal:
        return '{"N": ' + _encode_str(str(v)) + "}"
    datetime = _modules.get("datetime")
    if datetime is not None:
        timed = _time_value(v, t, datetime)
        if timed is not None:
            return timed
    array = form(v, t)  # numpy's and pandas' values, as what they are
    return None if array is None else '{"A": ' + _encode_walk(array, depth + 1, handles) + "}"


def _timezone(tz, datetime) -> str | None:
    """A ``timezone``'s form (``[days, seconds, microseconds, name or null]``), "null" for none,
    or None: a tzinfo of another kind (a handle)."""
    if tz is None:
        return "null"
    if type(tz) is not datetime.timezone:
        return None
    offset = tz.utcoffset(None)
    name = tz.tzname(None)
    explicit = name != datetime.timezone(offset).tzname(None)  # a name of its own, not the offset's
    return ("[" + ", ".join(map(int.__repr__, (offset.days, offset.seconds, offset.microseconds))) + ", "
            + (_encode_str(name) if explicit else "null") + "]")


def _time_value(v, t, datetime) -> str | None:
    r = int.__repr__
    if t is datetime.timedelta:
        return '{"dt": ["td", ' + ", ".join(map(r, (v.days, v.seconds, v.microseconds))) + "]}"
    if t is datetime.date:
        return '{"dt": ["d", ' + ", ".join(map(r, (v.year, v.month, v.day))) + "]}"
    if t is datetime.timezone:
        tz = _timezone(v, datetime)
        return None if tz is None else '{"dt": ["tz", ' + tz + "]}"
    if t is datetime.datetime:
        tz = _timezone(v.tzinfo, datetime)
        if tz is None:
            return None
        return ('{"dt": ["dt", ' + ", ".join(map(r, (v.year, v.month, v.day, v.hour, v.minute, v.second,
                                                      v.microsecond, v.fold))) + ", " + tz + "]}")
    if t is datetime.time:
        tz = _timezone(v.tzinfo, datetime)
        if tz is None:
            return None
        return ('{"dt": ["t", ' + ", ".join(map(r, (v.hour, v.minute, v.second, v.microsecond, v.fold))) + ", "
                + tz + "]}")
    return None


_KINDS: dict[int, int] = {}  # what each type of the program's objects is to the judge, within one message
_MRO = type.__dict__["__mro__"].__get__
_DICT = type.__dict__["__dict__"].__get__
_DUNDER_BITS = tuple((name, 1 << bit) for bit, name in enumerate(HANDLE_DUNDERS))


def forget_kinds() -> None:
    """Forget what each type was: a class may have changed since (call before each message)."""
    _KINDS.clear()


def _kind(t) -> int:
    """The special methods of ``procs.HANDLE_DUNDERS`` that ``t`` has (one bit each; a name its
    class sets to None, ``__hash__ = None``, it has not): read from the classes' own dicts (no code
    of the program's runs)."""
    kind = _KINDS.get(id(t))
    if kind is None:
        kind = 0
        try:
            found: dict = {}
            for klass in reversed(_MRO(t)):  # the nearest class's entry wins
                found.update(_DICT(klass))
            for name, bit in _DUNDER_BITS:
                if found.get(name) is not None:
                    kind |= bit
        except BaseException:  # noqa: BLE001 - a class that will not say: a plain object
            kind = 0
        _KINDS[id(t)] = kind
    return kind


def _type_name(t, _qualname=type.__dict__["__qualname__"].__get__, _str=str, _type=type) -> str:
    """A type's name, read without running the program's code (a metaclass may define properties)."""
    try:
        name = _qualname(t)
    except BaseException:  # noqa: BLE001 - not a type after all
        return "object"
    return name if _type(name) is _str else "object"
