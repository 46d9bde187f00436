"""How strong a suite's tests are: ``grpo-code tasks audit`` as a library call, and its report.

For each task, through the same scoring path as training (a completion holding the program ->
``scoring.score``: extraction, ``Task.job``, the sandbox, the verdict), in one batch per phase
through one executor:

1. the reference solution, its mutants (``grpo_code.curate.mutants``) and the cheat programs
   (``grpo_code.curate.cheats``) against the task's tests. A mutant that fails a test is
   *killed*; one that does not compile (token-level mutants only) is *stillborn* and counts
   nowhere; a cheat that passes every test is a *passing cheat*, a reward for not solving the task;
2. for the tasks with a mutant that passed every test: the reference on new inputs made from the
   tests' own (``grpo_code.curate.oracle``, ``grpo_code.curate.inputs``);
3. each such mutant against the reference's answers on those inputs: one that fails some answer
   is a *survivor* (its output differs from the reference's, and no test saw it), one that passes
   them all is *likely equivalent* (no input tells it from the reference) and counts nowhere.

The task's mutation score is killed / (killed + survivors): the share of the wrong variants the
tests catch (None when there is none). A task is *weak* (``TaskAudit.weak``) when a cheat passes
it or its score is below ``WEAK_SCORE``. One survivor is kept in full, with the test it fails,
for the suite's author to add.

The report (``SuiteAudit``) is what ``audit.json`` holds (``to_dict``; docs/task-format.md,
"Test strength audits"), with the wall time and the number of sandbox jobs it took.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from grpo_code.curate.cheats import Cheat, cheats
from grpo_code.curate.inputs import DEFAULT_INPUTS
from grpo_code.curate.mutants import DEFAULT_LIMIT, TOKEN_LANGUAGES, Mutant, mutants
from grpo_code.curate.oracle import Probe, answered_tests, probe_job
from grpo_code.errors import ConfigError
from grpo_code.scoring import Scored, score
from grpo_code.tasks import Task, TaskSuite
from sandbox import Executor, TestCase, Verdict

WEAK_SCORE = 0.5  # below this mutation score a task is weak (and so is any task a cheat passes)
FORMAT_VERSION = 1
SHOWN_CHARS = 4000  # of a survivor's failing test's input and answer, kept in the report


@dataclass(frozen=True)
class AuditSettings:
    """How much an audit tries per task.

    Attributes:
        max_mutants: mutants per task (``mutants.DEFAULT_LIMIT``).
        max_inputs: new inputs per task for the equivalence check (``inputs.DEFAULT_INPUTS``).
        seed: the seed of the mutants' and the inputs' choice.
    """

    max_mutants: int = DEFAULT_LIMIT
    max_inputs: int = DEFAULT_INPUTS
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
        """killed / (killed + survived); None when no mutant counts."""
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
        known = {f for f in cls.__dataclass_fields__}
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
    point, reference, prelude, tests, comparison, checker and limits."""
    data = {"prompt": task.prompt, "language": task.language, "entry_point": task.entry_point,
            "reference": task.reference_solution, "prelude": task.prelude,
            "tests": [t.check_dict() for t in task.tests], "compare": task.compare,
            "float_tolerance": task.float_tolerance, "checker": task.checker, "limits": task.limits.to_dict()}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def as_completion(program: str, language: str) -> str:
    """A completion holding ``program`` in one fenced code block tagged with its language (a fence
    longer than any run of backticks in it)."""
    longest = max((len(run) for run in re.findall(r"`+", program)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{program.rstrip()}\n{fence}\n"


Progress = Callable[[str, int], Callable[[int], None]]  # (phase, total) -> advance(n)


def _quiet(phase: str, total: int) -> Callable[[int], None]:
    return lambda n: None


@dataclass
class _Plan:
    task: Task
    mutants: list[Mutant]
    cheats: list[Cheat]
    scored: list[Scored] = field(default_factory=list)  # reference, mutants, cheats


def audit_suite(executor: Executor, suite: TaskSuite, settings: AuditSettings | None = None,
                progress: Progress | None = None) -> SuiteAudit:
    """Audit every task of ``suite`` (see the module docstring).

    Args:
        executor: a started ``sandbox.Executor``; every job goes through it, batched per phase.
        suite: the suite.
        settings: how much to try per task (default ``AuditSettings()``).
        progress: called with each phase's description and number of jobs; gives the function
            to call with the number of jobs done as verdicts arrive.

    Returns:
        The ``SuiteAudit``, with its wall seconds and sandbox jobs.
    """
    settings = settings or AuditSettings()
    progress = progress or _quiet
    started, before = time.perf_counter(), executor.stats()
    plans = []
    for task in suite:
        found = mutants(task.reference_solution, task.language, settings.max_mutants, settings.seed) \
            if task.reference_solution is not None and task.language in ("python", *TOKEN_LANGUAGES) else []
        plans.append(_Plan(task, found, cheats(task)))
    items: list[tuple[Task, str]] = []
    for plan in plans:
        programs = ([plan.task.reference_solution] if plan.task.reference_solution is not None else []) \
            + [m.program for m in plan.mutants] + [c.program for c in plan.cheats]
        items += [(plan.task, as_completion(p, plan.task.language)) for p in programs]
    advance = progress("mutants and cheats", len(items))
    scored = score(executor, items, on_scored=advance)
    at = 0
    for plan in plans:
        n = (plan.task.reference_solution is not None) + len(plan.mutants) + len(plan.cheats)
        plan.scored, at = scored[at:at + n], at + n
    audits = [_first_phase(plan) for plan in plans]
    candidates = {plan.task.task_id: _passing_mutants(plan) for plan in plans}
    probes = [p for p in (probe_job(plan.task, settings.max_inputs, settings.seed)
                          for plan in plans if candidates[plan.task.task_id]) if p is not None]
    advance = progress("the reference on new inputs", len(probes))
    answers = {p.task.task_id: answered_tests(p, v)
               for p, v in zip(probes, executor.run([p.job for p in probes], on_verdict=lambda i, v: advance(1)),
                               strict=True)}
    checks = [(plan, m, program) for plan in plans for m, program in candidates[plan.task.task_id]
              if answers.get(plan.task.task_id)]
    advance = progress("mutants on new inputs", len(checks))
    verdicts = executor.run([plan.task.job(program, answers[plan.task.task_id]) for plan, _, program in checks],
                            on_verdict=lambda i, v: advance(1))
    outcome = {id(m): v for (_, m, _), v in zip(checks, verdicts, strict=True)}
    for plan, audit in zip(plans, audits, strict=True):
        tests = answers.get(plan.task.task_id, ())
        audit.inputs = len(tests)
        for mutant, _ in candidates[plan.task.task_id]:
            verdict = outcome.get(id(mutant))
            if verdict is not None and verdict.pass_rate is None:
                audit.errors += 1
                continue
            if verdict is None or verdict.passed:  # no input tells it from the reference
                audit.equivalent += 1
                continue
            audit.survived += 1
            if audit.survivor is None:
                audit.survivor = {"mutant": mutant.to_dict(), "test": _failed_test(tests, verdict)}
    after = executor.stats()
    return SuiteAudit(suite.name, suite.version, audits, settings, time.perf_counter() - started,
                      after.jobs - before.jobs, after.dedup_hits - before.dedup_hits)


def _first_phase(plan: _Plan) -> TaskAudit:
    """The task's audit after its reference, mutants and cheats ran (survivors not yet told apart
    from equivalent mutants: ``audit_suite`` does that)."""
    task = plan.task
    scored = list(plan.scored)
    reference = scored.pop(0).verdict.status if task.reference_solution is not None else "missing"
    mutant_scores, cheat_scores = scored[:len(plan.mutants)], scored[len(plan.mutants):]
    audit = TaskAudit(task.task_id, fingerprint(task), reference, cheats=len(cheat_scores))
    if reference == "passed":
        audit.mutants = len(mutant_scores)
        for s in mutant_scores:
            status = s.verdict.status
            if status == "compile_error":
                audit.stillborn += 1
            elif status == "sandbox_error" or s.verdict.pass_rate is None:
                audit.errors += 1
            elif status != "passed":
                audit.killed += 1
    rates = [s.verdict.pass_rate for s in cheat_scores if s.verdict.pass_rate is not None]
    audit.best_cheat_pass_rate = max(rates) if rates else None
    audit.passing_cheats = [c.name for c, s in zip(plan.cheats, cheat_scores, strict=True) if s.verdict.passed]
    return audit


def _passing_mutants(plan: _Plan) -> list[tuple[Mutant, str]]:
    """The mutants that passed every test (with the program that ran), when the reference passes."""
    if plan.task.reference_solution is None or not plan.scored or not plan.scored[0].verdict.passed:
        return []
    return [(m, s.program or m.program) for m, s in zip(plan.mutants, plan.scored[1:], strict=False)
            if s.verdict.passed]


def _failed_test(tests: Sequence[TestCase], verdict: Verdict) -> dict | None:
    """The first of ``tests`` that ``verdict`` did not pass, in docs/task-format.md's form (long
    inputs and answers cut at ``SHOWN_CHARS``)."""
    for test, result in zip(tests, verdict.test_results, strict=False):
        if result.status != "passed":
            shown = test.to_dict()
            for key in ("stdin", "expected_stdout", "code"):
                if isinstance(shown.get(key), str) and len(shown[key]) > SHOWN_CHARS:
                    shown[key] = shown[key][:SHOWN_CHARS] + " ...(cut)"
            shown["status"] = result.status
            return shown
    return None
