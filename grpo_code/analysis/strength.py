"""A suite's test-strength audit as a record: what ``audit.json`` holds, where it lives, and the
tasks it keeps for training.

``grpo_code.curate.audit`` runs the audit (mutants of each reference and cheat programs through
the sandbox) and gives a ``SuiteAudit``; this module is the record, read by the command line
(``tasks list``, ``tasks validate``), the audit's page and ``train --min_test_strength``. A task is
*weak* (``TaskAudit.weak``) when a cheat passes it or its mutation score (killed / (killed +
survivors)) is below ``WEAK_SCORE``.

A suite folder's audit is ``audit.json`` beside its ``suite.yaml`` (the bundled suites ship
theirs); a plain tasks file's is ``NAME.audit.json`` beside ``NAME.jsonl``. A suite read through an
adapter or an entry point has no place of its own: give its audit by path (``train --audit``).
Writing merges by task id, so the audits of parts of a suite (``?split=``, ``?language=``) add
up to the whole suite's. An entry whose fingerprint is not the task's (the task changed since) is
stale: it is never used. docs/task-format.md, "Test strength audits", gives the file's fields.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from grpo_code.errors import ConfigError
from grpo_code.suites.tasks import Task, TaskSuite

WEAK_SCORE = 0.5  # below this mutation score a task is weak (and so is any task a cheat passes)
FORMAT_VERSION = 1
AUDIT_FILE = "audit.json"


@dataclass(frozen=True)
class AuditSettings:
    """How much an audit tries per task.

    Attributes:
        max_mutants: mutants per task (``grpo_code.curate.mutants.mutants``' limit).
        max_inputs: new inputs per task for the equivalence check (``grpo_code.curate.inputs``).
        seed: the seed of the mutants' and the inputs' choice.
    """

    max_mutants: int = 24
    max_inputs: int = 40
    seed: int = 0

    def __post_init__(self) -> None:
        if self.max_mutants < 0 or self.max_inputs < 0:
            raise ConfigError("--max-mutants and --max-inputs must be >= 0")


@dataclass
class TaskAudit:
    """One task's audit.

    Attributes:
        task_id: the task.
        fingerprint: ``fingerprint(task)`` when audited (a task changed since no longer matches).
        reference: the reference's status on its tests (``passed``, another status, or
            ``missing``): without a passing reference there are no mutants.
        mutants: mutants run.
        killed, survived, equivalent, stillborn: how they ended (see the module docstring);
            ``errors``: mutants with no verdict (``sandbox_error``).
        inputs: new inputs the reference answered (the equivalence check's).
        cheats: cheat programs run.
        passing_cheats: the names of those that passed every test.
        best_cheat_pass_rate: the highest pass rate of any cheat (what ``--reward_mode
            fraction`` pays the best of them).
        survivor: one surviving mutant (``Mutant.to_dict``) and the test it fails (``test``,
            docs/task-format.md's form; its input and answer cut at ``SHOWN_CHARS``), or None.
    """

    task_id: str
    fingerprint: str
    reference: str
    mutants: int = 0
    killed: int = 0
    survived: int = 0
    equivalent: int = 0
    stillborn: int = 0
    errors: int = 0
    inputs: int = 0
    cheats: int = 0
    passing_cheats: list[str] = field(default_factory=list)
    best_cheat_pass_rate: float | None = None
    survivor: dict | None = None

    @property
    def mutation_score(self) -> float | None:
        """Killed / (killed + survived); None when no mutant counts."""
        counted = self.killed + self.survived
        return self.killed / counted if counted else None

    @property
    def weak(self) -> bool:
        """A cheat passes it, or its mutation score is below ``WEAK_SCORE``."""
        score = self.mutation_score
        return bool(self.passing_cheats) or (score is not None and score < WEAK_SCORE)

    def strong_enough(self, min_score: float) -> bool:
        """No cheat passes it and its mutation score is at least ``min_score`` (``train
        --min_test_strength``; a task with no score is not)."""
        score = self.mutation_score
        return not self.passing_cheats and score is not None and score >= min_score

    def to_dict(self) -> dict:
        """The task's entry of ``audit.json`` (its fields, and the score)."""
        return {**asdict(self), "mutation_score": self.mutation_score}

    @classmethod
    def from_dict(cls, data: dict) -> TaskAudit:
        """Read an entry of ``audit.json``; raises ValueError naming what is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"a task's audit must be a JSON object, got {type(data).__name__}")
        known = set(cls.__dataclass_fields__)
        missing = sorted({"task_id", "fingerprint", "reference"} - set(data))
        if missing:
            raise ValueError(f"a task's audit needs {', '.join(missing)}")
        return cls(**{k: v for k, v in data.items() if k in known})


@dataclass
class SuiteAudit:
    """A suite's audit (``audit.json``).

    Attributes:
        suite: the suite's name.
        version: its version.
        tasks: one ``TaskAudit`` per task, in the suite's order.
        settings: how much it tried per task.
        seconds: wall seconds it took.
        jobs: sandbox jobs run (each mutant, cheat, reference and probe is one; identical jobs of
            a batch ran once, ``dedup_hits`` of them).
        dedup_hits: jobs that were copies of another of their batch.
    """

    suite: str
    version: Any
    tasks: list[TaskAudit]
    settings: AuditSettings = field(default_factory=AuditSettings)
    seconds: float = 0.0
    jobs: int = 0
    dedup_hits: int = 0

    def by_id(self) -> dict[str, TaskAudit]:
        """The tasks' audits by task id."""
        return {t.task_id: t for t in self.tasks}

    @property
    def mean_score(self) -> float | None:
        """The mean mutation score over the tasks that have one (None: none has)."""
        scores = [s for s in (t.mutation_score for t in self.tasks) if s is not None]
        return sum(scores) / len(scores) if scores else None

    @property
    def cheated(self) -> list[TaskAudit]:
        """The tasks that some cheat passes."""
        return [t for t in self.tasks if t.passing_cheats]

    @property
    def weak(self) -> list[TaskAudit]:
        """The weak tasks (``TaskAudit.weak``)."""
        return [t for t in self.tasks if t.weak]

    @property
    def jobs_per_second(self) -> float | None:
        """Sandbox jobs per wall second."""
        return self.jobs / self.seconds if self.seconds > 0 else None

    def to_dict(self) -> dict:
        """``audit.json``: the summary figures, the settings and every task's entry."""
        return {"format": FORMAT_VERSION, "suite": self.suite, "version": self.version,
                "settings": asdict(self.settings), "seconds": round(self.seconds, 1), "jobs": self.jobs,
                "dedup_hits": self.dedup_hits, "n_tasks": len(self.tasks), "mean_mutation_score": self.mean_score,
                "n_cheated": len(self.cheated), "n_weak": len(self.weak), "weak_score": WEAK_SCORE,
                "tasks": [t.to_dict() for t in self.tasks]}

    @classmethod
    def from_dict(cls, data: dict) -> SuiteAudit:
        """Read ``audit.json``; raises ValueError naming what is wrong."""
        if not isinstance(data, dict) or not isinstance(data.get("tasks"), list):
            raise ValueError("an audit is a JSON object with a list of tasks")
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"audit format {data.get('format')!r}, this version reads {FORMAT_VERSION}")
        settings = AuditSettings(**{k: v for k, v in (data.get("settings") or {}).items()
                                    if k in AuditSettings.__dataclass_fields__})
        tasks = []
        for i, entry in enumerate(data["tasks"]):
            try:
                tasks.append(TaskAudit.from_dict(entry))
            except (TypeError, ValueError) as e:
                raise ValueError(f"tasks[{i}]: {e}") from None
        return cls(str(data.get("suite", "")), data.get("version"), tasks, settings, float(data.get("seconds", 0.0)),
                   int(data.get("jobs", 0)), int(data.get("dedup_hits", 0)))


def fingerprint(task: Task) -> str:
    """A short hash of what the audit's result depends on: the task's prompt, language, entry
    point, reference, prelude, tests, comparison, checker, limits, whether it allows non-finite
    answers and its own test setup (the last two only where set: the hash of a task without them
    is what it was before those fields)."""
    data = {"prompt": task.prompt, "language": task.language, "entry_point": task.entry_point,
            "reference": task.reference_solution, "prelude": task.prelude,
            "tests": [t.check_dict() for t in task.tests], "compare": task.compare,
            "float_tolerance": task.float_tolerance, "checker": task.checker, "limits": task.limits.to_dict()}
    if task.allow_non_finite:
        data["allow_non_finite"] = True
    if task.test_setup is not None:  # the judge's own setup, where the task gives one
        data["test_setup"] = task.test_setup
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def audit_path(spec: str) -> Path | None:
    """Where the audit of the suite ``spec`` names lives (``?options`` ignored): ``audit.json`` in
    its folder (a bundled suite's or a path's), ``NAME.audit.json`` beside a tasks file; None for
    an ``hf:`` suite, Harbor tasks or an entry point."""
    from grpo_code.suites.registry import bundled_suites

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
