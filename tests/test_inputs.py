"""Inputs derived from a task's tests, and the cheat programs (grpo_code.curate.inputs, .cheats,
.oracle): pure, no Docker. That the cheats run and pass what they should is tests/test_audit.py's."""

from __future__ import annotations

import ast
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_code.curate.cheats import CONSTANTS, cheats
from grpo_code.curate.inputs import (
    NO_VALUE,
    from_source,
    new_calls,
    observed_calls,
    stdin_variants,
    to_source,
    variants,
)
from grpo_code.curate.oracle import SAME, suggestion
from grpo_code.suites.tasks import parse_task
from sandbox import TestCase


def task(tests, **fields):
    return parse_task({"task_id": "t/f", "prompt": "p", "entry_point": "f", "tests": tests,
                       "reference_solution": "def f(a, b=1):\n    return a\n", **fields})


def a(code, public=False):
    return {"kind": "assert", "code": code, **({"visibility": "public"} if public else {})}


def test_observed_calls_read_each_form_an_assert_states_a_value_in():
    t = task([a("assert f(1, 2) == 3", public=True), a("assert f([1], b=(2,)) is None"), a("assert f('x')"),
              a("assert not f(0, 0)"), a("assert abs(f(1.5, 2) - 0.25) < 1e-9"), a("assert math.isclose(f(2, 2), 4.0)"),
              a("assert 7 == candidate(7, 0)"), a("x = g()\nassert f(x, 1) == 2"), a("assert f(*[1, 2]) == 3")])
    calls = [(c.args, c.kwargs, c.expected, c.public) for c in observed_calls(t)]
    assert calls == [((1, 2), {}, 3, True), (([1],), {"b": (2,)}, None, False), (("x",), {}, True, False),
                     ((0, 0), {}, False, False), ((1.5, 2), {}, 0.25, False), ((2, 2), {}, 4.0, False),
                     ((7, 0), {}, 7, False), ((1, 2), {}, 3, False)]  # g() has no literal argument; *[1, 2] spreads


def test_observed_calls_of_call_tests_and_of_stdio_tasks():
    t = parse_task({"task_id": "c", "prompt": "p", "tests": [
        {"kind": "call", "fn_name": "g", "args": [[1, 2]], "kwargs": {"k": 1}, "expected": {"a": 1}}]})
    assert [(c.args, c.kwargs, c.expected) for c in observed_calls(t)] == [(([1, 2],), {"k": 1}, {"a": 1})]
    io = parse_task({"task_id": "s", "prompt": "p", "tests": [{"kind": "stdio", "stdin": "1", "expected_stdout": "1"}]})
    assert observed_calls(io) == [] and new_calls(io, 10) == []


def test_variants_keep_the_type_and_change_the_value():
    assert variants(5) == [6, 4, 0, 1, -5, 10]
    assert variants(True) == [False]
    assert variants("ab") == ["", "a", "b", "ba", "abb", "AB", "ab ab"]
    assert variants((3,))[:4] == [(), (3, 3), (4,), (2,)]
    assert variants({"k": 1}) == [{}, {"k": 2}, {"k": 0}]
    assert variants(None) == [] and variants(float("nan")) == []


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-99, 99) | st.floats(-1e6, 1e6) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=8))
def test_every_variant_has_the_type_of_its_value_differs_from_it_and_reads_back_from_its_source(value):
    for v in variants(value):
        assert type(v) is type(value)
        assert to_source(v) != to_source(value)
        assert to_source(from_source(to_source(v))) == to_source(v)


def test_new_calls_vary_one_argument_at_a_time_and_never_repeat_a_test():
    t = task([a("assert f(3, 'ab') == 3"), a("assert f(4, 'ab') == 4")])
    calls = new_calls(t, 100, seed=0)
    keys = [c.key for c in calls]
    assert len(keys) == len(set(keys)) and not {c.key for c in observed_calls(t)} & set(keys)
    assert {c.args for c in calls} >= {(2, "ab"), (3, ""), (5, "ab"), (4, "abb")}
    assert all(sum(x != y for x, y in zip(c.args, (3, "ab"), strict=True)) == 1 or
               sum(x != y for x, y in zip(c.args, (4, "ab"), strict=True)) == 1 for c in calls)
    assert new_calls(t, 5, seed=0) == calls[:5] != new_calls(t, 5, seed=1)  # round robin over the tests, seeded


def test_stdin_variants_change_one_token_or_reverse_one_line():
    t = parse_task({"task_id": "s", "prompt": "p", "tests": [
        {"kind": "stdio", "stdin": "2\n5 9\n", "expected_stdout": "14\n"}]})
    made = set(stdin_variants(t, 100))
    assert made == {"3\n5 9\n", "1\n5 9\n", "0\n5 9\n", "4\n5 9\n", "2\n6 9\n", "2\n4 9\n", "2\n0 9\n", "2\n1 9\n",
                    "2\n10 9\n", "2\n5 10\n", "2\n5 8\n", "2\n5 0\n", "2\n5 1\n", "2\n5 18\n", "2\n9 5\n"}
    signed = parse_task({"task_id": "s", "prompt": "p", "tests": [
        {"kind": "stdio", "stdin": "-1 2.50\n", "expected_stdout": "x"}]})
    assert {"1 2.50\n", "-1 -2.50\n", "-1 1.25\n", "2.50 -1\n"} <= set(stdin_variants(signed, 100))


def test_to_source_writes_what_reads_back():
    for value in [float("nan"), -float("inf"), {1, 2}, set(), (1,), {"a": [1.5, None]}]:
        back = from_source(to_source(value))
        assert type(back) is type(value)
        assert to_source(back) == to_source(value)
    assert math.isnan(from_source("[nan]")[0]) and from_source("-inf") == -math.inf
    with pytest.raises(ValueError, match="not a literal"):
        from_source("object()")


def test_the_suggested_test_is_the_plain_assert_an_author_writes():
    made = TestCase(kind="assert", code=f"{SAME}assert _same(f(3, 'a'), [1, 2.5])")
    assert suggestion(made) == {"kind": "assert", "code": "assert f(3, 'a') == [1, 2.5]"}
    plain = TestCase(kind="stdio", stdin="1\n", expected_stdout="2\n")
    assert suggestion(plain) == plain.to_dict()


# -- cheats -----------------------------------------------------------------------------------------


def test_python_function_cheats_keep_the_reference_signature():
    t = task([a("assert f(1, 2) == 3", public=True), a("assert f(2, 2) == 4")])
    made = {c.name: c.program for c in cheats(t)}
    assert list(made) == [*(f"constant_{n}" for n in CONSTANTS), "echo", "lookup", "raise", "exit", "exit_at_import",
                          "nan"]
    assert made["constant_empty_list"] == "def f(a, b=1):\n    return []\n"
    assert made["echo"] == "def f(a, b=1):\n    return a\n"
    namespace: dict = {}
    exec(made["lookup"], namespace)  # a program of ours: the lookup table answers what was shown
    assert namespace["f"](1, 2) == 3 and namespace["f"](2, 2) == 3  # the public answer, else the first one
    for program in made.values():
        ast.parse(program)


def test_a_task_with_no_public_answer_gets_no_lookup_cheat():
    assert "lookup" not in {c.name for c in cheats(task([a("assert f(1, 2) == 3")]))}


def test_stdio_cheats_in_every_language_hold_the_public_answers():
    for language in ("python", "c", "cpp", "java", "javascript", "typescript", "go", "rust"):
        t = parse_task({"task_id": "s", "prompt": "p", "language": language, "tests": [
            {"kind": "stdio", "stdin": 'a "q"\\\n', "expected_stdout": "é\t1\n", "visibility": "public"},
            {"kind": "stdio", "stdin": "b\n", "expected_stdout": "2\n"}]})
        made = {c.name: c.program for c in cheats(t)}
        assert list(made) == ["print_nothing", "constant_0", "constant_1", "constant_-1", "echo", "lookup", "raise",
                              "nan"], language
        assert "b\\n" not in made["lookup"]  # only what was shown
    python = parse_task({"task_id": "s", "prompt": "p", "tests": [
        {"kind": "stdio", "stdin": "x", "expected_stdout": "y", "visibility": "public"}]})
    assert "SHOWN = {'x': 'y'}" in {c.name: c.program for c in cheats(python)}["lookup"]
    assert NO_VALUE is not None
