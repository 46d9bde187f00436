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
what the test's now are: ``Shared``); a data object of the test's (a ``ListNode``: an object of the
program's class of that name, else of the test's class as this process has it, one per object,
made from a flat table however long the list: ``_graph``); a class of the test's (a class of this
process's own, ``_class``, whose methods run in the judge). What the program changes in the data
objects goes back to the judge (``changed``: ``calls.Server``).

Nothing here is trusted: it runs in the program's process, and what it builds is the program's.
"""

from __future__ import annotations

import gc as _gc

# The builtins this module uses: a program that replaces one (``builtins.isinstance = ...``)
# changes nothing of what this module reads and writes.
from builtins import (  # noqa: UP029 - bound once, as the fork server loaded them
    all,
    bool,
    bytearray,
    bytes,
    classmethod,
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
    setattr,
    slice,
    staticmethod,
    str,
    tuple,
    type,
    vars,
    zip,
)
from typing import Any

from ..arrays import build
from ..changes import Watch
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


def _method(function, name: str, qualname: str):
    """A method of a class of the test's as this process has it: ``function`` (the test's, run in
    the judge) called with the object."""

    def method(self, *args, **kwargs):
        return function(self, *args, **kwargs)

    method.__name__, method.__qualname__ = name, f"{qualname}.{name}"
    return method


def _made(cls: list, make, init, dirty: set, unsent: set, copy_ids: dict) -> dict:
    """What a class of the test's as this process has it makes its objects with: ``__new__`` (an
    object of the class itself is made in the judge: ``make``, the test's class), ``__init__``
    (the test's, in the judge, for an object of a subclass of the program's) and ``__setattr__``
    and ``__delattr__`` (a data object the program changes is noted, to go up before the program
    calls back the test's code: ``calls.Server``). ``cls`` holds the class once made."""

    def __new__(kind, *args, **kwargs):
        if kind is cls[0]:
            try:
                made = make(*args, **kwargs)
            except TypeError:  # ``cls.__new__(cls)`` (``copy``, ``pickle``): an object of this process's
                if args or kwargs:
                    raise
                return object.__new__(kind)
            number = copy_ids.get(id(made))
            if number is not None:  # (``copy`` fills its ``__dict__`` behind ``__setattr__``: looked at)
                dirty.add(number)
                unsent.add(number)
            return made
        return object.__new__(kind)

    def __init__(self, *args, **kwargs):
        if type(self) is not cls[0] and init is not None:
            init(self, *args, **kwargs)

    def __setattr__(self, name, value, _set=object.__setattr__, _get=copy_ids.get, _id=id):
        _set(self, name, value)
        number = _get(_id(self))
        if number is not None:
            dirty.add(number)
            unsent.add(number)

    def __delattr__(self, name, _delete=object.__delattr__, _get=copy_ids.get, _id=id):
        _delete(self, name)
        number = _get(_id(self))
        if number is not None:
            dirty.add(number)
            unsent.add(number)

    return {"__new__": __new__, "__init__": __init__, "__setattr__": __setattr__, "__delattr__": __delattr__}


def sync(old, new) -> None:
    """Make the container ``old`` hold what ``new`` (a container of its type) holds, in place."""
    kind = type(old)
    if kind is list or kind is bytearray:
        old[:] = new
    elif kind is set:
        old.clear()
        old.update(new)
    elif isinstance(old, dict):  # (an OrderedDict keeps its order by its own ``__setitem__``)
        old.clear()
        for key, value in dict.items(new):
            old[key] = value
    elif hasattr(old, "extend"):  # a deque
        old.clear()
        old.extend(new)


class Receiver:
    """Builds what the judge sends (``take``) for one test's serving (``calls.Server``): the
    program's objects the judge holds handles to, and the containers the test shares with the
    program are the server's (``encode.Handles``)."""

    __slots__ = ("classes", "dirty", "memo", "mirrors", "server", "tracked", "unsent", "watch")

    def __init__(self, server):
        self.server = server
        self.memo: dict[int, object] = {}
        self.mirrors: dict[int, type] = {}  # the test's classes as this process has them, by the judge's number
        self.classes: set[int] = set()  # their ids
        self.dirty: set[int] = set()  # the data objects the program set an attribute of since the last answer
        self.unsent: set[int] = set()  # and since they last went up before a callback
        self.watch = Watch()  # the server's copies of the test's data objects in the program's classes, as synced
        self.tracked = Watch()  # those in the test's classes (their ``__setattr__`` notes changes: ``dirty``)

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
                    if v[1] == "G":
                        return self._graph(v, depth)
                    if v[1] == "T":
                        return self._class(v, key)
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

    def _graph(self, v, depth: int):
        """A value with the data objects of the test's it reaches (``judge.send``: ``G``, a table of
        ``(number, class name, class, attributes)``): each an object of the program's class of that
        name where the program has one, else of the test's class as this process has it
        (``_class``); the same object each time (the server's ``copies``), made to hold what the
        test's holds now; what the program changes in it goes back (``calls.Server.sync_up``).
        Made in two passes over the table, so that a list of any length takes no recursion."""
        collecting = _gc.isenabled()
        _gc.disable()  # (many objects made at once: the collector's passes over them would cost the program)
        try:
            return self._made_graph(v, depth)
        finally:
            if collecting:
                _gc.enable()

    def _made_graph(self, v, depth: int):
        server = self.server
        table, held = v[2], []
        classes: dict = {}  # (class name, id of its mark) -> the class to make its objects of, for this table
        copies, copy_ids, new = server.copies, server.handles.copy_ids, object.__new__
        for number, type_name, cls, _ in table:
            copy = copies.get(number)
            if copy is None:
                known = classes.get((type_name, id(cls)))
                if known is not None and not known[1]:  # (most: one more object of a class of the test's)
                    copy = copies[number] = new(known[0])
                    copy_ids[id(copy)] = number
                else:
                    copy = self._new_copy(number, type_name, cls, classes)
            held.append(copy)
        take, unsent = self._take, self.unsent
        watches: dict[type, Any] = {}  # each class's copies' ``Watch.synced``
        for (number, _, _, state), copy in zip(table, held, strict=True):
            if copies.get(number) is copy:
                attributes = vars(copy)
                attributes.clear()
                for k, x in state.items():
                    node = copies.get(x[2]) if type(x) is tuple and len(x) == 4 and x[1] == "o" \
                        and x[0] == REF_MARK else None
                    attributes[k] = take(x, depth + 1) if node is None else node  # (most: a node it points at)
                kind = type(copy)
                synced = watches.get(kind)
                if synced is None:
                    synced = watches[kind] = (self.tracked if id(kind) in self.classes else self.watch).synced
                synced(number, copy)
                unsent.discard(number)
        return take(v[3], depth)

    def synced(self, number: int, copy) -> None:
        """The program's copy ``number`` holds what the test's object holds, as the judge has it."""
        (self.tracked if id(type(copy)) in self.classes else self.watch).synced(number, copy)
        self.unsent.discard(number)

    def changed(self, among=None) -> list[int]:
        """The numbers of the copies (of ``among``, or all) the program changed since they were
        last synced: of the program's classes, each looked at; of the test's classes, those whose
        ``__setattr__`` noted a change since the last answer (or that the program made) and those
        that hold containers."""
        if among is not None:
            self.unsent.difference_update(among)
            return self.watch.changed(among) + self.tracked.changed(among)
        tracked = self.tracked
        looked = self.dirty.union(tracked.holding_containers()) if tracked.nested else set(self.dirty)
        self.dirty.clear()
        self.unsent.clear()
        mine = self.watch.changed() if len(self.watch) else []
        # (many looked at: all at once, in passes of C code, costs less than one by one)
        return mine + tracked.changed(None if 8 * len(looked) > len(tracked) else looked)

    def _new_copy(self, number: int, type_name: str, cls_mark, classes: dict):
        """A new object to hold what the test's data object ``number`` holds (``_graph``), or a
        proxy of it where no class here can hold it (``TestObject``)."""
        server = self.server
        key = (type_name, id(cls_mark))
        known = classes.get(key)
        held = None
        if known is None or known[1]:
            cls = server.namespace.get(type_name) if known is None else known[0]
            if isinstance(cls, type) and cls is not TestObject and id(cls) not in self.classes:
                try:  # the program's own class of that name
                    held = cls.__new__(cls)  # type: ignore[call-overload]
                    vars(held)
                    classes[key] = (cls, True)
                except BaseException:  # noqa: BLE001 - a class whose objects cannot be made so: the test's
                    held = None
        if held is None:
            cls = classes[key][0] if key in classes and not classes[key][1] else self._take(cls_mark, 0)
            if not (isinstance(cls, type) and id(cls) in self.classes):
                return self._build((REF_MARK, "j", number, type_name), 0)
            classes[key] = (cls, False)
            held = object.__new__(cls)
        server.copies[number] = held
        server.handles.copy_ids[id(held)] = number
        return held

    def _class(self, v, key: int) -> type:
        """A class of the test's as this process has it (``judge.send.Sender.class_of``): a class of
        its own, one per class of the test's, that the program can check objects against, subclass
        and patch (its changes stay here: the test's class is the test's). Calling it makes the
        object in the judge (the test's ``__init__`` runs there), and the program gets it as a data
        object of this class (``_graph``); each method of the test's runs in the judge, on the
        test's object (a data object's changes go up first: ``calls.Server``); the object of a
        subclass of the program's runs the test's ``__init__`` there too, as a handle."""
        _, _, number, name, qualname, doc, bases, members = v
        cls = self.mirrors.get(number)
        if cls is not None:
            self.memo[key] = cls
            return cls
        server = self.server
        make = Callback(server, number, (name, qualname, "main", doc))
        init = None
        namespace: dict = {"__module__": "main", "__qualname__": qualname, "__doc__": doc}
        later = []
        for member in members:
            attribute, kind = member[0], member[1]
            if kind == "v":
                later.append(member)
                continue
            value = self._take(member[2], 0)
            if attribute == "__init__" and kind == "f":
                init = value
            elif kind == "f":
                namespace[attribute] = _method(value, attribute, qualname)
            elif kind == "s":
                namespace[attribute] = staticmethod(value)
            elif kind == "c":
                namespace[attribute] = classmethod(value)
            elif kind == "p":
                fget, fset, fdel = (None if f is None else _method(self._take(f, 0), attribute, qualname)
                                    for f in member[2:5])
                namespace[attribute] = property(fget, fset, fdel, member[5])
        made_class: list = []
        namespace.update(_made(made_class, make, init, self.dirty, self.unsent, server.handles.copy_ids))
        made = type(name, tuple(self._take(b, 0) for b in bases) or (object,), namespace)
        made_class.append(made)
        self.mirrors[number] = made
        self.classes.add(id(made))
        server.handles.copy_ids[id(made)] = number  # it crosses back as the test's class
        self.memo[key] = made
        for attribute, _, value in later:
            setattr(made, attribute, self._take(value, 0))
        return made

    def _build(self, v, depth):
        tag = v[1]
        server = self.server
        if tag == "h":
            return server.handles.objects[v[2]]
        if tag == "o":  # a data object of the test's the program's process has already
            held = server.copies.get(v[2])
            return held if held is not None else self._build((REF_MARK, "j", v[2], v[3]), depth)
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
