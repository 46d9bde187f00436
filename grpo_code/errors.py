"""grpo-code's errors: one family, each message saying what is wrong and how to fix it.

Every error a user can cause derives from ``GrpoCodeError``; ``grpo-code`` prints its message on
one line (a traceback only with ``--debug``) and exits with its ``exit_code``: 2 when the command
was given bad input (an option, a file, a suite), 1 when something the command needs is not
installed. The sandbox keeps its own family (``sandbox.SandboxError``): it imports nothing from
``grpo_code``.

Each class also derives from the built-in exception that callers caught before the family
existed (``LookupError``, ``ValueError``, ``KeyError``, ``ImportError``).
"""

from __future__ import annotations

import difflib
import importlib.util
import re
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

TASK_FORMAT_DOC = "docs/task-format.md"

DISTRIBUTION = "grpo-code"
_EXTRA_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*).*;.*\bextra\s*==\s*['\"]([\w.-]+)['\"]")


class GrpoCodeError(Exception):
    """An error the user can fix; its message says how.

    Attributes:
        exit_code: what ``grpo-code`` exits with (2: bad input).
    """

    exit_code = 2


class UnknownSuiteError(GrpoCodeError, LookupError):
    """No suite of that name; the message lists close matches and where suites come from."""


class TaskFormatError(GrpoCodeError, ValueError):
    """A suite file does not follow docs/task-format.md.

    Attributes:
        path: the file.
        line: 1-based line number (None for whole-file problems).
        field: the offending field, if one.
        reason: the message without the location.
    """

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None,
                 field: str | None = None):
        self.path, self.line, self.field, self.reason = path, line, field, message
        where = str(path) if path is not None else "<suite>"
        if line is not None:
            where += f":{line}"
        if field:
            where += f": field '{field}'"
        super().__init__(f"{where}: {message}")


class UnknownTaskError(GrpoCodeError, KeyError):
    """A task id is not in the suite; the message lists close matches."""

    def __init__(self, task_id: str, suite: str, candidates: Iterable[str]):
        close = difflib.get_close_matches(task_id, list(candidates), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        self.task_id = task_id
        super().__init__(f"task {task_id!r} is not in suite {suite!r}{hint}")

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class ModelNotFoundError(GrpoCodeError, LookupError):
    """The model is neither a checkpoint folder, the embedded model, nor reachable on a hub."""


class ConfigError(GrpoCodeError, ValueError):
    """A bad option: a flag's value, a file given on the command line, a config file, a suite
    spec's ``?option``."""


class MissingExtraError(GrpoCodeError, ImportError):
    """A command needs packages of an optional extra that is not installed."""

    exit_code = 1


def yaml_problem(error: Exception) -> tuple[int | None, str]:
    """``(1-based line or None, what is wrong)`` of a ``yaml.YAMLError``, for a ``file:line`` message."""
    mark = getattr(error, "problem_mark", None)
    return (mark.line + 1 if mark is not None else None), f"invalid YAML: {getattr(error, 'problem', None) or error}"


def extras_by_module() -> dict[str, str]:
    """Which optional extra of grpo-code installs each module, read from the installed package's
    metadata (pyproject.toml's ``optional-dependencies``): ``{"trl": "train", ...}``.

    A distribution's module is taken to be its normalized name (``trl``, ``matplotlib``); torch is
    in no extra (its build depends on the machine). A module that a user-facing extra and ``dev``
    (the tests' tools) both list is the user-facing extra's.
    """
    try:
        requirements = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return {}
    extras: dict[str, str] = {}
    for requirement in requirements:
        match = _EXTRA_REQUIREMENT.match(requirement)
        if match:
            module = match.group(1).lower().replace("-", "_").replace(".", "_")
            if extras.get(module, "dev") == "dev":
                extras[module] = match.group(2)
    return extras


def require_modules(what: str, *modules: str) -> None:
    """Raise ``MissingExtraError`` naming the extra to install if any of ``modules`` is missing.

    Looks the modules up without importing them (``importlib.util.find_spec``).

    Args:
        what: what needs them, for the message (``grpo-code train``).
        modules: top-level module names (``trl``, ``torch``).

    Raises:
        MissingExtraError: ``pip install 'grpo-code[EXTRA]'``, and for torch the build to pick.
    """
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if not missing:
        return
    extra_of = extras_by_module()
    extras = sorted({extra_of[m] for m in missing if m in extra_of})
    fixes = [f"pip install 'grpo-code[{','.join(extras)}]'"] if extras else []
    if "torch" in missing:
        fixes.append("PyTorch, the build for this machine (pip install torch; see the README)")
    others = [m for m in missing if m != "torch" and m not in extra_of]
    if others:
        fixes.append(f"pip install {' '.join(others)}")
    raise MissingExtraError(f"{what} needs {', '.join(missing)} (not installed): {'; and '.join(fixes)}")
