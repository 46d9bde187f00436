"""What the judge hands the program, as the program's process takes it: the values down.

The rule: a value the test hands the program arrives as what it is in the test, so the program
sees what it would see in one process. Plain data arrives as itself (``marshal``, whose references
keep one list passed twice one list); what ``marshal`` cannot carry as itself comes marked
(``procs.REF_MARK``, ``judge.send``) and is built here: a ``bytearray``, a ``range``, a ``slice``,
the standard library's value types (``deque``, ``Counter``, ``OrderedDict``, ``defaultdict``,
``Fraction``, ``Decimal``, ``date``, ``time``, ``datetime``, ``timedelta``, ``timezone``), a dict's
keys, values or items view (over a copy of the dict); an object of the program's that the test
holds a handle to (the object itself); a callable of the test's (a ``Callback``: calling it runs
it in the judge), an object of the test's (a ``TestObject``: what the program does with it is done
in the judge) and an iterator of the test's (a ``TestIterator``: each item is asked of the
judge as the program takes it, so a generator of the test's runs exactly as far as the program
pulls it); a container the program kept from an earlier call (the same object, its items made
what the test's now are: ``Shared``).

Nothing here is trusted: it runs in the program's process, and what it builds is the program's.
"""

from __future__ import annotations

# The builtins this module uses: a program that replaces one (``builtins.isinstance = ...``)
# changes nothing of what this module reads and writes.
from builtins import (  # noqa: UP029 - bound once, as the fork server loaded them
    all,
    bool,
    bytearray,
    bytes,
    complex,
    dict,
    enumerate,
    float,
    frozenset,
    getattr,
    hasattr,
    id,
    int,
    isinstance,
    issubclass,
    len,
    list,
    object,
    property,
    range,
    set,
    slice,
    str,
    tuple,
    type,
    vars,
)

from ..arrays import build
from ..procs import REF_MARK
from .encode import CALLBACK_TYPE

_BUILTINS = dict(vars(__import__("builtins")))  # as the fork server loaded them: before any program
_FACTORIES = {"int": int, "float": float, "str": str, "list": list, "dict": dict, "set": set, "tuple": tuple,
              "bool": bool, "complex": complex, "bytes": bytes, "frozenset": frozenset}


class Callback:
    """A callable of the judge's (a test's lambda, a function it defines), as the program sees it:
    calling it runs it in the judge. It has the test's function's name, qualified name, module and
    docstring (a decorator's ``functools.wraps`` copies them)."""

    def __init__(self, server, number: int, about=()):
        self.number, self.server = number, server
        if len(about) == 4 and all(type(x) is str or x is None for x in about):
            self.__name__, self.__qualname__, self.__module__, self.__doc__ = about

    def __call__(self, *args, **kwargs):
        """Have the judge run the test's callable, and return what it returned."""
        return self.server.callback(self.number, args, kwargs)

    def __repr__(self) -> str:
        return "<a callable of the test's>"


class TestIterator:
    """An iterator of the judge's (a generator the test made, a ``map``, a ``zip``...), as the
    program sees it: each ``next`` asks the judge for one item, so the test's iterator runs as far
    as the program takes it, and no further."""

    __slots__ = ("number", "server")
    __test__ = False  # not a pytest class

    def __init__(self, server, number: int):
        self.number, self.server = number, server

    def __iter__(self):
        return self

    def __next__(self):
        return self.server.next_item(self.number)

    def __repr__(self) -> str:
        return "<an iterator of the test's>"


class TestObject:
    """An object of the test's (an instance of a class the test or its setup defines, a mock), as
    the program sees it: one per object (``is`` is the test's identity), and what the program does
    with it is done to the real object, in the judge (``judge.objects``): read or set an attribute
    (a node's ``next``), call it (a mock), iterate it, index it, compare it, use it in ``with``. Its
    ``__class__`` is the program's class of the same name, where the program has one
    (``isinstance(node, ListNode)`` holds, as where both share one class)."""

    __slots__ = ("_number", "_server", "_type")
    __test__ = False  # not a pytest class

    def __init__(self, server, number: int, type_name: str):
        object.__setattr__(self, "_server", server)
        object.__setattr__(self, "_number", number)
        object.__setattr__(self, "_type", type_name)

    def _ask(self, op: str, *payload):
        return self._server.ask_object(self._number, op, payload)

    @property  # type: ignore[misc]
    def __class__(self):
        """The program's class of the test's class's name, where the program has one."""
        own = self._server.namespace.get(self._type)
        return own if isinstance(own, type) else TestObject

    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return self._ask("getattr", name)

    def __setattr__(self, name: str, value) -> None:
        self._ask("setattr", name, value)

    def __delattr__(self, name: str) -> None:
        self._ask("delattr", name)

    def __call__(self, *args, **kwargs):
        """Call the test's object (a mock, an instance of a class with ``__call__``), in the judge."""
        return self._ask("call", list(args), kwargs)

    def __iter__(self):
        return self._ask("iter")

    def __next__(self):
        return self._ask("next")

    def __len__(self) -> int:
        return self._ask("len")

    def __getitem__(self, key):
        return self._ask("getitem", key)

    def __setitem__(self, key, value) -> None:
        self._ask("setitem", key, value)

    def __delitem__(self, key) -> None:
        self._ask("delitem", key)

    def __contains__(self, item) -> bool:
        return self._ask("contains", item)

    def __str__(self) -> str:
        return self._ask("str")

    def __repr__(self) -> str:
        return self._ask("repr")

    def __bool__(self) -> bool:
        return self._ask("bool")

    def __hash__(self) -> int:
        return self._ask("hash")

    def __eq__(self, other):
        return self._ask("eq", other)

    def __ne__(self, other):
        return self._ask("ne", other)

    def __lt__(self, other):
        return self._ask("lt", other)

    def __le__(self, other):
        return self._ask("le", other)

    def __gt__(self, other):
        return self._ask("gt", other)

    def __ge__(self, other):
        return self._ask("ge", other)

    def __enter__(self):
        return self._ask("enter")

    def __exit__(self, kind, value, traceback):
        return self._ask("exit", value)


CALLBACK_TYPE[0] = Callback
CALLBACK_TYPE[1] = TestIterator
CALLBACK_TYPE[2] = TestObject


def _time_value(kind: str, fields) -> object:
    import datetime

    def tz(value):
        if value is None:
            return None
        offset = datetime.timedelta(*value[:3])
        return datetime.timezone(offset) if value[3] is None else datetime.timezone(offset, value[3])

    if kind == "d":
        return datetime.date(*fields)
    if kind == "td":
        return datetime.timedelta(*fields)
    if kind == "tz":
        return tz(fields)
    if kind == "t":
        hour, minute, second, microsecond, fold, zone = fields
        return datetime.time(hour, minute, second, microsecond, tz(zone), fold=fold)
    year, month, day, hour, minute, second, microsecond, fold, zone = fields
    return datetime.datetime(year, month, day, hour, minute, second, microsecond, tz(zone), fold=fold)


def _standard_object(module: str, qualname: str):
    """A standard library module's function or class by name (imported here if the program has not)."""
    import importlib

    value: object = importlib.import_module(module)
    for part in qualname.split("."):
        value = getattr(value, part)
    return value


def _exception_class(server, kind) -> type:
    """An exception class by how the judge names it: a builtin's name, or ``(module, qualified
    name)`` (a class of the program's: the program's own; a standard module's), else ``Exception``."""
    cls = None
    if type(kind) is str:
        cls = _BUILTINS.get(kind)
    elif type(kind) is tuple and len(kind) == 2 and all(type(x) is str for x in kind):
        module, qualname = kind
        try:
            if module in ("main", "__main__"):
                cls = server.namespace.get(qualname.partition(".")[0])
                for part in qualname.split(".")[1:]:
                    cls = getattr(cls, part)
            else:
                cls = _standard_object(module, qualname)
        except BaseException:  # noqa: BLE001 - no such class here
            cls = None
    return cls if isinstance(cls, type) and issubclass(cls, BaseException) else Exception


def _exception(server, kind, args):
    """An exception the test raised, as its class here (``_exception_class``)."""
    cls = _exception_class(server, kind)
    try:
        return cls(*args)
    except BaseException:  # noqa: BLE001 - a class that wants other arguments
        return Exception(*args)


def sync(old, new) -> None:
    """Make the container ``old`` hold what ``new`` (a container of its type) holds, in place."""
    kind = type(old)
    if kind is list or kind is bytearray:
        old[:] = new
    elif kind is set:
        old.clear()
        old.update(new)
    elif isinstance(old, dict):
        old.clear()
        dict.update(old, new)
    elif hasattr(old, "extend"):  # a deque
        old.clear()
        old.extend(new)


class Receiver:
    """Builds what the judge sends (``take``) for one test's serving (``calls.Server``): the
    program's objects the judge holds handles to, and the containers the test shares with the
    program are the server's (``encode.Handles``)."""

    __slots__ = ("memo", "server")

    def __init__(self, server):
        self.server = server
        self.memo: dict[int, object] = {}

    def take(self, value):
        """``(marked, data)`` from the judge, with its marks made real where ``marked``."""
        marked, data = value
        if marked is not True:
            return data
        self.memo = {}
        try:
            return self._take(data, 0)
        finally:
            self.memo = {}

    def _take(self, v, depth, _type=type, _len=len, _tuple=tuple, _id=id):
        t = _type(v)
        if t is tuple:
            if _len(v) >= 2 and v[0] == REF_MARK:
                key = _id(v)
                if key not in self.memo:  # one object for each object of the test's, however often it appears
                    if v[1] == "o":
                        return self._copy(v, key, depth)
                    self.memo[key] = self._build(v, depth)
                return self.memo[key]
            return _tuple(self._take(x, depth + 1) for x in v)
        if t is list:
            key = _id(v)
            if key in self.memo:
                return self.memo[key]
            out: list = []
            self.memo[key] = out
            out.extend(self._take(x, depth + 1) for x in v)
            return out
        if t is dict:
            return {self._take(k, depth + 1): self._take(x, depth + 1) for k, x in v.items()}
        if t is set or t is frozenset:
            return t(self._take(x, depth + 1) for x in v)
        return v

    def _copy(self, v, key: int, depth: int):
        """An object of the test's own class (a ``ListNode``), as an object of the program's class of
        that name where the program has one (the server's ``copies``: the same object each time, holding
        what the test's holds now; what the program changes goes back: ``calls.Server.sync_up``),
        else a proxy (``TestObject``)."""
        server = self.server
        number, type_name, state = v[2], v[3], v[4]
        held = server.copies.get(number)
        if held is None:
            cls = server.namespace.get(type_name)
            if isinstance(cls, type) and cls is not TestObject:
                try:
                    held = cls.__new__(cls)  # type: ignore[call-overload]
                    vars(held)
                except BaseException:  # noqa: BLE001 - a class whose objects cannot be made so: a proxy
                    held = None
            if held is None:
                self.memo[key] = proxy = self._build((REF_MARK, "j", number, type_name), depth)
                return proxy
            server.copies[number] = held
            server.handles.copy_ids[id(held)] = number
        self.memo[key] = held
        attributes = vars(held)
        attributes.clear()
        attributes.update({k: self._take(x, depth + 1) for k, x in state.items()})
        server.copied(number)
        return held

    def _build(self, v, depth):
        tag = v[1]
        server = self.server
        if tag == "h":
            return server.handles.objects[v[2]]
        if tag == "g":
            return server.resolve(("g", v[2]))
        if tag == "k":
            return Callback(server, v[2], v[3:])
        if tag == "K":
            return TestIterator(server, v[2])
        if tag == "j":  # an object of the test's: one proxy per object
            held = server.test_objects.get(v[2])
            if held is None:
                held = server.test_objects[v[2]] = TestObject(server, v[2], v[3])
            return held
        if tag == "b":  # a builtin: the same one here (the interpreter's own, as the fork server loaded it)
            return _BUILTINS[v[2]]
        if tag == "M":  # a standard library function or class: the same one here
            return _standard_object(v[2], v[3])
        if tag == "x":  # an exception of the test's (a ``with`` block's, for ``__exit__``)
            return _exception(server, v[2], self._take(v[3], depth + 1))
        if tag == "X":  # an exception class (of the program's, as the judge made it: its own here)
            return _exception_class(server, v[2])
        if tag == "m":  # a container shared with the test: the same object, holding what the test's holds now
            number, state = v[2], self._take(v[3], depth + 1)
            held = server.handles.shared.get(number)
            if held is None:
                server.handles.share(state, number)
                held = state
            else:
                sync(held, state)
            server.synced_down(number)
            return held
        take = self._take
        if tag == "s":
            return slice(take(v[2], depth), take(v[3], depth), take(v[4], depth))
        if tag == "y":
            return bytearray(v[2])
        if tag == "r":
            return range(v[2], v[3], v[4])
        if tag == "kv":
            return dict.fromkeys(take(v[2], depth)).keys()
        if tag == "vv":
            return dict(enumerate(take(v[2], depth))).values()
        if tag == "iv":
            return dict(take(v[2], depth)).items()
        if tag == "q":
            from collections import deque

            return deque(take(v[2], depth), v[3])
        if tag == "C":
            from collections import Counter

            return Counter(dict(take(v[2], depth)))
        if tag == "O":
            from collections import OrderedDict

            return OrderedDict(take(v[2], depth))
        if tag == "DD":
            from collections import defaultdict

            factory = _FACTORIES[v[2]] if type(v[2]) is str else take(v[2], depth)
            return defaultdict(factory, take(v[3], depth))
        if tag == "F":
            from fractions import Fraction

            return Fraction(v[2], v[3])
        if tag == "N":
            from decimal import Decimal

            return Decimal(v[2])
        if tag == "dt":
            return _time_value(v[2], v[3])
        if tag == "A":  # a numpy or pandas value, made by this process's own library
            return build(take(v[2], depth))
        raise TypeError(f"the judge sent a value marked {tag!r}, which the program's process does not know")
