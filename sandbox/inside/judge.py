"""The judge: a trusted process that runs ``assert`` tests and checkers; the program only answers calls.

Stdlib only. The fork server forks it (mode ``judge``) as a child of the runner; it becomes a user
of its own (``procs.JUDGE_UID``), so no process of the program's can signal it, trace it, read its
memory or change its limits, and it never runs the program's code. It holds the test code and so
the expected values; the program's process never sees either.

Each test's code runs here with pristine builtins and standard library, in a fresh namespace:
the task's test setup (helpers the task's prompt defines, its prelude's imports), run anew for
every test so that no test sees what another changed; the standard modules the test names
without importing; and, for each name the program defines (the entry point, ``candidate``, a
class), a ``Remote``. What the test does with a ``Remote`` becomes a request to the program's test
process (``program.calls``): calling it, calling what it returned, reading its attributes,
iterating it. Values cross as plain data, read strictly (``values.decode_value``); an object of
the program's stays there and the test holds a handle (another ``Remote``), which compares by
identity only, so no ``__eq__`` of the program's ever decides a comparison; a callable of the
test's handed to the program stays here and runs here when the program calls it. Arguments the
program changed in place are updated here. A program whose process ends during a call fails the
test whatever the test catches, and so does an exception that would steer the test's control
flow (``StopIteration`` ending a ``map`` early, as PEP 479 rules for generators).

It lives as long as the container's fork server: it judges job after job (a job's tests replace
the last job's), and a job whose test breaks a limit has it killed with everything else (the
runner starts a new one). Protocol (``messages``): on its request socket (fd ``ctl_fd``) the
runner sends ``JudgeJob`` per job, then ``JudgeTest`` per ``assert`` test with the test's call
and reply pipe ends as SCM_RIGHTS, and ``JudgeCheck`` per ``stdio`` test of a task with a
checker. For each it writes a ``verdict`` record on its result channel (and closes a test's pipes:
the program's test process then exits). At end of file it exits.

A checker (``check(input, output, expected)``, the task's code) runs here too: True or 1 passes,
False or 0 fails, a number in between is partial credit. A checker that raises, or answers
anything else, on a program's output fails the test and flags it (``checker_fault``): ``tasks
validate`` has run it on malformed outputs, so what breaks it now is the program's doing. One that
does not load is the task's fault (``checker_error``).
"""

from __future__ import annotations

import _socket
import builtins
import marshal
import os
import resource
import sys
from typing import NoReturn

from .procs import JUDGE_UID, REF_MARK, REPLY_LIMIT, recv_message, set_dumpable, setup_child
from .records import MESSAGE_LIMIT, PROGRAM_ENDED, VERDICT, clip, record_line, write_all
from .values import NotPlain, decode_value, non_finite

METHOD_CALL = "__grpo_method__"  # guard.METHOD_CALL (``guard`` imports ``ast``: not loaded here)
MAX_NESTING = 60
ITEMS_BATCH = 4096  # items of a program's iterator fetched in one round trip, at most
_BUILTINS = vars(builtins)
# Exceptions that steer control flow where a test does not expect them: raised by the program,
# they reach the test as ``ProgramError`` (as PEP 479 turns StopIteration into RuntimeError).
_STEERING = frozenset({"StopIteration", "StopAsyncIteration", "GeneratorExit", "KeyboardInterrupt", "SystemExit"})
_EXCEPTIONS = {name: value for name, value in vars(builtins).items()
               if isinstance(value, type) and issubclass(value, Exception) and name not in _STEERING}


class ProgramError(Exception):
    """An exception the program raised that is not a builtin one, or that would steer the test's
    control flow (its type name is in the message)."""


class _Stop(BaseException):
    """The test cannot go on: the program's process ended, or answered what cannot be read.

    A BaseException, so that a test's ``except Exception`` does not swallow it; and whatever a
    test catches, the outcome stays (``Channel.outcome``)."""


class CannotCross(TypeError):
    """The test passed an argument that cannot cross (the task's fault, the same for every program)."""


class Channel:
    """One test's pipes to the program's test process; ``outcome`` holds a failure that no test
    code can undo: ``(status, message)``."""

    def __init__(self, call_fd: int, reply_fd: int, allow_non_finite: bool = False,
                 exception_classes: dict | None = None):
        self.call_fd, self.reply_fd = call_fd, reply_fd
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
            _Stop: the program's process ended, or answered what cannot be read.
        """
        if self.outcome is not None:
            raise _Stop()
        if self.depth >= MAX_NESTING:
            raise RecursionError("calls and callbacks nest too deeply")
        self.seq += 1
        seq = self.seq
        self.calls += 1
        self._send(marshal.dumps(("op", seq, op, ref, self.encode(payload, name)), 2))
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
        answer: tuple
        try:
            value = self.callbacks[number](*args, **kwargs)
            answer = ("ret", seq, self.encode(value, "the test's callback"))
        except _Stop:
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
        raise _Stop()

    def hello(self) -> None:
        """Wait for the program's process to say it ran its top level (``[0, "ready"]``); if it ends
        first, the test cannot pass whatever it does (``outcome``)."""
        try:
            reply = self._reply()
        except _Stop:
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
            if not _may_call_back(v):
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
        raise _Stop()


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


# Callables of the judge's a program may call back: the test's own (its code runs with what the
# program passes, as the test wrote it) and builtins that only compute. Never what runs code the
# program gives (eval, exec, compile, __import__), reaches the judge's files or frames (open,
# globals, vars, breakpoint), or reads and changes any object by name (getattr, setattr, ...).
_SAFE_BUILTINS = frozenset({
    "abs", "all", "any", "ascii", "bin", "bool", "bytes", "callable", "chr", "complex", "dict", "divmod",
    "enumerate", "filter", "float", "format", "frozenset", "hash", "hex", "int", "isinstance", "issubclass",
    "iter", "len", "list", "map", "max", "min", "next", "oct", "ord", "pow", "range", "repr", "reversed",
    "round", "set", "slice", "sorted", "str", "sum", "tuple", "zip"})
_SAFE_MODULES = frozenset({"math", "cmath", "operator", "_operator", "string", "statistics", "fractions",
                           "decimal", "_decimal", "_pydecimal", "heapq", "_heapq", "bisect", "_bisect"})
_TEST_FILES = frozenset({"<test>", "<setup>"})


_PLAIN_OWNERS = (list, dict, set, bytearray, str, bytes, int, float, tuple, frozenset)


def _may_call_back(fn) -> bool:
    """Whether the program may call ``fn``, a callable of the judge's that a test hands it."""
    method = getattr(fn, "__func__", None)
    if method is not None:  # a bound method of Python code: as its function
        return _may_call_back(method)
    code = getattr(fn, "__code__", None)
    if code is not None:  # a function or lambda: the test's own, or a module's pure Python function
        return code.co_filename in _TEST_FILES or getattr(fn, "__module__", None) in _SAFE_MODULES
    if isinstance(fn, type):  # a class: the test's own, or a builtin type
        return fn.__module__ == "__test__" or fn.__module__ in _SAFE_MODULES or (
            fn.__module__ == "builtins" and fn.__name__ in _SAFE_BUILTINS)
    owner = getattr(fn, "__self__", None)
    if owner is not None and not isinstance(owner, type(builtins)):  # a builtin method: of plain data only
        return type(owner) in _PLAIN_OWNERS
    module = getattr(fn, "__module__", None)
    return getattr(fn, "__name__", "") in _SAFE_BUILTINS if module == "builtins" else module in _SAFE_MODULES


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


def _assert_message(exc: AssertionError, code: str, tb) -> str:
    text = str(exc)
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<test>":
            line = tb.tb_lineno
        tb = tb.tb_next
    source = ""
    lines = code.splitlines()
    if line is not None and 0 < line <= len(lines):
        source = lines[line - 1].strip()
    return clip(f"AssertionError: {text or source}", MESSAGE_LIMIT)


def _describe(exc: BaseException) -> str:
    try:
        text = str(exc)
    except BaseException:  # noqa: BLE001 - cannot be shown
        text = ""
    name = type(exc).__name__ if not isinstance(exc, ProgramError) else "the program raised"
    return clip(f"{name}: {text}" if text else name, MESSAGE_LIMIT)


class Job:
    """A job's tests as the judge holds them: its test setup (compiled once, run anew per test),
    its judged tests, its checker."""

    def __init__(self, setup: str | None, tests: list, checker: str | None, pristine: dict,
                 allow_non_finite: bool = False):
        self.tests, self.pristine, self.allow_non_finite = tests, pristine, allow_non_finite
        self.exception_classes: dict = {}  # the program's exception classes, as the judge made them
        self.setup_code, self.setup_error = None, None
        if setup is not None:
            try:
                self.setup_code = compile(setup, "<setup>", "exec", dont_inherit=True)
            except BaseException as e:  # noqa: BLE001 - the task's setup is broken: every test says so
                self.setup_error = f"the task's test setup failed: {_describe(e)}"
        self.check = _load_checker(checker, pristine)

    def namespace(self) -> dict:
        """A fresh namespace with the task's test setup run in it.

        Raises:
            _SetupFailed: the setup raised (the task's fault: every test says so).
        """
        namespace = {"__builtins__": builtins, "__name__": "__test__"}
        if self.setup_error is not None:
            raise _SetupFailed(self.setup_error)
        if self.setup_code is not None:
            try:
                exec(self.setup_code, namespace)
            except BaseException as e:  # noqa: BLE001 - the task's setup is broken
                raise _SetupFailed(f"the task's test setup failed: {_describe(e)}") from None
            finally:
                _restore(self.pristine)
        return namespace


class _SetupFailed(Exception):
    """The task's test setup failed (its message says how)."""


def run_test(job: Job, test: tuple, call_fd: int, reply_fd: int) -> tuple[str, str, Channel]:
    """Run one test's code against the program (through ``call_fd``/``reply_fd``).

    Returns:
        ``(status, message, channel)``: ``passed``, ``failed`` (an assertion failed, or the
        program answered what cannot be read), ``runtime_error`` (the test raised: often an
        exception of the program's, passed on), ``memory_limit`` or ``program_ended``.
    """
    code, names, imports, source, catches = test
    channel = Channel(call_fd, reply_fd, job.allow_non_finite, job.exception_classes)
    try:
        namespace = job.namespace()
    except _SetupFailed as e:
        return "runtime_error", str(e), channel
    for module in imports:
        try:
            namespace[module] = __import__(module)
        except ImportError:
            pass
    for name in names:
        namespace[name] = Remote(channel, ("g", name), name)

    def method_call(name, args, kwargs, method, margs, mkwargs):
        return channel.op("method", ("g", name), (args, kwargs, method, margs, mkwargs), name)

    namespace[METHOD_CALL] = method_call  # test code's Name(...).method(...) (guard.METHOD_CALL)
    status, message = "passed", ""
    channel.hello()
    if channel.outcome is not None:
        return (*channel.outcome, channel)
    try:
        for name in catches:  # an exception class of the program's that the test catches by name
            error = channel.exception_class(channel.op("lineage", ("g", name), (), name))
            if error is not None:
                namespace[name] = error
        exec(code, namespace)
    except _Stop:
        pass
    except AssertionError as e:
        status, message = "failed", _assert_message(e, source, e.__traceback__)
    except MemoryError:
        status, message = "memory_limit", "MemoryError: memory limit reached"
    except BaseException as e:  # noqa: BLE001 - any exception of the test is its outcome
        status, message = "runtime_error", _describe(e)
    finally:
        _restore(job.pristine)  # the test's own changes to builtins stop with it
    if channel.outcome is not None:
        status, message = channel.outcome
    return status, message, channel


def _restore(pristine: dict, _clear=_BUILTINS.clear, _update=_BUILTINS.update) -> None:
    _clear()
    _update(pristine)


def _load_checker(source: str | None, pristine: dict):
    """The task's ``check`` function, or why there is none usable (a string)."""
    if source is None:
        return None
    namespace = {"__builtins__": builtins, "__name__": "__checker__"}
    try:
        exec(compile(source, "<checker>", "exec", dont_inherit=True), namespace)
    except BaseException as e:  # noqa: BLE001 - the task's checker is broken: every check says so
        return f"the task's checker failed to load: {_describe(e)}"
    finally:
        _restore(pristine)
    check = namespace.get("check")
    return check if callable(check) else "the task's checker defines no check(input, output, expected)"


def run_check(check, stdin: str, output: str, expected: str, pristine: dict) -> tuple[str, str, str, str]:
    """Judge a ``stdio`` test's output with the task's checker (``_load_checker``).

    Returns:
        ``(status, message, score, flags)``: ``passed``, ``failed`` (``score``, as text, is
        partial credit in (0, 1) when the checker gave one, else empty; ``flags`` is
        ``checker_fault`` when the checker raised or answered nonsense on this output) or
        ``checker_error`` (the checker does not load: the task's fault).
    """
    if check is None or isinstance(check, str):
        return "checker_error", check or "the job has no checker", "", ""
    try:
        value = check(stdin, output, expected)
    except BaseException as e:  # noqa: BLE001 - the program's output broke the checker
        return "failed", clip(f"the program's output made the task's checker raise {_describe(e)}",
                              MESSAGE_LIMIT), "", "checker_fault"
    finally:
        _restore(pristine)
    if type(value) is bool:
        return ("passed", "", "", "") if value else ("failed", "the task's checker rejected the output", "", "")
    if type(value) in (int, float) and 0 <= value <= 1:
        if value == 1:
            return "passed", "", "", ""
        if value == 0:
            return "failed", "the task's checker rejected the output", "", ""
        return "failed", f"the task's checker gave partial credit ({float(value):g})", repr(float(value)), ""
    try:
        shown = clip(repr(value), 60)
    except BaseException:  # noqa: BLE001
        shown = type(value).__name__
    return "failed", clip(f"the task's checker answered {shown} on the program's output, not a bool nor a "
                          "number in [0, 1]", MESSAGE_LIMIT), "", "checker_fault"


def judge_main(p: dict) -> None:
    """The judge process: forked by the fork server for ``p`` (mode ``judge``). Never returns."""
    try:
        result_fd = setup_child(p, JUDGE_UID)  # a user of its own: no process of the program's can reach it
        set_dumpable(0)
        os.environ["TMPDIR"] = p["workdir"]  # its own tmpfs: a program can neither read nor fill it
        sys.setrecursionlimit(4000)
        sock = _socket.socket(fileno=p["ctl_fd"])
        own_size = p["limits"].get("own_bytes", 0)
        pristine = dict(_BUILTINS)
        job = Job(None, [], None, pristine)
        while True:
            message = recv_message(sock)
            if message is None:
                os._exit(0)
            data, fds = message
            request = marshal.loads(data)
            if request[0] == "job":
                _, setup, tests, memory_bytes, checker, allow_non_finite = request
                resource.setrlimit(resource.RLIMIT_AS, (own_size + memory_bytes, resource.RLIM_INFINITY))
                job = Job(setup, tests, checker, pristine, allow_non_finite)
                continue
            if request[0] == "check":
                _, nonce, stdin, output, expected = request
                status, text, score, flags = run_check(job.check, stdin, output, expected, pristine)
                write_all(result_fd, record_line(VERDICT, nonce, {"status": status, "message": text, "calls": 0,
                                                                  "flags": flags, "score": score}))
                continue
            _, nonce, index = request
            call_fd, reply_fd = fds
            status, text, channel = run_test(job, job.tests[index], call_fd, reply_fd)
            os.close(call_fd)  # the program's test process sees end of file and exits
            os.close(reply_fd)
            write_all(result_fd, record_line(VERDICT, nonce, {"status": status, "message": text,
                                                              "calls": channel.calls,
                                                              "flags": ",".join(sorted(channel.flags)),
                                                              "score": ""}))
    except BaseException as e:  # noqa: BLE001 - a broken judge stops; the runner sees it go
        try:
            import traceback

            os.write(2, "".join(traceback.format_exception(e)).encode())
        finally:
            os._exit(70)
