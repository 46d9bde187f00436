"""What the test hands the program, as the judge sends it: the values down.

The rule: a value the test hands the program arrives as what it is in the test (``program.receive``
builds it): plain data as itself, by ``marshal`` (version 4, so one list passed twice is one list
there); and, marked (``procs.REF_MARK``), what ``marshal`` would carry as something else or not at
all: a ``bytearray`` (``marshal`` writes any buffer as ``bytes``), a ``range``, a ``slice``, the
standard library's value types (``deque``, ``Counter``, ``OrderedDict``, ``defaultdict``,
``Fraction``, ``Decimal``, ``date``, ``time``, ``datetime``, ``timedelta``, ``timezone``), a dict's
keys, values or items view (over a copy); an object of the program's (its handle); a callable of the
test's (it stays here and runs here when the program calls it, where ``may_call_back`` allows it:
the test's own functions and classes and builtins that only compute); an iterator of the test's
(a generator, a ``map``, a ``zip``: it stays here and gives one item each time the program takes
one); a container the program kept from an earlier call (``m``: the same object there, made to
hold what the test's holds now: ``judge.states``); an object of the test's own classes or a mock (it
stays here and the program gets a proxy: ``judge.objects``); a data object, a ``ListNode`` (``o``:
``judge.objects.copyable``), becomes an object of the program's class of that name where it has
one, else of the test's class as the program's process has it, and what the program changes in it
comes back; a class the test defines (``T``: ``class_of``), as a class there: its name, its bases,
its plain class attributes, and each of its methods as a call of the test's method here. Anything
else cannot cross: the test fails (``runtime_error``: the task's fault), never with an exception a
test could catch.

Data objects cross as a flat table (``G``: each object once, by number, its attributes referring to
the others by number), walked without recursion, so a linked list or a skewed tree of any depth
crosses, up to ``OBJECT_LIMIT`` objects in one crossing. An object the program's process holds a
copy of already crosses as its number alone; ``stale`` finds those the test's code changed since
(before each request, after each callback), whose state crosses again.

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import builtins
import gc
import sys
from collections.abc import Callable, Iterator

from ..arrays import form
from ..changes import Watch
from ..procs import REF_MARK
from .objects import READ_ONLY, copyable, is_test_object, plain_class

_SCALARS = frozenset({int, float, str, bool, type(None), bytes, complex})
_SEQUENCES = (list, tuple, set, frozenset)
_MUTABLE = (list, dict, set, bytearray)
_KEYS: type = type({}.keys())
_VALUES: type = type({}.values())
_ITEMS: type = type({}.items())
_FACTORY_NAMES = {int: "int", float: "float", str: "str", list: "list", dict: "dict", set: "set", tuple: "tuple",
                  bool: "bool", complex: "complex", bytes: "bytes", frozenset: "frozenset"}
NESTING_LIMIT = 100
_KEPT = -1  # where a mark's memo keeps the lists made for it (every other key is an object's id)
_BUILTIN_IDS = {id(value): name for name, value in vars(builtins).items()}  # pristine: no task code ran yet
_STDLIB = frozenset(sys.stdlib_module_names)
DOC_LIMIT = 2000  # characters of a callable's docstring the program sees
OBJECT_LIMIT = 1_000_000  # data objects (``ListNode``) one crossing may describe
_GRAPH = "graph"  # where a crossing's memo keeps the data objects it is yet to describe
# what a class of the test's forwards of its own dunders (the rest are the program's process's own)
_FORWARDED_DUNDERS = frozenset({
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__repr__", "__str__", "__format__",
    "__bool__", "__len__", "__iter__", "__next__", "__reversed__", "__contains__", "__getitem__", "__setitem__",
    "__delitem__", "__call__", "__enter__", "__exit__", "__int__", "__float__", "__index__", "__complex__",
    "__neg__", "__pos__", "__abs__", "__invert__", "__round__", "__floor__", "__ceil__", "__trunc__",
    *(f"__{p}{op}__" for op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
                                "xor", "lshift", "rshift", "divmod") for p in ("", "r", "i"))})


class Uncollected:
    """The garbage collector paused while many objects are made at once (a crossing's table, an
    answer read): its passes over them would cost more than the work (``with Uncollected():``)."""

    __slots__ = ("was",)

    def __enter__(self) -> None:
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc) -> None:
        if self.was:
            gc.enable()


class CannotCross(Exception):
    """A value the test hands the program cannot cross (the message says why)."""


def is_plain(v, depth: int = 0, _type=type, _set=set, _map=map) -> bool:
    """Whether ``marshal`` carries ``v`` as exactly what it is (no buffer but ``bytes``, nothing to
    mark): most of what tests pass, checked at C speed a level at a time."""
    t = _type(v)
    if t in _SCALARS or v is ...:
        return True
    if depth > NESTING_LIMIT:
        return False
    if t in _SEQUENCES:
        kinds = _set(_map(_type, v))
        return kinds <= _SCALARS or all(is_plain(x, depth + 1) for x in v)
    if t is dict:
        return is_plain(list(v.keys()), depth + 1) and is_plain(list(v.values()), depth + 1)
    return False


class Sender:
    """One test's values down (``mark``): the callables and iterators of the test's the program
    holds, by number, and the containers the program keeps (``judge.states.Shared``)."""

    def __init__(self, may_call_back: Callable[[object], bool], shared, remote_type: type):
        self.may_call_back = may_call_back
        self.shared = shared
        self.remote_type = remote_type
        self.callbacks: list = []  # callables, iterators and objects of the test's the program holds, by number
        self.numbers: dict[int, int] = {}
        self.proxied: set[int] = set()  # ids of objects of the test's other than its own classes' it proxies
        self.synced = Watch()  # the data objects the program's process holds copies of, as they hold them
        self.read_only: set[int] = set()  # numbers of the test's classes' methods that change nothing (``READ_ONLY``)
        self.data_classes: dict[int, tuple] = {}  # id -> (class, whether its objects are data objects: ``copyable``)
        self.makers: set[int] = set()  # numbers of the test's classes the program's process has as classes

    def crossing(self, value, name: str, resync: bool | list = False) -> tuple[bool, object]:
        """``(marked, data)`` for ``value``: plain data as it is; else marked (``mark``), with the
        data objects it reaches described (``G``); ``resync``: with every data object the test's
        code changed since the program's process last had it too (``stale``; a list: of those
        objects only).

        Raises:
            CannotCross: it cannot cross.
        """
        with Uncollected():
            stale = self.stale(None if resync is True else resync) if resync and self.synced else []
            if not stale and not self.shared.ids and is_plain(value):
                return False, value
            memo: dict = {_GRAPH: stale}
            marked = self.mark(value, name, 0, memo)
            graph: list = memo[_GRAPH]
            return True, marked if not graph else self._described(marked, graph, name, memo)

    def _described(self, marked, graph: list, name: str, memo: dict):
        """``marked`` with the table of the data objects it reaches (``crossing``)."""
        table: list = []
        states: list = []
        mark, numbers, scalars = self.mark, self.numbers, _SCALARS
        classes: dict[type, tuple] = {}  # each class's name and mark, once per crossing
        while graph:  # (a list, not recursion: a linked list of any length)
            if len(table) >= OBJECT_LIMIT:
                raise CannotCross(f"the test passes {name}() more than {OBJECT_LIMIT} objects of its own classes "
                                  "at once")
            v = graph.pop()
            number = numbers[id(v)]
            try:
                attributes = {k: x if type(x) in scalars else mark(x, name, 0, memo)
                              for k, x in list(vars(v).items()) if type(k) is str}
            except CannotCross:  # (it holds a lock, a file...): the program gets a proxy of it instead
                self.synced.forget(number)
                continue
            t = type(v)
            cls = classes.get(t)
            if cls is None:
                cls = classes[t] = (t.__name__, mark(t, name, 0, memo))
            table.append((number, cls[0], cls[1], attributes))
            states.append((number, v))
        for number, v in states:  # (only once it all crossed: the program's process has them now)
            self.synced.synced(number, v)
        return (REF_MARK, "G", table, marked)

    def stale(self, among: list | None = None) -> list:
        """The data objects (of ``among``, or all) whose state the test's code changed since the
        program's process last had it (the test set a node's ``next``; a method of the test's class
        the program called)."""
        if among is not None:
            among = [self.numbers.get(id(v)) for v in among if self.data_class(type(v))]
        return [self.callbacks[number] for number in self.synced.changed(among)]

    def objects_changed(self, number: int, attributes: dict) -> None:
        """The program changed its copy of data object ``number`` (``Channel._objects_changed``):
        the test's holds ``attributes`` now, as the program's process has it."""
        target = self.callbacks[number]
        held = vars(target)
        held.clear()
        held.update(attributes)
        if number in self.synced:
            self.synced.synced(number, target)

    def exception(self, e: BaseException, resync: bool | list = False) -> tuple[bool, object]:
        """An exception of the test's on its way to the program (a callback raised it): its class
        and ``args``, or its message where they cannot cross (``resync``: as ``crossing``)."""
        try:
            return self.crossing(e, "the test's callback", resync)
        except CannotCross:
            bare = (REF_MARK, "x", _exception_kind(type(e)), [str(e)[:DOC_LIMIT]])
            _, stale = self.crossing(None, "the test's callback", resync)  # (the changed data objects alone)
            return True, (REF_MARK, "G", stale[2], bare) if type(stale) is tuple else bare

    def proxy(self, obj):
        """``obj`` (the test's stdin, say), to cross as a proxy of the test's object (``judge.objects``)."""
        self.proxied.add(id(obj))
        self._number(obj)  # (kept alive: its id stays its own)
        return obj

    def is_proxied(self, obj) -> bool:
        """Whether ``obj`` crosses as a proxy: an object of the test's (``judge.objects``)."""
        return is_test_object(obj) or id(obj) in self.proxied

    def callback(self, number: int):
        """The callable or iterator of the test's that the program knows as ``number``."""
        return self.callbacks[number]

    def _number(self, v) -> int:
        number = self.numbers.get(id(v))
        if number is None:
            number = self.numbers[id(v)] = len(self.callbacks)
            self.callbacks.append(v)  # kept alive: its id stays its own
        return number

    def mark(self, v, name: str, depth: int, memo: dict):
        """``v`` with what ``marshal`` cannot carry as itself marked; one mark per object (``memo``),
        so an object the test passes twice is one object there."""
        t = type(v)
        if t in _SCALARS or v is ...:
            return v
        key = id(v)
        if key in memo:
            return memo[key]
        known = self.data_classes.get(id(t))
        if (known[1] if known is not None else self.data_class(t)) and isinstance(getattr(v, "__dict__", None), dict):
            memo[key] = self._data_object(v, t, memo)  # a ListNode: by number
            return memo[key]
        if depth > NESTING_LIMIT:
            raise CannotCross(f"the test passes {name}() a value nested too deeply")
        marked: object
        if getattr(t, "__grpo_hybrid__", False):  # a plain value with an object of the program's behind it
            v = v.__dict__["_remote"]
        if isinstance(v, self.remote_type):
            ref = v._ref  # type: ignore[attr-defined]
            marked = (REF_MARK, ref[0], ref[1])
        else:
            number = self.shared.ids.get(key)
            if number is not None:  # a container the program kept: the same object there
                marked = (REF_MARK, "m", number, self._contents(v, name, depth, memo))
            else:
                marked = self._value(v, t, name, depth, memo)
        memo[key] = marked
        return marked

    def _contents(self, v, name: str, depth: int, memo: dict):
        """What a container holds, marked, as a container of its own type's plain form."""
        t = type(v)
        if t is list:
            return [self.mark(x, name, depth + 1, memo) for x in v]
        if t is bytearray:
            return (REF_MARK, "y", bytes(v))
        if isinstance(v, dict):
            return (REF_MARK, "O", [(self.mark(k, name, depth + 1, memo), self.mark(x, name, depth + 1, memo))
                                    for k, x in v.items()]) if t is not dict else \
                {self.mark(k, name, depth + 1, memo): self.mark(x, name, depth + 1, memo) for k, x in v.items()}
        if t is set:
            return {self.mark(x, name, depth + 1, memo) for x in v}
        return (REF_MARK, "q", [self.mark(x, name, depth + 1, memo) for x in v], getattr(v, "maxlen", None))

    def _value(self, v, t, name: str, depth: int, memo: dict):
        mark = self.mark
        if t is list:
            out: list = []
            memo[id(v)] = out  # a list that holds itself
            out.extend(mark(x, name, depth + 1, memo) for x in v)
            return out
        if t is tuple or t is set or t is frozenset:
            return t(mark(x, name, depth + 1, memo) for x in v)
        if t is dict:
            return {mark(k, name, depth + 1, memo): mark(x, name, depth + 1, memo) for k, x in v.items()}
        if t is bytearray:
            return (REF_MARK, "y", bytes(v))
        if t is range:
            return (REF_MARK, "r", v.start, v.stop, v.step)
        if t is slice:
            return (REF_MARK, "s", mark(v.start, name, depth + 1, memo), mark(v.stop, name, depth + 1, memo),
                    mark(v.step, name, depth + 1, memo))
        if t is _KEYS:
            return (REF_MARK, "kv", [mark(x, name, depth + 1, memo) for x in v])
        if t is _VALUES:
            return (REF_MARK, "vv", [mark(x, name, depth + 1, memo) for x in v])
        if t is _ITEMS:
            return (REF_MARK, "iv", [(mark(k, name, depth + 1, memo), mark(x, name, depth + 1, memo)) for k, x in v])
        standard = self._standard(v, t, name, depth, memo)
        if standard is not None:
            return standard
        known = _BUILTIN_IDS.get(id(v))
        if known is not None:  # a builtin (ValueError, len, str): the program's process has the same one
            return (REF_MARK, "b", known)
        where = _standard_name(v)
        if where is not None:  # a standard library function or class: the same one there
            return (REF_MARK, "M", *where)
        if isinstance(v, type) and issubclass(v, BaseException):  # a class of the program's, as the judge made it
            return (REF_MARK, "X", _exception_kind(v))
        if isinstance(v, BaseException):  # (an exception of the test's: a ``with`` block's, a callback's)
            return (REF_MARK, "x", _exception_kind(type(v)), mark(list(v.args), name, depth + 1, memo))
        if self.is_proxied(v):  # an object of the test's, a mock: it stays here, the program gets a proxy
            if not self.copyable(v):
                return (REF_MARK, "j", self._number(v), str(getattr(type(v), "__name__", "object")))
            return self._data_object(v, t, memo)
        if plain_class(v):  # a class of the test's: a class in the program's process too
            return self.class_of(v, name, memo)
        if isinstance(v, Iterator):  # a generator, a map, a zip...: one item at a time, as the program takes it
            return (REF_MARK, "K", self._number(v))
        if callable(v):
            owner = getattr(v, "__self__", None)
            if owner is not None and type(owner).__module__ != "builtins" and self.is_proxied(owner):
                return (REF_MARK, "k", self._number(v), *_about(v))  # a method of an object of the test's
            if not self.may_call_back(v):
                raise CannotCross(f"the test hands {name}() {v!r:.60}, which the program may not call in the judge "
                                  "(only the test's own functions and classes, and builtins that compute)")
            return (REF_MARK, "k", self._number(v), *_about(v))
        raise CannotCross(f"the test passes {name}() a {t.__name__}, which cannot cross to the program's process "
                          "(plain data, the standard library's values, iterators, callables and the program's own "
                          "objects do)")

    def data_class(self, cls) -> bool:
        """Whether ``cls``'s objects that hold their state in a ``__dict__`` are data objects
        (``judge.objects.copyable``): asked once per class."""
        known = self.data_classes.get(id(cls))
        if known is None:
            known = self.data_classes[id(cls)] = (cls, copyable(cls, True))  # (held: its id stays its own)
        return known[1]

    def copyable(self, v) -> bool:
        """Whether the test's object ``v`` crosses as a data object (``judge.objects.copyable``)."""
        return self.data_class(type(v)) and isinstance(getattr(v, "__dict__", None), dict)

    def _data_object(self, v, t, memo: dict):
        """A data object (a ListNode) by number; its state in the crossing's table, unless the
        program's process has it as it is already (``crossing``)."""
        number = self.numbers.get(id(v))
        if number is None:
            number = self.numbers[id(v)] = len(self.callbacks)
            self.callbacks.append(v)  # kept alive: its id stays its own
            memo[_GRAPH].append(v)
        elif number not in self.synced:
            memo[_GRAPH].append(v)
        return (REF_MARK, "o", number, t.__name__)

    def class_of(self, cls: type, name: str, memo: dict):
        """A class of the test's as the program's process makes it (``T``): its number (calling it
        makes an object of it here), name, qualified name, docstring, bases, and its members: each
        function (``f``), static (``s``) and class (``c``) method and property (``p``) as callbacks of
        the test's functions, each other value (``v``) as it crosses; what cannot cross is left out
        (the program's process then finds it on no class of the test's)."""
        number = self._number(cls)
        self.makers.add(number)
        members: list = []
        marked = (REF_MARK, "T", number, cls.__name__, cls.__qualname__, _text(cls.__doc__),
                  tuple(self.class_of(b, name, memo) for b in cls.__bases__ if b is not object), members)
        memo[id(cls)] = marked  # (before its members: a class attribute that is the class)
        for key, value in list(vars(cls).items()):
            if type(key) is not str or (key.startswith("__") and key.endswith("__") and key != "__init__"
                                        and key not in _FORWARDED_DUNDERS):
                continue
            try:
                members.append(self._member(key, value, name, memo))
            except CannotCross:  # (not the program's to reach: it has no such attribute there)
                continue
        return marked

    def _member(self, key: str, value, name: str, memo: dict) -> tuple:
        mark = self.mark
        if isinstance(value, staticmethod):
            return (key, "s", mark(value.__func__, name, 0, memo))
        if isinstance(value, classmethod):
            return (key, "c", mark(value.__func__, name, 0, memo))
        if isinstance(value, property):
            return (key, "p", *(None if f is None else mark(f, name, 0, memo)
                                for f in (value.fget, value.fset, value.fdel)), _text(value.__doc__))
        if callable(value) and not isinstance(value, type) and hasattr(value, "__get__"):  # a method
            marked = mark(value, name, 0, memo)
            if key in READ_ONLY and type(marked) is tuple and len(marked) > 2 and marked[1] == "k":
                self.read_only.add(marked[2])
            return (key, "f", marked)
        if hasattr(type(value), "__get__"):  # another descriptor (a cached_property): its code would run there
            raise CannotCross(f"a descriptor {key}")
        return (key, "v", mark(value, name, 0, memo))

    def _standard(self, v, t, name: str, depth: int, memo: dict):
        """A standard library value's mark, or None (``t`` is none of them)."""
        mark = self.mark
        collections = sys.modules.get("collections")
        if collections is not None:
            if t is collections.deque:
                return (REF_MARK, "q", [mark(x, name, depth + 1, memo) for x in v], v.maxlen)
            if t is collections.Counter or t is collections.OrderedDict:
                return (REF_MARK, "C" if t is collections.Counter else "O",
                        [(mark(k, name, depth + 1, memo), mark(x, name, depth + 1, memo)) for k, x in v.items()])
            if t is collections.defaultdict:
                factory = v.default_factory
                marked_factory = _FACTORY_NAMES.get(factory) if factory is not None else None
                if factory is not None and marked_factory is None:
                    marked_factory = mark(factory, name, depth + 1, memo)
                return (REF_MARK, "DD", marked_factory,
                        [(mark(k, name, depth + 1, memo), mark(x, name, depth + 1, memo)) for k, x in v.items()])
        fractions = sys.modules.get("fractions")
        if fractions is not None and t is fractions.Fraction:
            return (REF_MARK, "F", v.numerator, v.denominator)
        decimal = sys.modules.get("decimal")
        if decimal is not None and t is decimal.Decimal:
            return (REF_MARK, "N", str(v))
        datetime = sys.modules.get("datetime")
        if datetime is not None:
            timed = _time_mark(v, t, datetime)
            if timed is not None:
                return timed
        array = form(v, t)  # numpy's and pandas' values, as what they are
        if array is None:
            return None
        memo.setdefault(_KEPT, []).append(array)  # alive while marking: no later list takes its id
        return (REF_MARK, "A", mark(array, name, depth + 1, memo))


def _text(value) -> str | None:
    return value[:DOC_LIMIT] if type(value) is str else None


def _standard_name(v) -> tuple[str, str] | None:
    """``(module, qualified name)`` of a standard library function or class that is that name
    (``math.sqrt``, ``operator.itemgetter``, ``str``'s ``lower``), or None."""
    if not callable(v):
        return None
    module = getattr(v, "__module__", None) or getattr(getattr(v, "__objclass__", None), "__module__", None)
    qualname = getattr(v, "__qualname__", None)
    if type(module) is not str or type(qualname) is not str or module.partition(".")[0] not in _STDLIB:
        return None
    value: object = sys.modules.get(module)
    for part in qualname.split("."):
        value = getattr(value, part, None)
    return (module, qualname) if value is v else None


def _exception_kind(cls: type):
    """How the program's process finds an exception's class: a builtin's name, else ``(module,
    qualified name)`` (a class of the program's, as the judge made it, is the program's own there)."""
    known = _BUILTIN_IDS.get(id(cls))
    if known is not None:
        return known
    module, qualname = getattr(cls, "__module__", None), getattr(cls, "__qualname__", None)
    return (module, qualname) if type(module) is str and type(qualname) is str else "Exception"


def _about(fn) -> tuple:
    """A callable's name, qualified name, module and docstring (strings or None), for the program."""
    about = []
    for attribute in ("__name__", "__qualname__", "__module__", "__doc__"):
        value = getattr(fn, attribute, None)
        about.append(value[:DOC_LIMIT] if type(value) is str else None)
    return tuple(about)


def _timezone(tz, datetime):
    if tz is None:
        return None
    if type(tz) is not datetime.timezone:
        raise CannotCross("the test passes a time with a tzinfo other than datetime.timezone")
    offset = tz.utcoffset(None)
    name = tz.tzname(None)
    return (offset.days, offset.seconds, offset.microseconds,
            name if name != datetime.timezone(offset).tzname(None) else None)


def _time_mark(v, t, datetime):
    if t is datetime.timedelta:
        return (REF_MARK, "dt", "td", (v.days, v.seconds, v.microseconds))
    if t is datetime.date:
        return (REF_MARK, "dt", "d", (v.year, v.month, v.day))
    if t is datetime.timezone:
        return (REF_MARK, "dt", "tz", _timezone(v, datetime))
    if t is datetime.datetime:
        return (REF_MARK, "dt", "dt", (v.year, v.month, v.day, v.hour, v.minute, v.second, v.microsecond, v.fold,
                                       _timezone(v.tzinfo, datetime)))
    if t is datetime.time:
        return (REF_MARK, "dt", "t", (v.hour, v.minute, v.second, v.microsecond, v.fold, _timezone(v.tzinfo, datetime)))
    return None
