"""The test's objects that the program holds, and what the program may do to them: done here.

The rule: an object the test hands the program that is an instance of a class the test (or the
task's setup) defines, or a mock of ``unittest.mock``, stays in the judge, and the program gets a
proxy of it (``program.receive.TestObject``, one per object), as in one process where both hold
one object: what the program does with it (reads and sets its attributes, calls it, iterates it,
indexes it, compares it, uses it in ``with``) is done here, to the real object, by the test's own
code or the mock library's. The program never reaches the judge's own objects through one: it may
not read or set a dunder attribute of it (the globals of a node's class's ``__init__`` would be the
judge's), nor a mock's controls (what the test reads to judge the program: its ``assert_*``
methods, ``call_args``, ``reset_mock``, ``side_effect``, ``return_value``...), nor set any of a
mock's attributes. What comes back crosses as any value the test hands the program (``judge.send``).
A data object (``copyable``: a ``ListNode``) crosses instead as a copy into the program's class of
its name where the program has one, else into the test's class as the program's process has it (as
in one namespace, where both share one class), and what the program changes in it comes back to the
test's object.

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import operator

MOCK_MODULE = "unittest.mock"
TEST_MODULE = "__test__"  # the module of what the test's code and the task's setup define (``asserts``)
_MOCK_CONTROLS = frozenset({
    "called", "call_count", "call_args", "call_args_list", "method_calls", "mock_calls", "side_effect",
    "return_value", "reset_mock", "configure_mock", "attach_mock", "mock_add_spec", "await_count",
    "await_args", "await_args_list"})
_COMPARE = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
            "ge": operator.ge}


class Refused(TypeError):
    """What the program asked of an object of the test's is not its to do (the message says what)."""


def is_test_object(v) -> bool:
    """Whether ``v`` crosses as a proxy of the test's object: an instance of a class the test or
    the task's setup defines, or a mock."""
    module = getattr(type(v), "__module__", None)
    return module in (TEST_MODULE, MOCK_MODULE)


# The dunders of a class of the test's whose call the program makes is taken to change nothing: after
# one the judge does not look for objects the test's code changed (``Sender.stale``).
READ_ONLY = frozenset({"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__repr__",
                       "__str__", "__format__", "__bool__", "__len__", "__contains__"})


def plain_class(cls) -> bool:
    """Whether ``cls`` is a class the test or its setup defines that the program's process can have
    as a class of its own (``send.Sender.class_of``): made by ``type`` (no metaclass: no ``Enum``,
    no ``ABC``), on bases that are such classes too or ``object``, no exception."""
    return isinstance(cls, type) and type(cls) is type and cls.__module__ == TEST_MODULE \
        and not issubclass(cls, BaseException) \
        and all(base is object or plain_class(base) for base in cls.__bases__)


def copyable(v, of_class: bool = False) -> bool:
    """Whether an object of the test's crosses as a copy into the program's class of its name
    (``program.receive.Receiver``), where the program has one, else into the test's class as the
    program's process has it (``plain_class``), with what the program changes in it coming back
    (``Channel._sync``): an instance of a plain class of the test's that holds its state in its
    ``__dict__`` and is no callable (a ``ListNode``, a ``TreeNode``: what the program builds and
    walks as its own, patches the class of, compares). ``of_class``: whether ``v``, a class, is one
    whose objects are, where they hold a ``__dict__``."""
    cls = v if of_class else type(v)
    return plain_class(cls) and "__call__" not in dir(cls) and not any("__slots__" in vars(k) for k in cls.__mro__) \
        and (of_class or isinstance(getattr(v, "__dict__", None), dict))


def _name(obj, name, setting: bool) -> str:
    if type(name) is not str:
        raise Refused("an attribute name must be a string")
    if name.startswith("__") and name.endswith("__"):
        raise Refused(f"the program may not {'set' if setting else 'read'} {name} of an object of the test's")
    if type(obj).__module__ == MOCK_MODULE and (setting or name.startswith(("_", "assert"))
                                                 or name in _MOCK_CONTROLS):
        raise Refused(f"the program may not {'set' if setting else 'read'} a mock's {name}")
    return name


def settable(obj, name) -> bool:
    """Whether the program may set attribute ``name`` of the test's object ``obj``: ``serve``'s
    rule, which its copies' changes coming back follow too (``Channel._objects_changed``)."""
    try:
        _name(obj, name, True)
    except Refused:
        return False
    return True


def serve(obj, op: str, payload: list):
    """Do ``op`` (what ``program.receive.TestObject`` asks) to the test's object ``obj``.

    Raises:
        Refused: the program may not do that to it; or what the object's own code raised.
    """
    if op == "getattr":
        return getattr(obj, _name(obj, payload[0], False))
    if op == "setattr":
        return setattr(obj, _name(obj, payload[0], True), payload[1])
    if op == "delattr":
        return delattr(obj, _name(obj, payload[0], True))
    if op == "call":
        args, kwargs = payload
        if type(args) is not list or type(kwargs) is not dict:
            raise Refused("a call's arguments must be a list and a dict")
        return obj(*args, **kwargs)
    if op in _COMPARE:
        return _COMPARE[op](obj, payload[0])
    if op == "iter":
        return iter(obj)
    if op == "next":
        return next(obj)
    if op == "len":
        return len(obj)
    if op == "getitem":
        return obj[payload[0]]
    if op == "setitem":
        obj[payload[0]] = payload[1]
        return None
    if op == "delitem":
        del obj[payload[0]]
        return None
    if op == "contains":
        return payload[0] in obj
    if op == "str":
        return str(obj)
    if op == "repr":
        return repr(obj)
    if op == "bool":
        return bool(obj)
    if op == "hash":
        return hash(obj)
    if op == "enter":
        return obj.__enter__()
    if op == "exit":
        value = payload[0]
        return obj.__exit__(type(value) if isinstance(value, BaseException) else None, value, None)
    raise Refused(f"the program asked an object of the test's for {op!r}, which the judge does not do")
