"""A dict's version tag (PEP 509), read in place: whether a dict changed, told without touching
its contents. The program's monitor reads the builtins' tag (``program.monitor``), and so does a
job's judge (``judge.taskcode``): comparing the builtins with a snapshot writes the reference count
of every builtin, and so, after a fork, copies every page that holds one.

Stdlib only, light: the fork server loads it.
"""

from __future__ import annotations


def version_tag(d: dict):
    """A reader (``.value``) of the version tag of dict ``d``, or None where it cannot be read.

    CPython gives every dict a version tag (PEP 509; the field after ``ma_used``) that each change
    to the dict replaces with a value never used before. Reading it touches one object, where
    comparing the builtins with their snapshot touches every builtin, and so, after a fork, copies
    every page that holds one (its reference count is written). The reader is trusted only where
    a probe dict shows it changing with a value replaced in place, which changes neither the
    dict's size nor its table (so the field read can be nothing else)."""
    import ctypes

    try:
        offset = object.__basicsize__ + ctypes.sizeof(ctypes.c_ssize_t)
        probe = {"x": 0}
        tag = ctypes.c_uint64.from_address(id(probe) + offset)
        before = tag.value
        probe["x"] = 1
        if tag.value == before:
            return None
        return ctypes.c_uint64.from_address(id(d) + offset)
    except (AttributeError, TypeError, ValueError):  # pragma: no cover - not CPython
        return None
