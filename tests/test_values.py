"""Plain values that cross from the program's process: written by harness code in it
(``program.encode.encode_value``), read strictly in trusted code (``values.decode_value``)."""

from __future__ import annotations

import math

import pytest

from sandbox.inside.program.encode import NotPlainData, encode_value
from sandbox.inside.values import NotPlain, decode_value, to_json_form

ROUND_TRIP = [
    None, True, False, 0, -7, 2**70, 10**5000, -(10**5000), 1.5, -0.0, 1e300, "", "é ☃ \n \"q\"",
    [], [1, [2, [3]]], (), (1,), (1, (2, 3)), {1, 2}, frozenset({"a"}), {"a": 1, 2: [3], (1, 2): None},
    b"\x00\xff", bytearray(b"xy"), 3 + 4j, range(1, 10, 2), ..., [(1, "a"), {"k": {4}}],
]


@pytest.mark.parametrize("value", ROUND_TRIP, ids=lambda v: type(v).__name__)
def test_every_plain_type_crosses_with_its_exact_type(value):
    back = decode_value(encode_value(value))
    assert back == value and type(back) is type(value)
    if isinstance(value, (list, tuple)) and value:
        assert isinstance(back, (list, tuple))
        assert [type(x) for x in back] == [type(x) for x in value]


def test_floats_that_json_has_no_literal_for_cross():
    nan = decode_value(encode_value(float("nan")))
    assert isinstance(nan, float) and math.isnan(nan)
    assert decode_value(encode_value([float("inf"), -math.inf])) == [math.inf, -math.inf]


def test_int_and_float_stay_apart():
    assert type(decode_value(encode_value(1))) is int and type(decode_value(encode_value(1.0))) is float


@pytest.mark.parametrize("value", [
    type("S", (str,), {})("x"),                      # a subclass of a builtin type
    [1, type("I", (int,), {})(2)],
    {"k": object()},
    lambda: 1,
    iter([1]),
    type("E", (), {"__eq__": lambda s, o: True})(),  # always-equal
])
def test_anything_else_is_refused_before_any_of_its_code_runs(value):
    with pytest.raises(NotPlainData):
        encode_value(value)


def test_deep_nesting_is_refused():
    deep: list = []
    for _ in range(300):
        deep = [deep]
    with pytest.raises(NotPlainData):
        encode_value(deep)


@pytest.mark.parametrize("text", [
    "", "[1, 2", "{}", '{"t": [], "s": []}', '{"zz": 1}', '{"s": [[1]]}', '{"d": [[[1], 2]]}',
    '{"d": [1]}', '{"c": ["a", 1]}', '{"i": "zz"}', "1 2", "[" * 100000 + "]" * 100000, "9" * 5000,
    '{"r": [1, 2]}', '{"e": 1}',
])
def test_what_a_program_could_write_instead_is_refused(text):
    with pytest.raises(NotPlain):
        decode_value(text)


def test_json_form_is_what_call_tests_compare():
    assert to_json_form(decode_value(encode_value((1, [2, (3,)], {"a": (4,)})))) == [1, [2, [3]], {"a": [4]}]
    assert to_json_form({1: "a", None: "c", 1.5: "d"}) == {"1": "a", "null": "c", "1.5": "d"}
    assert to_json_form({True: "b"}) == {"true": "b"}
    with pytest.raises(NotPlain):
        to_json_form({1, 2})
