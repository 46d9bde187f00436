"""Harness-side comparison and value rules of the runner (pure functions, no Docker)."""

from __future__ import annotations

import math

import pytest

from sandbox.inside.compare import compare_output, json_equal


@pytest.mark.parametrize("got, want, mode, ok", [
    ("1 2 3 \n\n", "1 2 3\n", "tokens", True),
    ("1  2\t3\n", "1 2 3\n", "tokens", True),
    ("\n1 2 3\n", "1 2 3\n", "tokens", False),          # a leading blank line is a difference
    ("12 3\n", "1 2 3\n", "tokens", False),
    ("1\n2\n3\n", "1 2 3\n", "tokens", False),           # line structure counts
    ("0.333333\n", "0.333333333333\n", "tokens", True),
    ("0.333\n", "0.333333333333\n", "tokens", False),
    ("3.0\n", "3\n", "tokens", False),                   # integer tokens are exact
    ("2\n", "2.0\n", "tokens", True),                    # a float token accepts a close number
    ("nan\n", "nan\n", "tokens", True),
    ("inf\n", "1e400\n", "tokens", False),
    ("1000001.0\n", "1000000.0\n", "tokens", True),      # relative tolerance 1e-6
    ("a b  \n", "a b\n", "lines", True),
    ("a  b\n", "a b\n", "lines", False),
    ("a b\n\n\n", "a b\n", "lines", True),
    ("a b\n", "a b", "exact", False),
    ("a b\r\n", "a b\n", "tokens", True),
    ("\uff10.\uff12\uff15\n", "0.250000\n", "tokens", False),  # full-width digits: no contest judge reads them
    ("\u0660.25\n", "0.25\n", "tokens", False),               # Arabic-Indic digits likewise
    ("0.25\n", "\uff10.\uff12\uff15\n", "tokens", False),
])
def test_compare_output(got, want, mode, ok):
    assert (compare_output(got, want, mode, 1e-6) is None) is ok


def test_a_float_token_within_the_tolerance_inclusive_is_accepted():
    # |1.0 - 0.5| = 0.5 exactly: at the absolute tolerance (the relative one is 0.25 here)
    assert compare_output("1.0\n", "0.5\n", "tokens", 0.5) is None
    assert compare_output("1.0\n", "0.5\n", "tokens", 0.4) == "line 1: expected '0.5', got '1.0'"


def test_compare_output_says_where():
    assert compare_output("1 2\n5\n", "1 2\n4\n", "tokens", 1e-6) == "line 2: expected '4', got '5'"
    assert compare_output("a b\n", "a b", "exact", 0.0) == \
        "output differs (exact comparison): expected 'a b', got 'a b\\n'"
    assert "expected 1 line(s) of output, got 2" in str(compare_output("1\n2\n", "1\n", "tokens", 1e-6))


@pytest.mark.parametrize("got, want, ok", [
    (True, True, True), (1, True, False), (True, 1, False), (3, 3.0, True), ([1, [2]], [1, [2]], True),
    ({"a": 1}, {"a": 1.0}, True), ({"a": 1}, {"b": 1}, False), ("1", 1, False), (None, None, True),
    (math.nan, math.nan, True), ([1, 2], [1, 2, 3], False),
    (math.nan, 1.0, False), (2, math.nan, False), ([math.nan], [0.5], False),  # NaN equals only NaN
])
def test_json_equal(got, want, ok):
    assert json_equal(got, want) is ok


@pytest.mark.parametrize("got, want, atol, rtol, ok", [
    (0.1 + 0.2, 0.3, 0.0, 0.0, False),                   # no tolerance: exact
    (0.1 + 0.2, 0.3, 1e-6, 1e-7, True),
    (1.5000015, 1.5, 1e-6, 0.0, False),                  # |got - want| = 1.5e-6 > atol
    (1.5000015, 1.5, 1e-6, 1e-6, True),                  # <= atol + rtol * |want| = 2.5e-6
    (100.000009, 100.0, 0.0, 1e-7, True),                # relative only: 9e-6 <= 1e-5
    (100.0001, 100.0, 0.0, 1e-7, False),
    ([1.0000001, [2.0]], [1.0, [2.0000002]], 1e-6, 0.0, True),  # at any depth
    ({"k": 3.0000001}, {"k": 3.0}, 1e-6, 0.0, True),
    (2, 2.0000001, 1e-6, 1e-7, False),                   # an int for a float: types must match (as evalplus)
    (2.0000001, 2, 1e-6, 1e-7, False),                   # a float for an int: exact
    (3, 3.0, 1e-6, 1e-7, True),                          # equal numbers stay equal
    (True, 1.0, 1e6, 1.0, False),                        # bool is never a number
    (math.inf, math.inf, 1e-6, 0.0, True), (math.inf, 1e308, 1e-6, 1.0, False),
    ("1.0", "1.0000001", 1.0, 1.0, False),               # strings: exact whatever the tolerance
])
def test_json_equal_holds_floats_to_a_tolerance(got, want, atol, rtol, ok):
    assert json_equal(got, want, atol, rtol) is ok
