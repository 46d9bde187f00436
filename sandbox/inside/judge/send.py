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
stays here and the program gets a proxy: ``judge.objects``; a data object, a ``ListNode``, becomes an
object of the program's class of that name where it has one, and what the program changes in it
comes back). Anything else cannot cross: the test fails
(``runtime_error``: the task's fault), never with an exception a test could catch.

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import builtins
import sys
from collections.abc import Callable, Iterator

from ..arrays import form
from ..procs import REF_MARK
from .objects import copyable, is_test_object

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

    def crossing(self, value, name: str) -> tuple[bool, object]:
        """``(marked, data)`` for ``value``: plain data as it is; else marked (``mark``).

        Raises:
            CannotCross: it cannot cross.
        """
        if not self.shared.ids and is_plain(value):
            return False, value
        return True, self.mark(value, name, 0, {})

    def exception(self, e: BaseException) -> tuple[bool, object]:
        """An exception of the test's on its way to the program (a callback raised it): its class
        and ``args``, or its message where they cannot cross."""
        try:
            return self.crossing(e, "the test's callback")
        except CannotCross:
            return True, (REF_MARK, "x", _exception_kind(type(e)), [str(e)[:DOC_LIMIT]])

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
            type_name = str(getattr(type(v), "__name__", "object"))
            if not copyable(v):
                return (REF_MARK, "j", self._number(v), type_name)
            # a data object (a ListNode): its state too, for a copy of the program's class of its name
            state: dict = {}
            marked = (REF_MARK, "o", self._number(v), type_name, state)
            memo[id(v)] = marked  # (before its attributes: a node that points back at itself)
            state.update({k: mark(x, name, depth + 1, memo) for k, x in vars(v).items() if type(k) is str})
            return marked
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
