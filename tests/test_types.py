"""The sandbox's own types refuse what it cannot run, naming the field (an ``assert`` test the judge
cannot run: ``guard.plan_assert``, which also compiles the ones it can), and read a runner's reply
into the figure training uses, the pass rate (no Docker).

These are the rules' one owner: ``grpo_code.suites.tasks.parse_task`` reports the same refusals in a
suite file's field, file and line (tests/test_tasks.py).
"""

from __future__ import annotations
import __future__

from typing import TYPE_CHECKING

import pytest

from sandbox import Job, Limits, TestCase
from sandbox.inside.guard import METHOD_CALL, plan_assert, program_reads, setup_names
from sandbox.types import FieldError, Verdict

if TYPE_CHECKING:
    from sandbox.inside.messages import TestResultWire

ASSERT = TestCase(kind="assert", code="assert f() == 1")
STDIO = TestCase(kind="stdio", stdin="", expected_stdout="1\n")
JS_CALL = TestCase(kind="call", fn_name="f", kwargs={"a": 1}, expected=1)


@pytest.mark.parametrize("make, field, words", [
    (lambda: Job(program="", tests=(ASSERT,), language="cobol"), "language", "unknown language 'cobol'"),
    (lambda: Job(program="", tests=(ASSERT,), language="c"), "tests[0].kind", "c programs take stdio tests"),
    (lambda: Job(program="", tests=(STDIO, JS_CALL), language="javascript"), "tests[1].kwargs",
     "positional arguments only"),
    (lambda: Job(program="", tests=(STDIO,), compare="fuzzy"), "compare", "compare must be one of"),
    (lambda: Job(program="", tests=(STDIO,), float_tolerance=-0.5), "float_tolerance", "must be >= 0, got -0.5"),
    (lambda: Job(program="", tests=()), "tests", "at least one test case"),
    (lambda: Job(program="", tests=(ASSERT,), checker="def check(i, o, e):\n    return True\n"), "checker",
     "judges stdio tests"),
    (lambda: Job(program="", tests=(STDIO, TestCase(kind="assert", code="f("))), "tests[1]",
     "the judge cannot run this assert test"),
    (lambda: Limits(time_limit_s=0), "time_limit_s", "time_limit_s must be > 0"),
    (lambda: Limits(memory_limit_mb=8), "memory_limit_mb", "at least 16"),
    (lambda: Limits(output_limit_bytes=10), "output_limit_bytes", "at least 1024"),
    (lambda: Limits(time_limit_s=2, wall_time_limit_s=1), "wall_time_limit_s", ">= time_limit_s"),
])
def test_a_refusal_names_its_field(make, field, words):
    with pytest.raises(FieldError) as err:
        make()
    assert err.value.field == field and words in str(err.value)
    assert isinstance(err.value, ValueError)  # what callers of the sandbox catch


def test_the_pass_rate_counts_passed_tests_and_a_checker_partial_credit():
    def reply(*tests: tuple[str, float | None]) -> Verdict:
        results: list[TestResultWire] = [{"status": s, "time_s": 0.1, "cpu_time_s": 0.1} for s, _ in tests]
        for result, (_, score) in zip(results, tests, strict=True):
            if score is not None:  # the runner sends a score only where a checker gave one
                result["score"] = score
        return Verdict.from_wire({"id": "id", "ok": True, "status": "failed", "tests": results, "compile_output": "",
                                  "compile_time_s": 0.0, "run_time_s": 0.5, "flags": []}, n_tests=4)

    # 1 + 0.5 + 0.25 + 0 of 4 tests
    partial = reply(("passed", None), ("failed", 0.5), ("failed", 0.25), ("failed", None))
    assert partial.pass_rate == 0.4375 and [t.score for t in partial.test_results] == [None, 0.5, 0.25, None]
    # credit is a number strictly between 0 and 1: 0, 1 or more on a failed test counts nothing
    beyond = reply(("passed", None), ("failed", 1.0), ("failed", 1.5), ("failed", 0))
    assert beyond.pass_rate == 0.25 and [t.score for t in beyond.test_results] == [None] * 4
    assert reply(("passed", None), ("checker_error", None)).pass_rate is None  # the checker's fault: no figure
    # a verdict without tests (a program-level status) is a 0, never a full score
    assert Verdict(status="compile_error").pass_rate == 0.0
    assert Verdict.program_level("no_code", n_tests=3, message="no code").pass_rate == 0.0
    assert Verdict.program_level("sandbox_error", n_tests=3, message="lost").pass_rate is None


PROGRAM_NAMES = [
    # names the test binds are its own, however bound; a free name is the program's
    ("import os.path\nimport collections.abc as cabc\nfrom math import floor\nassert f(os.path.sep, cabc, floor)",
     ("f",), ()),
    ("def h(a, *b, c=1, **d):\n    return a\nclass C:\n    pass\nfor i in range(2):\n    y = [j for j in g(i)]\n"
     "try:\n    pass\nexcept ValueError as e:\n    assert e\nassert h(C, y, i)", ("g",), ()),
    ("def k():\n    global t\n    t = 1\nmatch f():\n    case [a, *rest]:\n        assert a and rest\n"
     "    case {'k': v, **others}:\n        assert v and others\n    case q:\n        assert q and k()", ("f",), ()),
    # a standard module used by attribute is imported for the test; used otherwise, it is a name of the program's
    ("assert json.dumps(f()) == x and math(2)", ("f", "math"), ("json",)),
]


@pytest.mark.parametrize("code, program, modules", PROGRAM_NAMES)
def test_the_judge_knows_which_names_of_an_assert_test_are_the_program_s(code, program, modules):
    plan = plan_assert(code, frozenset({"x"}))  # x: bound by the task's test setup
    assert not isinstance(plan, str) and plan[1:4] == (program, modules, code)


def test_an_assert_test_is_compiled_for_the_judge():
    code = "assert P(2, k=1).scale(5, by=2) == 20 and Q(1).m() != 0 and P(**o).m(*o, **o)"
    plan = plan_assert(code, frozenset({"o"}))  # o: bound by the test setup
    assert not isinstance(plan, str)
    compiled, program, _, _, catches = plan
    assert program == ("P", "Q") and catches == ()
    assert compiled.co_filename == "<test>" and not compiled.co_flags & __future__.annotations.compiler_flag
    calls = []

    def method(name, args, kwargs, attr, margs, mkwargs):  # one call in the program's process (judge.remote.Remote)
        calls.append((name, args, kwargs, attr, margs, mkwargs))
        return 20 if attr == "scale" else 1

    exec(compiled, {METHOD_CALL: method, "o": {"a": 1}})
    assert calls == [("P", (2,), {"k": 1}, "scale", (5,), {"by": 2}), ("Q", (1,), {}, "m", (), {}),
                     ("P", (), {"a": 1}, "m", ("a",), {"a": 1})]
    assert plan_assert("assert f() == 1", frozenset())[1] == ("f",)
    caught = plan_assert("try:\n    f()\nexcept (Bad, ValueError):\n    pass\nexcept Other as e:\n    g(e)",
                         frozenset())
    assert caught[1] == ("Bad", "Other", "f", "g") and caught[4] == ("Bad", "Other")
    with pytest.raises(SyntaxError) as err:
        plan_assert("assert f(", frozenset())
    assert err.value.filename == "<test>"
    assert setup_names("import math\nLIMIT = 3\ndef helper():\n    pass\n") == {"math", "LIMIT", "helper"}
    with pytest.raises(SyntaxError) as err:
        setup_names("def (")
    assert err.value.filename == "<setup>"


def test_the_names_a_program_reads_are_those_its_code_loads_as_globals_and_never_binds():
    # The only names under which a test's definition may reach the program (judge.environment): a
    # name the program reaches by a string (check, helper), or binds at its top level, is none; one
    # it loads as a global is, in a function, a class body, a lambda or a comprehension.
    program = ("import sys\nclass Solution:\n    def f(self, head: 'Node') -> int:\n        node = ListNode(0)\n"
               "        return poly([1], 2) + len(globals()['check'](1)) + getattr(sys, 'x') + eval('helper')\n"
               "def g(check=None):\n    return check(Solution)\n"
               "def h():\n    global made\n    made = [TreeNode(v) for v in range(3)]\n    return lambda: Node\n")
    reads = program_reads(compile(program, "main.py", "exec", dont_inherit=True))
    assert reads == {"ListNode", "TreeNode", "Node", "poly", "int", "len", "globals", "getattr", "eval", "range",
                     "__name__"}  # (a class body's own __module__)
    many = "".join(f"v{i} = {i}\n" for i in range(300)) + "def k():\n    return v299 + far\n"  # EXTENDED_ARG
    assert program_reads(compile(many, "main.py", "exec", dont_inherit=True)) == {"far"}


@pytest.mark.parametrize("code, why", [
    ("class D(P):\n    pass\nassert D()", "the test subclasses a class of the program's (D)"),
])
def test_an_assert_test_the_judge_cannot_run_says_why(code, why):
    # (a generator the test hands the program, a `with` over the program's object: both judged now)
    for judged in ("assert f(*(i for i in range(3)))", "assert f(k=(i for i in range(3)))",
                   "with P() as r:\n    assert r"):
        assert not isinstance(plan_assert(judged, frozenset()), str)
    assert str(plan_assert(code, frozenset())).startswith(why)
    # the same shapes over the test's own names run
    own = "def f(*a, **k):\n    return 1\nclass P:\n    pass\n" + code
    assert not isinstance(plan_assert(own, frozenset()), str)


@pytest.mark.parametrize("data, words", [
    ({"kind": "call", "fn_name": "f", "args": [1]}, "a call test needs 'expected'"),
    ({"kind": "call", "fn_name": "f", "expected": 1.0, "atol": -1e-6}, "'atol' must be a number >= 0, got -1e-06"),
    ({"kind": "call", "fn_name": "f", "expected": 1.0, "rtol": "1e-7"}, "'rtol' must be a number >= 0"),
    ({"kind": "call", "fn_name": "f", "expected": 1.0, "atol": True}, "'atol' must be a number >= 0, got True"),
    ({"kind": "call", "fn_name": "f", "expected": 1.0, "atol": float("inf")}, "'atol' must be a number >= 0"),
    ({"kind": "assert", "code": "assert f()", "atol": 1e-6}, "assert tests take none"),
    ({"kind": "stdio", "stdin": "", "expected_stdout": "1", "rtol": 1e-7}, "stdio tests take none"),
])
def test_a_call_test_states_its_value_and_its_tolerance_is_a_number(data, words):
    with pytest.raises(ValueError, match=words):
        TestCase.from_dict(data)
    with pytest.raises(ValueError, match=words):  # built in Python, the same rule
        TestCase(**data)


def test_a_call_test_that_expects_none_says_so_and_its_tolerance_goes_on_the_wire():
    none = TestCase.from_dict({"kind": "call", "fn_name": "f", "expected": None})
    assert none.expected is None and none.check_dict() == {"kind": "call", "fn_name": "f", "args": [], "kwargs": {},
                                                           "expected": None}  # no tolerance: none sent
    close = TestCase.from_dict({"kind": "call", "fn_name": "f", "expected": 0.5, "atol": 1e-6, "rtol": 0})
    assert close.to_dict() == {"kind": "call", "fn_name": "f", "args": [], "kwargs": {}, "expected": 0.5,
                               "atol": 1e-6}
    assert TestCase.from_dict(close.to_dict()) == close
    wire = Job(program="", tests=(close,)).to_wire("id")["tests"][0]
    assert wire["atol"] == 1e-6 and "rtol" not in wire  # type: ignore[typeddict-item]
    assert TestCase(kind="assert", code="assert f()").expected is None  # other kinds state no value
