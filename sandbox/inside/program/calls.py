"""Serving the judge's calls: the program's side of one ``assert`` test.

The judge (a trusted process of another user) runs the test's code; each use of a name of the
program's there becomes a request here, on a pair of pipes of this test's own. Frames both ways:
a 4-byte little-endian length, then the payload.

Down (judge -> here), ``marshal`` (version 2) tuples:
    ``("op", seq, op, ref, payload)``: do ``op`` to the program's object ``ref`` (``("g", name)``,
        a global of the program's, or ``("h", number)``, an object the judge holds a handle to):
        ``call`` (payload ``(args, kwargs)``), ``method`` (``(args, kwargs, name, margs,
        mkwargs)``: call, then call a method of the result), ``getattr``/``delattr`` (``(name,)``),
        ``setattr`` (``(name, value)``), ``len``, ``iter``, ``getitem``/
        ``delitem`` (``(key,)``), ``setitem`` (``(key, value)``), ``str``, ``bool``,
        ``isinstance`` (``(value,)``: is ``value`` an instance of ``ref``?), ``binop`` (``(name,
        other, reflected)``: an operator of the ``operator`` module, ``ref`` its left operand or,
        ``reflected``, its right one), ``unop`` (``(name,)``: ``neg``, ``pos``, ``abs``, ``invert``,
        ``int``, ``float``, ``index``, ``round``), ``value`` (``ref`` itself: plain data comes back
        as its value, anything else as a handle), ``next`` (``(n,)``: ``[items, done]``, the next
        ``n`` items of an iterator at most, and whether it ended), ``lineage`` (for an exception
        class: ``[builtin base, [its own classes, nearest first]]``, else null). ``iter`` gives a
        plain container's items as a list, and a handle to a fresh iterator of anything else
        (the judge then asks ``next`` for batches that double from one: an endless generator
        computes at most twice the items the test takes).
    ``("ret", seq, value)`` or ``("raise", seq, kind, message)``: the answer to a callback.
    Values travel as ``(marked, data)``: plain data; where ``marked``, a handle the judge holds or a
    callable of the judge's inside ``data`` is ``(REF_MARK, "h", number)`` (``"g", name`` for a global
    of the program's) or ``(REF_MARK, "k", number)``.

Up (here -> judge), tagged JSON (``encode``; objects that are not plain data as handles):
    ``[0, "ready"]`` first: the program's top level has run (the judge passes no test before it);
    ``[seq, "ok", value, arg_states, kwarg_states]`` (the arguments after the call, when it
    changed them, so that in-place changes reach the judge; else nulls), ``[seq, "raised", bases,
    message, own classes, args, attributes, own str]`` (``exception_parts``: the exception's
    builtin bases, the names of the program's own classes above it, nearest first, and what it
    needs to be rebuilt in the judge), ``[seq, "unreadable", why]`` (an answer that nests deeper
    or is larger than the judge reads: the test fails), ``[seq, "exit"]``,
    ``[seq, "memory"]``;
    ``[seq, "callback", number, args, kwargs]``: the program calls a callable of the judge's
    (``Callback``); the judge runs it and answers down, serving any call it makes meanwhile.

Nothing here is believed: the judge reads every frame strictly (``values.decode_value``), and
what the program answers is its answer. At end of file (the test is over) the process exits.
"""

from __future__ import annotations

import marshal
import math
import operator
import os
from _json import encode_basestring_ascii as _encode_str
from typing import Any

from ..procs import REF_MARK, REPLY_LIMIT
from .encode import CALLBACK_TYPE, Handles, NotPlainData, encode_value
from .errors import exception_message

MAX_NESTING = 60  # calls inside callbacks inside calls
_MUTABLE = frozenset({list, dict, set, bytearray})
BUILTIN_EXCEPTIONS = frozenset(name for name, value in vars(__import__("builtins")).items()
                                if isinstance(value, type) and issubclass(value, BaseException))
PLAIN_CONTAINERS = (list, tuple, dict, set, frozenset, str, bytes, bytearray, range)  # iterated at once
# A plain type's subclass (a Counter, a NamedTuple, an IntEnum) as the plain value it holds: read by
# the plain type's own code, never by the subclass's (its value is data, compared in the judge).
PLAIN_BASES: tuple[tuple[type, Any], ...] = (
    (bool, bool.__bool__), (int, int.__int__), (float, float.__float__), (complex, complex.__complex__),
    (str, str.__str__), (bytes, bytes), (bytearray, bytearray), (tuple, tuple), (list, list), (dict, dict.copy),
    (frozenset, frozenset), (set, set))
OPERATORS: dict[str, Any] = {name: getattr(operator, name) for name in (
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_", "xor", "lshift", "rshift",
    "lt", "le", "gt", "ge", "eq", "ne", "iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow", "imatmul",
    "iand", "ior", "ixor", "ilshift", "irshift", "contains")} | {"round": round, "divmod": divmod}
UNARY: dict[str, Any] = {"neg": operator.neg, "pos": operator.pos, "abs": abs, "invert": operator.invert, "int": int,
                         "float": float, "index": operator.index, "round": round, "floor": math.floor,
                         "ceil": math.ceil, "trunc": math.trunc, "hash": hash}
LINEAGE_LIMIT = 8  # classes of the program's own above a builtin exception that the judge rebuilds
ATTRIBUTES_LIMIT = 16  # attributes of an exception the judge gets
OWN_STR_LIMIT = 10_000  # characters of what an exception's own ``__str__`` said that the judge gets


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


def lineage(cls) -> list:
    """``[builtin bases, own classes]`` of an exception class, what the judge rebuilds it from
    (``judge.remote.Channel.exception_class``): the builtin exception classes of its MRO that are
    no base of another of them (``KeyError`` and ``ValueError`` for ``class E(KeyError,
    ValueError)``), and its own classes' ``[module, qualified name]``, nearest first."""
    builtins_of: list[type] = []
    own: list[list[str]] = []
    try:
        for klass in cls.__mro__:
            if klass.__module__ == "builtins":
                if klass.__name__ in BUILTIN_EXCEPTIONS and not any(issubclass(b, klass) for b in builtins_of):
                    builtins_of.append(klass)
            elif len(own) < LINEAGE_LIMIT:
                own.append([str.__str__(klass.__module__), str.__str__(klass.__qualname__)])
    except BaseException:  # noqa: BLE001 - a class of the program's that will not say: a plain Exception
        return [["Exception"], []]
    return [[b.__name__ for b in builtins_of] or ["Exception"], own]


def own_str(e: BaseException) -> str | bool | None:
    """``str(e)`` where a class of the program's, not a builtin, defines ``__str__`` (the judge's
    copy of the class cannot run it), clipped to ``OWN_STR_LIMIT`` characters; False where that
    ``__str__`` raises (so does ``str`` of the judge's copy); else None."""
    try:
        for klass in type(e).__mro__:
            if "__str__" in klass.__dict__:
                return None if klass.__module__ == "builtins" else str.__str__(str(e))[:OWN_STR_LIMIT]
    except BaseException:  # noqa: BLE001 - a ``__str__`` that raises, or a class that will not say
        return False
    return None


def exception_parts(e: BaseException) -> str:
    """The tail of a ``raised`` answer: ``builtin bases, message, own classes, args, attributes,
    own str`` (tagged JSON): ``args`` and the plain attributes of the exception, for the judge to
    build it with (what ``str`` of it and its own attributes say, as the program's), and what its
    own ``__str__`` said (``own_str``)."""
    bases, own = lineage(type(e))
    try:
        args = encode_value(list(e.args))
    except BaseException:  # noqa: BLE001 - args that are not plain data: the message stands for them
        args = encode_value([BaseException.__str__(e)]) if isinstance(e, BaseException) else "[]"
    attributes = {}
    try:
        for key, value in list(vars(e).items())[:ATTRIBUTES_LIMIT]:
            if type(key) is str and not key.startswith("_"):
                try:
                    encode_value(value)
                    attributes[key] = value
                except NotPlainData:
                    pass
    except BaseException:  # noqa: BLE001 - no attributes it will give
        attributes = {}
    own_text = own_str(e)
    return (encode_value(bases) + ", " + _encode_str(exception_message(e)) + ", " + encode_value(own) + ", "
            + args + ", " + encode_value(attributes) + ", "
            + (_encode_str(own_text) if type(own_text) is str else "false" if own_text is False else "null"))


class _Exit(BaseException):
    """The judge's end of the pipes closed: the test is over."""


class Server:
    """One test's serving: the program's globals, its handles, the pipes."""

    def __init__(self, call_fd: int, reply_fd: int, namespace: dict, monitor, restore):
        self.call_fd, self.reply_fd, self.namespace, self.monitor = call_fd, reply_fd, namespace, monitor
        self.restore = restore  # undo the program's changes to builtins before our code runs on
        self.handles = Handles()
        self.buffer = b""
        self.up_seq = 0
        self.depth = 0
        self.kept: list = []  # nothing received is freed before exit: each free can copy a page
        self.raised: dict = {}  # an iterator's exception held back until its items before it are taken

    # -- frames ------------------------------------------------------------------------------

    def receive(self, _read=os.read, _from_bytes=int.from_bytes, _len=len, _loads=marshal.loads):
        """The next message from the judge; raises ``_Exit`` at end of file."""
        while _len(self.buffer) < 4 or _len(self.buffer) < 4 + _from_bytes(self.buffer[:4], "little"):
            more = _read(self.call_fd, 1 << 16)
            if not more:
                raise _Exit()
            self.buffer += more
        size = _from_bytes(self.buffer[:4], "little")
        frame, self.buffer = self.buffer[4:4 + size], self.buffer[4 + size:]
        message = _loads(frame)
        self.kept.append(message)
        return message

    def send(self, text: str, _encode=str.encode, _to_bytes=int.to_bytes, _len=len, _write=os.write) -> None:
        """Write one answer to the judge: its length (4 bytes, little-endian), then its UTF-8 text."""
        data = _encode(text)
        data = _to_bytes(_len(data), 4, "little") + data
        while data:
            data = data[_write(self.reply_fd, data):]

    # -- the loop ----------------------------------------------------------------------------

    def serve(self) -> None:
        """Answer the judge until it closes the pipes."""
        while True:
            message = self.receive()
            if message[0] == "op":
                self.answer(message)

    def answer(self, message, _repr=int.__repr__, _type=type, _len=len) -> None:
        """Do one ``op`` request and send its answer up."""
        _, seq, op, ref, payload, forgotten = message
        for number in forgotten:  # the test no longer holds them: freed as in one process
            self.handles.forget(number)
        head = "[" + _repr(seq) + ", "
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                raise RecursionError("calls and callbacks nest too deeply")
            payload = self.unmark(payload)
            self.kept.append(payload)
            value, states = self.do(op, ref, payload)
            reply = head + '"ok", ' + encode_value(value, self.handles) + ", " + states + "]"
        except _Exit:
            raise
        except SystemExit:
            self.restore()
            self.monitor.flag("early_exit")
            self.send(head + '"exit"]')
            raise _Exit() from None
        except MemoryError:
            self.restore()
            reply = head + '"memory"]'
        except NotPlainData as e:  # nests deeper than the judge reads
            self.restore()
            self.monitor.flag("not_plain_data")
            reply = head + '"unreadable", ' + _encode_str(str(e)) + "]"
        except BaseException as e:  # noqa: BLE001 - the program's exception is the call's answer
            self.restore()
            reply = head + '"raised", ' + exception_parts(e) + "]"
        finally:
            self.depth -= 1
        if _len(reply) > REPLY_LIMIT:
            reply = head + '"unreadable", "the answer is larger than the judge reads"]'
        self.send(reply)

    def do(self, op: str, ref, payload, _getattr=getattr, _setattr=setattr, _delattr=delattr, _len=len,
           _list=list, _str_of=str.__str__, _str=str, _bool=bool, _isinstance=isinstance, _issubclass=issubclass,
           _type=type, _iter=iter, _next=next, _range=range, _dumps=marshal.dumps) -> tuple[object, str]:
        """``op`` on ``ref``: the value, and the arguments' states after a call (tagged JSON)."""
        target = self.resolve(ref)
        if op == "call" or op == "method":
            args, kwargs = payload[0], payload[1]
            before = self.snapshot(args, kwargs)
            value = target(*args, **kwargs)
            if op == "method":
                value = _getattr(value, payload[2])(*payload[3], **payload[4])
            return value, self.states(args, kwargs, before)
        if op == "getattr":
            return _getattr(target, payload[0]), "null, null"
        if op == "setattr":
            _setattr(target, payload[0], payload[1])
            return None, "null, null"
        if op == "delattr":
            _delattr(target, payload[0])
            return None, "null, null"
        if op == "len":
            return _len(target), "null, null"
        if op == "iter":
            return (_list(target) if _type(target) in PLAIN_CONTAINERS else _iter(target)), "null, null"
        if op == "next":
            held = self.raised.pop(ref, None)  # what the iterator raised after the last batch's items
            if held is not None:
                raise held
            items: list = []
            for _ in _range(payload[0]):
                try:
                    items.append(_next(target))
                except StopIteration:
                    return (items, True), "null, null"
                except BaseException as e:
                    if not items:
                        raise
                    self.raised[ref] = e  # the items it gave first reach the test first
                    break
            return (items, False), "null, null"
        if op == "binop":
            name, other, reflected = payload
            return (OPERATORS[name](other, target) if reflected else OPERATORS[name](target, other)), "null, null"
        if op == "unop":
            return UNARY[payload[0]](target), "null, null"
        if op == "value":
            return plain_value(target), "null, null"
        if op == "lineage":
            is_exception = _isinstance(target, _type) and _issubclass(target, BaseException)
            return (lineage(target) if is_exception else None), "null, null"
        if op == "repr":
            return _str_of(repr(target)), "null, null"
        if op == "format":
            return _str_of(format(target, payload[0])), "null, null"
        if op == "arun":
            import asyncio

            return asyncio.run(target), "null, null"
        if op == "getitem":
            return target[payload[0]], "null, null"
        if op == "setitem":
            target[payload[0]] = payload[1]
            return None, "null, null"
        if op == "delitem":
            del target[payload[0]]
            return None, "null, null"
        if op == "str":
            return _str_of(_str(target)), "null, null"
        if op == "bool":
            return _bool(target), "null, null"
        if op == "isinstance":
            return _isinstance(payload[0], target), "null, null"
        raise TypeError(f"the judge asked for {op!r}, which the program's process does not do")

    def resolve(self, ref):
        """The program's object that ``ref`` names."""
        kind, key = ref
        if kind == "g":
            if key not in self.namespace:
                raise NameError(f"name {key!r} is not defined")
            return self.namespace[key]
        return self.handles.objects[key]

    # -- arguments ---------------------------------------------------------------------------

    def snapshot(self, args, kwargs, _dumps=marshal.dumps) -> bytes | None:
        """The arguments' bytes before a call (None if they hold what ``marshal`` cannot write)."""
        try:
            return _dumps((args, kwargs), 2)
        except ValueError:
            return None

    def states(self, args, kwargs, before, _type=type, _join=", ".join, _items=dict.items) -> str:
        """``arg_states, kwarg_states`` after a call: each mutable argument's value if the call may
        have changed it (else null), as tagged JSON; both null if nothing changed."""
        if before is not None and self.snapshot(args, kwargs) == before:
            return "null, null"
        handles = self.handles

        def state(v) -> str:
            return encode_value(v, handles) if _type(v) in _MUTABLE else "null"

        arg_states = "[" + _join(state(v) for v in args) + "]"
        kw_states = "[" + _join("[" + _encode_str(k) + ", " + state(v) + "]" for k, v in _items(kwargs)) + "]"
        return arg_states + ", " + kw_states

    def unmark(self, value):
        """``(marked, data)`` from the judge, with its reference marks made real if ``marked``: a
        handle the judge holds becomes the program's object again, a callable of the judge's a
        ``Callback``."""
        marked, data = value
        return self._unmark(data) if marked is True else data

    def _unmark(self, v, _type=type, _len=len, _tuple=tuple):
        t = _type(v)
        if t is tuple:
            if _len(v) == 3 and v[0] == REF_MARK:
                return Callback(self, v[2]) if v[1] == "k" else self.resolve((v[1], v[2]))
            if _len(v) == 5 and v[0] == REF_MARK and v[1] == "s":
                return slice(self._unmark(v[2]), self._unmark(v[3]), self._unmark(v[4]))
            return _tuple(self._unmark(x) for x in v)
        if t is list:
            return [self._unmark(x) for x in v]
        if t is dict:
            return {self._unmark(k): self._unmark(x) for k, x in v.items()}
        if t is set or t is frozenset:
            return t(self._unmark(x) for x in v)
        return v

    # -- callbacks ---------------------------------------------------------------------------

    def callback(self, number: int, args: tuple, kwargs: dict, _repr=int.__repr__, _list=list, _dict=dict,
                 _builtins=vars(__import__("builtins")), _isinstance=isinstance, _issubclass=issubclass,
                 _type=type, _runtime=RuntimeError, _exception=Exception):
        """Call the judge's callable ``number`` and wait for its answer, serving the calls it makes."""
        self.up_seq += 1
        seq = self.up_seq
        self.send("[" + _repr(seq) + ', "callback", ' + _repr(number) + ", " + encode_value(_list(args), self.handles)
                  + ", " + encode_value(_dict(kwargs), self.handles) + "]")
        while True:
            message = self.receive()
            if message[0] == "op":
                self.answer(message)
            elif message[1] == seq and message[0] == "ret":
                return self.unmark(message[2])
            elif message[1] == seq and message[0] == "raise":
                error = _builtins.get(message[2])
                if not (_isinstance(error, _type) and _issubclass(error, _exception)):
                    error = _runtime
                raise error(message[3])


class Callback:
    """A callable of the judge's (a test's lambda, a function it defines), as the program sees it:
    calling it runs it in the judge."""

    __slots__ = ("number", "server")

    def __init__(self, server: Server, number: int):
        self.number, self.server = number, server

    def __call__(self, *args, **kwargs):
        """Have the judge run the test's callable, and return what it returned."""
        return self.server.callback(self.number, args, kwargs)

    def __repr__(self) -> str:
        return "<a callable of the test's>"


CALLBACK_TYPE[0] = Callback


def serve_calls(call_fd: int, reply_fd: int, namespace: dict, monitor, restore) -> None:
    """Answer the judge's calls of the program's names for one ``assert`` test until the judge
    closes the pipes (the caller flushes the program's output and exits)."""
    server = Server(call_fd, reply_fd, namespace, monitor, restore)
    try:
        server.send('[0, "ready"]')  # the program's top level has run: the judge waits for this first
        server.serve()
    except (_Exit, OSError):  # the judge is done (or gone: the runner sees it)
        pass
