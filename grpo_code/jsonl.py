"""JSON Lines: the one reader and writer of task, samples and results files.

One JSON value per line; blank lines are skipped; line numbers are 1-based (for messages that
name ``file:line``). A ``.gz`` file is read through gzip (HumanEval ships one).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from grpo_code.errors import ConfigError

OnError = Callable[[int, str], None]


def read_jsonl(path: str | Path, on_error: OnError | None = None) -> Iterator[tuple[int, Any]]:
    """Yield ``(line number, value)`` for each non-blank line of ``path``.

    Args:
        path: the file (``.gz``: gzip-compressed).
        on_error: called with ``(line number, message)`` for a line that is not JSON, which is
            then skipped; without it, such a line raises.

    Raises:
        ConfigError: the file does not exist, or (without ``on_error``) a line is not JSON
            (``file:line: invalid JSON (... at column N)``).
    """
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"{path} does not exist (or is not a file)")
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        for lineno, text in enumerate(f, start=1):
            if not text.strip():
                continue
            try:
                value = json.loads(text.rstrip("\r\n"))
            except json.JSONDecodeError as e:
                message = f"invalid JSON ({e.msg} at column {e.colno})"
                if on_error is None:
                    raise ConfigError(f"{path}:{lineno}: {message}") from None
                on_error(lineno, message)
                continue
            yield lineno, value


def read_records(path: str | Path, on_error: OnError | None = None) -> list[Any]:
    """Every value of a JSONL file, in order (``read_jsonl`` without the line numbers)."""
    return [value for _, value in read_jsonl(path, on_error)]


def write_jsonl(path: str | Path, records: Iterable[Any]) -> None:
    """Write ``records`` one per line, replacing the file (its folder is made if missing)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record) + "\n")


@contextmanager
def append_jsonl(path: str | Path) -> Iterator[IO[str]]:
    """Open ``path`` to append lines, first cutting a partly written last line (a crash mid-write)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            path.write_bytes(data[: data.rfind(b"\n") + 1])
    with path.open("a", encoding="utf-8") as f:
        yield f
