"""Records: the lines a process writes on its result channel, and the one strict reader of them.

Stdlib only, and light (``json`` only inside ``read_records``): the fork server, and so every
test process, loads this module. A record is one line of JSON, ``{"event": EVENT, "nonce": NONCE,
...}`` (``messages``: one definition per event). ``NONCE`` names the test the record belongs to
(a zygote's channel carries the records of many tests); it frames, it protects nothing.

Who writes what:
    the program's processes (``program``): ``ready``, ``forked``, ``flag``, and for a ``call``
        test ``returned``, ``raised`` or ``not_plain``. A program can write anything on its
        channel, so none of these can say that a test passed: what they carry is the program's
        answer, a synchronisation point or evidence (``messages``).
    the judge (``judge``), whose channel no process of the program's holds: ``verdict``.

Test processes' outcomes (exit status, signal, CPU time) never travel as records: every process
of a program is a child of the runner (``procs.fork_to_parent``), which reads them from the kernel.
"""

from __future__ import annotations

import os
from _json import encode_basestring_ascii as _encode_str  # C code: untouched by a program's monkeypatching
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .messages import Record

MESSAGE_LIMIT = 500

# The events (Final: each a literal type, so that comparing a record's ``event`` with one tells
# mypy which of ``messages.Record`` it is).
READY: Final = "ready"
FORKED: Final = "forked"
FLAG: Final = "flag"
RETURNED: Final = "returned"
RAISED: Final = "raised"
NOT_PLAIN: Final = "not_plain"
VERDICT: Final = "verdict"
PROGRAM_ENDED = "program_ended"  # a verdict status: the program's process ended during a call

# What the monitor names (a verdict's ``flags``); flags never change a verdict by themselves.
PLANTED_SUFFIXES = (".py", ".pyc", ".pth", ".so")  # files an import could load: planting one is flagged
FLAGS = {
    "frame_inspection": "reached for frames of harness code (sys._getframe, tracebacks, settrace, setprofile)",
    "gc_walk": "walked the garbage collector's objects (gc.get_objects, get_referrers, get_referents)",
    "builtins_patched": "changed, added or removed a builtin",
    "module_patched": "replaced an attribute of a standard library module with its own",
    "module_planted": "wrote or imported a Python module in the working folder or /tmp",
    "early_exit": "ended its process before the test finished (exit, SystemExit, os._exit)",
    "parent_killed": "sent a signal to a process of the sandbox other than itself and its children",
    "test_tampering": "reached for the harness: its files under /proc, its code objects, forged or malformed records",
    "not_plain_data": "returned a value that is not plain data (an object of its own, a subclass)",
    "ctypes": "used ctypes (raw memory and C calls)",
    "non_finite": "returned NaN or an infinity to a test that compares numbers by order",
    "checker_fault": "printed output that made the task's checker raise, run out of time or answer nonsense",
    "sandbox_tamper": "broke its sandbox: the job failed the same way again on a fresh container",
    "residue": "left files, processes or IPC objects that would not go: its container was replaced",
}

# Each event's fields beyond ``event`` and ``nonce``, with their exact types (``messages``).
_FIELDS: dict[str, dict[str, type]] = {
    READY: {},
    FORKED: {"pid": int},
    FLAG: {"name": str},
    RETURNED: {"value": str},
    RAISED: {"kind": str, "message": str},
    NOT_PLAIN: {"message": str},
    VERDICT: {"status": str, "message": str, "calls": int, "flags": str, "score": str, "cases": str},
}
PROGRAM_EVENTS = frozenset({READY, FORKED, FLAG, RETURNED, RAISED, NOT_PLAIN})
JUDGE_EVENTS = frozenset({VERDICT})
_INT_RANGE = (0, 1 << 31)  # pids and counts


def clip(text: str, limit: int = 80) -> str:
    """``text``, cut to ``limit`` characters with ``...`` at the end if it is longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def record_line(event: str, nonce: str, fields: dict, _type=type, _str=str, _repr=int.__repr__,
                _enc=_encode_str, _join="".join, _encode=str.encode, _items=dict.items, _append=list.append) -> bytes:
    """One record line: ``event`` and ``nonce`` (a hex token: neither needs escaping) and
    ``fields`` (str or int values), built with pristine references only (no builtins lookups),
    so a program's monkeypatching cannot break what harness code writes."""
    parts = ['{"event": "', event, '", "nonce": "', nonce, '"']
    for k, v in _items(fields):
        parts += (", ", _enc(k), ": ", _enc(v) if _type(v) is _str else _repr(v))
    _append(parts, "}\n")
    return _encode(_join(parts))


def write_all(fd: int, data: bytes, _write=os.write) -> None:
    """Write ``data`` to ``fd`` whole; a closed or broken channel is ignored (its reader sees it)."""
    try:
        while data:
            data = data[_write(fd, data):]
    except OSError:
        pass


def _valid(record: object, events: frozenset[str]) -> bool:
    """Whether ``record`` is exactly one of ``events`` as ``messages`` defines it."""
    if type(record) is not dict or type(record.get("event")) is not str or type(record.get("nonce")) is not str:
        return False
    event = record["event"]
    fields = _FIELDS.get(event)
    if event not in events or fields is None or len(record) != len(fields) + 2:
        return False
    for name, kind in fields.items():
        value = record.get(name)
        if type(value) is not kind:
            return False
        if type(value) is int and not _INT_RANGE[0] <= value < _INT_RANGE[1]:
            return False
    return event != FLAG or record["name"] in FLAGS


def read_records(data: bytes, nonce: str, events: frozenset[str] = PROGRAM_EVENTS) -> tuple[list[Record], bool]:
    """The records of ``data`` (a result channel's bytes) that carry ``nonce``, in order, each
    checked against its definition (``messages``); total over any bytes.

    Returns:
        ``(records, malformed)``: ``malformed`` is True if a complete line is not a record of
        ``events`` (garbage, a field of the wrong type, an unknown flag, an event this writer may
        not write): evidence of tampering, never an exception. A last line without its newline
        (a process killed while writing) is left out silently. Messages are clipped to
        ``MESSAGE_LIMIT``.
    """
    import json

    records: list = []
    malformed = False
    lines = data.split(b"\n")
    for line in lines[:-1]:  # the last item: an unfinished line, or empty
        if not line:
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError, MemoryError):  # a program can send any bytes
            malformed = True
            continue
        if not _valid(record, events):
            malformed = True
            continue
        if record["nonce"] != nonce:
            continue
        if "message" in record:
            record["message"] = clip(record["message"], MESSAGE_LIMIT)
        records.append(record)
    return records, malformed


def flag_names(records: list[Record]) -> set[str]:
    """The flags named by ``records``: ``flag`` records, and a verdict's ``flags``."""
    names: set[str] = set()
    for record in records:
        if record["event"] == FLAG:
            names.add(record["name"])
        elif record["event"] == VERDICT:
            names.update(record["flags"].split(","))
    return names & FLAGS.keys()
