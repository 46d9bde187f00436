"""Fuzzing the trusted code that reads what a program's process writes (hypothesis).

Every byte a program's process sends reaches trusted code through a few readers: the result
channel's records (``records.read_records``), the tagged JSON of values (``values.decode_value``,
then ``values.to_json_form`` and ``values.preview`` in the runner, ``judge.remote.Channel`` in the judge),
and a ``stdio`` test's output (``compare.compare_output``). Each must be total: any input gives a
result or the reader's own refusal, never another exception in trusted code (which would end the
job as ``sandbox_error``: a masked sample, a free escape for the program).
"""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sandbox.inside.compare import compare_output, json_equal
from sandbox.inside.program.encode import Handles, NotPlainData, encode_value
from sandbox.inside.records import FLAGS, PROGRAM_EVENTS, read_records
from sandbox.inside.values import NotPlain, decode_value, preview, to_json_form

FUZZ = settings(max_examples=int(os.environ.get("GRPO_CODE_FUZZ_EXAMPLES", "400")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20)
# Records as a program could write them: right and wrong event names, nonces, fields and types.
record_fields = st.dictionaries(st.sampled_from(["event", "nonce", "pid", "name", "value", "kind", "message",
                                                 "status", "calls", "flags", "score", "x"]),
                                json_values | st.sampled_from([*PROGRAM_EVENTS, "verdict", "ended", "passed", "n0",
                                                               *FLAGS, 2**64]),
                                max_size=6)


@FUZZ
@given(st.lists(record_fields | json_values, max_size=6), st.binary(max_size=64))
def test_the_record_reader_is_total(objects, garbage):
    lines = []
    for obj in objects:
        try:
            lines.append(json.dumps(obj).encode())
        except (ValueError, TypeError):
            continue
    data = b"\n".join(lines) + b"\n" + garbage + b"\n" + b"[" * 100_000 + b"\n" + b"9" * 6000 + b"\n"
    records, malformed = read_records(data, "n0")
    assert malformed  # the deep nesting and the long integer, at least
    for record in records:
        assert record["nonce"] == "n0" and record["event"] in PROGRAM_EVENTS
        if record["event"] == "flag":
            assert record["name"] in FLAGS


@FUZZ
@given(st.text(max_size=200))
def test_the_value_decoder_is_total_over_any_text(text):
    try:
        value = decode_value(text)
    except NotPlain:
        return
    to_json_or_refusal(value)
    assert isinstance(preview(value), str)


TAGS = ["t", "s", "f", "d", "b", "y", "c", "i", "r", "e", "h", "k", "zz"]
tagged = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.builds(lambda tag, body: {tag: body}, st.sampled_from(TAGS),
                                                          inner | st.lists(inner, max_size=3)),
    max_leaves=12)


@FUZZ
@given(tagged)
def test_the_value_decoder_is_total_over_tagged_json(obj):
    text = json.dumps(obj)
    try:
        value = decode_value(text)
    except NotPlain:
        return
    to_json_or_refusal(value)
    preview(value)


def test_the_attacks_that_once_raised_in_the_runner_are_refused_or_read():
    # a complex whose parts overflow, an integer past any sane size, a range past C limits, nesting
    # past the recursion limit, a dict with an unhashable key: each is NotPlain, nothing else
    for text in ('{"c": [1e400, 10]}', '{"c": [' + "9" * 400 + ", 1]}", '{"i": "' + "f" * 2_000_000 + '"}',
                 '{"r": [0, ' + str(2**70) + ", 1]}", "[" * 100_000 + "]" * 100_000, '{"d": [[[1], 2]]}',
                 '{"s": [[1]]}', '{"b": "zz"}', '{"h": [0, "X"]}', '{"k": 0}', "NaN NaN", ""):
        try:
            value = decode_value(text)
        except NotPlain:
            continue
        preview(value)
    # a wrong answer of 5,000 digits is shown in a message, never raised over
    big = decode_value(encode_value(10**5000 + 1))
    assert preview(big).startswith("<an integer of")
    assert to_json_form(big) == 10**5000 + 1


@FUZZ
@given(st.recursive(json_scalars | st.binary(max_size=8) | st.complex_numbers(allow_nan=True),
                    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
                    | st.frozensets(st.integers(), max_size=3), max_leaves=10))
def test_what_the_program_side_writes_reads_back_as_itself(value):
    text = encode_value(value)
    back = decode_value(text)
    assert type(back) is type(value) and _same(back, value)
    try:
        encode_value(value, Handles())
    except NotPlainData:  # pragma: no cover - plain values never need a handle
        raise AssertionError("a plain value took a handle") from None


@FUZZ
@given(st.text(max_size=300), st.text(max_size=300), st.sampled_from(["tokens", "lines", "exact"]),
       st.floats(min_value=0, max_value=1))
def test_the_output_comparison_is_total(got, want, mode, tolerance):
    problem = compare_output(got, want, mode, tolerance)
    assert problem is None or isinstance(problem, str)
    assert compare_output(want, want, mode, tolerance) is None


def test_the_output_comparison_takes_hostile_numbers():
    for got in ("1" * 10_000, "1e999999", "-" + "9" * 5000 + ".5", "nan", "inf", "\x00" * 100, "1_000"):
        assert compare_output(got, "1.5", "tokens", 1e-6) is not None
        assert compare_output(got + "\n", got, "tokens", 1e-6) is None


def _same(a, b) -> bool:
    """Equal, with NaN equal to itself (inside complex numbers too)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or (a != a and b != b)
    if isinstance(a, complex):
        return _same(a.real, b.real) and _same(a.imag, b.imag)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def to_json_or_refusal(value):
    try:
        form = to_json_form(value)
    except NotPlain:
        return None
    json_equal(form, form)
    return form
