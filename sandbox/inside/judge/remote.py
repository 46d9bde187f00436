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
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

from ..procs import REF_MARK, REPLY_LIMIT
from ..records import MESSAGE_LIMIT, PROGRAM_ENDED, clip
from ..values import NotPlain, decode_value, non_finite
from .taskcode import ProgramError

if TYPE_CHECKING:
    from ..messages import CallFrame

MAX_NESTING = 60
ITEMS_BATCH = 4096  # items of a program's iterator fetched in one round trip, at most
# Exceptions that steer control flow where a test does not expect them: raised by the program,
# they reach the test as ``ProgramError`` (as PEP 479 turns StopIteration into RuntimeError).
_STEERING = frozenset({"StopIteration", "StopAsyncIteration", "GeneratorExit", "KeyboardInterrupt", "SystemExit"})
_EXCEPTIONS = {name: value for name, value in vars(builtins).items()
               if isinstance(value, type) and issubclass(value, Exception) and name not in _STEERING}


class Stop(BaseException):
    """The test cannot go on: the program's process ended, or answered what cannot be read.

    A BaseException, so that a test's ``except Exception`` does not swallow it; and whatever a
    test catches, the outcome stays (``Channel.outcome``)."""


class CannotCross(TypeError):
    """The test passed an argument that cannot cross (the task's fault, the same for every program)."""


class Channel:
    """One test's pipes to the program's test process; ``outcome`` holds a failure that no test
    code can undo: ``(status, message)``."""

    def __init__(self, call_fd: int, reply_fd: int, may_call_back: Callable[[object], bool],
                 allow_non_finite: bool = False, exception_classes: dict | None = None):
        self.call_fd, self.reply_fd = call_fd, reply_fd
        self.may_call_back = may_call_back  # the rule of what the program may call (``asserts.may_call_back``)
        self.allow_non_finite = allow_non_finite
        self.exception_classes = {} if exception_classes is None else exception_classes
        self.seq = 0
        self.calls = 0
        self.depth = 0
        self.outcome: tuple[str, str] | None = None
        self.flags: set[str] = set()
        self.callbacks: list = []  # callables of the test's the program holds, by number
        self.callback_numbers: dict[int, int] = {}

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
        frame: CallFrame = ("op", seq, op, ref, self.encode(payload, name))
        self._send(marshal.dumps(frame, 2))
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
        if kind == "raised" and len(reply) in (4, 5) and type(reply[2]) is str and type(reply[3]) is str:
            lineage = [reply[2], reply[4] if len(reply) == 5 else []]
            error = self.exception_class(lineage)
            message = clip(reply[3], MESSAGE_LIMIT)
            if error is None:
                raise ProgramError(f"{message} (raised in {name}())")
            raise error(f"{message.removeprefix(error.__name__ + ': ')} (raised in {name}())")
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
        its nearest builtin base and its own classes above it): made here, once per job, each of
        its own classes a subclass of the next, so that ``except ValueError`` and ``except
        ParseError`` catch what they would in one process. None where it steers control flow or
        is a ``MemoryError`` (``ProgramError``)."""
        if type(lineage) is not list or len(lineage) != 2 or type(lineage[1]) is not list:
            return None
        base = _EXCEPTIONS.get(lineage[0]) if type(lineage[0]) is str else None
        if base is None or base is MemoryError:
            return None
        for own in reversed(lineage[1][:8]):
            if type(own) is not str or not own.isidentifier():
                break
            key = (own, base)
            if key not in self.exception_classes:
                self.exception_classes[key] = type(own, (base,), {"__module__": "__program__"})
            base = self.exception_classes[key]
        return base

    def _stop(self, status: str, message: str) -> NoReturn:
        self.outcome = (status, message)
        raise Stop()

    def hello(self) -> None:
        """Wait for the program's process to say it ran its top level (``[0, "ready"]``); if it ends
        first, the test cannot pass whatever it does (``outcome``)."""
        try:
            reply = self._reply()
        except Stop:
            self.outcome = (PROGRAM_ENDED, "the program's process ended before its top level finished")
            return
        if reply != [0, "ready"]:
            self.outcome = ("failed", "the program's process did not start serving the test")

    # -- values -----------------------------------------------------------------------------

    def encode(self, value, name: str) -> tuple:
        """``(marked, data)`` for ``value``: plain data as it is; a ``Remote`` and a callable of the
        test's marked (``program.calls``)."""
        try:
            marshal.dumps(value, 2)
            return False, value
        except ValueError:
            pass
        return True, self._mark(value, name, 0)

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
            return Remote(self, ("h", body[0]), clip(body[1], 60))
        if tag == "k" and type(body) is int and 0 <= body < len(self.callbacks):
            return self.callbacks[body]
        raise NotPlain(f"a malformed reference {tag!r}")

    # -- frames -----------------------------------------------------------------------------

    def _send(self, data: bytes) -> None:
        try:
            _write_all(self.call_fd, len(data).to_bytes(4, "little") + data)
        except OSError:
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


class Remote:
    """An object of the program's, as the test sees it: a global of the program's (``("g", name)``)
    or an object it returned (``("h", number)``). What the test does with it is done in the
    program's process; comparing it compares identities only."""

    __slots__ = ("_channel", "_kind", "_ref")

    def __init__(self, channel: Channel, ref: tuple, kind: str):
        object.__setattr__(self, "_channel", channel)
        object.__setattr__(self, "_ref", ref)
        object.__setattr__(self, "_kind", kind)

    def _op(self, op: str, payload: tuple = ()):
        return self._channel.op(op, self._ref, payload, self._kind)

    def __call__(self, *args, **kwargs):
        """Call the program's object in its process; the value comes back as plain data or a handle."""
        return self._op("call", (args, kwargs))

    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__"):
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
        """A plain container's items, all at once; any other iterable's one by one, as the test
        takes them (``__next__`` of a handle to the program's iterator: a generator runs lazily)."""
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
        return any(x is item or x == item for x in self)  # compared here, never by the program

    def __getitem__(self, key):
        return self._op("getitem", (key,))

    def __setitem__(self, key, value) -> None:
        self._op("setitem", (key, value))

    def __delitem__(self, key) -> None:
        self._op("delitem", (key,))

    def __str__(self) -> str:
        text = self._op("str")
        if type(text) is not str:
            raise TypeError(f"the program's {self._kind} answered str() with what is not a str")
        return text

    def __bool__(self) -> bool:
        value = self._op("bool")
        if type(value) is not bool:
            raise TypeError(f"the program's {self._kind} answered bool() with what is not a bool")
        return value

    def __instancecheck__(self, obj) -> bool:
        value = self._op("isinstance", (obj,))
        if type(value) is not bool:
            raise TypeError("isinstance() answered with what is not a bool")
        return value

    def _value(self):
        """What this object is as plain data (compared here, never by the program), or None with
        the test flagged ``not_plain_data`` where it is not plain data: then it equals no value of
        the test's, and has no order with one."""
        value = self._op("value")
        if type(value) is Remote:
            self._channel.flags.add("not_plain_data")  # a test compared an object of the program's
            return None
        return (value,)

    def _compare(self, name: str, other, reflected: bool = False):
        """A comparison: of two objects of the program's, the program's own (as in one process);
        with a value of the test's, the plain value compared here."""
        if type(other) is Remote:
            return self._op("binop", (name, other, reflected))
        value = self._value()
        if value is None:
            if name in ("eq", "ne"):
                return name == "ne"
            raise TypeError(f"{name!r} is not supported between the program's {self._kind} and a value")
        return _COMPARE[name](other, value[0]) if reflected else _COMPARE[name](value[0], other)

    def __eq__(self, other):
        return other._ref == self._ref or self._compare("eq", other) if type(other) is Remote \
            else self._compare("eq", other)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __lt__(self, other):
        return self._compare("lt", other)

    def __le__(self, other):
        return self._compare("le", other)

    def __gt__(self, other):
        return self._compare("gt", other)

    def __ge__(self, other):
        return self._compare("ge", other)

    def _unary(self, name: str, kinds: tuple[type, ...]):
        value = self._op("unop", (name,))
        if type(value) not in kinds:
            raise TypeError(f"the program's {self._kind} answered {name}() with what is not "
                            f"{' or '.join(k.__name__ for k in kinds)}")
        return value

    def __neg__(self):
        return self._op("unop", ("neg",))

    def __pos__(self):
        return self._op("unop", ("pos",))

    def __abs__(self):
        return self._op("unop", ("abs",))

    def __invert__(self):
        return self._op("unop", ("invert",))

    def __int__(self) -> int:
        return self._unary("int", (int,))

    def __float__(self) -> float:
        return self._unary("float", (float,))

    def __index__(self) -> int:
        return self._unary("index", (int,))

    def __round__(self, ndigits=None):
        return self._op("unop", ("round",)) if ndigits is None else self._op("binop", ("round", ndigits, False))

    def __hash__(self) -> int:
        return hash(self._ref)

    def __repr__(self) -> str:
        return f"<the program's {self._kind}>"


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
    """``Remote.__add__`` and its kin: done by the program, in its process (its operators are its
    own, as in one process); the result comes back as plain data or a handle."""

    def method(self, other):
        return self._op("binop", (name, other, reflected))

    method.__name__ = f"__{'r' if reflected else ''}{name.rstrip('_')}__"
    return method


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_", "xor", "lshift",
              "rshift"):
    setattr(Remote, f"__{_name.rstrip('_')}__", _operator(_name, False))
    setattr(Remote, f"__r{_name.rstrip('_')}__", _operator(_name, True))
_COMPARE = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
            "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b}


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
