"""Plain values that cross from the program's process: written by harness code in it
(``program.encode.encode_value``), read strictly in trusted code (``values.decode_value``)."""

from __future__ import annotations

import math

import pytest

from sandbox.inside.program.encode import NotPlainData, encode_value
from sandbox.inside.procs import MAX_VALUE_DEPTH
from sandbox.inside.values import MAX_INT_BITS, NotPlain, decode_value, preview, to_json_form

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
    '{"r": [1, 2]}', '{"e": 1}', '{"d": [[1, 2, 3]]}', '{"zz": "ff"}', '{"h": [0, "X"]}', '{"k": 0}',
    '{"r": [-9223372036854775808, 0, 1]}', '{"r": [0, 9223372036854775808, 1]}',  # past a C long
    '{"i": "' + "f" * (MAX_INT_BITS // 4 + 2) + '"}',  # more than MAX_INT_BITS bits
])
def test_what_a_program_could_write_instead_is_refused(text):
    with pytest.raises(NotPlain):
        decode_value(text)


def test_the_largest_values_allowed_are_read():
    assert decode_value('{"r": [-9223372036854775807, 9223372036854775807, 1]}') == range(-2**63 + 1, 2**63 - 1)
    # an integer of MAX_INT_BITS bits, with its sign: the longest hex text that is read
    assert decode_value('{"i": "-' + "f" * (MAX_INT_BITS // 4) + '"}') == -(2**MAX_INT_BITS - 1)


def test_only_the_judge_reads_handles_and_it_builds_them():
    def refs(tag, body):
        return (tag, body)

    assert decode_value('[{"h": [3, "Point"]}, {"k": 7}]', refs) == [("h", [3, "Point"]), ("k", 7)]
    with pytest.raises(NotPlain, match="unknown tag 'h'"):
        decode_value('{"h": [3, "Point"]}')  # anywhere but the judge: refused
    with pytest.raises(NotPlain, match="unknown tag 't'"):
        decode_value('{"t": 1}', refs)  # a known tag with the wrong body is not a handle either


def test_json_form_is_what_call_tests_compare():
    assert to_json_form(decode_value(encode_value((1, [2, (3,)], {"a": (4,)})))) == [1, [2, [3]], {"a": [4]}]
    assert to_json_form({1: "a", None: "c", 1.5: "d"}) == {"1": "a", "null": "c", "1.5": "d"}
    assert to_json_form({True: "b"}) == {"true": "b"}
    # keys as json.dumps writes them (the form of the expected value in a suite file)
    assert to_json_form({False: 0, math.nan: 1, math.inf: 2, -math.inf: 3, -2.5: 4}) == \
        {"false": 0, "NaN": 1, "Infinity": 2, "-Infinity": 3, "-2.5": 4}
    # an integer key: decimal up to 13,000 bits, past that hex (decimal text would be refused or slow)
    assert to_json_form({2**13000 - 1: 0}) == {str(2**13000 - 1): 0}
    assert to_json_form({2**13000: 0, -(2**13000): 1}) == {"0x1" + "0" * 3250: 0, "-0x1" + "0" * 3250: 1}
    with pytest.raises(NotPlain, match="returned dict has a key of type bytes"):
        to_json_form({b"k": 1})
    with pytest.raises(NotPlain):
        to_json_form({1, 2})


def _nested(levels: int, make=lambda inner: [inner]):
    value: object = 0
    for _ in range(levels):
        value = make(value)
    return value


@pytest.mark.parametrize("make, as_json", [
    (lambda inner: [inner], lambda inner: [inner]),
    (lambda inner: (inner,), lambda inner: [inner]),
    (lambda inner: {"k": inner}, lambda inner: {"k": inner}),
], ids=["list", "tuple", "dict"])
def test_json_form_allows_max_value_depth_levels_of_nesting(make, as_json):
    # containers at depths 0 .. MAX_VALUE_DEPTH are read; one level more is refused
    assert to_json_form(_nested(MAX_VALUE_DEPTH + 1, make)) == _nested(MAX_VALUE_DEPTH + 1, as_json)
    with pytest.raises(NotPlain, match="the value nests too deeply"):
        to_json_form(_nested(MAX_VALUE_DEPTH + 2, make))


def test_preview_writes_a_value_as_json_and_bounds_it():
    """What a message shows of a program's answer ("expected 3, got ..."): JSON text, cut to the limit."""
    assert preview([1, 'a"b', None, True, False, -0.0, 1e300, math.nan, math.inf, -math.inf, {"k": [2]}, (1,), {3}]) \
        == '[1, "a\\"b", null, true, false, -0.0, 1e+300, NaN, Infinity, -Infinity, {"k": [2]}, <tuple>, <set>]'
    assert preview({1: "x", "b": [None]}) == '{1: "x", "b": [null]}'
    assert preview(2**1999) == str(2**1999)[:197] + "..."  # 2,000 bits: still written, then cut
    assert preview(2**3000) == "<an integer of 3001 bits>" and preview(-(2**3000)) == "<an integer of 3001 bits>"
    assert preview("x" * 300, limit=10) == '"xxxxxx...'
    assert preview({"a": 1, "b": "long" * 50}, limit=30) == '{"a": 1, "b": "longlonglong...'
    assert preview(list(range(100)), limit=20) == "[0, 1, 2, 3, 4, 5, 6"  # the writer stops at the limit
    assert preview(_nested(30)) == "[" * 21 + "..." + "]" * 21  # past 20 levels: "..."
    assert preview([]) == "[]" and preview({}) == "{}"
