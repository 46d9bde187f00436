"""Plain values that cross from the program's process: written by harness code in it
(``program.encode.encode_value``), read strictly in trusted code (``values.decode_value``); the
records they travel in, likewise (``records.record_line``, ``records.read_records``)."""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections import Counter, OrderedDict, deque
from decimal import Decimal

import pytest

from sandbox.inside.procs import MAX_VALUE_DEPTH
from sandbox.inside.program.encode import NotPlainData, encode_value
from sandbox.inside.records import JUDGE_EVENTS, MESSAGE_LIMIT, clip, flag_names, read_records, record_line, write_all
from sandbox.inside.values import MAX_INT_BITS, NotPlain, decode_value, non_finite, preview, to_json_form

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


@pytest.mark.parametrize("text, why", [  # why: what the verdict's message says, in its parentheses
    ("", "not a plain value: StopIteration"), ("[1, 2", "not a plain value: JSONDecodeError"),
    ("{}", "an encoded object must have exactly one tag"),
    ('{"t": [], "s": []}', "an encoded object must have exactly one tag"), ('{"zz": 1}', "unknown tag 'zz'"),
    ('{"s": [[1]]}', "not a plain value: TypeError"), ('{"d": [[[1], 2]]}', "not a plain value: TypeError"),
    ('{"d": [1]}', "a dict item must be a [key, value] pair"), ('{"c": ["a", 1]}', "unknown tag 'c'"),
    ('{"i": "zz"}', "not a plain value: ValueError"), ("1 2", "extra data after the value"),
    ("[" * 100000 + "]" * 100000, "not a plain value: RecursionError"),
    ("9" * 5000, "not a plain value: ValueError"),  # the interpreter's own limit on decimal digits
    ('{"r": [1, 2]}', "unknown tag 'r'"), ('{"e": 1}', "unknown tag 'e'"),
    ('{"d": [[1, 2, 3]]}', "a dict item must be a [key, value] pair"), ('{"zz": "ff"}', "unknown tag 'zz'"),
    ('{"h": [0, "X"]}', "unknown tag 'h'"), ('{"k": 0}', "unknown tag 'k'"),
    ('{"r": [-9223372036854775808, 0, 1]}', "unknown tag 'r'"),  # past a C long
    ('{"r": [0, 9223372036854775808, 1]}', "unknown tag 'r'"),
    ('{"i": "' + "f" * (MAX_INT_BITS // 4 + 2) + '"}', "an integer too large to read"),  # over MAX_INT_BITS bits
], ids=lambda v: v[:30])
def test_what_a_program_could_write_instead_is_refused(text, why):
    with pytest.raises(NotPlain) as err:
        decode_value(text)
    assert str(err.value) == why


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
    with pytest.raises(NotPlain) as err:
        to_json_form([b"x"])
    assert str(err.value) == "returned a value of type bytes, which JSON has no form for"
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
    with pytest.raises(NotPlain, match=r"^the value nests too deeply$"):
        to_json_form(_nested(MAX_VALUE_DEPTH + 2, make))


def test_preview_writes_a_value_as_json_and_bounds_it():
    """What a message shows of a program's answer ("expected 3, got ..."): JSON text, cut to the limit."""
    assert preview([1, 'a"b', None, True, False, -0.0, 1e300, math.nan, math.inf, -math.inf, {"k": [2]}, (1,), {3}]) \
        == '[1, "a\\"b", null, true, false, -0.0, 1e+300, NaN, Infinity, -Infinity, {"k": [2]}, <tuple>, <set>]'
    assert preview({1: "x", "b": [None]}) == '{1: "x", "b": [null]}'
    assert preview(2**1999) == str(2**1999)[:197] + "..."  # 2,000 bits: still written, then cut
    assert preview(2**3000) == "<an integer of 3001 bits>" and preview(-(2**3000)) == "<an integer of 3001 bits>"
    assert preview(2**2000) == "<an integer of 2001 bits>"  # past 2,000 bits: its size only
    assert preview({(1, 2): 3}) == "{<tuple>: 3}"
    assert preview("x" * 300, limit=10) == '"xxxxxx...'
    assert preview({"a": 1, "b": "long" * 50}, limit=30) == '{"a": 1, "b": "longlonglong...'
    # the writer stops at the limit, in a nested container too (never walks the rest)
    assert preview(list(range(100)), limit=20) == "[0, 1, 2, 3, 4, 5, 6"
    assert preview([list(range(100)), 5], limit=20) == "[[0, 1, 2, 3, 4, 5, "
    assert preview([{"a": list(range(100))}, 5], limit=20) == '[{"a": [0, 1, 2, 3, '
    assert preview(_nested(30)) == "[" * 21 + "..." + "]" * 21  # past 20 levels: "..."
    assert preview(_nested(30, lambda inner: {"k": inner}), limit=1000) == '{"k": ' * 21 + "..." + "}" * 21
    assert preview([]) == "[]" and preview({}) == "{}"


def test_records_written_by_harness_code_are_read_back_clipped():
    lines = [record_line("ready", "n0", {}), record_line("forked", "n0", {"pid": 12}),
             record_line("flag", "n0", {"name": "ctypes"}), record_line("returned", "n0", {"value": '[1, "\u00e9"]'}),
             record_line("forked", "n1", {"pid": 13}),  # another test's record on a zygote's channel: not this one's
             record_line("raised", "n0", {"kind": "ValueError", "message": "m" * 600}),
             record_line("not_plain", "n0", {"message": "a set"})]
    assert lines[1] == b'{"event": "forked", "nonce": "n0", "pid": 12}\n'
    assert lines[3] == b'{"event": "returned", "nonce": "n0", "value": "[1, \\"\\u00e9\\"]"}\n'
    records, malformed = read_records(b"".join(lines) + b'{"event": "ready", "nonce": "n0"', "n0")  # last: unfinished
    assert not malformed and records == [
        {"event": "ready", "nonce": "n0"}, {"event": "forked", "nonce": "n0", "pid": 12},
        {"event": "flag", "nonce": "n0", "name": "ctypes"},
        {"event": "returned", "nonce": "n0", "value": '[1, "\u00e9"]'},
        {"event": "raised", "nonce": "n0", "kind": "ValueError", "message": "m" * (MESSAGE_LIMIT - 3) + "..."},
        {"event": "not_plain", "nonce": "n0", "message": "a set"}]
    assert read_records(b"", "n0") == ([], False) and read_records(b"\n\n", "n0") == ([], False)


VERDICT = {"event": "verdict", "nonce": "n0", "status": "passed", "message": "", "calls": 1, "flags": "", "score": "",
           "cases": ""}


@pytest.mark.parametrize("record", [
    VERDICT,  # the judge's event, on a program's channel
    {"event": "forked", "nonce": "n0"}, {"event": "ready", "nonce": "n0", "x": 1},  # a field missing, one too many
    {"event": "forked", "nonce": "n0", "pid": "12"}, {"event": "forked", "nonce": "n0", "pid": True},
    {"event": "forked", "nonce": "n0", "pid": -1}, {"event": "forked", "nonce": "n0", "pid": 2**31},
    {"event": "flag", "nonce": "n0", "name": "nope"}, {"event": "passed", "nonce": "n0"},
    {"event": 1, "nonce": "n0"}, {"event": "ready", "nonce": 0}, {"nonce": "n0"}, {"event": "ready"}, [1], "ready",
    {"event": "forked", "nonce": "n1", "pid": "12"},  # another test's nonce is no excuse
], ids=repr)
def test_a_record_that_is_not_one_of_its_writer_events_is_evidence_not_a_record(record):
    good = record_line("forked", "n0", {"pid": 7})
    records, malformed = read_records(json.dumps(record).encode() + b"\n" + good, "n0")
    assert malformed and records == [{"event": "forked", "nonce": "n0", "pid": 7}]  # reading goes on after it
    records, malformed = read_records(b"{not json\n" + good, "n0")
    assert malformed and len(records) == 1


def test_the_judge_channel_reads_verdicts_and_the_bounds_of_its_integers():
    assert read_records(json.dumps(VERDICT).encode() + b"\n", "n0", JUDGE_EVENTS) == ([VERDICT], False)
    for pid in (0, 2**31 - 1):
        assert read_records(record_line("forked", "n0", {"pid": pid}), "n0") == \
            ([{"event": "forked", "nonce": "n0", "pid": pid}], False)
    assert flag_names([{"event": "flag", "nonce": "n0", "name": "ctypes"}, {"event": "ready", "nonce": "n0"},
                       {**VERDICT, "flags": "gc_walk,made_up,"}]) == {"ctypes", "gc_walk"}  # type: ignore[list-item]


def test_clip_and_write_all():
    assert clip("x" * 80) == "x" * 80 and clip("x" * 81) == "x" * 77 + "..." and clip("abcdef", 5) == "ab..."
    with tempfile.TemporaryFile() as f:
        write_all(f.fileno(), b"y" * 300_000)
        f.seek(0)
        assert f.read() == b"y" * 300_000
    read_end, write_end = os.pipe()
    os.close(read_end)
    write_all(write_end, b"z")  # a broken channel: its reader sees it, the writer goes on
    os.close(write_end)


class _Float(float):
    pass


@pytest.mark.parametrize("value", [
    math.nan, _Float("nan"), complex(math.nan, 0), complex(1, math.nan), {math.nan}, frozenset({1.0, math.nan}),
    {math.nan: 1}, {"k": math.nan}, [1, [2, (3, {4: [math.nan]})]], (0.5, -math.nan), Decimal("NaN"),
    deque([1.0, math.nan]), Counter({"a": math.nan}), OrderedDict([(1, [math.nan])]),
])
def test_a_nan_is_found_anywhere_in_a_value(value):
    assert non_finite(value)


@pytest.mark.parametrize("value", [
    0.5, 1e308, -0.0, complex(1, 2), {1.5}, {2.5: "nan"}, ["inf", b"nan", 10**400], None, True, range(3), ...,
    math.inf, -math.inf, complex(1, -math.inf), {"k": math.inf}, (0.5, -math.inf), Decimal("Infinity"),
    deque([math.inf]),
])
def test_numbers_infinities_and_text_that_merely_says_nan_hold_no_nan(value):
    assert not non_finite(value)


def test_a_nan_as_deep_as_a_value_may_nest_is_found():
    value: list = [math.nan]
    for _ in range(MAX_VALUE_DEPTH - 1):
        value = [value]
    assert non_finite(value)
