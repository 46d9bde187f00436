"""The program's exceptions and exception classes, as the judge makes them for a test.

The rule: an exception the program raises reaches the test as an exception of the same classes, as
far as the test can tell (``program.lineage`` says what crosses): ``except ValueError`` and
``except ParseError`` catch it where they would in one process, and ``isinstance(e, ParseError)``
holds with the program's ``ParseError``; its ``args``, message, plain attributes and properties'
values, its own classes' plain class attributes, what their ``__str__`` and ``__repr__`` say, its
``__cause__``, ``__context__`` and notes, an exception group's exceptions are the program's. Each
class of the program's becomes a class of the judge's, made once per job, with the program's module
and name on its own direct bases (of the program's, rebuilt, or builtin); a standard module's own
class is itself where the test imported that module (``json.JSONDecodeError``). The exceptions that
steer control flow are themselves too: ``KeyboardInterrupt``, ``SystemExit`` and ``GeneratorExit``
pass an ``except Exception`` as in one process; a ``StopIteration`` the test catches is caught, and
one that would end the test's own ``map`` or ``filter`` early (and make ``all()`` vacuous) cannot:
the test's ``map`` and ``filter`` are generators (``asserts``), which PEP 479 makes raise
``RuntimeError`` instead, as the test's own generator expressions do. No code of the program's runs
here: the classes are the judge's own.

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import builtins
import sys

from .taskcode import RAISED_IN, ProgramError

TOLD_STR = "_program_str"  # where an exception the judge made keeps what the program's own ``__str__`` said
TOLD_REPR = "_program_repr"  # and what its own ``__repr__`` said
# where the program raised it, for the verdict's message (not one of its notes: ``taskcode.describe``)
_STDLIB = frozenset(sys.stdlib_module_names)
_EXCEPTIONS = {name: value for name, value in vars(builtins).items()
               if isinstance(value, type) and issubclass(value, BaseException)}
LINEAGE_LIMIT = 8
# A test runner's own signals, never themselves when the program raises them: a skip or an expected
# failure is the test file's to declare (``judge.files``); the program's is an error of its own.
_RUNNERS_OWN = frozenset({("unittest.case", "SkipTest"), ("unittest.case", "_ShouldStop"),
                          ("unittest.case", "_UnexpectedSuccess")})


def _standard_class(module: str, qualname: str) -> type | None:
    """A standard module's exception class, where the judge has that module already (a test that
    catches ``json.JSONDecodeError`` imported ``json``): never imported for the program's asking.
    Only a class that is that name (its own ``__module__`` and ``__qualname__``: a path through a
    module's attributes, ``codecs.builtins.StopIteration``, names another class) and an exception
    that is no ``MemoryError``, nor a test runner's own signal (``_RUNNERS_OWN``)."""
    if (module, qualname) in _RUNNERS_OWN:
        return None
    loaded = sys.modules.get(module) if module != "builtins" and module.partition(".")[0] in _STDLIB else None
    value: object = loaded
    for part in qualname.split(".") if loaded is not None else ():
        value = getattr(value, part, None)
    if not isinstance(value, type) or not issubclass(value, BaseException) or issubclass(value, MemoryError):
        return None
    return value if value.__module__ == module and value.__qualname__ == qualname else None


def _told(self: BaseException, kept: str, method: str, own) -> str:
    told = self.__dict__.get(kept)
    if type(told) is str:
        return told
    if told is False:
        raise ProgramError(f"the program's {type(self).__qualname__}.{method} raised")
    for klass in type(self).__mro__:
        found = klass.__dict__.get(method)
        if found is not None and found is not own:
            return found(self)
    return ""


def _told_str(self: BaseException) -> str:
    """``__str__`` of an exception class the judge made for one of the program's: what the
    program's own ``__str__`` said of this exception (``program.lineage.own_text``), an error where
    it raised, else the rule of the builtin class below it."""
    return _told(self, TOLD_STR, "__str__", _told_str)


def _told_repr(self: BaseException) -> str:
    """``__repr__`` of such a class: what the program's own ``__repr__`` said, as ``_told_str``."""
    return _told(self, TOLD_REPR, "__repr__", _told_repr)


class ExceptionClasses:
    """The judge's classes for one job's program's exception classes, made once each."""

    def __init__(self):
        self.made: dict[tuple, type] = {}

    def of(self, lineage) -> type | None:
        """The judge's class for an exception class of the program's (``program.lineage.lineage``:
        ``[builtin bases, own classes]``, each own class on its own direct bases), or None where a
        base is a ``MemoryError`` (``ProgramError``)."""
        if type(lineage) is not list or len(lineage) != 2 or type(lineage[0]) is not list \
                or type(lineage[1]) is not list:
            return None
        named = [_EXCEPTIONS.get(b) if type(b) is str else None for b in lineage[0][:LINEAGE_LIMIT]]
        bases: tuple[type, ...] = tuple(b for b in named if b is not None)
        if not bases or len(bases) < len(named) or MemoryError in bases:
            return None
        own = lineage[1][:LINEAGE_LIMIT]
        classes: list[type | None] = [None] * len(own)
        for index in range(len(own) - 1, -1, -1):  # bases come after their subclasses in an MRO
            classes[index] = self._own(own[index], classes, bases)
            if classes[index] is None:
                return None
        return classes[0] if classes else bases[0]

    def _own(self, entry, classes: list, bases: tuple[type, ...]) -> type | None:
        """One own class of a lineage, on its direct bases (made already: ``classes``)."""
        if type(entry) is not list or len(entry) != 5 or type(entry[0]) is not str or type(entry[1]) is not str \
                or type(entry[2]) is not dict or type(entry[3]) is not list:
            return None
        module, qualname, attributes, refs, standard = entry
        real = _standard_class(module, qualname) if standard is True else None
        if real is not None and all(issubclass(real, _EXCEPTIONS[r[1]]) for r in refs
                                    if type(r) is list and len(r) == 2 and r[0] == "b" and r[1] in _EXCEPTIONS):
            return real  # (a standard module's own class, as the program's process has it: the test's)
        parents: list[type] = []
        for ref in refs:
            if type(ref) is list and len(ref) == 2 and ref[0] == "b" and ref[1] in _EXCEPTIONS:
                parents.append(_EXCEPTIONS[ref[1]])
            elif type(ref) is list and len(ref) == 2 and ref[0] == "o" and type(ref[1]) is int \
                    and 0 <= ref[1] < len(classes) and classes[ref[1]] is not None:
                parents.append(classes[ref[1]])
        if not any(issubclass(p, BaseException) for p in parents):
            parents.append(bases[0])  # (a base the judge cannot rebuild: the nearest builtin one)
        key = (module, qualname, tuple(parents))
        if key not in self.made:
            namespace = {key: value for key, value in attributes.items()
                         if type(key) is str and key.isidentifier() and not key.startswith("_")}
            namespace.update({"__module__": module, "__qualname__": qualname, "__str__": _told_str,
                              "__repr__": _told_repr})
            name = qualname.rpartition(".")[2] or "Exception"
            try:
                self.made[key] = type(name, tuple(parents), namespace)
            except TypeError:  # bases that cannot be one class's: the first exception class among them
                first = next(p for p in parents if issubclass(p, BaseException))
                self.made[key] = type(name, (first,), namespace)
        return self.made[key]

    def build(self, parts, where: str = "", depth: int = 0) -> BaseException:
        """The exception ``parts`` describe (``program.lineage.exception_parts``), with where it was
        raised kept for the verdict's message (``taskcode.describe``)."""
        bases, message, own, args, attributes, told, cause, context, told_repr, notes, group = parts
        error_class = self.of([bases, own])
        if error_class is None:
            return ProgramError(f"{message} {where}".strip())
        args = tuple(args) if type(args) is list else ()
        members = [self.build(x, "", depth + 1) for x in group if parts_ok(x)] if type(group) is list else None
        try:
            error = error_class(args[0] if args else "", members) if members is not None else error_class(*args)
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
        for kept, text in ((TOLD_STR, told), (TOLD_REPR, told_repr)):
            if type(text) is str or text is False:
                error.__dict__[kept] = text
        if depth < 4:
            if parts_ok(cause):
                error.__cause__ = self.build(cause, "", depth + 1)
            if parts_ok(context):
                error.__context__ = self.build(context, "", depth + 1)
        if type(notes) is list:
            for note in notes:
                if type(note) is str:
                    error.add_note(note)
        if where:
            error.__dict__[RAISED_IN] = where
        return error


def raised_by_program(error: BaseException) -> bool:
    """Whether ``error`` is an exception the program raised, as the judge made it for the test
    (``ExceptionClasses.build``, which keeps where it was raised), not one of the test's own."""
    attributes = getattr(error, "__dict__", None)
    return type(attributes) is dict and RAISED_IN in attributes


def parts_ok(parts) -> bool:
    """Whether ``parts`` has the shape of ``program.lineage.exception_parts`` (its items are read
    strictly where they are used)."""
    return type(parts) is list and len(parts) == 11 and type(parts[1]) is str
