"""The program's exceptions and exception classes, as the judge makes them for a test.

The rule: an exception the program raises reaches the test as an exception of the same classes, as
far as the test can tell (``program.lineage`` says what crosses): ``except ValueError`` and
``except ParseError`` catch it where they would in one process, and ``isinstance(e, ParseError)``
holds with the program's ``ParseError``; its ``args``, message, plain attributes and properties'
values, its own classes' plain class attributes and its ``__cause__`` are the program's. Each class
of the program's becomes a class of the judge's, made once per job, with the program's module and
name on the same builtin bases (a standard module's own class where the test imported that module:
``json.JSONDecodeError``). The exceptions that steer a test's control flow keep what they are where
that is safe: ``KeyboardInterrupt``, ``SystemExit`` and ``GeneratorExit`` are themselves (an
``except Exception`` does not catch them, as in one process); ``StopIteration`` and
``StopAsyncIteration`` from a call become ``ProgramError`` (they would end the test's own ``map`` or
loop early and make ``all()`` vacuous: PEP 479's rule for generators, applied to every call). No
code of the program's runs here: the classes are the judge's own.

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import builtins
import sys

from .taskcode import ProgramError

TOLD_STR = "_program_str"  # where an exception the judge made keeps what the program's own ``__str__`` said
_STDLIB = frozenset(sys.stdlib_module_names)
_STEERING = frozenset({"StopIteration", "StopAsyncIteration"})  # ProgramError, from a call
_EXCEPTIONS = {name: value for name, value in vars(builtins).items()
               if isinstance(value, type) and issubclass(value, BaseException) and name not in _STEERING}
LINEAGE_LIMIT = 8


def _standard_class(module: str, qualname: str) -> type | None:
    """A standard module's exception class, where the judge has that module already (a test that
    catches ``json.JSONDecodeError`` imported ``json``): never imported for the program's asking.
    Only a class that is that name (its own ``__module__`` and ``__qualname__``: a path through a
    module's attributes, ``codecs.builtins.StopIteration``, names another class) and an exception
    that does not steer control flow and is no ``MemoryError``."""
    loaded = sys.modules.get(module) if module.partition(".")[0] in _STDLIB else None
    value: object = loaded
    for part in qualname.split(".") if loaded is not None else ():
        value = getattr(value, part, None)
    if not isinstance(value, type) or not issubclass(value, BaseException) \
            or issubclass(value, (StopIteration, StopAsyncIteration, MemoryError)):
        return None
    return value if value.__module__ == module and value.__qualname__ == qualname else None


def _told_str(self: BaseException) -> str:
    """``__str__`` of an exception class the judge made for one of the program's: what the
    program's own ``__str__`` said of this exception (``program.lineage.own_str``), an error where
    it raised, else the rule of the builtin class below it."""
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


class ExceptionClasses:
    """The judge's classes for one job's program's exception classes, made once each."""

    def __init__(self):
        self.made: dict[tuple, type] = {}

    def of(self, lineage) -> type | None:
        """The judge's class for an exception class of the program's (``program.lineage.lineage``:
        ``[builtin bases, own classes]``), each own class a subclass of the next, on the same builtin
        bases; None where a base steers control flow (``ProgramError``) or is a ``MemoryError``."""
        if type(lineage) is not list or len(lineage) != 2 or type(lineage[0]) is not list \
                or type(lineage[1]) is not list:
            return None
        named = [_EXCEPTIONS.get(b) if type(b) is str else None for b in lineage[0][:LINEAGE_LIMIT]]
        bases: tuple[type, ...] = tuple(b for b in named if b is not None)
        if not bases or len(bases) < len(named) or MemoryError in bases:
            return None
        made: type | None = None
        for own in reversed(lineage[1][:LINEAGE_LIMIT]):
            if type(own) is not list or len(own) != 3 or type(own[0]) is not str or type(own[1]) is not str \
                    or type(own[2]) is not dict:
                return None
            module, qualname, attributes = own
            real = _standard_class(module, qualname)
            if real is not None:
                made = real
                continue
            parents: tuple[type, ...] = (made,) if made is not None else bases
            key = (module, qualname, parents)
            if key not in self.made:
                namespace = {key: value for key, value in attributes.items()
                             if type(key) is str and key.isidentifier() and not key.startswith("_")}
                namespace.update({"__module__": module, "__qualname__": qualname, "__str__": _told_str})
                name = qualname.rpartition(".")[2] or "Exception"
                try:
                    self.made[key] = type(name, parents, namespace)
                except TypeError:  # bases that cannot be one class's: the first
                    self.made[key] = type(name, parents[:1], namespace)
            made = self.made[key]
        return made if made is not None else bases[0]

    def build(self, parts, note: str, depth: int = 0) -> BaseException:
        """The exception ``parts`` describe (``program.lineage.exception_parts``: ``[bases, message,
        own classes, args, attributes, own str, cause]``), with where it came from as a note."""
        bases, message, own, args, attributes, told, cause = parts
        error_class = self.of([bases, own])
        if error_class is None:
            return ProgramError(f"{message} {note}".strip())
        args = tuple(args) if type(args) is list else ()
        try:
            error = error_class(*args)
        except BaseException:  # noqa: BLE001 - a class that wants other arguments (JSONDecodeError)
            error = error_class.__new__(error_class, *args)
            error.args = args
        if type(attributes) is dict:
            for key, value in attributes.items():
                if type(key) is str and not key.startswith("_"):
                    try:
                        setattr(error, key, value)
                    except (AttributeError, TypeError):  # a read-only attribute of a builtin class
                        pass
        if (type(told) is str or told is False) and error_class.__str__ is _told_str:
            error.__dict__[TOLD_STR] = told
        if type(cause) is list and len(cause) == 7 and depth < 4:
            error.__cause__ = self.build(cause, "", depth + 1)
        if note:
            error.add_note(note)
        return error


def parts_ok(parts) -> bool:
    """Whether ``parts`` has the shape of ``program.lineage.exception_parts`` (its items are read
    strictly where they are used)."""
    return type(parts) is list and len(parts) == 7 and type(parts[1]) is str
