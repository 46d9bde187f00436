"""numpy's and pandas' values across the process boundary: arrays, their scalars, Series, DataFrames
and indexes cross as what they are (a copy, as a value), both ways.

The rule: where the test and the program hand each other a numpy array or scalar or a pandas
object, the other side gets an equal object of the same type, dtype, shape, index and names, built
by its own copy of the library from plain data (``form`` here, ``build`` there); so a test that
compares the program's answer with ``numpy.testing`` or ``pandas.testing`` compares two objects of its own
library, and none of the program's code decides (a subclass of the program's crosses as a handle:
``form`` knows the library's own types only). An object array's items, a Series' name, an index's
labels cross as any value does (the caller's walker reads them). What the other side then changes
in the copy does not come back (a difference from one process: ``docs/task-format.md``).

Stdlib only: numpy and pandas are read from ``sys.modules`` (a side that never loaded them has no
such value to send) and imported to ``build`` only when such a value arrives.
"""

from __future__ import annotations

import sys

_NUMERIC_KINDS = frozenset("biufcmMSU")  # dtypes whose bytes are their values (no object references)


def form(v, t) -> list | None:
    """``v`` (of exact type ``t``) as plain data for ``build`` on the other side, or None where it
    is no numpy or pandas value (the library is not loaded, or ``t`` is not the library's own)."""
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return None
    if t is numpy.ndarray:
        return _array(v, numpy)
    if isinstance(v, numpy.generic) and t.__module__ == "numpy" and v.dtype.type is t \
            and v.dtype.kind in _NUMERIC_KINDS:
        return ["sc", v.dtype.str, v.tobytes()]
    pandas = sys.modules.get("pandas")
    if pandas is None or not t.__module__.startswith("pandas."):
        return None
    if t is pandas.DataFrame:
        return ["df", [_values(v.iloc[:, i], numpy) for i in range(v.shape[1])], _index(v.columns, pandas, numpy),
                _index(v.index, pandas, numpy)]
    if t is pandas.Series:
        return ["se", _values(v, numpy), _index(v.index, pandas, numpy), v.name]
    if isinstance(v, pandas.Index):
        return _index(v, pandas, numpy)
    if t is pandas.Timestamp:
        return ["ts", int(v.value), None if v.tz is None else str(v.tz)]
    if t is pandas.Timedelta:
        return ["td", int(v.value)]
    return None


def _array(a, numpy) -> list | None:
    if a.dtype.fields is not None:  # a structured array: a handle
        return None
    if a.dtype.kind in _NUMERIC_KINDS:
        return ["nd", a.dtype.str, list(a.shape), numpy.ascontiguousarray(a).tobytes()]
    if a.dtype.kind == "O":
        return ["no", list(a.shape), list(a.ravel())]
    return None


def _values(series, numpy) -> list:
    """A Series' values: its numpy array, or for an extension dtype (category, Int64, a timezone's
    datetimes) its values as objects and the dtype's name."""
    dtype = series.dtype
    if isinstance(dtype, numpy.dtype):
        return ["np", _array(series.to_numpy(), numpy) or ["no", [len(series)], list(series)]]
    return ["ext", str(dtype), list(series.astype(object))]


def _index(index, pandas, numpy) -> list:
    if type(index) is pandas.RangeIndex:
        return ["rx", index.start, index.stop, index.step, index.name]
    if type(index) is pandas.MultiIndex:
        return ["mx", [_index(index.get_level_values(i), pandas, numpy) for i in range(index.nlevels)],
                list(index.names)]
    freq = getattr(index, "freqstr", None)
    return ["ix", _values(pandas.Series(index, copy=False), numpy), index.name, freq]


def build(data):
    """The value ``form`` made ``data`` of, made by this side's numpy or pandas.

    Raises:
        ValueError, TypeError, ImportError: ``data`` is no such form (a program that sent nonsense).
    """
    kind = data[0]
    import numpy

    if kind == "nd":
        _, dtype, shape, raw = data
        return numpy.frombuffer(raw, dtype=numpy.dtype(dtype)).reshape(shape).copy()
    if kind == "no":
        _, shape, items = data
        array = numpy.empty(len(items), dtype=object)
        for i, item in enumerate(items):
            array[i] = item
        return array.reshape(shape)
    if kind == "sc":
        return numpy.frombuffer(data[2], dtype=numpy.dtype(data[1]))[0]
    import pandas

    if kind == "df":
        _, columns, names, index = data
        frame = pandas.DataFrame({i: _built_values(c, pandas) for i, c in enumerate(columns)}, index=build(index))
        frame.columns = build(names)
        return frame
    if kind == "se":
        return pandas.Series(_built_values(data[1], pandas), index=build(data[2]), name=data[3])
    if kind == "rx":
        return pandas.RangeIndex(data[1], data[2], data[3], name=data[4])
    if kind == "mx":
        return pandas.MultiIndex.from_arrays([build(level) for level in data[1]], names=data[2])
    if kind == "ix":
        values = _built_values(data[1], pandas)
        if data[3] is not None:
            return pandas.DatetimeIndex(values, name=data[2], freq=data[3]) if values.dtype.kind == "M" \
                else pandas.Index(values, name=data[2])
        return pandas.Index(values, name=data[2])
    if kind == "ts":
        return pandas.Timestamp(data[1], tz=data[2])
    if kind == "td":
        return pandas.Timedelta(data[1])
    raise ValueError(f"no such value form {kind!r}")


def _built_values(data, pandas):
    if data[0] == "np":
        return build(data[1])
    return pandas.array(data[2], dtype=data[1])
