"""An exception of the program's, as the judge rebuilds it: its classes, its parts.

The rule: an exception the program raises reaches the test as an exception of the same classes, as
far as the test can tell: ``except ValueError`` and ``except ParseError`` catch it where they would
in one process, ``isinstance(e, ParseError)`` holds, its ``args``, message, plain attributes (its
properties' values too), its own class's plain class attributes and its ``__cause__`` are the
program's. The judge makes a class of its own for each class of the program's (their names, module
and the program's plain class attributes, on the same builtin bases: ``judge.exceptions``); this
module says what those are. A builtin base is known by its identity, never by its name: a class of
the program's that calls itself ``builtins.ValueError`` is a class of the program's.

Nothing here is believed: the judge reads it strictly (``values.decode_value``) and builds only
classes of its own from it.
"""

from __future__ import annotations

import builtins
import sys
from _json import encode_basestring_ascii as _encode_str

# The builtins this module uses: a program that replaces one (``builtins.isinstance = ...``)
# changes nothing of what this module reads and writes.
from builtins import (  # noqa: UP029 - bound once, as the fork server loaded them
    any,
    bool,
    callable,
    dict,
    enumerate,
    getattr,
    id,
    int,
    isinstance,
    issubclass,
    len,
    list,
    next,
    object,
    property,
    repr,
    str,
    type,
    vars,
)

from .encode import EXCEPTION_PARTS, NotPlainData, encode_value
from .errors import exception_message

# The builtin exception classes, by identity, as the fork server loaded them (before any program):
# a program can make a class named like one, never one of them.
BUILTIN_EXCEPTIONS: dict[int, str] = {id(value): name for name, value in vars(builtins).items()
                                      if isinstance(value, type) and issubclass(value, BaseException)}
_STDLIB = frozenset(sys.stdlib_module_names)
_MRO = type.__dict__["__mro__"].__get__  # a class's own MRO, whatever its metaclass says
_MODULE = type.__dict__["__module__"].__get__
_QUALNAME = type.__dict__["__qualname__"].__get__
_STR = str.__str__
_ISSUBCLASS = issubclass
_TYPE = type
_PROPERTY = property
LINEAGE_LIMIT = 8  # classes of the program's own above a builtin exception that the judge rebuilds
ATTRIBUTES_LIMIT = 16  # attributes of an exception (and of each own class) that the judge gets
OWN_STR_LIMIT = 10_000  # characters of what an exception's own ``__str__`` said that the judge gets
CAUSE_DEPTH = 3  # exceptions of a chain (``raise ... from``, one raised while handling another) the judge gets


def _plain_attributes(items) -> dict:
    """The plain-data values among ``(name, value)`` pairs, by public name, at most ``ATTRIBUTES_LIMIT``."""
    attributes: dict = {}
    for key, value in items:
        if len(attributes) >= ATTRIBUTES_LIMIT:
            break
        if _TYPE(key) is str and not key.startswith("_") and not callable(value) \
                and _TYPE(value) is not _PROPERTY:
            try:
                encode_value(value)
                attributes[key] = value
            except NotPlainData:
                pass
    return attributes


def lineage(cls) -> list:
    """``[builtin bases, own classes]`` of an exception class, what the judge rebuilds it from
    (``judge.exceptions.ExceptionClasses.of``): the builtin exception classes of its MRO that are no
    base of another of them (``KeyError`` and ``ValueError`` for ``class E(KeyError, ValueError)``),
    and its own classes, in MRO order (nearest first), each ``[module, qualified name, plain class
    attributes, direct bases, standard]``: a base is ``["b", builtin name]`` or ``["o", index among
    the own classes]``, and ``standard`` says whether it is a standard module's own class
    (``_is_standard``). The judge builds each of its classes on the same bases, so ``except Base``
    catches what derives from ``Base`` and another class at once."""
    builtins_of: list[type] = []
    own: list[type] = []
    try:
        for klass in _MRO(cls):
            name = BUILTIN_EXCEPTIONS.get(id(klass))
            if name is not None:
                if not any(_ISSUBCLASS(b, klass) for b in builtins_of):
                    builtins_of.append(klass)
            elif klass is not object and len(own) < LINEAGE_LIMIT:
                own.append(klass)
        described = []
        for klass in own:
            bases: list[list] = []
            for base in _TYPE.__dict__["__bases__"].__get__(klass):
                if id(base) in BUILTIN_EXCEPTIONS:
                    bases.append(["b", BUILTIN_EXCEPTIONS[id(base)]])
                elif any(base is o for o in own):
                    bases.append(["o", next(i for i, o in enumerate(own) if o is base)])
            module, qualname = _STR(_MODULE(klass)), _STR(_QUALNAME(klass))
            described.append([module, qualname,
                              _plain_attributes(list(_TYPE.__dict__["__dict__"].__get__(klass).items())), bases,
                              _is_standard(klass, module, qualname)])
    except BaseException:  # noqa: BLE001 - a class of the program's that will not say: a plain Exception
        return [["Exception"], []]
    return [[BUILTIN_EXCEPTIONS[id(b)] for b in builtins_of] or ["Exception"], described]


def _is_standard(klass, module: str, qualname: str) -> bool:
    """Whether ``klass`` is the class a standard module of this process has under that name (a
    class that only claims a module and a name, ``builtins.ValueError``, is not)."""
    if module == "builtins" or module.partition(".")[0] not in _STDLIB:
        return False
    value: object = sys.modules.get(module)
    for part in qualname.split("."):
        value = getattr(value, part, None) if value is not None else None
    return value is klass


def own_text(e: BaseException, method: str = "__str__") -> str | bool | None:
    """``str(e)`` (or ``repr(e)``, for ``__repr__``) where a class of the program's, not a builtin,
    defines that method (the judge's copy of the class cannot run it), clipped to
    ``OWN_STR_LIMIT`` characters; False where it raises (so does the judge's copy); else None."""
    try:
        for klass in _MRO(type(e)):
            if method in _TYPE.__dict__["__dict__"].__get__(klass):
                if id(klass) in BUILTIN_EXCEPTIONS or klass is object:
                    return None
                return _STR(str(e) if method == "__str__" else repr(e))[:OWN_STR_LIMIT]
    except BaseException:  # noqa: BLE001 - a method that raises, or a class that will not say
        return False
    return None


def _properties(e: BaseException) -> list:
    """``(name, value)`` of the public properties the program's own classes define, read on ``e``."""
    values = []
    try:
        for klass in _MRO(type(e)):
            if id(klass) in BUILTIN_EXCEPTIONS or klass is object:
                continue
            for key, value in list(_TYPE.__dict__["__dict__"].__get__(klass).items()):
                if _TYPE(value) is _PROPERTY and _TYPE(key) is str and not key.startswith("_"):
                    try:
                        values.append((key, getattr(e, key)))
                    except BaseException:  # noqa: BLE001 - a property that raises: not crossed
                        pass
    except BaseException:  # noqa: BLE001
        pass
    return values


def _told(text) -> str:
    return _encode_str(text) if type(text) is str else "false" if text is False else "null"


def _nested(e, depth: int) -> str:
    """An exception's chained exception (its cause, its context) in this same form, or null."""
    if isinstance(e, BaseException) and depth + 1 < CAUSE_DEPTH:
        return "[" + exception_parts(e, depth + 1) + "]"
    return "null"


def exception_parts(e: BaseException, depth: int = 0) -> str:
    """An exception as the judge rebuilds it, tagged JSON: ``builtin bases, message, own classes,
    args, attributes, own str, cause, context, own repr, notes, group``: ``args`` and the plain
    attributes of the exception (its properties' values among them), for the judge to build it
    with; what its own ``__str__`` and ``__repr__`` said (``own_text``); its ``__cause__`` and
    ``__context__`` in the same form (or null); its notes (``add_note``); for an exception group,
    the exceptions it holds, in the same form (else null)."""
    bases, own = lineage(type(e))
    group = "null"
    try:
        if isinstance(e, BaseExceptionGroup):
            args = encode_value([e.message])
            group = "[" + ", ".join("[" + exception_parts(x, depth + 1) + "]" for x in e.exceptions[:16]) + "]"
        else:
            args = encode_value(list(e.args))
    except BaseException:  # noqa: BLE001 - args that are not plain data: the message stands for them
        args = encode_value([BaseException.__str__(e)]) if isinstance(e, BaseException) else "[]"
    try:
        attributes = _plain_attributes([*list(vars(e).items()), *_properties(e)])
    except BaseException:  # noqa: BLE001 - no attributes it will give
        attributes = {}
    chained = []
    for name in ("__cause__", "__context__"):
        try:
            chained.append(_nested(BaseException.__dict__[name].__get__(e), depth))
        except BaseException:  # noqa: BLE001
            chained.append("null")
    try:
        notes = encode_value([_STR(n)[:OWN_STR_LIMIT] for n in BaseException.__getattribute__(e, "__notes__")[:16]
                              if isinstance(n, str)])
    except BaseException:  # noqa: BLE001 - none, or not a list of text
        notes = "null"
    return (encode_value(bases) + ", " + _encode_str(exception_message(e)) + ", " + encode_value(own) + ", "
            + args + ", " + encode_value(attributes) + ", " + _told(own_text(e)) + ", " + chained[0] + ", "
            + chained[1] + ", " + _told(own_text(e, "__repr__")) + ", " + notes + ", " + group)


EXCEPTION_PARTS[0] = exception_parts
