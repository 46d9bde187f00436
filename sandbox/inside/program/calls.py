"""Serving the judge's calls: the program's side of one judged test (``serve_calls``).

The judge (a trusted process of another user) runs the test's code; each use of a name of the
program's there becomes a request here, on a pair of pipes of this test's own. Frames both ways:
a 4-byte little-endian length, then the payload. What crosses has one owner per kind: values
down (``receive``), values up (``encode``), exceptions (``lineage``), argument states (here:
``Server.sync_up``, the judge's side is ``judge.states``).

Down (judge -> here), ``marshal`` (version 4: one object passed twice arrives as one):
    ``("op", seq, op, ref, payload, forgotten, updates)``: do ``op`` to the program's object ``ref``
        (``("g", name)``, a global of the program's, or ``("h", number)``, an object the judge holds
        a handle to), after letting go of the handles the test no longer holds (``forgotten``) and
        making each container the program kept hold what the test's now holds (``updates``, a
        crossing of ``m`` marks, or None): ``call`` (payload ``(args, kwargs)``), ``method``
        (``(args, kwargs, name, margs, mkwargs)``: call, then call a method of the result: one call
        of the program's, as ``P(a).m(b)`` is in one process), ``getattr`` (``(name,)``, or ``(name,
        budget)``: the answer comes after the attributes of at most ``budget`` objects, ``states``
        below), ``delattr`` (``(name,)``), ``setattr`` (``(name, value)``), ``len``, ``iter``, ``getitem``/``delitem``
        (``(key,)``), ``setitem`` (``(key, value)``), ``str``, ``repr``, ``format`` (``(spec,)``),
        ``bool``, ``isinstance`` (``(value,)``: is ``value`` an instance of ``ref``?), ``subclass``
        (``(cls,)``: is ``cls`` a subclass of ``ref``?), ``type`` (``ref``'s class: a global's name where
        it is one, ``{"G": name}``), ``vars``, ``enter`` and ``exit`` (``(type, value, traceback)``: a
        ``with`` block on ``ref``), ``reversed``, ``anext`` (the next item of an async iterator),
        (``(name, other, reflected)``), ``unop`` (``(name,)``), ``value`` (``ref`` itself as plain
        data where it is an instance of a plain type's subclass), ``next`` (``(n, certain)``: the next
        ``n`` items of an iterator at most, each written as it is taken; all ``n`` where ``certain``,
        the test takes them all, else more than one only where the generator may run ahead of the
        test: ``Server.items``), ``signature`` (``inspect.signature`` of ``ref`` as data:
        ``(parameters, return annotation)``, each parameter ``(name, kind, (default,) or (),
        (annotation,) or ())``), ``lineage`` (for an exception
        class: ``[builtin bases, own classes]``, else null), ``copy`` and ``deepcopy`` (a copy, by the
        ``copy`` module, in this process), ``arun`` (a coroutine run to its value on the test's
        event loop here).
    ``("ret", seq, value)``, ``("raise", seq, exception)``: the answer to a callback;
    ``("item", seq, value)``, ``("stop", seq)``, ``("raise", ...)``: to a ``next`` of an iterator of
    the test's.
    Values travel as ``(marked, data)`` (``receive.Receiver.take``).

Up (here -> judge), tagged JSON (``encode``; objects that are not plain data as handles):
    ``[0, "ready", settings]`` first: the program's top level has run (the judge passes no test
    before it); ``settings``: ``[recursion limit, int max str digits]``, which the judge follows for
    the program's values;
    ``[seq, "ok", value, sync]``, ``[seq, "raised", [bases, message, own classes, args, attributes,
    own str, cause], sync]`` (``lineage.exception_parts``), ``[seq, "unreadable", why, null]`` (an
    answer that nests deeper or is larger than the judge reads: the test fails), ``[seq, "memory",
    null, null]``; ``sync`` is null when the call left every argument as it was and the settings
    too, else ``[states, kept, shared, settings]``: each call's ``[argument states, keyword
    states]`` (an argument's value after the call where it may have changed, else null), the
    arguments the program kept (``[call, position or name]``: from now on the container is shared,
    numbered in order), the shared containers the program changed (``[number, state]``), and the
    settings where they changed (else null);
    ``[seq, "states", text]`` before the answer to a ``getattr`` with a budget: the attributes of
    handles' objects as they are now, JSON text of their own (``prefetch.states``), which the judge
    may keep until its next request;
    ``[seq, "callback", number, args, kwargs]``: the program calls a callable of the judge's;
    ``[seq, "next", number]``: the program takes the next item of an iterator of the judge's;
    ``[seq, "obj", number, op, payload]``: the program does ``op`` to an object of the test's
    (``receive.TestObject``; the judge answers as for a callback);
    ``[0, "objects", [[number, attributes], ...]]`` before any of these three: the program's
    copies of the test's data objects it changed since they were last synced.

Nothing here is believed: the judge reads every frame strictly (``values.decode_value``), and
what the program answers is its answer. At end of file (the test is over) the process exits.
"""

from __future__ import annotations

import gc
import marshal
import math
import operator
import os
import sys
from _json import encode_basestring_ascii as _encode_str

# The builtins this module uses: a program that replaces one (``builtins.isinstance = ...``)
# changes nothing of what this module reads and writes.
from builtins import (  # noqa: UP029 - bound once, as the fork server loaded them
    abs,
    any,
    bool,
    bytearray,
    bytes,
    delattr,
    dict,
    divmod,
    enumerate,
    float,
    format,
    frozenset,
    getattr,
    hash,
    id,
    int,
    isinstance,
    issubclass,
    iter,
    len,
    list,
    max,
    next,
    object,
    range,
    repr,
    reversed,
    round,
    set,
    setattr,
    str,
    tuple,
    type,
    vars,
    zip,
)
from time import perf_counter as _clock
from typing import Any

from ..procs import REPLY_LIMIT
from .encode import Handles, NotPlainData, encode_value, forget_kinds, plain_value
from .environment import apply as apply_environment
from .environment import undo as undo_environment
from .lineage import exception_parts
from .prefetch import states as attribute_states
from .purity import CLOSED, PURE, pure_code, pure_state
from .receive import Receiver

PLAIN_CONTAINERS = (list, tuple, dict, set, frozenset, str, bytes, bytearray, range)  # iterated at once
_MUTABLE = frozenset({list, dict, set, bytearray})
OPERATORS: dict[str, Any] = {name: getattr(operator, name) for name in (
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_", "xor", "lshift", "rshift",
    "lt", "le", "gt", "ge", "eq", "ne", "iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow", "imatmul",
    "iand", "ior", "ixor", "ilshift", "irshift", "contains")} | {"round": round, "divmod": divmod}
UNARY: dict[str, Any] = {"neg": operator.neg, "pos": operator.pos, "abs": abs, "invert": operator.invert, "int": int,
                         "float": float, "index": operator.index, "round": round, "floor": math.floor,
                         "ceil": math.ceil, "trunc": math.trunc, "hash": hash}
# Standard library functions that read an object's own structure, applied where the object lives
# (``judge.applied``): what the test gets is what they give for it in one process.
APPLIED = frozenset({("dataclasses", "asdict"), ("dataclasses", "astuple"), ("dataclasses", "replace"),
                     ("dataclasses", "fields"), ("dataclasses", "is_dataclass")})
HARNESS_FRAMES = 6  # frames of this module between two frames of the program's, a nesting level apart
BATCH_CHARS = 1 << 20  # characters of an iterator's items in one answer, at most (then the next answer)
AHEAD_S = 0.002  # seconds a generator may run ahead of the test in one answer, at most (``purity``)
_HELD_BY_HANDLE = 4  # references to an object only the judge's handle keeps (``objects``, and the calls' own)


def settings() -> list:
    """The interpreter's settings that change what the program's values do in the judge: the
    recursion limit and the most digits ``str`` of an int writes (``sys.set_int_max_str_digits``)."""
    return [sys.getrecursionlimit(), sys.get_int_max_str_digits()]


def _holds_mutable(v, depth: int = 0) -> bool:
    """Whether ``v`` is, or is a tuple holding, a container a call may change in place."""
    if _type_mutable(v):
        return True
    return type(v) is tuple and depth < 8 and any(_holds_mutable(x, depth + 1) for x in v)


class _Items:
    """An iterator's items, each written as tagged JSON the moment it was taken (an item the
    generator changes in place after yielding it crosses as it was when yielded)."""

    __slots__ = ("done", "texts")

    def __init__(self, texts: list[str], done: bool):
        self.texts, self.done = texts, done


class _Global:
    """A global of the program's, by name (a class ``type`` gave: the test's name for it)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name


class _Exit(BaseException):
    """The judge's end of the pipes closed: the test is over."""


class Server:
    """One test's serving: the program's globals, its handles, the pipes."""

    def __init__(self, call_fd: int, reply_fd: int, namespace: dict, monitor, restore):
        self.call_fd, self.reply_fd, self.namespace, self.monitor = call_fd, reply_fd, namespace, monitor
        self.restore = restore  # undo the program's changes to builtins before our code runs on
        self.handles = Handles()
        self.receiver = Receiver(self)
        self.buffer = b""
        self.up_seq = 0
        self.depth = 0
        self.kept: list = []  # the frames received, never freed before exit (each free can copy a page)
        self.raised: dict = {}  # an iterator's exception held back until its items before it are taken
        self.settings = settings()
        self.test_objects: dict[int, object] = {}  # the test's objects the program holds, by the judge's number
        self.copies: dict[int, object] = {}  # the program's copies of the test's objects, by the judge's number
        self.io: list | None = None  # what the last request's environment sends back (``environment.undo``)
        self._loop: Any = None  # the event loop the program's coroutines run on for the test

    def loop(self):
        """The event loop the program's coroutines the test awaits run on (one per test: an async
        generator's items are taken on the loop that started it)."""
        if self._loop is None:
            import asyncio

            self._loop = asyncio.new_event_loop()
        return self._loop

    # -- frames ------------------------------------------------------------------------------

    def receive(self, _read=os.read, _from_bytes=int.from_bytes, _len=len, _loads=marshal.loads):
        """The next message from the judge; raises ``_Exit`` at end of file."""
        while _len(self.buffer) < 4 or _len(self.buffer) < 4 + _from_bytes(self.buffer[:4], "little"):
            missing = 4 + _from_bytes(self.buffer[:4], "little") - _len(self.buffer) if _len(self.buffer) >= 4 else 0
            more = _read(self.call_fd, min(max(missing, 1 << 16), 1 << 22))  # (a large frame in large reads)
            if not more:
                raise _Exit()
            self.buffer += more
        size = _from_bytes(self.buffer[:4], "little")
        frame, self.buffer = self.buffer[4:4 + size], self.buffer[4 + size:]
        collecting = gc.isenabled()
        gc.disable()  # (a large frame is many objects made at once: the collector's passes would cost most)
        try:
            message = _loads(frame)
        finally:
            if collecting:
                gc.enable()
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
        self.send('[0, "ready", ' + encode_value(self.settings) + "]")
        while True:
            message = self.receive()
            if message[0] == "op":
                self.answer(message)

    def answer(self, message, _repr=int.__repr__, _type=type, _len=len) -> None:
        """Do one ``op`` request and send its answer up."""
        _, seq, op, ref, payload, forgotten, updates, env = message
        forget_kinds()  # (a class may have changed since the last answer)
        if updates is not None:  # the test changed containers shared with the program
            self.receiver.take(updates)
        for number in forgotten:  # the test no longer holds them: freed as in one process
            if number >= 0:
                self.handles.forget(number)
            else:  # a shared container the test no longer holds: its changes no longer matter
                self.handles.unshare(~number)
        head = "[" + _repr(seq) + ", "
        self.depth += 1
        calls: list = []
        reply: str | None
        parts = ""
        applied = None
        try:
            applied = apply_environment(env, self.receiver.take, self.namespace)
            payload = self.receiver.take(payload)
            value = self.do(op, ref, payload, calls)
            self.io = undo_environment(applied)
            applied = None
            if _type(value) is _Items:
                body = "[" + ", ".join(value.texts) + "], " + ("true" if value.done else "false")
                reply = head + '"ok", [' + body + "], " + self.sync_up(calls) + "]"
            elif _type(value) is _Global:
                reply = head + '"ok", {"G": ' + _encode_str(value.name) + "}, " + self.sync_up(calls) + "]"
            else:
                returned = self.returned(value, calls)
                text = encode_value(value, self.handles, returned is not None and returned[0] == -2)
                reply = head + '"ok", ' + text + ", " + self.sync_up(calls, returned) + "]"
                if op == "getattr" and _len(payload) > 1:  # attributes the judge may keep until its next request
                    self.send_states(head, ref, payload[1], payload[0])
        except _Exit:
            raise
        except MemoryError:
            self.restore()
            reply = head + '"memory", null, null]'
        except NotPlainData as e:  # nests deeper than the judge reads
            self.restore()
            self.monitor.flag("not_plain_data")
            reply = head + '"unreadable", ' + _encode_str(str(e)) + ", null]"
        except BaseException as e:  # noqa: BLE001 - the program's exception is the call's answer
            self.restore()
            if _type(e) is SystemExit:
                self.monitor.flag("early_exit")
            parts = exception_parts(e)
            _drop_frames(e)  # their references to the arguments are not the program's keeping
            reply = None
        finally:
            self.depth -= 1
            if applied is not None:  # (a request that raised: put back all the same)
                self.io = undo_environment(applied)
        if reply is None:  # (outside the ``except``: the exception and its frames are gone by now)
            try:
                sync = self.sync_up(calls)
            except BaseException:  # noqa: BLE001 - states that cannot be written: none
                sync = "null"
            reply = head + '"raised", [' + parts + "], " + sync + "]"
        if _len(reply) > REPLY_LIMIT:
            reply = head + '"unreadable", "the answer is larger than the judge reads", null]'
        self.send(reply)

    def send_states(self, head: str, ref, budget, read) -> None:
        """Send the attributes of ``ref``'s object and of those it holds (``prefetch.states``), at
        most ``budget`` objects, before the answer to the request that read ``read`` of it
        (``[seq, "states", text]``)."""
        try:
            ahead = attribute_states(self.resolve(ref), budget, self.handles, self.namespace.get("__name__"), read)
        except BaseException:  # noqa: BLE001 - none then: the judge reads each attribute by a request
            ahead = ""
        if ahead:
            self.send(head + '"states", ' + _encode_str(ahead) + "]")

    def do(self, op: str, ref, payload, calls: list, _getattr=getattr, _setattr=setattr, _delattr=delattr,
           _len=len, _list=list, _str_of=str.__str__, _str=str, _bool=bool, _isinstance=isinstance,
           _issubclass=issubclass, _type=type, _iter=iter, _next=next, _range=range):
        """``op`` on ``ref``: its value. A call notes its arguments and their state before it in
        ``calls`` (``sync_up`` says what it changed, on every path: a call that raised too)."""
        target = self.resolve(ref)
        if op == "call" or op == "method":
            args, kwargs = payload[0], payload[1]
            calls.append(self.before(args, kwargs))
            value = target(*args, **kwargs)
            if op == "method":
                margs, mkwargs = payload[3], payload[4]
                calls.append(self.before(margs, mkwargs))
                value = _getattr(value, payload[2])(*margs, **mkwargs)
            return value
        if op == "getattr":
            return _getattr(target, payload[0])
        if op == "next":
            return self.items(target, ref, payload[0], payload[1])
        if op == "binop":
            name, other, reflected = payload
            return OPERATORS[name](other, target) if reflected else OPERATORS[name](target, other)
        if op == "unop":
            return UNARY[payload[0]](target)
        if op == "value":
            return plain_value(target)
        if op == "iter":
            return _list(target) if _type(target) in PLAIN_CONTAINERS else _iter(target)
        if op == "len":
            return _len(target)
        if op == "setattr":
            _setattr(target, payload[0], payload[1])
            return None
        if op == "delattr":
            _delattr(target, payload[0])
            return None
        if op == "lineage":
            from .lineage import lineage

            return lineage(target) if _isinstance(target, _type) and _issubclass(target, BaseException) else None
        if op == "repr":
            return _str_of(repr(target))
        if op == "format":
            return _str_of(format(target, payload[0]))
        if op == "copy" or op == "deepcopy":
            import copy

            return copy.copy(target) if op == "copy" else copy.deepcopy(target)
        if op == "arun":
            return self.loop().run_until_complete(target)
        if op == "anext":  # the next item of an async iterator: ``[False, item]``, or ``[True, None]`` at its end
            try:
                return [False, self.loop().run_until_complete(target.__anext__())]
            except StopAsyncIteration:
                return [True, None]
        if op == "type":
            cls: type = _type(target)
            named = self.namespace.get(cls.__name__)
            return _Global(cls.__name__) if named is cls else cls
        if op == "vars":
            return dict(vars(target))
        if op == "global":  # ``main.name`` read by the test (``judge.module``): the object it is now
            if payload[0] not in self.namespace:
                raise AttributeError(f"module 'main' has no attribute {payload[0]!r}")
            return self.namespace[payload[0]]
        if op == "setglobal":  # ``main.name = value`` (``mock.patch("main.name")``, ``monkeypatch``)
            self.namespace[payload[0]] = payload[1]
            return None
        if op == "delglobal":
            del self.namespace[payload[0]]
            return None
        if op == "apply":  # a standard library function the test applies to the program's object
            module, function, args, kwargs = payload
            if (module, function) not in APPLIED:
                raise TypeError(f"the judge asked to apply {module}.{function}, which the program's process does not")
            import importlib

            return getattr(importlib.import_module(module), function)(*args, **kwargs)
        if op == "names":  # what ``from main import *`` binds
            names = self.namespace.get("__all__")
            return [str(n) for n in names] if isinstance(names, (list, tuple)) else \
                [n for n in self.namespace if type(n) is str and not n.startswith("_")]
        if op == "signature":  # ``inspect.signature`` of the program's callable, as data
            import inspect

            signature = inspect.signature(target)
            return (tuple((p.name, int(p.kind), () if p.default is p.empty else (p.default,),
                           () if p.annotation is p.empty else (p.annotation,))
                          for p in signature.parameters.values()),
                    () if signature.return_annotation is signature.empty else (signature.return_annotation,))
        if op == "enter":
            return target.__enter__()
        if op == "exit":
            return target.__exit__(*payload)
        if op == "reversed":
            return reversed(target)
        if op == "subclass":
            return _issubclass(payload[0], target)
        if op == "getitem":
            return target[payload[0]]
        if op == "setitem":
            target[payload[0]] = payload[1]
            return None
        if op == "delitem":
            del target[payload[0]]
            return None
        if op == "str":
            return _str_of(_str(target))
        if op == "bool":
            return _bool(target)
        if op == "isinstance":
            return _isinstance(payload[0], target)
        raise TypeError(f"the judge asked for {op!r}, which the program's process does not do")

    def items(self, target, ref, count: int, certain: bool, _next=next, _len=len, _range=range,
              _getrefcount=sys.getrefcount) -> _Items:
        """The next ``count`` items of the iterator ``target`` at most, each written as it is taken.

        ``certain``: the test takes every one (``list()``); else only the first is certain, and the
        rest are taken only where the generator may run ahead of the test (``purity``: a pure
        generator that only the judge's handle keeps, whose steps therefore change nothing and
        read nothing anyone could change), for ``AHEAD_S`` at most.
        """
        held = self.raised.pop(ref, None)  # what the iterator raised after the last batch's items
        if held is not None:
            raise held
        # how the generator may run ahead: not (0), checking its frame before each step (PURE), or once (CLOSED)
        ahead = pure_code(target, self.namespace) if not certain and count > 1 \
            and _getrefcount(target) <= _HELD_BY_HANDLE else 0
        if ahead == CLOSED and not pure_state(target):
            ahead = 0
        texts: list[str] = []
        size, started = 0, _clock()
        for taken in _range(count):
            if size > BATCH_CHARS or (taken and not certain and (
                    not ahead or _clock() - started > AHEAD_S or (ahead == PURE and not pure_state(target)))):
                break
            try:
                text = self.item_text(_next(target))
            except StopIteration:
                return _Items(texts, True)
            except NotPlainData:
                raise
            except BaseException as e:
                if not texts:
                    raise
                self.raised[ref] = e  # the items it gave first reach the test first
                break
            texts.append(text)
            size += _len(text)
        return _Items(texts, False)

    def resolve(self, ref):
        """The program's object that ``ref`` names (``("m", "")``: its module's globals)."""
        kind, key = ref
        if kind == "m":
            return self.namespace
        if kind == "g":
            if key not in self.namespace:
                raise NameError(f"name {key!r} is not defined")
            return self.namespace[key]
        return self.handles.objects[key]

    # -- argument states ---------------------------------------------------------------------

    def before(self, args, kwargs, _getrefcount=sys.getrefcount):
        """What ``sync_up`` needs of one call's arguments: the arguments, their bytes before it (None
        where ``marshal`` cannot write them) and the reference count of each mutable one."""
        return (args, kwargs, _snapshot((args, kwargs)),
                [_getrefcount(v) if _type_mutable(v) else 0 for v in (*args, *kwargs.values())])

    def returned(self, value, calls: list, _getrefcount=sys.getrefcount) -> list | None:
        """What the test is to get back where ``value`` is no copy: ``[call, place]`` of the argument
        it is (a function that returns the list it sorted in place), ``[-1, number]`` of a container
        the program shares with the test already, ``[-2, number]`` of one the program holds and from
        now on shares with the test (an attribute the test reads and appends to: written whole this
        once), else None."""
        if not _type_mutable(value):
            return None
        for level, (args, kwargs, _, _) in enumerate(calls):
            for place, arg in enumerate((*args, *kwargs.values())):
                if arg is value:
                    return [level, place]
        number = self.handles.shared_ids.get(id(value))
        if number is not None:
            return [-1, number]
        # held by ``value`` and this call's argument only, unless the program keeps it too
        if _getrefcount(value) > 3:
            number = self.handles.share(value)
            self.handles.snapshots[number] = _snapshot(value)
            return [-2, number]
        return None

    def item_text(self, item, _getrefcount=sys.getrefcount) -> str:
        """An iterator's item as tagged JSON, written now: a container the generator keeps (it
        yields one list, changing it between items) is shared with the test from now on, so that
        the test holds that one object (``{"V": [number, value]}`` the first time, ``{"S": number}``
        after), as in one process."""
        handles = self.handles
        if _type_mutable(item) and id(item) not in handles.shared_ids and _getrefcount(item) > 2:
            number = handles.share(item)
            handles.snapshots[number] = _snapshot(item)
            return '{"V": [' + int.__repr__(number) + ", " + encode_value(item, handles, True) + "]}"
        return encode_value(item, handles)

    def sync_up(self, calls: list, returned: list | None = None, _getrefcount=sys.getrefcount) -> str:
        """``sync`` of an answer (the module docstring): null when nothing changed."""
        states: list[str] = []
        kept: list[list] = []
        changed = False
        handles = self.handles
        for level, (args, kwargs, before, counts) in enumerate(calls):
            values = [*args, *kwargs.values()]
            for place, (v, count) in enumerate(zip(values, counts, strict=True)):
                # a reference the program still holds after the call: it kept the container
                if count and _getrefcount(v) > count and id(v) not in handles.shared_ids:
                    number = handles.share(v)
                    handles.snapshots[number] = _snapshot(v)
                    kept.append([level, place])
            if before is not None and _snapshot((args, kwargs)) == before:
                states.append("null")
                continue
            changed = True
            states.append("[[" + ", ".join(self.state(v) for v in args) + "], ["
                          + ", ".join("[" + _encode_str(k) + ", " + self.state(v) + "]" for k, v in kwargs.items())
                          + "]]")
        changes = []
        for number, obj in handles.shared.items():
            now = _snapshot(obj)
            if now != handles.snapshots.get(number) or now is None:
                handles.snapshots[number] = now
                changes.append("[" + int.__repr__(number) + ", " + encode_value(obj, handles, True) + "]")
        now_settings = settings()
        moved = now_settings != self.settings
        self.settings = now_settings
        objects = self.copies_changed(self.copies)
        io, self.io = self.io, None
        if not (changed or kept or changes or moved or returned or io or objects):
            return "null"
        return ("[[" + ", ".join(states) + "], " + encode_value(kept) + ", [" + ", ".join(changes) + "], "
                + (encode_value(now_settings) if moved else "null") + ", " + encode_value(returned) + ", "
                + encode_value(io, self.handles) + ", [" + ", ".join(objects) + "]]")

    def state(self, v, _type=type) -> str:
        """An argument's state after a call: its value where the call may have changed it in place
        (a mutable container, or a tuple holding one), else null."""
        return encode_value(v, self.handles, True) if _holds_mutable(v) else "null"

    def copies_changed(self, numbers) -> list[str]:
        """``[number, attributes]`` of each of the program's copies of the test's data objects
        (those of ``numbers``) that changed since they were last synced (``receive.Receiver.changed``)."""
        objects: list[str] = []
        if not numbers:
            return objects
        collecting = gc.isenabled()
        gc.disable()  # (a state made for each: the collector's passes over them would cost the program)
        try:
            self._copies_changed(numbers, objects)
        finally:
            if collecting:
                gc.enable()
        return objects

    def _copies_changed(self, numbers, objects: list[str]) -> None:
        receiver = self.receiver
        for number in receiver.changed(None if numbers is self.copies else numbers):
            obj = self.copies[number]
            receiver.synced(number, obj)
            objects.append("[" + int.__repr__(number) + ", " + encode_value(dict(vars(obj)), self.handles) + "]")

    def synced_down(self, number: int) -> None:
        """A shared container was made to hold what the test's holds (``receive``): that state is
        no change of the program's."""
        self.handles.snapshots[number] = _snapshot(self.handles.shared[number])

    # -- callbacks ---------------------------------------------------------------------------

    def callback(self, number: int, args: tuple, kwargs: dict, _repr=int.__repr__, _list=list, _dict=dict):
        """Call the judge's callable ``number`` and wait for its answer, serving the calls it makes."""
        return self._ask('"callback", ' + _repr(number) + ", " + encode_value(_list(args), self.handles)
                         + ", " + encode_value(_dict(kwargs), self.handles))

    def next_item(self, number: int, _repr=int.__repr__):
        """The next item of the judge's iterator ``number``; raises ``StopIteration`` at its end."""
        return self._ask('"next", ' + _repr(number))

    def ask_object(self, number: int, op: str, payload: tuple, _repr=int.__repr__):
        """Have the judge do ``op`` to the test's object ``number`` (``receive.TestObject``)."""
        return self._ask('"obj", ' + _repr(number) + ", " + _encode_str(op) + ", "
                         + encode_value(list(payload), self.handles))

    def _ask(self, request: str, _repr=int.__repr__, _isinstance=isinstance, _runtime=RuntimeError):
        self.up_seq += 1
        seq = self.up_seq
        sys.setrecursionlimit(sys.getrecursionlimit() + HARNESS_FRAMES)  # this nesting's frames are not the program's
        try:
            # the test's data objects the program changed: the judge's code reads them as they are now
            unsent = self.receiver.unsent
            objects = self.copies_changed([n for n in unsent if n in self.copies]) if unsent else None
            if objects:
                self.send('[0, "objects", [' + ", ".join(objects) + "]]")
            self.send("[" + _repr(seq) + ", " + request + "]")
            while True:
                message = self.receive()
                if message[0] == "op":
                    self.answer(message)
                elif message[1] == seq and message[0] in ("ret", "item"):
                    return self.receiver.take(message[2])
                elif message[1] == seq and message[0] == "stop":
                    raise StopIteration
                elif message[1] == seq and message[0] == "raise":
                    error = self.receiver.take(message[2])
                    raise error if _isinstance(error, BaseException) else _runtime("the test's callable raised")
        finally:
            try:  # (the program may have changed it meanwhile: only this nesting's frames go)
                sys.setrecursionlimit(max(sys.getrecursionlimit() - HARNESS_FRAMES, 100))
            except RecursionError:
                pass


def _drop_frames(e: BaseException) -> None:
    """Let go of the frames an exception's traceback (and its cause's, its context's) holds."""
    seen = 0
    while isinstance(e, BaseException) and seen < 16:
        e.__traceback__ = None
        e = e.__cause__ or e.__context__  # type: ignore[assignment]
        seen += 1


def _type_mutable(v, _modules=sys.modules) -> bool:
    """Whether ``v`` is a container that crosses by value and a call may change in place: a
    ``list``, ``dict``, ``set``, ``bytearray``, or one of the standard library's (``deque``,
    ``Counter``, ``OrderedDict``, ``defaultdict``)."""
    t = type(v)
    if t in _MUTABLE:
        return True
    collections = _modules.get("collections")
    return collections is not None and (t is collections.deque or t is collections.Counter
                                        or t is collections.OrderedDict or t is collections.defaultdict)


def _snapshot(value, _dumps=marshal.dumps) -> bytes | None:
    """``value``'s bytes (None where ``marshal`` cannot write it: what holds objects of the program's)."""
    try:
        return _dumps(value, 4)
    except ValueError:
        return None


def serve_calls(server: Server) -> None:
    """Answer the judge's calls of the program's names for one judged test until the judge closes
    the pipes (the caller flushes the program's output and exits). A zygote makes ``server`` before
    its tests' forks: each test's process then writes to fewer pages that it shares with the zygote
    (each such write copies the page)."""
    try:
        server.serve()
    except (_Exit, OSError):  # the judge is done (or gone: the runner sees it)
        pass
