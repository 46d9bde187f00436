"""Harbor task folders (harbor-framework/harbor, ``task.toml`` schema 1.4) read back as a suite:
``--suite harbor:PATH`` (a task folder, or a folder of them; ``registry`` also takes a plain path
to one).

Only the tasks ``grpo-code tasks export --format harbor`` wrote (``grpo_code.curate.export``)
carry tests grpo-code judges: the task in docs/task-format.md form, with its suite's fields, in
``tests/grpo_code_task.json`` (``TASK_FILE``). A Harbor task without it (a ``test.sh`` of its
own) is refused, naming it.
"""

from __future__ import annotations

import json
from pathlib import Path

from grpo_code.errors import ConfigError, TaskFormatError
from grpo_code.suites.tasks import Task, TaskSuite, parse_task

TASK_FILE = "grpo_code_task.json"  # under tests/: the task, as the import reads it


def task_folders(path: str | Path) -> list[Path]:
    """The Harbor task folders at ``path``: itself if it holds ``task.toml``, else its
    sub-folders that do (one level down), sorted by name."""
    root = Path(path)
    if (root / "task.toml").is_file():
        return [root]
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / "task.toml").is_file()) if root.is_dir() else []


def is_harbor_tree(path: str | Path) -> bool:
    """Whether ``path`` is a Harbor task folder or a folder of them."""
    return bool(task_folders(path))


def _read_task(folder: Path) -> tuple[Task, dict]:
    source = folder / "tests" / TASK_FILE
    if not source.is_file():
        raise TaskFormatError(f"Harbor task {folder.name!r} has no tests/{TASK_FILE}: its tests/test.sh is a script of "
                              "its own, which grpo-code cannot judge (only tasks written by `grpo-code tasks export "
                              "--format harbor` carry tests grpo-code judges)", path=folder / "task.toml")
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except ValueError as e:
        raise TaskFormatError(f"not JSON: {e}", path=source) from None
    if not isinstance(data, dict) or not isinstance(data.get("suite", {}), dict):
        raise TaskFormatError("expected a task object with a 'suite' object", path=source, line=1)
    suite = data.pop("suite", {})
    return parse_task(data, path=source, line=1), suite


def load_harbor_suite(path: str | Path, options: dict | None = None) -> TaskSuite:
    """The suite of the Harbor task folders at ``path`` (a task folder, or a folder of them).

    Raises:
        ConfigError: options other than split, limit and language.
        TaskFormatError: no task folder there, or one whose tests grpo-code cannot judge (named).
    """
    if options:
        raise ConfigError(f"a Harbor suite takes no options but split, limit and language, got {sorted(options)}")
    folders = task_folders(path)
    if not folders:
        raise TaskFormatError("no Harbor task here: a task folder holds task.toml (or give a folder of them)",
                              path=path)
    read = [_read_task(folder) for folder in folders]
    first = read[0][1]
    return TaskSuite(name=str(first.get("name") or Path(path).name), tasks=tuple(task for task, _ in read),
                     version=first.get("version", 1), description=str(first.get("description", "")),
                     license=str(first.get("license", "")),
                     prompt_template=str(first.get("prompt_template") or TaskSuite.prompt_template),
                     source=f"harbor:{path}")
