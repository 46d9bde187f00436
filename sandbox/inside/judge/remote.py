"""The program's objects as a test holds them, and the channel their operations go through.

A ``Remote`` is an object of the program's as the test sees it: a global of the program's or an
object it returned. What the test does with it (call it, read an attribute, iterate it, apply an
operator, ...) becomes a frame on the test's ``Channel`` to the program's test process
(``program.calls``), which does it to the real object; the answer comes back as plain data, read
strictly (``values.decode_value``), or as another handle. Comparing it with a value of the test's
compares the plain data it is, here (no ``__eq__`` of the program's ever decides one); a
program's exception class becomes one of the judge's with the same name and builtin base
(``Channel.exception_class``).

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import builtins
import marshal
import math
import operator
import os
import sys
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

from ..procs import REF_MARK, REPLY_LIMIT
from ..records import MESSAGE_LIMIT, PROGRAM_ENDED, clip
from ..values import NotPlain, decode_value, non_finite
from .taskcode import ProgramError

if TYPE_CHECKING:
    from ..messages import CallFrame

MAX_NESTING = 60
_STDLIB = frozenset(sys.stdlib_module_names)
ITEMS_BATCH = 4096  # items of a program's iterator fetched in one round trip, at most
TOLD_STR = "_program_str"  # where an exception the judge made keeps what the program's own ``__str__`` said
# Exceptions that steer control flow where a test does not expect them: raised by the program,
# they reach the test as ``ProgramError`` (as PEP 479 turns StopIteration into RuntimeError).
_STEERING = frozenset({"StopIteration", "StopAsyncIteration", "GeneratorExit", "KeyboardInterrupt", "SystemExit"})
_EXCEPTIONS = {name: value for name, value in vars(builtins).items()
               if isinstance(value, type) and issubclass(value, Exception) and name not in _STEERING}


class Stop(BaseException):
    """The test cannot go on: the program's process ended, or answered what cannot be read.

    A BaseException, so that a test's ``except Exception`` does not swallow it; and whatever a
    test catches, the outcome stays (``Channel.outcome``)."""


class CannotCross(Stop):
    """The test passed an argument that cannot cross (the task's fault, the same for every program):
    an outcome (``runtime_error``), never an exception a test could catch and pass by."""


class Channel:
    """One test's pipes to the program's test process; ``outcome`` holds a failure that no test
    code can undo: ``(status, message)``."""

    def __init__(self, call_fd: int, reply_fd: int, may_call_back: Callable[[object], bool],
                 allow_non_finite: bool = False, exception_classes: dict | None = None):
        self.call_fd, self.reply_fd = call_fd, reply_fd
        self.may_call_back = may_call_back  # the rule of what the program may call (``asserts.may_call_back``)
        self.allow_non_finite = allow_non_finite
        self.exception_classes = {} if exception_classes is None else exception_classes
        self.ready: bool | None = None  # whether the program's process said its top level ran (``hello``)
        self.seq = 0
        self.calls = 0
        self.depth = 0
        self.outcome: tuple[str, str] | None = None
        self.flags: set[str] = set()
        self.callbacks: list = []  # callables of the test's the program holds, by number
        self.callback_numbers: dict[int, int] = {}
        self.remotes: weakref.WeakValueDictionary = weakref.WeakValueDictionary()  # the Remote of each handle
        self.forgotten: list[int] = []  # handles whose Remote the test let go of (sent with the next op)

    # -- requests ---------------------------------------------------------------------------

    def op(self, op: str, ref: tuple, payload: tuple, name: str):
        """Have the program's process do ``op`` to ``ref`` (``program.calls``) and return its value.

        Raises:
            CannotCross: an argument cannot cross.
            the builtin exception the program raised (or ``ProgramError``);
            Stop: the program's process ended, or answered what cannot be read.
        """
        if self.outcome is not None:
            raise Stop()
        if self.depth >= MAX_NESTING:
            raise RecursionError("calls and callbacks nest too deeply")
        self.seq += 1
        seq = self.seq
        self.calls += 1
        frame: CallFrame = ("op", seq, op, ref, self.encode(payload, name), tuple(self.forgotten))
        self.forgotten.clear()
        self._send(marshal.dumps(frame, 2))
        if self.ready is None:  # the first request went before the program's ``ready``: read that first
            self.hello()
            if self.outcome is not None:
                raise Stop()
        self.depth += 1
        try:
            while True:
                reply = self._reply()
                if type(reply) is list and len(reply) == 5 and reply[1] == "callback":
                    self._callback(reply)
                    continue
                return self._answer(reply, seq, op, payload, name)
        finally:
            self.depth -= 1

    def _answer(self, reply, seq: int, op: str, payload: tuple, name: str):
        if type(reply) is not list or len(reply) < 2 or reply[0] != seq:
            return self._stop("failed", f"{name}() answered out of turn")
        kind = reply[1]
        if kind == "ok" and len(reply) == 5:
            if op in ("call", "method"):
                _update(payload[0], reply[3])
                _update_kwargs(payload[1], reply[4])
            value = reply[2]
            if not self.allow_non_finite and non_finite((value, reply[3], reply[4])):
                self.flags.add("non_finite")
                return self._stop("failed", f"{name}() returned NaN or an infinity, which the task does not allow")
            return value
        if kind == "raised" and len(reply) == 8 and type(reply[3]) is str:
            error = self.exception_class([reply[2], reply[4]])
            message = clip(reply[3], MESSAGE_LIMIT)
            if error is None:
                raise ProgramError(f"{message} (raised in {name}())")
            raise _exception(error, reply[5], reply[6], f"{message} (raised in {name}())", reply[7])
        if kind == "unreadable" and len(reply) == 3 and type(reply[2]) is str:
            return self._stop("failed", f"{name}() answered with what the judge cannot read: "
                                        f"{clip(reply[2], MESSAGE_LIMIT)}")
        if kind == "exit" and len(reply) == 2:
            self.flags.add("early_exit")
            return self._stop("runtime_error", f"the program raised SystemExit in {name}() before the test finished")
        if kind == "memory" and len(reply) == 2:
            return self._stop("memory_limit", f"MemoryError in {name}(): memory limit reached")
        return self._stop("failed", f"{name}() answered with a reply the judge does not know")

    def _callback(self, request: list) -> None:
        """Run a callable of the test's that the program called, and answer it."""
        seq, _, number, args, kwargs = request
        if type(number) is not int or not 0 <= number < len(self.callbacks) or type(args) is not list \
                or type(kwargs) is not dict or not all(type(k) is str for k in kwargs):
            self._stop("failed", "the program called back with a request the judge does not know")
        answer: CallFrame
        try:
            value = self.callbacks[number](*args, **kwargs)
            answer = ("ret", seq, self.encode(value, "the test's callback"))
        except Stop:
            raise
        except BaseException as e:  # noqa: BLE001 - the test's callback raised: the program sees it
            answer = ("raise", seq, type(e).__name__, clip(str(e), MESSAGE_LIMIT))
        self._send(marshal.dumps(answer, 2))

    def exception_class(self, lineage) -> type | None:
        """The judge's class for an exception class of the program's (``program.calls.lineage``:
        ``[builtin bases, own classes]``): a standard module's own class where the judge has that
        module (``json.JSONDecodeError``), else one made here, once per job, with the program's
        module and name, on the same builtin bases (each own class a subclass of the next), so
        that ``except ValueError`` and ``except ParseError`` catch what they would in one process.
        None where a base steers control flow or is a ``MemoryError`` (``ProgramError``)."""
        if type(lineage) is not list or len(lineage) != 2 or type(lineage[0]) is not list \
                or type(lineage[1]) is not list:
            return None
        named = [_EXCEPTIONS.get(b) if type(b) is str else None for b in lineage[0][:8]]
        bases: tuple[type, ...] = tuple(b for b in named if b is not None)
        if not bases or len(bases) < len(named) or MemoryError in bases:
            return None
        made: type | None = None
        for own in reversed(lineage[1][:8]):
            if type(own) is not list or len(own) != 2 or not all(type(p) is str for p in own):
                return None
            module, qualname = own
            real = _standard_class(module, qualname)
            if real is not None:
                made = real
                continue
            parents: tuple[type, ...] = (made,) if made is not None else bases
            key = (module, qualname, parents)
            if key not in self.exception_classes:
                namespace = {"__module__": module, "__qualname__": qualname, "__str__": _told_str}
                try:
                    self.exception_classes[key] = type(qualname.rpartition(".")[2] or "Exception", parents,
                                                       namespace)
                except TypeError:  # bases that cannot be one class's: the first
                    self.exception_classes[key] = type(qualname.rpartition(".")[2] or "Exception", parents[:1],
                                                       namespace)
            made = self.exception_classes[key]
        return made if made is not None else bases[0]

    def _stop(self, status: str, message: str) -> NoReturn:
        self.outcome = (status, message)
        raise Stop()

    def hello(self) -> None:
        """Wait for the program's process to say it ran its top level (``[0, "ready"]``); if it ends
        first, the test cannot pass whatever it does (``outcome``). Its first frame up, read once:
        the test's first request may already wait in the pipe (``op``), and a test that makes none
        reads it when it ends (``asserts.run_test``)."""
        if self.ready is not None:
            return
        self.ready = False
        try:
            reply = self._reply()
        except Stop:
            self.outcome = (PROGRAM_ENDED, "the program's process ended before its top level finished")
            return
        if reply != [0, "ready"]:
            self.outcome = ("failed", "the program's process did not start serving the test")
        else:
            self.ready = True

    # -- values -----------------------------------------------------------------------------

    def encode(self, value, name: str) -> tuple:
        """``(marked, data)`` for ``value``: plain data as it is; a ``Remote`` and a callable of the
        test's marked (``program.calls``).

        Raises:
            Stop: it cannot cross (the outcome says why: ``runtime_error``).
        """
        try:
            marshal.dumps(value, 2)
            return False, value
        except ValueError:
            pass
        try:
            return True, self._mark(value, name, 0)
        except CannotCross as e:
            self._stop("runtime_error", str(e))

    def _mark(self, v, name: str, depth: int):
        t = type(v)
        if t is Remote:
            return (REF_MARK, "h", v._ref[1]) if v._ref[0] == "h" else (REF_MARK, "g", v._ref[1])
        if depth > 100:
            raise CannotCross(f"the test passes {name}() a value nested too deeply")
        if t in (list, tuple, set, frozenset):
            items = [self._mark(x, name, depth + 1) for x in v]
            return items if t is list else t(items)
        if t is dict:
            return {self._mark(k, name, depth + 1): self._mark(x, name, depth + 1) for k, x in v.items()}
        if t is slice:
            return (REF_MARK, "s", self._mark(v.start, name, depth + 1), self._mark(v.stop, name, depth + 1),
                    self._mark(v.step, name, depth + 1))
        if callable(v):
            if not self.may_call_back(v):
                raise CannotCross(f"the test hands {name}() {v!r:.60}, which the program may not call in the judge "
                                  "(only the test's own functions and classes, and builtins that compute)")
            number = self.callback_numbers.get(id(v))
            if number is None:
                number = self.callback_numbers[id(v)] = len(self.callbacks)
                self.callbacks.append(v)
            return (REF_MARK, "k", number)
        try:
            marshal.dumps(v, 2)
            return v
        except ValueError:
            raise CannotCross(f"the test passes {name}() a {t.__name__}, which cannot cross to the program's "
                              "process (only plain data, callables and the program's own objects do)") from None

    def refs(self, tag: str, body):
        """The object a handle in a reply stands for (``values.decode_value``)."""
        if tag == "h" and type(body) is list and len(body) == 2 and type(body[0]) is int and type(body[1]) is str:
            ref = ("h", body[0])
            remote = self.remotes.get(ref)
            if remote is None:  # one Remote per object: ``is`` is the program's identity
                remote = self.remotes[ref] = Remote(self, ref, clip(body[1], 60))
            return remote
        if tag == "k" and type(body) is int and 0 <= body < len(self.callbacks):
            return self.callbacks[body]
        raise NotPlain(f"a malformed reference {tag!r}")

    # -- frames -----------------------------------------------------------------------------

    def _send(self, data: bytes) -> None:
        try:
            _write_all(self.call_fd, len(data).to_bytes(4, "little") + data)
        except OSError:
            self.hello()  # gone before it said ``ready``: its top level did not finish (the outcome says so)
            self._ended()

    def _reply(self):
        header = _read_exact(self.reply_fd, 4)
        if header is None:
            self._ended()
        size = int.from_bytes(header, "little")
        if size > REPLY_LIMIT:
            self.flags.add("not_plain_data")
            self._stop("failed", "the program answered with a value larger than the judge reads")
        data = _read_exact(self.reply_fd, size)
        if data is None:
            self._ended()
        try:
            return decode_value(data.decode("utf-8", "replace"), self.refs)
        except NotPlain as e:
            self.flags.add("not_plain_data")
            return self._stop("failed", f"the program answered with something that is not a plain value ({e})")

    def _ended(self) -> NoReturn:
        if self.outcome is None:
            self.outcome = (PROGRAM_ENDED, "the program's process ended during a call")
        raise Stop()


_NOT_PLAIN = object()  # what ``Remote._plain`` gives for an object that is not plain data
_READABLE_DUNDERS = frozenset({"__name__", "__qualname__", "__doc__", "__module__", "__wrapped__"})


class Remote:
    """An object of the program's, as the test sees it: a global of the program's (``("g", name)``)
    or an object it returned (``("h", number)``); one ``Remote`` per object, so ``is`` is the
    program's identity. What the test does with it is done in the program's process.

    Its operators, comparisons and ``in`` are the program's own only where the object was made by
    the test from a class of the program's (``made``: called a name of the program's spelled as a
    class, ``Vector(1, 2)``; or made by such an object's operators): the test asked for that type's
    behaviour. Any other object (what a function returned) is judged as the plain data it is
    (``program.calls.plain_value``: a ``Counter`` as its dict), compared and computed here; one
    that is not plain data has no operators and equals nothing of the test's, and the test is
    flagged ``not_plain_data``. So no operator of the program's ever decides what a test computes
    from a value it returned (``abs(got - want) < eps``)."""

    __slots__ = ("__weakref__", "_channel", "_kind", "_made", "_ref")

    def __init__(self, channel: Channel, ref: tuple, kind: str, made: bool = False):
        object.__setattr__(self, "_channel", channel)
        object.__setattr__(self, "_ref", ref)
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_made", made)

    def _op(self, op: str, payload: tuple = ()):
        return self._channel.op(op, self._ref, payload, self._kind)

    def __del__(self) -> None:
        """The test no longer holds this object: the program may free it (its ``__del__`` runs
        before the next operation, as ``del x`` runs it in one process)."""
        if self._ref[0] == "h":
            self._channel.forgotten.append(self._ref[1])

    def _making(self, value):
        """``value``, marked made by the test where it is an object of the program's."""
        if type(value) is Remote:
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
        n = self._op("len")
        if type(n) is not int or n < 0:
            raise TypeError(f"the program's {self._kind} answered len() with {clip(repr(n), 60)}")
        return n

    def __iter__(self):
        """A plain container's items, all at once; any other iterable's as the test takes them (a
        generator runs lazily: ``_items``)."""
        items = self._op("iter")
        if type(items) is list:
            return iter(items)
        if type(items) is Remote:
            return _items(items)
        raise TypeError(f"the program's {self._kind} did not iterate")

    def _next(self, n: int) -> tuple[list, bool]:
        answer = self._op("next", (n,))
        if type(answer) is not tuple or len(answer) != 2 or type(answer[0]) is not list or type(answer[1]) is not bool:
            raise TypeError(f"the program's {self._kind} answered next() with what the judge does not know")
        return answer

    def __next__(self):
        items, _ = self._next(1)
        if not items:
            raise StopIteration
        return items[0]

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

    def __instancecheck__(self, obj) -> bool:
        return self._answer("isinstance", (obj,), bool)

    def __hash__(self) -> int:
        if self._made:
            return self._answer("unop", ("hash",), int)
        value = self._plain()
        return hash(self._ref) if value is _NOT_PLAIN else hash(value)

    def _plain(self):
        """This object as the plain data it is, or ``_NOT_PLAIN``."""
        value = self._op("value")
        return _NOT_PLAIN if type(value) is Remote else value

    def _plain_or_stop(self, what: str):
        value = self._plain()
        if value is _NOT_PLAIN:
            self._channel.flags.add("not_plain_data")
            self._channel._stop("failed", f"{what} of the program's {self._kind}, which is not plain data nor an "
                                          "object the test made from a class of the program's")
        return value

    def _compare(self, name: str, other, reflected: bool = False):
        """A comparison: the program's own where the test made one of the two from a class of the
        program's; else the plain values, compared here."""
        if type(other) is Remote and (self._made or other._made):
            return self._op("binop", (name, other, reflected))
        left = self._plain()
        right = other._plain() if type(other) is Remote else other
        if left is _NOT_PLAIN or right is _NOT_PLAIN:
            self._channel.flags.add("not_plain_data")  # a test compared an object of the program's
            if name in ("eq", "ne"):
                return name == "ne"
            raise TypeError(f"{name!r} is not supported between the program's {self._kind} and what it is "
                            "compared with")
        return _BINARY[name](right, left) if reflected else _BINARY[name](left, right)

    def __eq__(self, other):
        return True if type(other) is Remote and other._ref == self._ref else self._compare("eq", other)

    def __ne__(self, other):
        return False if type(other) is Remote and other._ref == self._ref else self._compare("ne", other)

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
        if self._made or (type(other) is Remote and other._made):
            return self._making(self._op("binop", (name, other, reflected)))
        left = self._plain_or_stop(name)
        right = other._plain_or_stop(name) if type(other) is Remote else other
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


# The program's object's own ``__doc__`` and ``__module__`` (the class's would answer first).
Remote.__doc__ = property(lambda self: self._op("getattr", ("__doc__",)))  # type: ignore[assignment]
Remote.__module__ = property(lambda self: self._op("getattr", ("__module__",)))  # type: ignore[assignment]


def _items(iterator: Remote):
    """The items of the program's ``iterator``, fetched as the test takes them, in batches that
    double from one up to ``ITEMS_BATCH`` (an endless generator computes at most twice what is
    taken; a long one crosses in few round trips)."""
    n = 1
    while True:
        items, done = iterator._next(n)
        yield from items
        if done:
            return
        n = min(2 * n, ITEMS_BATCH)


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
    process, to its value; any other, here."""
    if type(value) is Remote:
        return value._op("arun")
    import asyncio

    return asyncio.run(value)


def _standard_class(module: str, qualname: str) -> type | None:
    """A standard module's exception class, where the judge has that module already (a test that
    catches ``json.JSONDecodeError`` imported ``json``): never imported for the program's asking.
    Only a class that is that name (its own ``__module__`` and ``__qualname__``: a path through a
    module's attributes, ``codecs.builtins.StopIteration``, names another class) and an ``Exception``
    that neither steers control flow nor is a ``MemoryError``."""
    loaded = sys.modules.get(module) if module.partition(".")[0] in _STDLIB else None
    value: object = loaded
    for part in qualname.split(".") if loaded is not None else ():
        value = getattr(value, part, None)
    if not isinstance(value, type) or not issubclass(value, Exception) \
            or issubclass(value, (StopIteration, StopAsyncIteration, MemoryError)):
        return None
    return value if value.__module__ == module and value.__qualname__ == qualname else None


def _told_str(self: BaseException) -> str:
    """``__str__`` of an exception class the judge made for one of the program's: what the
    program's own ``__str__`` said of this exception (``program.calls.own_str``), an error where it
    raised, else the rule of the builtin class below it."""
    told = self.__dict__.get(TOLD_STR)
    if type(told) is str:
        return told
    if told is False:
        raise ProgramError(f"the program's {type(self).__qualname__}.__str__ raised")
    for klass in type(self).__mro__:
        method = klass.__dict__.get("__str__")
        if method is not None and method is not _told_str:
            return method(self)
    return ""


def _exception(cls: type, args, attributes, note: str, told: object = None) -> BaseException:
    """An exception of class ``cls`` with the program's ``args`` and plain ``attributes``, and
    where it came from as a note (``str(e)`` is the program's: where ``cls`` is one the judge made,
    ``told``, what the program's own ``__str__`` said, if it has one)."""
    args = tuple(args) if type(args) is list else ()
    try:
        error = cls(*args)
    except BaseException:  # noqa: BLE001 - a class that wants other arguments (JSONDecodeError)
        error = cls.__new__(cls, *args)
        error.args = args
    if type(attributes) is dict:
        for key, value in attributes.items():
            if type(key) is str and not key.startswith("_"):
                try:
                    setattr(error, key, value)
                except (AttributeError, TypeError):  # a read-only attribute of a builtin class
                    pass
    if (type(told) is str or told is False) and cls.__str__ is _told_str:
        error.__dict__[TOLD_STR] = told
    error.add_note(note)
    return error


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]


def _read_exact(fd: int, n: int) -> bytes | None:
    parts, got = [], 0
    while got < n:
        try:
            data = os.read(fd, min(n - got, 1 << 20))
        except OSError:
            return None
        if not data:
            return None
        parts.append(data)
        got += len(data)
    return b"".join(parts)


def _update(args: tuple, states) -> None:
    """Give each mutable argument the state the program's call left it in (in place)."""
    if type(states) is not list:
        return
    for arg, state in zip(args, states, strict=False):  # the program's process sent ``states``: any length
        _sync(arg, state)


def _update_kwargs(kwargs: dict, states) -> None:
    if type(states) is not list:
        return
    for item in states:
        if type(item) is list and len(item) == 2 and type(item[0]) is str and item[0] in kwargs:
            _sync(kwargs[item[0]], item[1])


def _sync(old, new, depth: int = 0) -> None:
    """Make the mutable container ``old`` hold what ``new`` holds, keeping the identity of nested
    containers of the same type where it can (a test may hold references into them)."""
    kind = type(old)
    if new is None or kind is not type(new) or depth > 100:
        return
    if kind is list:
        for i in range(min(len(old), len(new))):
            if type(old[i]) in (list, dict, set, bytearray) and type(old[i]) is type(new[i]):
                _sync(old[i], new[i], depth + 1)
            else:
                old[i] = new[i]
        del old[len(new):]
        old.extend(new[len(old):])
    elif kind is dict:
        for key in [k for k in old if k not in new]:
            del old[key]
        for key, value in new.items():
            if key in old and type(old[key]) in (list, dict, set, bytearray) and type(old[key]) is type(value):
                _sync(old[key], value, depth + 1)
            else:
                old[key] = value
    elif kind is set:
        old.intersection_update(new)
        old.update(new)
    elif kind is bytearray:
        old[:] = new
