"""The result records: what every process of a test writes on its result channel, and how the
runner reads them. One definition for writers and readers.

Stdlib only, and light (no ``json`` at import): the fork server and every test process load it.
A record is one line of JSON, ``{"event": EVENT, "nonce": NONCE, ...}``; ``NONCE`` (hex) names the
process the runner expects it from, and a record with another nonce is ignored.

Events:
    ``ready``: a zygote ran the program's top level (``program_process``).
    ``passed``, ``failed``, ``runtime_error``, ``memory_limit``: an in-process test's outcome, with
        ``message`` (``program_process``; evidence, checked by ``verdict``).
    ``returned``: a ``call`` test's value, as JSON text in ``value`` (``program_process``).
    ``exit``: a ``stdio`` program's exit code, in ``code`` (``program_process``).
    ``ended``: a test process has ended, with its wait ``status`` and ``cpu_us``; written by the
        process that forked it (the fork server or a zygote), never by the test process.
    ``flag``: the program attempted something against the harness, named in ``name`` (one of
        ``FLAGS``); written by the monitor in the program's process (``program_process``) the
        first time per process, so evidence only.
    ``verdict``: an ``assert`` test's outcome from the judge (``judge``), a trusted process the
        program cannot write to: ``status`` (``passed``, ``failed``, ``runtime_error``,
        ``memory_limit``, ``program_ended``), ``message``, ``calls`` (calls of the program's
        functions) and ``flags`` (comma-separated ``FLAGS``).
"""

from __future__ import annotations

import os
from _json import encode_basestring_ascii as _encode_str  # C code: untouched by a program's monkeypatching

MESSAGE_LIMIT = 500

READY = "ready"
PASSED = "passed"
FAILED = "failed"
RUNTIME_ERROR = "runtime_error"
MEMORY_LIMIT = "memory_limit"
RETURNED = "returned"
EXIT = "exit"
ENDED = "ended"
FLAG = "flag"
VERDICT = "verdict"
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
    "test_tampering": "reached for the harness: its files under /proc, its code objects, forged records",
    "not_plain_data": "returned a value that is not plain data (an object of its own, a subclass)",
    "ctypes": "used ctypes (raw memory and C calls)",
}


def clip(text: str, limit: int = 80) -> str:
    """``text``, cut to ``limit`` characters with ``...`` at the end if it is longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def ended_record(nonce: str, status: int, usage, _int=int, _encode=str.encode,
                 _format=b'{"event": "ended", "nonce": "%s", "status": %d, "cpu_us": %d}\n'.__mod__) -> bytes:
    """The ``ended`` record a forker writes when a test process has ended: its wait ``status``
    and CPU time (``usage``, from ``os.wait4``), built with pristine references only and few
    allocations (each object allocated after a fork can cost a page copy)."""
    return _format((_encode(nonce), status, _int((usage.ru_utime + usage.ru_stime) * 1e6)))


def record_line(event: str, nonce: str, fields: dict, _type=type, _str=str, _repr=int.__repr__,
                _enc=_encode_str, _join="".join, _encode=str.encode, _items=dict.items, _append=list.append) -> bytes:
    """One record line: ``event`` and ``nonce`` (a hex token: neither needs escaping) and
    ``fields`` (str or int values), built with pristine references only (no builtins lookups),
    so a program's monkeypatching can neither break nor forge what harness code writes."""
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


def parse(line: bytes) -> dict | None:
    """One record line, parsed; None if it is not a JSON object."""
    import json

    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def for_nonce(data: bytes, nonce: str) -> list[dict]:
    """Every record in ``data`` (a result channel's bytes) that carries ``nonce``, in order."""
    out = []
    for line in data.splitlines():
        record = parse(line)
        if record is not None and record.get("nonce") == nonce:
            out.append(record)
    return out


def flags_in(records: list[dict]) -> set[str]:
    """The known flag names among ``records`` (``flag`` records, and a verdict's ``flags``)."""
    names = set()
    for record in records:
        if record.get("event") == FLAG:
            names.add(record.get("name"))
        elif record.get("event") == VERDICT and isinstance(record.get("flags"), str):
            names.update(record["flags"].split(","))
    return names & set(FLAGS)


def is_record(record: dict | None, event: str, nonce: str) -> bool:
    """Whether ``record`` is ``event`` for the process with ``nonce``."""
    return record is not None and record.get("event") == event and record.get("nonce") == nonce
