"""The program's objects as a test holds them: ``Remote``.

The rule: what the test does with an object of the program's is done to the real object, in the
program's process (``program.calls``), and what comes back is plain data or another ``Remote``; the
program's code decides what its objects do (their methods, attributes, ``str``, ``repr``, ``len``,
iteration), never what the test computes from a value: a comparison, an operator, ``in`` or ``hash``
is the program's own only where the test asked for that type's behaviour (it made the object from
a class of the program's, ``Vector(1, 2)``, or such an object's operator made it) or compares two
objects of the program's that are no plain data (two dataclass instances: their ``__eq__`` is all
there is to compare them by). Anything else is judged as the plain data it is, here: a value a
function returned, compared with a value of the test's, is compared by the judge, so no ``__eq__``
of the program's ever decides ``f(x) == 3`` (an object that is not plain data equals nothing of the
test's, flagged ``not_plain_data``). An iterator of the program's gives the test exactly the items
it takes (one at a time; all at once only where ``list()``, ``tuple()`` or ``sorted()`` will take
every one: they ask ``__length_hint__`` first). ``copy.copy`` and ``copy.deepcopy`` copy it in the
program's process; ``isinstance(e, ParseError)`` of an exception the program raised is answered by
the classes the judge made for it (``judge.exceptions``).

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

from ..records import clip
from .channel import Channel, Stop

ITEMS_BATCH = 4096  # items of a program's iterator fetched in one round trip where the consumer takes them all


_NOT_PLAIN = object()  # what ``Remote._plain`` gives for an object that is not plain data
_READABLE_DUNDERS = frozenset({"__name__", "__qualname__", "__doc__", "__module__", "__wrapped__"})


class Remote:
    """An object of the program's, as the test sees it: a global of the program's (``("g", name)``)
    or an object it returned (``("h", number)``); one ``Remote`` per object, so ``is`` is the
    program's identity. What the test does with it is done in the program's process, under the
    module docstring's rule: ``made`` says the test made it from a class of the program's."""

    __slots__ = ("__weakref__", "_buffer", "_bulk", "_channel", "_done", "_iterator", "_kind", "_made", "_ref")

    def __init__(self, channel: Channel, ref: tuple, kind: str, made: bool = False):
        object.__setattr__(self, "_channel", channel)
        object.__setattr__(self, "_ref", ref)
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_made", made)
        object.__setattr__(self, "_buffer", None)  # items of an iterator taken and not yet given
        object.__setattr__(self, "_bulk", 0)  # its consumer takes every item: the next batch's size
        object.__setattr__(self, "_done", False)  # the program said it has no more
        object.__setattr__(self, "_iterator", None)  # the iterator ``iter`` last gave for it

    def _op(self, op: str, payload: tuple = ()):
        return self._channel.op(op, self._ref, payload, self._kind)

    def __del__(self) -> None:
        """The test no longer holds this object: the program may free it (its ``__del__`` runs
        before the next operation, as ``del x`` runs it in one process)."""
        if self._ref[0] == "h":
            self._channel.forgotten.append(self._ref[1])

    def _making(self, value):
        """``value``, marked made by the test where it is an object of the program's."""
        if isinstance(value, Remote):
            object.__setattr__(value, "_made", True)
        return value

    def __call__(self, *args, **kwargs):
        """Call the program's object in its process; the value comes back as plain data or a handle
        (made by the test where it called a class of the program's, a name spelled ``CapWords``)."""
        value = self._op("call", (args, kwargs))
        return self._making(value) if self._ref[0] == "g" and self._ref[1][:1].isupper() else value

    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__") and name not in _READABLE_DUNDERS:
            raise AttributeError(name)
        return self._op("getattr", (name,))

    def __setattr__(self, name: str, value) -> None:
        self._op("setattr", (name, value))

    def __delattr__(self, name: str) -> None:
        self._op("delattr", (name,))

    def __len__(self) -> int:
        if self._buffer is not None:  # an iterator (``__iter__`` said so): no length, as in one process
            raise TypeError(f"object of type '{self._kind}' has no len()")
        n = self._op("len")
        if type(n) is not int or n < 0:
            raise TypeError(f"the program's {self._kind} answered len() with {clip(repr(n), 60)}")
        return n

    def __length_hint__(self):
        """Asked by ``list()``, ``tuple()`` and their kin before they take every item: from now on
        the items of this iterator (or of the one ``iter`` last gave for it) may come in batches:
        nothing of the test's runs between two of them."""
        iterator = self if self._buffer is not None else self._iterator
        if iterator is not None and not iterator._bulk:
            object.__setattr__(iterator, "_bulk", 1)
        return NotImplemented

    def __iter__(self):
        """A plain container's items, all at once; any other iterable's as the test takes them: its
        iterator is this object where the program's ``iter`` gives back the object itself (a
        generator), so ``next(g)``, ``islice(g, n)`` and ``for x in g`` take from one stream."""
        items = self._op("iter")
        if type(items) is list:
            return iter(items)
        if isinstance(items, Remote):
            if items._buffer is None:
                object.__setattr__(items, "_buffer", [])
            object.__setattr__(self, "_iterator", items)
            return items
        raise TypeError(f"the program's {self._kind} did not iterate")

    def __next__(self):
        """The iterator's next item: one asked of the program's process at a time (the generator
        runs exactly as far as the test takes it), in batches that double once the consumer takes
        them all (``__length_hint__``)."""
        buffer = self._buffer
        if buffer is None:
            buffer = []
            object.__setattr__(self, "_buffer", buffer)
        if not buffer:
            if self._done:
                raise StopIteration
            n = self._bulk or 1
            answer = self._op("next", (n,))
            if type(answer) is not list or len(answer) != 2 or type(answer[0]) is not list \
                    or type(answer[1]) is not bool:
                raise TypeError(f"the program's {self._kind} answered next() with what the judge does not know")
            buffer.extend(answer[0])
            object.__setattr__(self, "_done", answer[1])
            if self._bulk:
                object.__setattr__(self, "_bulk", min(2 * n, ITEMS_BATCH))
            if not buffer:
                raise StopIteration
        return buffer.pop(0)

    def __contains__(self, item) -> bool:
        if self._made:
            return self._answer("contains", (item,), bool)
        return any(x is item or x == item for x in self)  # compared here, never by the program

    def __getitem__(self, key):
        return self._op("getitem", (key,))

    def __setitem__(self, key, value) -> None:
        self._op("setitem", (key, value))

    def __delitem__(self, key) -> None:
        self._op("delitem", (key,))

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

    def __bool__(self) -> bool:
        return self._answer("bool", (), bool)

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

    def __hash__(self) -> int:
        """The program's own hash of an object the test made or of one that is no plain data (equal
        objects of the program's are equal by its ``__eq__``: a set of them hashes alike); a plain
        value's hash, here."""
        if self._made:
            return self._answer("unop", ("hash",), int)
        value = self._plain()
        return self._answer("unop", ("hash",), int) if value is _NOT_PLAIN else hash(value)

    def __enter__(self):
        """A ``with`` block on the program's object: its ``__enter__``, in its process."""
        return self._op("enter")

    def __exit__(self, kind, value, traceback):
        """Its ``__exit__`` with the block's exception (its class and ``args`` cross), in its process."""
        return self._op("exit", (kind, value, None))

    def __reversed__(self):
        return iter(self._op("reversed"))


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
        program's, or both are the program's and no plain data; the test's object's own (reflected)
        where the other is an object of the test's; else the plain values, compared here."""
        if isinstance(other, Remote) and (self._made or other._made):
            return self._op("binop", (name, other, reflected))
        if not isinstance(other, Remote) and self._channel.sender.is_proxied(other):
            return NotImplemented  # an object of the test's (a ``TreeNode``): its own comparison decides
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
        if self._made or (isinstance(other, Remote) and other._made):
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

    def __neg__(self):
        return self._unary("neg")

    def __pos__(self):
        return self._unary("pos")

    def __abs__(self):
        return self._unary("abs")

    def __invert__(self):
        return self._unary("invert")

    def __int__(self) -> int:
        return self._unary("int", (int,))

    def __float__(self) -> float:
        return self._unary("float", (float,))

    def __index__(self) -> int:
        return self._unary("index", (int,))

    def __floor__(self):
        return self._unary("floor")

    def __ceil__(self):
        return self._unary("ceil")

    def __trunc__(self):
        return self._unary("trunc")

    def __round__(self, ndigits=None):
        return self._unary("round") if ndigits is None else self._binary("round", ndigits, False)


class AwaitableRemote(Remote):
    """An awaitable object of the program's (a coroutine): ``await`` of it in the test's own
    ``async def`` runs it to its value on its process's event loop; coroutines the test gathers run
    one after the other. Only these are awaitable: ``inspect.isawaitable`` is false of the rest."""

    __slots__ = ()

    def __await__(self):
        return self._op("arun")
        yield  # a generator: what ``__await__`` must be


class AsyncIterRemote(Remote):
    """An async iterator of the program's (an async generator): ``async for`` takes its items."""

    __slots__ = ()

    def __aiter__(self):
        return self

    async def __anext__(self):
        """The next item of the program's async iterator (``async for``)."""
        answer = self._op("anext")
        if type(answer) is not list or len(answer) != 2 or type(answer[0]) is not bool:
            raise TypeError(f"the program's {self._kind} answered anext() with what the judge does not know")
        if answer[0]:
            raise StopAsyncIteration
        return answer[1]


_HYBRIDS: dict[tuple[str, type], type] = {}
_PLAIN_TYPES = {t.__name__: t for t in (int, float, complex, str, bytes, bytearray, tuple, list, dict, frozenset, set)}


def _forward(self, name: str):
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    return getattr(self.__dict__["_remote"], name)


def _forward_text(method: str):
    def text(self) -> str:
        return getattr(self.__dict__["_remote"], method)()

    text.__name__ = method
    return text


def hybrid(value, base_name: str, remote: Remote):
    """An object of the program's whose class is a plain type's subclass (a NamedTuple, an IntEnum,
    a ``dict`` subclass), as the test holds it: a value of a class of the judge's with the
    program's class's name on the same plain base, so ``isinstance(p, tuple)``, ``json.dumps(p)``,
    ``p == (3, 4)`` and its arithmetic are the plain value's (decided here), while its other
    attributes (a point's ``x``, an error's ``name``, ``_asdict()``) and its ``str`` and ``repr`` are the
    program's object's; it crosses back to the program as that object."""
    base = _PLAIN_TYPES.get(base_name)
    if base is None or type(value) is not base:
        return remote
    key = (remote._kind, base)
    cls = _HYBRIDS.get(key)
    if cls is None:
        cls = _HYBRIDS[key] = type(remote._kind.rpartition(".")[2] or base.__name__, (base,), {
            "__getattr__": _forward, "__str__": _forward_text("__str__"), "__repr__": _forward_text("__repr__"),
            "__grpo_hybrid__": True, "__qualname__": remote._kind, "__module__": "main"})
    made = cls(value) if base not in (list, dict, set, bytearray) else cls()
    if base in (list, dict, set, bytearray):
        made.extend(value) if base in (list, bytearray) else made.update(value)
    made.__dict__["_remote"] = remote
    return made


# the Remote class of each kind of handle (``program.encode``: what its object is)
REMOTE_KINDS: dict[str, Any] = {"": Remote, "await": AwaitableRemote, "aiter": AsyncIterRemote, "plain": hybrid}


# The program's object's own ``__doc__`` and ``__module__`` (the class's would answer first).
Remote.__doc__ = property(lambda self: self._op("getattr", ("__doc__",)))  # type: ignore[assignment]
Remote.__module__ = property(lambda self: self._op("getattr", ("__module__",)))  # type: ignore[assignment]


def _operator(name: str, reflected: bool):
    """``Remote.__add__`` and its kin (``Remote._binary``)."""

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
for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_", "xor", "lshift",
              "rshift", "divmod"):
    setattr(Remote, f"__{_name.rstrip('_')}__", _operator(_name, False))
    setattr(Remote, f"__r{_name.rstrip('_')}__", _operator(_name, True))
for _name in ("iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow", "imatmul", "iand", "ior", "ixor",
              "ilshift", "irshift"):
    setattr(Remote, f"__{_name}__", _operator(_name, False))


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


