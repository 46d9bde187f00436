"""A suite checked in the sandbox: ``grpo-code tasks validate`` as a library call.

Loading a suite checks its schema (``tasks.parse_task``: file, line and field). This runs what
only the sandbox can tell: every reference solution against its own tests
(``scoring.check_references``), every checker on outputs made to break it
(``scoring.check_checkers``), and, when asked, the time limits by the Kattis rule
(``calibrate.calibrate``), written into the suite's tasks file when asked (``calibrate.write_time_limits``),
and, when asked, the strength of its tests (``audit.audit_suite``: a task that a cheat program
passes fails the validation).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from grpo_code.analysis.strength import AuditSettings, SuiteAudit
from grpo_code.curate.audit import Progress, audit_suite
from grpo_code.curate.calibrate import Calibration, Rule, calibrate, write_time_limits
from grpo_code.score.scoring import MALFORMED_OUTPUTS, check_checkers, check_executor, check_references
from grpo_code.suites.tasks import Task, TaskSuite
from sandbox import Executor, Verdict


@dataclass
class ValidationReport:
    """What ``validate_suite`` found.

    Attributes:
        suite: the suite.
        failing: ``(task, verdict)`` of each reference solution that does not pass its tests.
        n_passing: reference solutions that pass.
        no_reference: the tasks without a reference solution.
        n_with_checker: tasks judged by a checker of their own.
        broken_checkers: ``(task, output name, what happened)`` for each malformed output that
            broke a task's checker.
        calibrations: one per task, with ``rule`` (else empty).
        rule: the calibration rule, or None.
        repeats: runs of each reference while calibrating.
        written: the task ids whose ``time_limit_s`` was written into ``written_to``.
        written_to: the tasks file written, or None.
        audit: the test-strength audit, when asked for (else None).
    """

    suite: TaskSuite
    failing: list[tuple[Task, Verdict]]
    n_passing: int
    no_reference: list[Task]
    n_with_checker: int
    broken_checkers: list[tuple[Task, str, str]]
    calibrations: list[Calibration] = field(default_factory=list)
    rule: Rule | None = None
    repeats: int = 0
    written: list[str] = field(default_factory=list)
    written_to: Path | None = None
    audit: SuiteAudit | None = None

    @property
    def unchecked_answers(self) -> list[tuple[Task, str]]:
        """``(task, the statement's words)`` for each task whose statement accepts several right
        answers (``metadata.several_answers``, which the contest adapters set) and that has no
        checker: judged against one stored output, a right answer other than it fails."""
        return [(t, str(t.metadata["several_answers"])) for t in self.suite
                if t.checker is None and t.metadata.get("several_answers")]

    @property
    def ok(self) -> bool:
        """Every reference passes, every checker survives the malformed outputs, and (audited) no
        cheat program passes a task."""
        return not self.failing and not self.broken_checkers and not (self.audit and self.audit.cheated)


def validate_suite(executor: Executor, suite: TaskSuite, rule: Rule | None = None, repeats: int = 3,
                   write_to: Path | None = None, progress: Progress | None = None,
                   audit: AuditSettings | None = None) -> ValidationReport:
    """Run the suite's references and checkers in the sandbox; calibrate its time limits with ``rule``.

    Args:
        executor: not started: entered (started, then closed) here.
        suite: the suite (its schema is valid: it loaded).
        rule: calibrate the time limits by this rule (None: no calibration).
        repeats: runs of each reference while calibrating (its time is the slowest).
        write_to: with ``rule``, write the proposed limits into this tasks file
            (``calibrate.tasks_file`` finds it and says when a suite has none).
        progress: called with each phase's description and number of sandbox jobs as it starts;
            gives the function to call with the number of jobs done as verdicts arrive (a counted
            bar per phase, as ``audit.audit_suite`` takes it).
        audit: also audit the strength of the suite's tests with these settings (None: no audit).

    Raises:
        ValueError: ``write_to`` without ``rule``.
        ConfigError: the executor's image lacks a package of the suite's (``scoring.check_executor``).
        SandboxError: the sandbox cannot start.
    """
    if write_to is not None and rule is None:
        raise ValueError("writing time limits needs a calibration rule")
    check_executor(executor, suite)
    progress = progress or (lambda phase, total: lambda n: None)
    tasks = list(suite)
    n_with_reference = sum(t.reference_solution is not None for t in tasks)
    n_with_checker = sum(t.checker is not None for t in tasks)
    calibrations: list[Calibration] = []
    with executor:
        checked = check_references(executor, tasks, progress("reference solutions", n_with_reference))
        broken = check_checkers(executor, tasks, progress("checkers on broken outputs",
                                                          n_with_checker * len(MALFORMED_OUTPUTS))) \
            if n_with_checker else []
        if rule is not None:
            calibrations = calibrate(executor, tasks, rule, repeats=repeats,
                                     on_done=progress(f"CPU time ({repeats} runs each)", n_with_reference * repeats))
        audited = audit_suite(executor, suite, audit, progress) if audit is not None else None
    failing = [(t, v) for t, v in checked if v is not None and not v.passed]
    no_reference = [t for t, v in checked if v is None]
    written = write_time_limits(write_to, calibrations) if write_to is not None else []
    return ValidationReport(suite, failing, len(checked) - len(failing) - len(no_reference), no_reference,
                            n_with_checker, broken, calibrations, rule, repeats, written, write_to, audited)
