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
"""

from __future__ import annotations

MESSAGE_LIMIT = 500

READY = "ready"
PASSED = "passed"
FAILED = "failed"
RUNTIME_ERROR = "runtime_error"
MEMORY_LIMIT = "memory_limit"
RETURNED = "returned"
EXIT = "exit"
ENDED = "ended"


def clip(text: str, limit: int = 80) -> str:
    """``text``, cut to ``limit`` characters with ``...`` at the end if it is longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def ended_record(nonce: str, status: int, usage, _int=int, _encode=str.encode,
                 _format=b'{"event": "ended", "nonce": "%s", "status": %d, "cpu_us": %d}\n'.__mod__) -> bytes:
    """The ``ended`` record a forker writes when a test process has ended: its wait ``status``
    and CPU time (``usage``, from ``os.wait4``), built with pristine references only and few
    allocations (each object allocated after a fork can cost a page copy)."""
    return _format((_encode(nonce), status, _int((usage.ru_utime + usage.ru_stime) * 1e6)))


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


def is_record(record: dict | None, event: str, nonce: str) -> bool:
    """Whether ``record`` is ``event`` for the process with ``nonce``."""
    return record is not None and record.get("event") == event and record.get("nonce") == nonce
