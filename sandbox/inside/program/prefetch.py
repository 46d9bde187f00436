"""The program's objects' attributes, sent ahead for the judge to keep until its next request.

A test that walks a structure of the program's (``while node: total += node.val; node =
node.next``) reads one attribute at a time, and each read would be a request. Between two requests
of the judge's no code of the program's runs (``quiet``: its process has no thread but the main one
and no signal handler of its own), so an attribute read then gives what it gives at the end of the
last request. ``states`` writes, with the answer to a request that reads an attribute, the
attributes of that object and of the objects of the program's they hold, breadth first, up to a
budget: the judge answers the test's reads from them until its next request, which makes them
stale. Only attributes a read gets without running code of the program's go (the class's
``__getattribute__`` is ``object``'s, the instance's ``__dict__`` the standard one, no data
descriptor, a property, of that name on the class) and only values that cannot change under the
judge: None, a bool, an int, a float, a string, and an object of a class of the program's (a
handle: its own attributes are sent too, or read by requests). Nothing here is trusted: it runs in
the program's process, and the judge reads what it writes strictly.
"""

from __future__ import annotations

import sys
from _json import encode_basestring_ascii as _encode_str

# The builtins this module uses: a program that replaces one (``builtins.isinstance = ...``)
# changes nothing of what this module reads.
from builtins import (  # noqa: UP029 - bound once, as the fork server loaded them
    BaseException,
    bool,
    dict,
    float,
    id,
    int,
    issubclass,
    len,
    list,
    map,
    set,
    str,
    type,
)

from .encode import Handles, encode_value, handle_of, plain_base

_MRO = type.__dict__["__mro__"].__get__
_DICT = type.__dict__["__dict__"].__get__
_TYPE_MODULE = type.__dict__["__module__"].__get__
_GETATTRIBUTE = object.__getattribute__
_OBJECT_GETATTRIBUTE = _DICT(object)["__getattribute__"]  # the slot wrapper a class that has its own replaces
_GETSET = type(type("_Probe", (), {}).__dict__["__dict__"])  # the standard ``__dict__`` of an instance
STATES_BYTES = 1 << 20  # characters of one answer's attributes, at most
_INT_BITS = 13000  # bits of an int that goes, at most (``json`` reads no more than 4300 digits)


def quiet(_modules=sys.modules) -> bool:
    """Whether nothing of the program's can run between two requests: no thread but the main one,
    no signal handler of the program's (``SIGINT``'s own ``default_int_handler`` aside)."""
    thread = _modules.get("_thread")
    if thread is not None and thread._count():
        return False
    signal = _modules.get("_signal")
    if signal is None:
        return True
    return set(map(signal.getsignal, signal.valid_signals())) <= {signal.SIG_DFL, signal.SIG_IGN,
                                                                   signal.default_int_handler, None}


class _Classes:
    """What each class of the objects met is, for one answer (a class may change between two):
    whether its objects cross as handles (a class of the program's module), and whether a read of
    their attributes may find them without running code of the program's."""

    __slots__ = ("handled", "known", "module")

    def __init__(self, module):
        self.module = module
        self.known: dict[int, bool] = {}
        self.handled: dict[int, bool] = {}

    def handle(self, t) -> bool:
        """Whether objects of ``t`` cross as handles: a class of the program's module, no plain
        type's subclass (a NamedTuple crosses as its value) nor an exception (as the judge makes it)."""
        found = self.handled.get(id(t))
        if found is None:
            try:
                module = _TYPE_MODULE(t)
                found = type(module) is str and module == self.module and plain_base(t) is None \
                    and not issubclass(t, BaseException)
            except BaseException:  # noqa: BLE001 - a class that will not say: not one
                found = False
            self.handled[id(t)] = found
        return found

    def readable(self, t) -> bool:
        """Whether a read of an attribute of ``t``'s objects finds their instance dict's value
        without running code of the program's: ``object``'s ``__getattribute__``, the standard
        ``__dict__``."""
        found = self.known.get(id(t))
        if found is None:
            try:
                found = self.handle(t) and _lookup(t, "__getattribute__") is _OBJECT_GETATTRIBUTE \
                    and type(_lookup(t, "__dict__")) is _GETSET
            except BaseException:  # noqa: BLE001 - a class that will not say: its attributes are read by requests
                found = False
            self.known[id(t)] = found
        return found


_MISSING = object()


def _lookup(t, name: str):
    """What ``t``'s classes hold of ``name``, the nearest first (no code of the program's runs)."""
    for klass in _MRO(t):
        entries = _DICT(klass)
        if name in entries:
            return entries[name]
    return _MISSING


def _data_descriptor(value) -> bool:
    """Whether ``value`` (a class's entry) is a data descriptor: found before an instance's dict."""
    if value is _MISSING:
        return False
    for klass in _MRO(type(value)):
        entries = _DICT(klass)
        if "__set__" in entries or "__delete__" in entries:
            return True
    return False


def _text(value, classes: _Classes, handles: Handles) -> str | None:
    """``value`` as the judge keeps it (JSON: a scalar as itself, an object of a class of the
    program's as its handle ``[number, type name, kind]``), or None where it may change under the
    judge (a container: read by a request)."""
    kind = type(value)
    if kind is str:
        return _encode_str(value)
    if kind is int or kind is bool or kind is float or value is None:
        return encode_value(value) if kind is not int or value.bit_length() <= _INT_BITS else None
    if classes.handle(kind):
        return encode_value(handle_of(value, kind, handles))
    return None


def states(target, budget: int, handles: Handles, module, read: str = "") -> str:
    """The attributes of ``target`` and of the objects of the program's they hold, breadth first,
    at most ``budget`` objects, as JSON text: ``[[number, [name, value, name, value, ...]], ...]``
    (a handle's number; each value ``_text``); empty where the process is not ``quiet``, or where
    they would hold nothing but ``read``, the attribute the answer gives."""
    if budget <= 0 or not quiet():
        return ""
    classes = _Classes(module)
    queue, seen, size = [target], {id(target)}, 0
    entries: list[str] = []
    position = 0
    while position < len(queue) and len(entries) < budget and size < STATES_BYTES:
        obj = queue[position]
        position += 1
        kind = type(obj)
        if not classes.readable(kind):
            continue
        try:
            attributes = _GETATTRIBUTE(obj, "__dict__")
        except BaseException:  # noqa: BLE001 - no instance dict after all
            continue
        if type(attributes) is not dict:
            continue
        parts, sent = [], set()
        for name, value in list(attributes.items()):
            if type(name) is not str or _data_descriptor(_lookup(kind, name)):
                continue
            text = _text(value, classes, handles)
            if text is None:
                continue
            parts.append(_encode_str(name) + ", " + text)
            sent.add(name)
            if text[0] == "[" and id(value) not in seen:  # an object of the program's: its attributes too
                seen.add(id(value))
                queue.append(value)
        if obj is target and len(queue) == 1 and sent <= {read}:
            return ""  # nothing but what the answer gives
        entry = "[" + int.__repr__(handles.handle(obj)) + ", [" + ", ".join(parts) + "]]"
        size += len(entry)
        entries.append(entry)
    return "[" + ", ".join(entries) + "]" if entries else ""
