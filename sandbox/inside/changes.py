"""Which of many objects changed since they were last synced, found in passes of the interpreter's
own C code: both sides of the judge's crossing keep one (``Watch``) for the data objects the other
side holds a copy of (the judge's ``send.Sender``, the program's ``receive.Receiver``).

The rule: an object changed where its attributes' names, or the objects they hold (by identity:
no object's ``__eq__`` runs, and what is held stays alive, so no other object takes its identity),
or what the plain containers it holds hold in turn (a ``children`` list, item by item), differ
from what they were when it was last synced. A check of 10,000 objects that changed nothing costs
a few milliseconds, however many checks a test makes.

Stdlib only, light: the fork server loads it (the judge and every process of the program's).
"""

from __future__ import annotations

import collections
from itertools import chain, compress, repeat
from operator import is_not, ne

_LISTS = frozenset({list, tuple, set, frozenset, bytearray, collections.deque})
_MAPPINGS = frozenset({dict, collections.Counter, collections.OrderedDict, collections.defaultdict})
CONTAINERS = _LISTS | _MAPPINGS
DEPTH = 8  # levels of plain containers looked into


def contents(values, _type=type) -> list | None:
    """What the plain containers among ``values`` hold, container by container (tuples of their
    items, held), or None where they hold none."""
    if CONTAINERS.isdisjoint(map(_type, values)):
        return None
    out: list = []
    for value in values:
        _contents(value, out, 0)
    return out


def _contents(value, out: list, depth: int) -> None:
    kind = type(value)
    if kind in _MAPPINGS:
        out.append(tuple(dict.keys(value)))
        items = tuple(dict.values(value))
    elif kind in _LISTS:
        items = tuple(value)
    else:
        return
    out.append(items)
    if depth < DEPTH and not CONTAINERS.isdisjoint(map(type, items)):
        for item in items:
            _contents(item, out, depth + 1)


def same_contents(now: list | None, before: list | None) -> bool:
    """Whether two ``contents`` are the same: item by item, by identity."""
    if now is None or before is None:
        return now is before
    return len(now) == len(before) and all(len(a) == len(b) and not any(map(is_not, a, b))
                                           for a, b in zip(now, before, strict=True))


class Watch:
    """Objects by number, each with its state as last synced (``synced``); ``changed`` finds
    those whose state differs now."""

    __slots__ = ("_flat", "dicts", "keys", "nested", "numbers", "position", "values")

    def __init__(self):
        self.position: dict[int, int] = {}  # number -> place
        self.numbers: list[int] = []
        self.dicts: list[dict] = []  # each object's ``__dict__``
        self.keys: list[tuple] = []  # its attributes' names as synced
        self.values: list[tuple] = []  # the objects they held (held)
        self.nested: dict[int, list] = {}  # place -> its containers' contents as synced, where it holds any
        self._flat: tuple | None = None  # (names, values, owner of each, lengths), all objects in a row

    def __len__(self) -> int:
        return len(self.numbers)

    def __contains__(self, number) -> bool:
        return number in self.position

    def synced(self, number: int, obj, _vars=vars, _tuple=tuple, _map=map, _type=type) -> None:
        """``obj`` (known as ``number``) holds now what the other side's copy holds."""
        attributes = _vars(obj)
        values = _tuple(attributes.values())
        place = self.position.get(number)
        if place is None:
            place = self.position[number] = len(self.numbers)
            self.numbers.append(number)
            self.dicts.append(attributes)
            self.keys.append(_tuple(attributes))
            self.values.append(values)
        else:
            self.dicts[place] = attributes
            self.keys[place] = _tuple(attributes)
            self.values[place] = values
        nested = None if CONTAINERS.isdisjoint(_map(_type, values)) else contents(values)
        if nested is not None:
            self.nested[place] = nested
        elif self.nested:
            self.nested.pop(place, None)
        self._flat = None

    def forget(self, number: int) -> None:
        """``number``'s object no longer crosses as a copy (it crosses as a proxy): never changed."""
        place = self.position.get(number)
        if place is not None:
            self.dicts[place] = {}
            self.keys[place] = self.values[place] = ()
            self.nested.pop(place, None)
            self._flat = None

    def holding_containers(self) -> list[int]:
        """The numbers of the objects that held plain containers when last synced."""
        return [self.numbers[p] for p in self.nested]

    def changed(self, among=None) -> list[int]:
        """The numbers of the objects (of ``among``, numbers, or all) whose state differs from what
        it was when last synced."""
        if among is not None:
            return [n for n in among if n in self.position and not self._same(self.position[n])]
        dicts = self.dicts
        if self._flat is None:
            lengths = list(map(len, self.keys))
            self._flat = (list(chain.from_iterable(self.keys)), list(chain.from_iterable(self.values)),
                          list(chain.from_iterable(map(repeat, range(len(lengths)), lengths))), lengths)
        keys, values, owner, lengths = self._flat
        if list(map(len, dicts)) != lengths:  # attributes added or removed: object by object
            return [self.numbers[p] for p in range(len(dicts)) if not self._same(p)]
        places = set(compress(owner, map(is_not, chain.from_iterable(map(dict.values, dicts)), values)))
        now_keys = list(chain.from_iterable(dicts))
        if now_keys != keys:
            places.update(compress(owner, map(ne, now_keys, keys)))
        places.update(p for p, nested in self.nested.items()
                      if p not in places and not same_contents(contents(tuple(dicts[p].values())), nested))
        return [self.numbers[p] for p in sorted(places)]

    def _same(self, place: int) -> bool:
        attributes = self.dicts[place]
        values = tuple(attributes.values())
        return tuple(attributes) == self.keys[place] and len(values) == len(self.values[place]) \
            and not any(map(is_not, values, self.values[place])) \
            and same_contents(contents(values), self.nested.get(place))
