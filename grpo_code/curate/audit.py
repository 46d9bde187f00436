"""How strong a suite's tests are: ``grpo-code tasks audit`` as a library call, and its report.

For each task, through the same scoring path as training (a completion holding the program ->
``scoring.score_completions``: extraction, ``Task.job``, the sandbox, the verdict), in one batch per phase
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
it or its score is below ``strength.WEAK_SCORE``. One survivor is kept in full, with the test it fails,
for the suite's author to add.

The report is a ``grpo_code.analysis.strength.SuiteAudit`` (what ``audit.json`` holds; docs/
task-format.md, "Test strength audits"), with the wall time and the number of sandbox jobs it took.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from grpo_code.analysis.strength import AuditSettings, SuiteAudit, TaskAudit, fingerprint
from grpo_code.curate.cheats import Cheat, cheats
from grpo_code.curate.mutants import TOKEN_LANGUAGES, Mutant, mutants
from grpo_code.curate.oracle import answered_tests, probe_job, suggestion
from grpo_code.score.scoring import Scored, check_executor, score_completions
from grpo_code.suites.tasks import Task, TaskSuite
from sandbox import Executor, TestCase, Verdict

SHOWN_CHARS = 4000  # of a survivor's failing test's input and answer, kept in the report


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

    Raises:
        ConfigError: the executor's image lacks a package of the suite's (``scoring.check_executor``).
    """
    check_executor(executor, suite)
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
    scored = score_completions(executor, items, on_scored=advance)
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
            shown = suggestion(test)
            for key in ("stdin", "expected_stdout", "code"):
                if isinstance(shown.get(key), str) and len(shown[key]) > SHOWN_CHARS:
                    shown[key] = shown[key][:SHOWN_CHARS] + " ...(cut)"
            shown["status"] = result.status
            return shown
    return None
