"""The crossing's rules that need no container: which names the tests use as classes
(``judge.classes``), which generators may run ahead of the test (``program.purity``), what the
program's process sends ahead of a ``getattr`` (``program.prefetch``), and the judge's class for
each type of the program's objects (``judge.remote.remote_class``). The judge's behaviour with
them, end to end, is in ``tests/test_fidelity.py`` (correct programs) and ``tests/test_hostile.py``
(wrong ones)."""

from __future__ import annotations

import types

import pytest

from sandbox.inside.judge.classes import used_as_classes
from sandbox.inside.judge.remote import Remote, remote_class
from sandbox.inside.procs import HANDLE_DUNDERS
from sandbox.inside.program import purity

MODULES = ("main",)


def classes(*tests: str, names: tuple[str, ...] = ("Frac", "Split", "Money", "Stack", "area", "Color", "Point")):
    return used_as_classes([(test, names, MODULES) for test in tests])


@pytest.mark.parametrize("tests", [
    ("assert Split([1, 2, 3, 4]) == [2, 4]", "assert Split([]) == []"),  # MBPP: a function spelled CapWords
    ("import math\nassert math.isclose(Split(2), 0.5)", "assert abs(Split(3) - 1.5) < 1e-9"),
    ("assert set(Split('ab')) == {'a', 'b'}", "assert len(Split([1])) == 1 and Split(0) is None"),
])
def test_a_name_only_called_and_compared_with_plain_data_is_no_class(tests):
    assert classes(*tests) == frozenset()


@pytest.mark.parametrize("test, name", [
    ("assert Frac(1, 2) + Frac(1, 3) == Frac(5, 6)", "Frac"),  # two objects made from it, combined
    ("assert Money(1) == Money(1)", "Money"),
    ("assert sorted([Money(3), Money(1)]) == [Money(1), Money(3)]", "Money"),
    ("assert max(Money(1), Money(7)).cents == 7", "Money"),
    ("s = Stack()\ns.push(1)\nassert len(s) == 1", "Stack"),  # a method of an object made from it
    ("assert Stack().pop() is None", "Stack"),
    ("assert Color.RED.value == 1", "Color"),  # an attribute of the class
    ("assert isinstance(Point(1, 2), Point)", "Point"),
    ("p = Point(1, 2)\nassert type(p) is Point", "Point"),
    ("try:\n    Frac(1, 0)\nexcept Frac:\n    pass", "Frac"),
    ("assert area(Point(2, 3)) == 6", "Point"),  # handed to another name of the program's
    ("total = Money(0)\nfor m in [Money(1), Money(2)]:\n    total += m\nassert total == 3", "Money"),
    ("b = Stack()\nalias = b\nb += 3\nassert len(alias) == 1", "Stack"),  # changed in place, through a name
])
def test_a_name_the_tests_use_as_a_class_is_one(test, name):
    assert name in classes(test)


def test_one_test_s_use_makes_the_name_a_class_for_the_whole_job_and_a_broken_test_uses_none():
    assert classes("assert Frac(4, 2) == 2", "assert Frac(1, 2) + Frac(1, 2) == Frac(1)") == {"Frac"}
    assert classes("assert Frac(4, 2) == 2") == frozenset()
    assert classes("assert Frac(1, 2) + Frac(1, 2) ==") == frozenset()  # does not parse
    # a test file imports the program's names: they are the program's
    assert used_as_classes([("from solution import Frac as F\ndef test_f():\n    assert F(1) + F(1) == 2\n",
                             (), ("main", "solution"))]) == {"F"}


PROGRAM = '''
def squares(n):
    for i in range(n):
        yield i * i
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
def words(s):
    for i, w in enumerate(tuple(s.split())):
        yield f"{i}:{w.upper()}"
def printing(n):
    for i in range(n):
        print(i)
        yield i
def over(xs):
    for x in xs:
        yield x
def helper(i):
    return i
def calling(n):
    for i in range(n):
        yield helper(i)
LOG = []
def logging(n):
    for i in range(n):
        LOG.append(i)
        yield i
def closure(n):
    step = n
    def inner():
        for i in range(3):
            yield i * step
    return inner()
def encoded(s):
    for c in s:
        yield c.encode("utf-8")
def shadowing(n):
    for i in range(n):
        yield abs(-i)
'''


@pytest.fixture
def module():
    namespace = vars(types.ModuleType("main"))
    exec(compile(PROGRAM, "main.py", "exec"), namespace)
    return namespace


def pure(generator, namespace) -> bool:
    return bool(purity.pure_code(generator, namespace)) and purity.pure_state(generator)


@pytest.mark.parametrize("make, expected", [
    (lambda m: m["squares"](5), True),
    (lambda m: m["fib"](), True),
    (lambda m: m["words"]("a b"), True),  # methods of the strings it holds, an f-string, a tuple's iterator
    (lambda m: (i * i for i in range(5)), False),  # not the program's module's: another's globals
    (lambda m: m["over"]((1, 2, 3)), True),  # a tuple cannot change
    (lambda m: m["over"]([1, 2, 3]), False),  # a list could: the test may hold it
    (lambda m: m["printing"](3), False),  # print: a builtin with an effect
    (lambda m: m["calling"](3), False),  # a function of the program's: its code is its own
    (lambda m: m["logging"](3), False),  # a global it changes
    (lambda m: m["closure"](3), False),  # a closure's cells
    (lambda m: m["encoded"]("ab"), False),  # a codec lookup
])
def test_a_generator_may_run_ahead_only_where_its_step_is_pure(module, make, expected):
    generator = make(module)
    next(generator)
    assert pure(generator, module) is expected


def test_a_builtin_the_program_shadows_or_the_test_patched_makes_the_step_impure(module):
    import builtins

    generator = module["shadowing"](3)
    next(generator)
    assert pure(generator, module)
    module["abs"] = lambda x: 0
    assert not pure(generator, module)
    del module["abs"]
    table = vars(builtins)
    original, table["abs"] = table["abs"], lambda x: 0  # (what a test's patch of ``abs`` does for a request)
    try:
        patched = pure(generator, module)
    finally:
        table["abs"] = original
    assert not patched and pure(generator, module)


def test_a_code_that_cannot_leave_a_changing_value_in_its_frame_has_its_state_looked_at_once(module):
    closed = [module[name](*args) for name, args in (("squares", (3,)), ("fib", ()), ("over", ((1, 2),)))]
    assert [purity.pure_code(g, module) for g in closed] == [purity.CLOSED] * 3
    # a method's value may be a list (``split``), a list built may stay: its state is looked at before each step
    exec("def growing():\n    seen = ()\n    for i in range(3):\n        yield i\n        seen = [i]\n", module)
    assert [purity.pure_code(g, module) for g in (module["words"]("a b"), module["growing"]())] == [purity.PURE] * 2


def test_a_step_that_leaves_a_list_in_the_frame_is_impure_from_then_on(module):
    exec("def growing():\n    seen = ()\n    for i in range(3):\n        yield i\n        seen = [i]\n", module)
    generator = module["growing"]()
    next(generator)
    assert pure(generator, module)  # nothing but ints and a range's iterator yet
    next(generator)
    assert not pure(generator, module)  # a list now: the test could not change it, but a later step may keep it


NODES = """
class Box:
    def __init__(self, v):
        self.v = v
class Node:
    def __init__(self, val, nxt=None):
        self.val, self.nxt = val, nxt
class Guarded:
    def __init__(self):
        self.val, self._hidden, self.items = 1, 2, [3]
        self.__dict__["twice"] = 99  # a read gets the property's value, not this
    @property
    def twice(self):
        return 2 * self.val
class Own:
    def __init__(self):
        self.val = 1
    def __getattribute__(self, name):
        return 0
def chain(n):
    head = None
    for i in range(n):
        head = Node(i, head)
    return head
"""

# Run in a fresh interpreter, as a program's process is: no thread but the main one, no signal
# handler of its own (pytest's process has both: its timeout's alarm, the executors' threads).
PREAMBLE = """
import json, types
from sandbox.inside.program.encode import Handles, encode_value
from sandbox.inside.program.prefetch import states
objects = vars(types.ModuleType("main"))
exec(compile(NODES, "main.py", "exec"), objects)
handles = Handles()
def sent(obj, budget, read=""):
    encode_value(obj, handles)
    text = states(obj, budget, handles, "main", read)
    return json.loads(text) if text else None
"""


def in_a_program_s_process(code: str) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    script = f"NODES = {NODES!r}\n{PREAMBLE}\n{code}"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stderr[-3000:]


def test_the_attributes_sent_ahead_are_a_walk_of_plain_instance_attributes():
    in_a_program_s_process("""
head = objects["chain"](5)
walk = sent(head, 3)
assert [attributes[::2] for _, attributes in walk] == [["val", "nxt"]] * 3  # breadth first, three objects
assert [attributes[1] for _, attributes in walk] == [4, 3, 2]
number, _ = walk[1]
assert handles.objects[number] is head.nxt and walk[0][1][3][0] == number  # a handle: [number, name, kind]
assert sent(head, 0) is None
tail = head.nxt.nxt.nxt.nxt
assert sent(tail, 1, "nxt") == [[handles.handle(tail), ["val", 0, "nxt", None]]]
box = objects["Box"](7)  # nothing but the attribute the answer gives: nothing is sent
assert sent(box, 1, "v") is None and sent(box, 1)[0][1] == ["v", 7]
""")


def test_only_what_a_read_gets_without_running_the_program_s_code_is_sent_ahead():
    in_a_program_s_process("""
(_, attributes), = sent(objects["Guarded"](), 8)
assert attributes == ["val", 1, "_hidden", 2], attributes  # a list could change under the judge; a property runs code
assert sent(objects["Own"](), 8) is None  # its own __getattribute__ runs on every read
head = objects["chain"](2)
encode_value(head, handles)
assert states(head, 8, handles, "another") == ""  # not a class of the program's module
""")


def test_nothing_is_sent_ahead_while_a_thread_or_a_signal_handler_of_the_program_s_could_run():
    in_a_program_s_process("""
import signal, threading
head = objects["chain"](2)
assert sent(head, 2)
stop = threading.Event()
thread = threading.Thread(target=stop.wait, daemon=True)
thread.start()
assert sent(head, 2) is None
stop.set()
thread.join()
assert sent(head, 2)
signal.signal(signal.SIGUSR1, lambda *a: None)
assert sent(head, 2) is None
""")


def test_a_handle_s_class_has_exactly_the_special_methods_of_the_program_s_type():
    from sandbox.inside.judge import remote

    assert set(remote._OPTIONAL) == set(HANDLE_DUNDERS)
    def has(cls, name):  # (the class's own methods: a class itself is callable, hashable and unites with ``|``)
        return any(vars(k).get(name) is not None for k in cls.__mro__ if k is not object)

    none = remote_class("Stack", 0)
    assert issubclass(none, Remote) and none.__name__ == "Stack" and none.__qualname__ == "Stack"
    assert not any(has(none, name) for name in HANDLE_DUNDERS) and none.__hash__ is None
    bits = {name: 1 << i for i, name in enumerate(HANDLE_DUNDERS)}
    sized = remote_class("main.Bag", bits["__len__"] | bits["__hash__"] | bits["__add__"])
    assert sized.__name__ == "Bag" and {name for name in HANDLE_DUNDERS if has(sized, name)} == \
        {"__len__", "__hash__", "__add__"}
    assert remote_class("main.Bag", bits["__len__"] | bits["__hash__"] | bits["__add__"]) is sized


def test_attributes_sent_ahead_that_nest_deeper_than_their_form_are_refused_without_recursion():
    # a program that sets a recursion limit of a million (the judge follows it) and then sends its
    # attributes ahead nested a million deep: read by the C scanner, the judge's stack would end first
    in_a_program_s_process("""
import sys
from sandbox.inside.judge.channel import Channel
from sandbox.inside.judge.remote import REMOTE_KINDS
channel = Channel(-1, -1, lambda fn: False, REMOTE_KINDS)
sys.setrecursionlimit(10 ** 6)
channel._keep("[" * 500000 + "]" * 500000, 1)
assert channel.states == {}
channel._keep('[[3, ["val", 1.5e-05, "name", "a\\\\"[[", "nxt", [4, "Node", 512]]]]', 1)
assert channel.states == {("h", 3): {"val": 1.5e-05, "name": 'a"[[', "nxt": [4, "Node", 512]}}, channel.states
""")
