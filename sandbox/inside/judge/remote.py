"""The program's objects as a test holds them: ``Remote``.

The rule: what the test does with an object of the program's is done to the real object, in the
program's process (``program.calls``), and what comes back is plain data or another ``Remote``; the
program's code decides what its objects do (their methods, attributes, ``str``, ``repr``, ``len``,
iteration), never what the test computes from a value: a comparison, an operator, ``in`` or ``hash``
is the program's own only where the test asked for that type's behaviour (it made the object from
a class of the program's, ``Vector(1, 2)`` or ``Frac(4, 2) == 2``, or such an object's operator made
it; a plain type's subclass too, ``Mod7(3) == 10``) or compares two objects of the program's that
are no plain data (two dataclass instances: their ``__eq__`` is all there is to compare them by).
Anything else is judged as the plain data it is, here: a value a function returned, compared with a
value of the test's, is compared by the judge, so no ``__eq__`` of the program's ever decides
``f(x) == 3`` (an object that is not plain data equals nothing of the test's, flagged
``not_plain_data``). A handle's class is the judge's class for the program's type (``remote_class``):
its name, and exactly the special methods the program's type has (``procs.HANDLE_DUNDERS``), so
``callable``, ``hasattr(x, "__len__")``, its class's ``__name__`` and ``bool`` of an object without
``__bool__`` or ``__len__`` answer as in one process; ``inspect.signature`` of a callable is the
program's (``__signature__``, crossed as data). An iterator of the program's gives the test exactly
the items it takes: one at a time, but in batches where the consumer takes every one (``list()``,
``tuple()``, ``sorted()``: they ask ``__length_hint__`` first), or where nothing can tell that the
program's generator ran ahead (``_taken``: only the test's loop or a builtin consumer holds the
iterator, and ``program.purity`` finds the generator's steps pure). An attribute the program's
process sent ahead with an answer (``program.prefetch``) is read from the channel until its next
request. ``copy.copy`` and ``copy.deepcopy`` copy it in the program's process;
``isinstance(e, ParseError)`` of an exception the program raised is answered by the classes the
judge made for it (``judge.exceptions``).

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import math
import operator
import sys
import weakref
from collections import deque
from collections.abc import Callable
from opcode import opmap
from typing import Any, ClassVar

from ..procs import HANDLE_DUNDERS
from ..records import clip
from .channel import NOT_KEPT, Channel, Stop

ITEMS_BATCH = 4096  # items of a program's iterator fetched in one round trip, at most
AHEAD_START = 2  # items asked for at once where the generator may run ahead of the test (doubling)
CLASSES_LIMIT = 4096  # the judge's classes for the program's types kept (one per name and special methods)

_NOT_PLAIN = object()  # what ``Remote._plain`` gives for an object that is not plain data
_PARAMETER_KINDS = {0: "POSITIONAL_ONLY", 1: "POSITIONAL_OR_KEYWORD", 2: "VAR_POSITIONAL", 3: "KEYWORD_ONLY",
                    4: "VAR_KEYWORD"}  # ``inspect.Parameter``'s kinds, by number (``inspect`` is loaded on use)
_READABLE_DUNDERS = frozenset({"__name__", "__qualname__", "__doc__", "__module__", "__wrapped__", "__code__",
                               "__defaults__", "__kwdefaults__", "__annotations__", "__self__", "__func__"})
# A handle only the test's consumer holds: the value stack of the frame that iterates it (or the
# builtin's argument), ``__iter__``'s ``self`` and ``sys.getrefcount``'s argument.
_TEMPORARY = 3
_FRESH = 2  # an iterator the program's ``iter`` gave, held only by ``__iter__``'s local and the count's argument


class Remote:
    """An object of the program's, as the test sees it: a global of the program's (``("g", name)``)
    or an object it returned (``("h", number)``); one ``Remote`` per object, so ``is`` is the
    program's identity. What the test does with it is done in the program's process, under the
    module docstring's rule: ``made`` says the test made it from a class of the program's. This
    class has what every object has; a handle's class adds the special methods its type has
    (``remote_class``), a global's all of them (``GlobalRemote``: its type is not known)."""

    __slots__ = ("__weakref__", "_ahead", "_buffer", "_bulk", "_channel", "_done", "_hybrid", "_iterator", "_kind",
                 "_made", "_ref")
    _methods: ClassVar[set[str]] = set()  # names no attributes sent ahead held (each class has its own)

    def __init__(self, channel: Channel, ref: tuple, kind: str, made: bool = False):
        object.__setattr__(self, "_channel", channel)
        object.__setattr__(self, "_ref", ref)
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_made", made)
        object.__setattr__(self, "_buffer", None)  # items of an iterator taken and not yet given
        object.__setattr__(self, "_bulk", 0)  # its consumer takes every item: the next batch's size
        object.__setattr__(self, "_ahead", 0)  # it may run ahead of its consumer (``_taken``): the next batch's size
        object.__setattr__(self, "_done", False)  # the program said it has no more
        object.__setattr__(self, "_iterator", None)  # the iterator ``iter`` last gave for it (a weak reference)
        object.__setattr__(self, "_hybrid", None)  # its value as the test holds it, for a plain type's subclass

    def _op(self, op: str, payload: tuple = ()):
        return self._channel.op(op, self._ref, payload, self._kind, self._made)

    def __del__(self) -> None:
        """The test no longer holds this object: the program may free it (its ``__del__`` runs
        before the next operation, as ``del x`` runs it in one process)."""
        if self._ref[0] == "h":
            self._channel.forgotten.append(self._ref[1])

    def _making(self, value):
        """``value``, marked made by the test where it is an object of the program's."""
        if isinstance(value, Remote):
            object.__setattr__(value, "_made", True)
        elif getattr(type(value), "__grpo_hybrid__", False):  # a plain type's subclass: its operators too
            object.__setattr__(value.__dict__["_remote"], "_made", True)
        return value

    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__") and name not in _READABLE_DUNDERS:
            raise AttributeError(name)
        channel, ref = self._channel, self._ref
        value = channel.kept(ref, name)  # sent ahead, and still as it is (``program.prefetch``)
        if value is not NOT_KEPT:
            return value
        kind = type(self)
        budget = 0 if name in kind._methods else channel.budget(ref)
        value = self._op("getattr", (name, budget) if budget else (name,))
        if budget and name not in channel.states.get(ref, ()):
            kind._methods.add(name)  # a method, a property, a list: its attributes sent ahead never hold it
        return value

    def __setattr__(self, name: str, value) -> None:
        self._op("setattr", (name, value))

    def __delattr__(self, name: str) -> None:
        self._op("delattr", (name,))

    def __length_hint__(self):
        """Asked by ``list()``, ``tuple()`` and their kin before they take every item: from now on
        the items of this iterator (or of the one ``iter`` last gave for it) may come in batches:
        nothing of the test's runs between two of them."""
        iterator = self if self._buffer is not None else self._iterator() if self._iterator is not None else None
        if iterator is not None and not iterator._bulk:
            object.__setattr__(iterator, "_bulk", 1)
        return NotImplemented

    def _answer(self, op: str, payload: tuple, kind: type):
        value = self._op(op, payload) if op != "contains" else self._op("binop", ("contains", payload[0], False))
        if type(value) is not kind:
            raise TypeError(f"the program's {self._kind} answered {op}() with what is not a {kind.__name__}")
        return value

    def __str__(self) -> str:
        return self._answer("str", (), str)

    def __repr__(self) -> str:
        try:
            return self._answer("repr", (), str)
        except Stop:  # while a failure's message is written: the outcome says what happened
            return f"<the program's {self._kind}>"

    def __format__(self, spec: str) -> str:
        return self._answer("format", (spec,), str)

    def __copy__(self):
        """``copy.copy`` of the program's object: made in its process, by the ``copy`` module."""
        value = self._op("copy")
        return self._making(value) if self._made else value

    def __deepcopy__(self, memo):
        """``copy.deepcopy`` of the program's object: made in its process, by the ``copy`` module."""
        value = self._op("deepcopy")
        return self._making(value) if self._made else value

    def _exception_class(self) -> type | None:
        """The judge's class for this object where it is an exception class of the program's."""
        lineage = self._op("lineage")
        return None if lineage is None else self._channel.classes.of(lineage)

    def __instancecheck__(self, obj) -> bool:
        if isinstance(obj, BaseException):  # an exception the program raised, as the judge made it
            made = self._exception_class()
            return made is not None and isinstance(obj, made)
        return self._answer("isinstance", (obj,), bool)

    def __subclasscheck__(self, cls) -> bool:
        if isinstance(cls, type) and issubclass(cls, BaseException):
            made = self._exception_class()
            return made is not None and issubclass(cls, made)
        return self._answer("subclass", (cls,), bool)

    @property
    def __signature__(self):
        """``inspect.signature`` of the program's callable, as its process computes it (crossed as
        data: each parameter's name, kind, default and annotation)."""
        if not callable(self):
            raise AttributeError("__signature__")
        import inspect

        answer = self._op("signature")
        kinds = {number: getattr(inspect.Parameter, name) for number, name in _PARAMETER_KINDS.items()}
        try:
            parameters, returned = answer
            return inspect.Signature(
                [inspect.Parameter(name, kinds[kind],
                                   default=default[0] if default else inspect.Parameter.empty,
                                   annotation=annotation[0] if annotation else inspect.Parameter.empty)
                 for name, kind, default, annotation in parameters],
                return_annotation=returned[0] if returned else inspect.Signature.empty)
        except (TypeError, ValueError, KeyError):
            raise TypeError(f"the program's {self._kind} answered signature() with what the judge does not know") \
                from None

    def _plain(self):
        """This object as the plain data it is, or ``_NOT_PLAIN``."""
        value = self._op("value")
        return _NOT_PLAIN if isinstance(value, Remote) else value

    def _plain_or_stop(self, what: str):
        value = self._plain()
        if value is _NOT_PLAIN:
            self._channel.flags.add("not_plain_data")
            self._channel._stop("failed", f"{what} of the program's {self._kind}, which is not plain data nor an "
                                          "object the test made from a class of the program's")
        return value

    def _compare(self, name: str, other, reflected: bool = False):
        """A comparison: the program's own where the test made one of the two from a class of the
        program's (``Frac(4, 2) == 2``: the test asked for the class's ``__eq__``), or both are the
        program's and no plain data; the test's object's own (reflected) where the other is an object
        of the test's; else the plain values, compared here."""
        if not isinstance(other, Remote) and self._channel.sender.is_proxied(other):
            return NotImplemented  # an object of the test's (a ``TreeNode``): its own comparison decides
        if self._made or _made(other):
            return self._op("binop", (name, other, reflected))
        left = self._plain()
        right = other._plain() if isinstance(other, Remote) else other
        if left is _NOT_PLAIN and right is _NOT_PLAIN:  # two objects of the program's: theirs to compare
            return self._op("binop", (name, other, reflected))
        if left is _NOT_PLAIN or right is _NOT_PLAIN:
            self._channel.flags.add("not_plain_data")  # a test compared an object of the program's with a value
            if name in ("eq", "ne"):
                return name == "ne"
            raise TypeError(f"{name!r} is not supported between the program's {self._kind} and what it is "
                            "compared with")
        return _BINARY[name](right, left) if reflected else _BINARY[name](left, right)

    def __eq__(self, other):
        return True if isinstance(other, Remote) and other._ref == self._ref else self._compare("eq", other)

    def __ne__(self, other):
        return False if isinstance(other, Remote) and other._ref == self._ref else self._compare("ne", other)

    def __lt__(self, other):
        return self._compare("lt", other)

    def __le__(self, other):
        return self._compare("le", other)

    def __gt__(self, other):
        return self._compare("gt", other)

    def __ge__(self, other):
        return self._compare("ge", other)

    def _binary(self, name: str, other, reflected: bool):
        """An operator: the program's own where the test made an operand from a class of the
        program's (the result is made too); else the plain values, computed here."""
        if self._made or _made(other):
            return self._making(self._op("binop", (name, other, reflected)))
        left = self._plain_or_stop(name)
        right = other._plain_or_stop(name) if isinstance(other, Remote) else other
        return _BINARY[name](right, left) if reflected else _BINARY[name](left, right)

    def _unary(self, name: str, kinds: tuple[type, ...] = ()):
        if self._made:
            value = self._making(self._op("unop", (name,)))
            if kinds and type(value) not in kinds:
                raise TypeError(f"the program's {self._kind} answered {name}() with what is not "
                                f"{' or '.join(k.__name__ for k in kinds)}")
            return value
        return _UNARY[name](self._plain_or_stop(name))


def _made(value) -> bool:
    """Whether ``value`` is an object of the program's the test made (a ``Remote``, or a plain type's
    subclass's value: ``Remote._making``)."""
    if isinstance(value, Remote):
        return value._made
    return bool(getattr(type(value), "__grpo_hybrid__", False)) and value.__dict__["_remote"]._made


# -- the special methods a handle has where the program's type has them (``remote_class``) ----------

def _call(self, *args, **kwargs):
    """Call the program's object in its process; the value comes back as plain data or a handle
    (made by the test where it called a class of the program's: a global spelled ``CapWords``
    whose value is an object of a class of that name, and which the job's tests use as a class,
    ``judge.classes``)."""
    value = self._op("call", (args, kwargs))
    ref = self._ref
    if ref[0] == "g" and ref[1][:1].isupper() and ref[1] in self._channel.used_as_classes():
        behind = value.__dict__["_remote"] if getattr(type(value), "__grpo_hybrid__", False) else value
        if isinstance(behind, Remote) and behind._kind.rpartition(".")[2] == ref[1]:
            return self._making(value)
    return value


def _len(self) -> int:
    if self._buffer is not None:  # an iterator (``__iter__`` said so): no length, as in one process
        raise TypeError(f"object of type '{self._kind}' has no len()")
    n = self._op("len")
    if type(n) is not int or n < 0:
        raise TypeError(f"the program's {self._kind} answered len() with {clip(repr(n), 60)}")
    return n


def _iter(self):
    """A plain container's items, all at once; any other iterable's as the test takes them: its
    iterator is this object where the program's ``iter`` gives back the object itself (a
    generator), so ``next(g)``, ``islice(g, n)`` and ``for x in g`` take from one stream. The
    iterator may run ahead of the test where only the test's loop or a builtin consumer holds it
    (``_taken``): nothing else can reach it, so nothing but the program's steps can tell."""
    taken = _taken(sys._getframe(1))  # None, or the references its consumer holds besides the usual
    alone = taken is not None and sys.getrefcount(self) <= _TEMPORARY + taken
    items = self._op("iter")
    if type(items) is list:
        return iter(items)
    if isinstance(items, Remote):
        if items is not self:
            alone = taken is not None and sys.getrefcount(items) <= _FRESH
            object.__setattr__(self, "_iterator", weakref.ref(items))
        if items._buffer is None:
            object.__setattr__(items, "_buffer", deque())
        if alone and not items._ahead:
            object.__setattr__(items, "_ahead", AHEAD_START)
        return items
    raise TypeError(f"the program's {self._kind} did not iterate")


def _next(self):
    """The iterator's next item: one asked of the program's process at a time (the generator
    runs exactly as far as the test takes it), in batches that double once the consumer takes
    them all (``__length_hint__``) or where the generator may run ahead (``_iter``)."""
    buffer = self._buffer
    if buffer is None:
        buffer = deque()
        object.__setattr__(self, "_buffer", buffer)
    if not buffer:
        if self._done:
            raise StopIteration
        n = self._bulk or self._ahead or 1
        answer = self._op("next", (n, bool(self._bulk)))
        if type(answer) is not list or len(answer) != 2 or type(answer[0]) is not list \
                or type(answer[1]) is not bool:
            raise TypeError(f"the program's {self._kind} answered next() with what the judge does not know")
        buffer.extend(answer[0])
        object.__setattr__(self, "_done", answer[1])
        if self._bulk:
            object.__setattr__(self, "_bulk", min(2 * n, ITEMS_BATCH))
        elif self._ahead:
            object.__setattr__(self, "_ahead", min(2 * n, ITEMS_BATCH))
        if not buffer:
            raise StopIteration
    return buffer.popleft()


def _contains(self, item) -> bool:
    if self._made:
        return self._answer("contains", (item,), bool)
    return any(x is item or x == item for x in self)  # compared here, never by the program


def _getitem(self, key):
    return self._op("getitem", (key,))


def _setitem(self, key, value) -> None:
    self._op("setitem", (key, value))


def _delitem(self, key) -> None:
    self._op("delitem", (key,))


def _bool(self) -> bool:
    return self._answer("bool", (), bool)


def _hash(self) -> int:
    """The program's own hash of an object the test made or of one that is no plain data (equal
    objects of the program's are equal by its ``__eq__``: a set of them hashes alike); a plain
    value's hash, here."""
    if self._made:
        return self._answer("unop", ("hash",), int)
    value = self._plain()
    return self._answer("unop", ("hash",), int) if value is _NOT_PLAIN else hash(value)


def _enter(self):
    """A ``with`` block on the program's object: its ``__enter__``, in its process."""
    return self._op("enter")


def _exit(self, kind, value, traceback):
    """Its ``__exit__`` with the block's exception (its class and ``args`` cross), in its process."""
    return self._op("exit", (kind, value, None))


def _reversed(self):
    return iter(self._op("reversed"))


def _await(self):
    """``await`` of a coroutine of the program's in the test's own ``async def`` runs it to its value
    on its process's event loop; coroutines the test gathers run one after the other."""
    return self._op("arun")
    yield  # a generator: what ``__await__`` must be


def _aiter(self):
    return self


async def _anext(self):
    """The next item of the program's async iterator (``async for``)."""
    answer = self._op("anext")
    if type(answer) is not list or len(answer) != 2 or type(answer[0]) is not bool:
        raise TypeError(f"the program's {self._kind} answered anext() with what the judge does not know")
    if answer[0]:
        raise StopAsyncIteration
    return answer[1]


def _unary_method(name: str, kinds: tuple[type, ...] = ()):
    def method(self):
        return self._unary(name, kinds)

    method.__name__ = f"__{name}__"
    return method


def _round(self, ndigits=None):
    return self._unary("round") if ndigits is None else self._binary("round", ndigits, False)


def _operator(name: str, reflected: bool):
    """``__add__`` and its kin (``Remote._binary``)."""

    def method(self, other):
        return self._binary(name, other, reflected)

    method.__name__ = f"__{'r' if reflected else ''}{name.rstrip('_')}__"
    return method


_BINARY = {name: getattr(operator, name) for name in (
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_", "xor", "lshift", "rshift",
    "lt", "le", "gt", "ge", "eq", "ne", "iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow", "imatmul",
    "iand", "ior", "ixor", "ilshift", "irshift")} | {"round": round, "divmod": divmod}
_UNARY: dict[str, Callable] = {
    "neg": operator.neg, "pos": operator.pos, "abs": abs, "invert": operator.invert, "int": int, "float": float,
    "index": operator.index, "round": round, "floor": math.floor, "ceil": math.ceil, "trunc": math.trunc}
_OPERATORS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_", "xor", "lshift",
              "rshift", "divmod")

# Each optional special method of ``procs.HANDLE_DUNDERS``, as a handle has it.
_OPTIONAL: dict[str, Any] = {
    "__call__": _call, "__len__": _len, "__iter__": _iter, "__next__": _next, "__contains__": _contains,
    "__getitem__": _getitem, "__setitem__": _setitem, "__delitem__": _delitem, "__bool__": _bool, "__hash__": _hash,
    "__enter__": _enter, "__exit__": _exit, "__reversed__": _reversed, "__await__": _await, "__aiter__": _aiter,
    "__anext__": _anext, "__neg__": _unary_method("neg"), "__pos__": _unary_method("pos"),
    "__abs__": _unary_method("abs"), "__invert__": _unary_method("invert"), "__int__": _unary_method("int", (int,)),
    "__float__": _unary_method("float", (float,)), "__index__": _unary_method("index", (int,)),
    "__floor__": _unary_method("floor"), "__ceil__": _unary_method("ceil"), "__trunc__": _unary_method("trunc"),
    "__round__": _round}
_OPERATOR_METHODS: dict[str, Any] = {}  # ``__add__``, ``__radd__``, ``__iadd__`` and their kin
for _name in _OPERATORS:
    _OPERATOR_METHODS[f"__{_name.rstrip('_')}__"] = _operator(_name, False)
    _OPERATOR_METHODS[f"__r{_name.rstrip('_')}__"] = _operator(_name, True)
    if _name != "divmod":
        _OPERATOR_METHODS[f"__i{_name.rstrip('_')}__"] = _operator(f"i{_name.rstrip('_')}", False)
_OPTIONAL.update(_OPERATOR_METHODS)

# The program's object's own ``__doc__`` and ``__module__`` (the class's would answer first).
_DOC = property(lambda self: self._op("getattr", ("__doc__",)))
_MODULE = property(lambda self: self._op("getattr", ("__module__",)))
Remote.__doc__ = _DOC  # type: ignore[assignment]
Remote.__module__ = _MODULE  # type: ignore[assignment]


class GlobalRemote(Remote):
    """A global of the program's (a function, a class, an object at its top level): its type is not
    known before the test uses it, and the program may bind the name anew, so it has every special
    method a handle may have."""

    __slots__ = ()
    __doc__ = _DOC
    __module__ = _MODULE
    _methods: ClassVar[set[str]] = set()


for _name, _method in _OPTIONAL.items():
    setattr(GlobalRemote, _name, _method)

_CLASSES: dict[tuple[str, int], type] = {}


def remote_class(type_name: str, kind: int) -> type:
    """The judge's class for handles of the program's type ``type_name`` whose special methods are
    ``kind`` (a bit per name of ``procs.HANDLE_DUNDERS``): named as the program's, with those
    methods and no other."""
    key = (type_name, kind)
    cls = _CLASSES.get(key)
    if cls is None:
        namespace: dict[str, Any] = {name: _OPTIONAL[name] for bit, name in enumerate(HANDLE_DUNDERS)
                                     if kind >> bit & 1}
        namespace.update(__slots__=(), __qualname__=type_name, __doc__=_DOC, __module__=_MODULE, _methods=set())
        cls = type(type_name.rpartition(".")[2] or "object", (Remote,), namespace)
        if len(_CLASSES) < CLASSES_LIMIT:
            _CLASSES[key] = cls
    return cls


# -- a plain type's subclass's object: its value, with the object behind it ----------------------

_HYBRIDS: dict[tuple[type, type], type] = {}
_PLAIN_TYPES = {t.__name__: t for t in (int, float, complex, str, bytes, bytearray, tuple, list, dict, frozenset, set)}
_MUTABLE_TYPES = (list, dict, set, bytearray)


def _forward(self, name: str):
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    return getattr(self.__dict__["_remote"], name)


def _forward_text(method: str):
    def text(self) -> str:
        return getattr(self.__dict__["_remote"], method)()

    text.__name__ = method
    return text


def _decided(name: str, base: type, method: Callable):
    """A special method of a plain type's subclass's object: the program's (its ``Remote``'s, made)
    where the test made the object, else the plain base's, here (none: as where it has none)."""
    plain = getattr(base, name, None)
    binary = name in _OPERATOR_METHODS or name in _COMPARISONS

    def decided(self, *args):
        remote = self.__dict__["_remote"]
        if remote._made:
            return method(remote, *args)
        if plain is not None:
            return plain(self, *args)
        if binary:
            return NotImplemented
        raise TypeError(f"bad operand type for {name}: '{type(self).__name__}'")

    decided.__name__ = name
    return decided


# What the program's type decides of an object the test made: comparisons, operators, ``in``, ``hash``.
_COMPARISONS = {"__eq__": Remote.__eq__, "__ne__": Remote.__ne__, "__lt__": Remote.__lt__, "__le__": Remote.__le__,
                "__gt__": Remote.__gt__, "__ge__": Remote.__ge__}
_MADE_METHODS = {**_COMPARISONS, "__contains__": _contains, "__hash__": _hash, **_OPERATOR_METHODS,
                 **{name: _OPTIONAL[name] for name in (
                     "__neg__", "__pos__", "__abs__", "__invert__", "__round__", "__floor__", "__ceil__", "__trunc__")}}


def _hybrid_class(remote: Remote, base: type) -> type:
    """The judge's class for values of the program's plain type's subclass ``remote`` is an object
    of: on ``base``, with the special methods of ``_MADE_METHODS`` the program's class has."""
    key = (type(remote), base)
    cls = _HYBRIDS.get(key)
    if cls is None:
        kind = remote._kind
        namespace: dict[str, Any] = {
            "__getattr__": _forward, "__str__": _forward_text("__str__"), "__repr__": _forward_text("__repr__"),
            "__grpo_hybrid__": True, "__qualname__": kind, "__module__": "main"}
        namespace.update({name: _decided(name, base, method) for name, method in _MADE_METHODS.items()
                          if name in _COMPARISONS or getattr(type(remote), name, None) is not None})
        cls = type(kind.rpartition(".")[2] or base.__name__, (base,), namespace)
        if len(_HYBRIDS) < CLASSES_LIMIT:
            _HYBRIDS[key] = cls
    return cls


def hybrid(value, base_name: str, remote: Remote):
    """An object of the program's whose class is a plain type's subclass (a NamedTuple, an IntEnum,
    a ``dict`` subclass), as the test holds it: a value of a class of the judge's with the
    program's class's name on the same plain base, so ``isinstance(p, tuple)``, ``json.dumps(p)``,
    ``p == (3, 4)`` and its arithmetic are the plain value's (decided here; the program's where the
    test made it: ``Mod7(3) == 10``), while its other attributes (a point's ``x``, an error's
    ``name``, ``_asdict()``) and its ``str`` and ``repr`` are the program's object's; one per object
    of the program's (``status_of(200) is Status.OK``), holding its value as it last crossed; it
    crosses back to the program as that object."""
    base = _PLAIN_TYPES.get(base_name)
    if base is None or type(value) is not base:
        return remote
    held = remote._hybrid
    if held is not None and isinstance(held, base):
        if base in _MUTABLE_TYPES:  # its value as it is now
            held.clear()
            held.extend(value) if base in (list, bytearray) else held.update(value)
        return held
    cls = _hybrid_class(remote, base)
    held = cls(value) if base not in _MUTABLE_TYPES else cls()
    if base in _MUTABLE_TYPES:
        held.extend(value) if base in (list, bytearray) else held.update(value)
    held.__dict__["_remote"] = remote
    object.__setattr__(remote, "_hybrid", held)  # (a cycle with ``_remote``: the collector frees both)
    return held


# -- which consumer takes an iterator ---------------------------------------------------------------

_GET_ITER, _CALL, _CACHE, _EXTENDED_ARG = opmap["GET_ITER"], opmap["CALL"], opmap["CACHE"], opmap["EXTENDED_ARG"]
_SKIPPED = frozenset({opmap["PUSH_NULL"], opmap["PRECALL"], opmap["KW_NAMES"], _CACHE, _EXTENDED_ARG})
_LOAD_NAME, _LOAD_GLOBAL = opmap["LOAD_NAME"], opmap["LOAD_GLOBAL"]
# Builtins that take an iterator whole or lazily and never hand it on (the test cannot reach it again),
# and the references to it each holds while it runs besides its argument's (``max``'s tuple of them).
_CONSUMERS = {id(f): 0 for f in (sum, any, all, sorted, list, tuple, set, frozenset, dict, enumerate, zip)} | {
    id(max): 1, id(min): 1}
_POSITIONS: dict = {}  # code object -> its instructions' positions (``co_positions``)


def _taken(frame) -> int | None:
    """Whether the frame that asks for an iterator hands it to a consumer that never hands it on:
    a loop (``GET_ITER``: a ``for`` statement, a comprehension) or a builtin consumer it calls
    (``sum(gen())``, ``any(...)``: ``_CONSUMERS``, by the name the call spells); the references the
    consumer holds besides its argument's, or None."""
    code, at = frame.f_code, frame.f_lasti
    raw = code.co_code
    if at < 0 or at >= len(raw):
        return None
    if raw[at] == _GET_ITER:
        return 0
    if raw[at] != _CALL:
        return None
    positions = _POSITIONS.get(code)
    if positions is None:
        positions = list(code.co_positions())
        if len(_POSITIONS) < CLASSES_LIMIT:
            _POSITIONS[code] = positions
    start = positions[at // 2][0], positions[at // 2][2]  # where the call's text starts: its function's
    for index in range(at // 2 - 1, -1, -1):
        op = raw[2 * index]
        if op in _SKIPPED or (positions[index][0], positions[index][2]) != start:
            continue
        if op != _LOAD_NAME and op != _LOAD_GLOBAL:
            return None  # an attribute (``obj.total(g)``), a local: not a builtin by its name
        arg, back = raw[2 * index + 1], 1
        while index - back >= 0 and raw[2 * (index - back)] == _EXTENDED_ARG:
            arg |= raw[2 * (index - back) + 1] << (8 * back)
            back += 1
        name = code.co_names[arg >> 1 if op == _LOAD_GLOBAL else arg]
        scopes = (frame.f_locals, frame.f_globals, frame.f_builtins) if op == _LOAD_NAME else \
            (frame.f_globals, frame.f_builtins)
        for scope in scopes:
            if name in scope:
                return _CONSUMERS.get(id(scope[name]))
        return None
    return None


# the Remote class of each kind of handle (``judge.channel``): the base every handle is an instance
# of, a global's, a handle's (by its type's name and special methods), a plain type's subclass's value
REMOTE_KINDS: dict[str, Any] = {"": Remote, "global": GlobalRemote, "class": remote_class, "plain": hybrid}


def arun(value):
    """``asyncio.run`` as a test calls it (``guard``): a coroutine of the program's runs in its
    process, to its value; any other, here (where it may await the program's: a ``Remote``'s ``__await__``)."""
    if isinstance(value, Remote):
        return value._op("arun")
    import asyncio

    return asyncio.run(value)


def type_of(value):
    """``type(value)`` as a test calls it (``guard``): the program's class (a ``Remote``, the test's
    own name for it where it is a global) of the program's object; any other's, here."""
    return value._op("type") if isinstance(value, Remote) else type(value)


def vars_of(value):
    """``vars(value)`` as a test calls it (``guard``): the program's object's attributes (a copy)."""
    return value._op("vars") if isinstance(value, Remote) else vars(value)
