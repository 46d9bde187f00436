"""Where a suite's audit lives, and what reads it: ``audit.json`` beside the suite, and the tasks
it keeps for training.

A suite folder's audit is ``audit.json`` beside its ``suite.yaml`` (the bundled suites ship
theirs); a plain tasks file's is ``NAME.audit.json`` beside ``NAME.jsonl``. A suite read through an
adapter or an entry point has no place of its own: give its audit by path (``train --audit``).
Writing merges by task id, so the audits of parts of a suite (``?split=``, ``?language=``) add
up to the whole suite's. An entry whose fingerprint is not the task's (the task changed since) is
stale: it is never used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from grpo_code.curate.audit import SuiteAudit, TaskAudit, fingerprint
from grpo_code.errors import ConfigError
from grpo_code.tasks import TaskSuite

AUDIT_FILE = "audit.json"


def audit_path(spec: str) -> Path | None:
    """Where the audit of the suite ``spec`` names lives (``?options`` ignored): ``audit.json`` in
    its folder (a bundled suite's or a path's), ``NAME.audit.json`` beside a tasks file; None for
    an ``hf:`` suite, Harbor tasks or an entry point."""
    from grpo_code.registry import bundled_suites

    if spec.startswith(("hf:", "harbor:")):
        return None
    base = spec.partition("?")[0]
    path = Path(base)
    if path.is_dir():
        return path / AUDIT_FILE if (path / "suite.yaml").is_file() else None
    if path.is_file():
        return path.with_name(f"{path.stem}.{AUDIT_FILE}")
    bundled = bundled_suites()
    return bundled[base] / AUDIT_FILE if base in bundled else None


def read_audit(path: str | Path) -> SuiteAudit:
    """The audit in ``path``.

    Raises:
        ConfigError: the file does not exist or is not an audit (the message says which).
    """
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"{path} does not exist: make it with grpo-code tasks audit SUITE --write")
    try:
        return SuiteAudit.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except ValueError as e:  # json's errors are ValueErrors too
        raise ConfigError(f"{path}: not an audit written by grpo-code tasks audit: {e}") from None


def write_audit(audit: SuiteAudit, path: str | Path, merge: bool = True) -> SuiteAudit:
    """Write ``audit`` to ``path``; with ``merge``, into the audit already there (its other tasks
    kept, in their order, then the new ones). Returns what was written."""
    path = Path(path)
    if merge and path.is_file():
        old = read_audit(path)
        fresh = audit.by_id()
        tasks = [fresh.pop(t.task_id, t) for t in old.tasks] + list(fresh.values())
        audit = SuiteAudit(audit.suite, audit.version, tasks, audit.settings, audit.seconds, audit.jobs,
                           audit.dedup_hits)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(audit.to_dict(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return audit


def current(audit: SuiteAudit, suite: TaskSuite) -> tuple[dict[str, TaskAudit], list[str], list[str]]:
    """The audit's entries that match ``suite``'s tasks as they are: ``(entries by task id, ids of
    tasks it lacks, ids whose entry is stale)``."""
    entries = audit.by_id()
    found, missing, stale = {}, [], []
    for task in suite:
        entry = entries.get(task.task_id)
        if entry is None:
            missing.append(task.task_id)
        elif entry.fingerprint != fingerprint(task):
            stale.append(task.task_id)
        else:
            found[task.task_id] = entry
    return found, missing, stale


def suite_strength(spec: str, suite: TaskSuite) -> tuple[float | None, int, int] | None:
    """For ``tasks list``: the mean mutation score of the suite's tasks that its audit covers as
    they are, how many of them a cheat passes, and how many it covers; None without an audit."""
    path = audit_path(spec)
    if path is None or not path.is_file():
        return None
    entries, _, _ = current(read_audit(path), suite)
    scores = [s for s in (e.mutation_score for e in entries.values()) if s is not None]
    return (sum(scores) / len(scores) if scores else None,
            sum(bool(e.passing_cheats) for e in entries.values()), len(entries))


@dataclass
class StrengthFilter:
    """What ``--min_test_strength`` kept (``summary.json``'s ``test_strength``).

    Attributes:
        audit: the audit file read.
        min_test_strength: the least mutation score kept.
        tasks_in_suite: tasks before the filter.
        kept: the task ids kept.
        cheated: tasks dropped because a cheat passes them.
        below: tasks dropped for a score below the least (or no score).
    """

    audit: str
    min_test_strength: float
    tasks_in_suite: int
    kept: list[str] = field(default_factory=list)
    cheated: list[str] = field(default_factory=list)
    below: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """The account as JSON-ready data (counts, and the ids dropped)."""
        return {"audit": self.audit, "min_test_strength": self.min_test_strength,
                "tasks_in_suite": self.tasks_in_suite, "kept": len(self.kept), "cheated": self.cheated,
                "below": self.below}

    def describe(self) -> str:
        """One line: what was kept and dropped, and why."""
        return (f"{len(self.kept)} of {self.tasks_in_suite} tasks kept by the audit {self.audit}: no cheat passes "
                f"them and their mutation score is at least {self.min_test_strength:g} ({len(self.cheated)} dropped "
                f"for a passing cheat, {len(self.below)} for a lower or no score)")


def select_strong(suite: TaskSuite, path: str | Path, min_score: float) -> tuple[TaskSuite, StrengthFilter]:
    """The tasks of ``suite`` that no cheat passes and whose mutation score is at least
    ``min_score``, by the audit in ``path``.

    Raises:
        ConfigError: ``min_score`` outside [0, 1]; the audit cannot be read, lacks some task, or is
            stale for some task (the message names one and says how to audit again); no task kept.
    """
    if not 0.0 <= min_score <= 1.0:
        raise ConfigError(f"--min_test_strength must be within [0, 1], got {min_score}")
    entries, missing, stale = current(read_audit(path), suite)
    if missing or stale:
        which, ids = ("lacks", missing) if missing else ("is stale for (the task changed since)", stale)
        raise ConfigError(f"the audit {path} {which} {len(ids)} task(s) of {suite.name}, the first {ids[0]}: "
                          f"audit the suite again (grpo-code tasks audit SUITE --write)")
    account = StrengthFilter(str(path), min_score, len(suite))
    for task in suite:
        entry = entries[task.task_id]
        if entry.passing_cheats:
            account.cheated.append(task.task_id)
        elif not entry.strong_enough(min_score):
            account.below.append(task.task_id)
        else:
            account.kept.append(task.task_id)
    if not account.kept:
        raise ConfigError(f"--min_test_strength {min_score:g} keeps none of the {len(suite)} tasks of {suite.name} "
                          f"({account.describe()})")
    return suite.select(account.kept), account
