"""Arguments the program changes in place, as the test sees them: the argument states.

The rule: what the program does to a container the test handed it, the test sees, as in one
process where both hold one object. A call's answer carries the state of each argument it may
have changed (``program.calls``: a container that crosses by value, ``by_value``: a ``list``,
``dict``, ``set``, ``bytearray``, ``deque``, ``Counter``, ``OrderedDict`` or ``defaultdict``, or a
tuple holding one; on every path, a call that raised too; for ``P(a).m(b)`` both calls'
arguments); ``update`` makes each of the test's containers hold that state, in place, keeping the
identity of the containers nested in it that stay of their type (a test may hold references into
them), and a mapping's order (``move_to_end``). A container the program keeps after
the call (it holds a reference the call made) is from then on **shared** (``Shared``): numbered
in the order kept (both sides count alike), it crosses again as that number (the program gets its
own object back: ``judge.send``), the test's changes to it are sent before each later request, and
the program's changes come back with each answer, until the test lets go of it.

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import marshal
import sys

_MUTABLE = (list, dict, set, bytearray)
_LIBRARY: list = []  # the standard library's containers that cross by value (``by_value``), once loaded


def sync(old, new, depth: int = 0) -> None:
    """Make the container ``old`` hold what ``new`` holds, keeping the identity of nested
    containers of the same type where it can; a tuple's items in turn (its containers change in
    place: ``f((a_list, 3))``)."""
    kind = type(old)
    if new is None or new is old or depth > 100:
        return
    if kind is tuple and type(new) is tuple:
        for item, state in zip(old, new, strict=False):
            sync(item, state, depth + 1)
        return
    if not _same_kind(old, new):
        return
    if kind is list:
        for i in range(min(len(old), len(new))):
            if _nested(old[i], new[i]):
                sync(old[i], new[i], depth + 1)
            else:
                old[i] = new[i]
        del old[len(new):]
        old.extend(new[len(old):])
    elif isinstance(old, dict):  # (a Counter, an OrderedDict, a defaultdict too: by their own ``__setitem__``)
        merged = []
        for key, value in new.items():
            if key in old and _nested(old[key], value):
                sync(old[key], value, depth + 1)
                value = old[key]
            merged.append((key, value))
        if list(old) != [key for key, _ in merged]:  # keys gone, or in another order (``move_to_end``)
            old.clear()
        for key, value in merged:
            if key not in old or old[key] is not value:
                old[key] = value
    elif kind is set:
        old.intersection_update(new)
        old.update(new)
    elif kind is bytearray:
        old[:] = new
    elif hasattr(old, "extendleft"):  # a deque
        old.clear()
        old.extend(new)


def _same_kind(old, new) -> bool:
    kind = type(old)
    if kind is type(new):
        return True
    return isinstance(old, dict) and isinstance(new, dict)  # a Counter's state may come as a plain mapping


def _nested(old, new) -> bool:
    return (by_value(old) or type(old) is tuple) and type(old) is type(new)


def by_value(v) -> bool:
    """Whether ``v`` is a container that crosses by value and a call may change in place: a
    ``list``, ``dict``, ``set``, ``bytearray``, or one of the standard library's (``deque``,
    ``Counter``, ``OrderedDict``, ``defaultdict``): the program's changes come back to it."""
    t = type(v)
    if t in _MUTABLE:
        return True
    if not _LIBRARY:
        collections = sys.modules.get("collections")
        if collections is None:
            return False
        _LIBRARY.append(frozenset({collections.deque, collections.Counter, collections.OrderedDict,
                                   collections.defaultdict}))
    return t in _LIBRARY[0]


def update(calls: list, states) -> None:
    """Give the arguments of each call (``calls``: ``(args, kwargs)`` in the order the program made
    them) the states the program's answer reports (``[arg states, keyword states]`` per call, or
    null where nothing changed)."""
    if type(states) is not list:
        return
    for (args, kwargs), state in zip(calls, states, strict=False):  # the program's process sent them: any length
        if type(state) is not list or len(state) != 2:
            continue
        arg_states, kw_states = state
        if type(arg_states) is list:
            for arg, value in zip(args, arg_states, strict=False):
                sync(arg, value)
        if type(kw_states) is list:
            for item in kw_states:
                if type(item) is list and len(item) == 2 and type(item[0]) is str and item[0] in kwargs:
                    sync(kwargs[item[0]], item[1])


def _snapshot(value) -> bytes | None:
    try:
        return marshal.dumps(value, 4)
    except ValueError:
        return None


class Shared:
    """The test's containers that the program keeps (the module docstring), by number."""

    def __init__(self):
        self.objects: dict[int, list] = {}  # number -> [container, its state as last synced]
        self.ids: dict[int, int] = {}  # id(container) -> number
        self.count = 0  # numbers given so far (the program's process counts alike)

    def share(self, obj, number: int | None = None) -> None:
        """Share ``obj`` from now on as ``number`` (the program's) or the next number."""
        if number is None:
            number = self.count
        self.count = max(self.count, number + 1)
        if by_value(obj):
            self.objects[number] = [obj, _snapshot(obj)]
            self.ids[id(obj)] = number

    def kept(self, calls: list, places) -> None:
        """The program kept these arguments (``[call, position among args then keyword values]``):
        share each from now on, numbered in order."""
        if type(places) is not list:
            return
        for place in places:
            obj = None
            if type(place) is list and len(place) == 2 and type(place[0]) is int and type(place[1]) is int \
                    and 0 <= place[0] < len(calls):
                args, kwargs = calls[place[0]]
                values = [*args, *kwargs.values()]
                if 0 <= place[1] < len(values):
                    obj = values[place[1]]
            self.share(obj)  # (a number is used whatever it is: the program's process counted it)

    def returned(self, value, calls: list, spec):
        """What a call returned, as the test gets it (``program.calls.Server.returned``): the
        test's own argument where the program returned it; the shared container it is; else
        ``value`` (a copy)."""
        if type(spec) is not list or len(spec) != 2 or type(spec[0]) is not int or type(spec[1]) is not int:
            return value
        level, place = spec
        if level == -2:  # newly shared: the value as it came, from now on the test's own object
            self.share(value, place)
            return value
        if level == -1:
            entry = self.objects.get(place)
            return value if entry is None else entry[0]
        if 0 <= level < len(calls):
            args, kwargs = calls[level]
            values = [*args, *kwargs.values()]
            if 0 <= place < len(values):
                return values[place]
        return value

    def changed(self, states) -> None:
        """The program changed shared containers (``[number, state]`` each): the test's hold that now."""
        if type(states) is not list:
            return
        for item in states:
            if type(item) is list and len(item) == 2 and item[0] in self.objects:
                entry = self.objects[item[0]]
                sync(entry[0], item[1])
                entry[1] = _snapshot(entry[0])

    def outgoing(self, mark) -> tuple[tuple, list[int]]:
        """Before a request: the shared containers the test changed since they were last synced, as
        marks (``mark(container)``: ``judge.send``), and the numbers of those the test no longer
        holds (forgotten here: ``~number`` each, for the program to let go of them)."""
        updates: list = []
        gone: list[int] = []
        for number, entry in list(self.objects.items()):
            now = _snapshot(entry[0])
            if now is None or now != entry[1]:  # (a change the test made just before letting go counts too)
                entry[1] = now
                updates.append(mark(entry[0]))
            if sys.getrefcount(entry[0]) <= 2:  # held by this entry and the call's argument only
                del self.objects[number]
                self.ids.pop(id(entry[0]), None)
                gone.append(~number)
        return tuple(updates), gone
