"""Time limits calibrated from the reference solutions, by the rule competitive-programming judges use.

The Kattis problem package format (``time_multipliers`` under ``limits``; problemtools and the ICPC judges
follow it): with ``T_ac`` the running time of the slowest accepted submission, the time limit is
the smallest multiple of ``time_resolution`` that is at least ``T_ac * ac_to_time_limit`` (default
2.0), and every submission meant to time out must run at least ``time_limit * time_limit_to_tle``
(default 1.5). Here the accepted submission is the task's reference solution and ``T_ac`` its
slowest test's CPU seconds (the sandbox's limit is CPU time, counted over the test's whole process
tree) over a few repeated runs, measured under a generous limit so that a reference slower than
the task's own limit is measured, not cut off. The proposal is never below ``min_time_limit_s``:
a floor against timer noise on a loaded host.

What is reported per task (``Calibration.status``):

- ``too_tight``: the task's limit is below its own reference's time: the reference itself times out.
- ``tight``: the reference fits, with less margin than the rule's ``ac_to_time_limit``, or the limit
  is below the floor.
- ``loose``: the limit is above ``time_limit_to_tle`` times the proposal: a program that many
  times slower than the rule allows (a naive exponential search where the reference is
  polynomial, on tests big enough to tell them apart) still passes.
- ``ok``: within the rule; ``reference_fails``: the reference does not pass even under the generous
  limit (``tasks validate`` says why); ``no_reference``: nothing to measure.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from grpo_code.errors import ConfigError
from grpo_code.options import Option
from grpo_code.suites.tasks import Task, TaskSuite
from sandbox import Executor

AC_TO_TIME_LIMIT = 2.0    # Kattis: time_multipliers.ac_to_time_limit
TIME_LIMIT_TO_TLE = 1.5   # Kattis: time_multipliers.time_limit_to_tle
TIME_RESOLUTION_S = 1.0   # Kattis: time_resolution
MIN_TIME_LIMIT_S = 1.0    # ours: the floor of a proposal
MEASURE_LIMIT_S = 20.0    # the CPU limit references run under while measured (or the task's own, if higher)
REPEATS = 3               # runs of each reference; its time is the slowest
STATUSES = ("too_tight", "tight", "loose", "ok", "reference_fails", "no_reference")
# ``tasks validate --calibrate``'s options of the rule, each a ``Rule`` field (its default too)
RULE_OPTIONS = (
    Option("--ac-to-time-limit", "ac_to_time_limit", float,
           "with --calibrate: the limit is at least M x the reference's time (Kattis: %(default)s)", "M"),
    Option("--time-limit-to-tle", "time_limit_to_tle", float,
           "with --calibrate: a limit above S x the proposal is reported as loose (Kattis's %(default)s)", "S"),
    Option("--time-resolution", "time_resolution_s", float,
           "with --calibrate: limits are multiples of this (Kattis's default %(default)s)", "SECONDS"),
    Option("--min-time-limit", "min_time_limit_s", float, "with --calibrate: no proposal below this "
           "(default %(default)s)", "SECONDS"),
)


@dataclass(frozen=True)
class Rule:
    """The calibration rule's parameters (see the module docstring)."""

    ac_to_time_limit: float = AC_TO_TIME_LIMIT
    time_limit_to_tle: float = TIME_LIMIT_TO_TLE
    time_resolution_s: float = TIME_RESOLUTION_S
    min_time_limit_s: float = MIN_TIME_LIMIT_S

    def __post_init__(self) -> None:
        if self.ac_to_time_limit < 1 or self.time_limit_to_tle < 1:
            raise ConfigError("the time multipliers must be >= 1 (Kattis: ac_to_time_limit, time_limit_to_tle)")
        if not self.time_resolution_s > 0 or not self.min_time_limit_s > 0:
            raise ConfigError("--time-resolution and --min-time-limit must be > 0 seconds")

    def limit_for(self, reference_s: float) -> float:
        """The smallest multiple of the resolution that is at least ``reference_s * ac_to_time_limit``,
        and at least the floor (seconds)."""
        steps = math.ceil(reference_s * self.ac_to_time_limit / self.time_resolution_s - 1e-9)
        return max(self.min_time_limit_s, round(steps * self.time_resolution_s, 6))


@dataclass(frozen=True)
class Calibration:
    """One task's limit against its reference's measured time.

    Attributes:
        task_id: the task.
        current_s: its time limit now (CPU seconds per test).
        reference_s: its reference's slowest test, CPU seconds, the slowest of the repeats (None:
            no reference, or it failed).
        proposed_s: the rule's limit (None without a measurement).
        status: one of ``STATUSES``.
        message: why, in words.
    """

    task_id: str
    current_s: float
    reference_s: float | None
    proposed_s: float | None
    status: str
    message: str

    def to_dict(self) -> dict:
        """The calibration as JSON."""
        return {"task_id": self.task_id, "current_s": self.current_s, "reference_s": self.reference_s,
                "proposed_s": self.proposed_s, "status": self.status, "message": self.message}


def judge(task: Task, reference_s: float, rule: Rule) -> Calibration:
    """Compare ``task``'s limit with the rule's limit for a reference that needs ``reference_s``."""
    current, proposed = task.limits.time_limit_s, rule.limit_for(reference_s)
    if current < reference_s:
        status = "too_tight"
        message = f"the reference needs {reference_s:.3f} s on its slowest test, above the limit {current:g} s"
    elif current < reference_s * rule.ac_to_time_limit:
        status = "tight"
        message = (f"the reference needs {reference_s:.3f} s: less than the rule's {rule.ac_to_time_limit:g}x margin "
                   f"under the limit {current:g} s")
    elif current < rule.min_time_limit_s:
        status = "tight"
        message = f"below the floor of {rule.min_time_limit_s:g} s (timer noise on a loaded host)"
    elif current > proposed * rule.time_limit_to_tle:
        status = "loose"
        message = (f"a program {current / max(reference_s, 1e-3):.0f}x slower than the reference "
                   f"({reference_s:.3f} s) passes; the rule gives {proposed:g} s")
    else:
        status, message = "ok", ""
    return Calibration(task.task_id, current, reference_s, proposed, status, message)


def measured(task: Task) -> Task:
    """The task with the generous CPU limit its reference is measured under (its own, if higher)."""
    return task.with_limits(time_limit_s=max(task.limits.time_limit_s, MEASURE_LIMIT_S))


def calibrate(executor: Executor, tasks: Sequence[Task], rule: Rule | None = None,
              repeats: int = REPEATS, on_done: Callable[[int], None] | None = None) -> list[Calibration]:
    """Measure each task's reference solution ``repeats`` times in the sandbox and judge its limit.

    Each repeat is a batch of its own (identical jobs of one batch run once: ``sandbox.dedup``).

    Args:
        executor: a started ``sandbox.Executor``.
        tasks: the tasks; those without a reference get ``no_reference``.
        rule: the rule's parameters (default: Kattis's, with our floor).
        repeats: runs of each reference (>= 1); its time is the slowest run's slowest test.
        on_done: called with the number of runs done (progress), as they finish.

    Returns:
        One ``Calibration`` per task, in order.
    """
    if repeats < 1:
        raise ConfigError(f"--repeats must be >= 1, got {repeats}")
    rule = rule or Rule()
    with_reference = [t for t in tasks if t.reference_solution is not None]
    slowest: dict[str, float] = {}
    failed: dict[str, str] = {}
    for _ in range(repeats):
        verdicts = executor.run([measured(t).job(t.reference_solution or "") for t in with_reference],
                                on_verdict=(lambda i, v: on_done(1)) if on_done else None)
        for task, verdict in zip(with_reference, verdicts, strict=True):
            if not verdict.passed:
                failed.setdefault(task.task_id, f"{verdict.status}: {verdict.message or 'the reference does not pass'}")
                continue
            time_s = max((r.cpu_time_s for r in verdict.test_results), default=0.0)
            slowest[task.task_id] = max(slowest.get(task.task_id, 0.0), time_s)
    out = []
    for task in tasks:
        if task.reference_solution is None:
            out.append(Calibration(task.task_id, task.limits.time_limit_s, None, None, "no_reference",
                                   "no reference solution"))
        elif task.task_id in failed:
            out.append(Calibration(task.task_id, task.limits.time_limit_s, None, None, "reference_fails",
                                   failed[task.task_id][:200]))
        else:
            out.append(judge(task, slowest[task.task_id], rule))
    return out


def tasks_file(suite: TaskSuite, spec: str) -> Path:
    """The tasks file ``--write`` rewrites: the suite's own JSONL file.

    Raises:
        ConfigError: the suite is not read from a JSONL file of its own (a loader, an ``hf:`` data
            set), its tasks are another language's variants (``?language=``), or its file is made by
            a generator (``make_problems.py`` beside it: set the limits there).
    """
    path = Path(suite.source)
    if not (path.is_file() and path.suffix == ".jsonl"):
        raise ConfigError(f"--write rewrites a suite's tasks .jsonl file, and {spec} is read from {suite.source}: "
                          "calibrate without --write and set time_limit_s where the tasks come from")
    if "language=" in spec.partition("?")[2]:
        raise ConfigError("--write needs the tasks in their own language: drop ?language= (the limits of another "
                          "language's reference belong to that language's tasks)")
    if (path.parent / "make_problems.py").is_file():
        raise ConfigError(f"{path} is made by {path.parent / 'make_problems.py'}: set the time limits in the generator "
                          "and run it again")
    return path


def write_time_limits(path: Path, calibrations: Sequence[Calibration]) -> list[str]:
    """Set ``time_limit_s`` to the proposal on each line of ``path`` whose task has one that differs
    from its limit now; every other line stays byte for byte. Returns the task ids changed.

    The file is replaced atomically (a temporary file beside it, renamed).
    """
    proposals = {c.task_id: c.proposed_s for c in calibrations
                 if c.proposed_s is not None and c.proposed_s != c.current_s}
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    changed = []
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        obj = json.loads(line)
        task_id = obj.get("task_id") if isinstance(obj, dict) else None
        if task_id in proposals:
            obj["time_limit_s"] = proposals[task_id]
            lines[i] = json.dumps(obj, ensure_ascii=line.isascii()) + ("\n" if line.endswith("\n") else "")
            changed.append(task_id)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.writelines(lines)
    shutil.copymode(path, tmp)
    os.replace(tmp, path)
    return changed
