"""Repair prompts, built offline (Cobalt, arXiv 2602.03806): from an ``eval`` (or ``score``) run's
results, a suite whose prompts are "the problem + an earlier failing attempt + its public-test
report", each task with the original tests, for plain single-turn GRPO.

An attempt is kept when its program failed a public test (a wrong answer, an error, or it did
not compile); attempts that passed every public test, have no program (``no_code``), no pass rate
(``sandbox_error``, ``checker_error``) or whose task has no public test have nothing to show and
are counted as left out. The report is the one the training environment gives
(``feedback.public_report``), made from the results line's own verdict on the public tests: no
sandbox is needed, and nothing of a hidden test enters a prompt. The attempt and its report go in
the task's ``context`` (docs/task-format.md), after the problem; the task's prompt, tests,
reference and limits stay the original's, so the prompt's helpers and a human-eval style
continuation still work, and each repair task is judged as its original.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from grpo_code.errors import ConfigError
from grpo_code.jsonl import read_records
from grpo_code.score.feedback import DEFAULT_REPORT, ReportLimits, public_report
from grpo_code.score.scorefile import summary_beside
from grpo_code.suites.tasks import Task, TaskSuite
from grpo_code.suites.visibility import PUBLIC, clip, restrict, visibilities
from sandbox.types import TestResult, Verdict

ATTEMPT_CHARS = 6000  # an attempt longer than this is cut in the prompt
REQUEST = "Write a corrected program."


@dataclass
class RepairSuite:
    """The built suite and why the other results lines were left out (reason -> count)."""

    suite: TaskSuite
    left_out: Counter


@dataclass
class RepairRun:
    """What ``repair_run`` built: the suite (``RepairSuite``'s), why lines were left out, how many
    results lines it read, the name of the suite they answered, and the folder written."""

    suite: TaskSuite
    left_out: Counter
    n_results: int
    source_suite: str
    folder: Path


@dataclass
class Run:
    """An ``eval`` or ``score`` run's results, the suite its summary names, and its folder."""

    results: list[dict]
    suite_spec: str | None
    folder: Path


def read_run(path: str | Path) -> Run:
    """An eval folder (``results.jsonl`` and ``summary.json``) or a score run's ``X.results.jsonl``
    (and ``X.summary.json`` beside it).

    Raises:
        ConfigError: there are no results there.
    """
    path = Path(path)
    results_path = path / "results.jsonl" if path.is_dir() else path
    if not results_path.is_file():
        raise ConfigError(f"{path} holds no results: give an eval folder or a score run's .results.jsonl")
    summary_path = summary_beside(results_path) if results_path.name != "results.jsonl" \
        else results_path.with_name("summary.json")
    spec = json.loads(summary_path.read_text()).get("suite") if summary_path.is_file() else None
    return Run(list(read_records(results_path)), spec, results_path.parent)


def verdict_of(record: dict, task: Task) -> Verdict:
    """The verdict a results line records (``Verdict.to_dict`` read back).

    Raises:
        ConfigError: the line's test results do not fit the task's tests (another suite's run).
    """
    tests = record.get("tests") or []
    if tests and len(tests) != len(task.tests):
        raise ConfigError(f"the results line of {task.task_id} (completion {record.get('completion_id')}) has "
                          f"{len(tests)} test results, the task {len(task.tests)} tests: give the --suite it was "
                          "scored against")
    return Verdict(status=record["status"], n_tests=len(task.tests), compile_output=record.get("compile_output", ""),
                   message=record.get("message", ""), flags=tuple(record.get("flags") or ()),
                   test_results=tuple(TestResult(status=t["status"], message=t.get("message", ""),
                                                 score=t.get("score")) for t in tests))


def attempt_context(task: Task, program: str, report: str) -> str:
    """The text a repair task shows after the problem: the attempt, its report, the request."""
    return (f"An earlier attempt at this problem:\n```{task.language}\n{clip(program.rstrip(), ATTEMPT_CHARS)}\n```\n"
            f"Its run on the public tests: {report}\n\n{REQUEST}")


def repair_suite(suite: TaskSuite, results: Sequence[dict], max_per_task: int | None = None,
                 limits: ReportLimits = DEFAULT_REPORT) -> RepairSuite:
    """A suite ``<name>-repair`` of one task per failing attempt in ``results`` (at most
    ``max_per_task`` per original task, in file order). Task ids: ``<task_id>/repair/<completion_id>``.

    Raises:
        ConfigError: a results line names a task the suite lacks, or does not fit its tests.
    """
    tasks: list[Task] = []
    left_out: Counter[str] = Counter()
    per_task: Counter[str] = Counter()
    for record in results:
        if record["task_id"] not in suite:
            raise ConfigError(f"the results hold task {record['task_id']!r}, which suite {suite.name!r} lacks: "
                              "give the --suite the run was scored against")
        task = suite.get(record["task_id"])
        reason = _left_out(record, task)
        if reason is None and max_per_task is not None and per_task[task.task_id] >= max_per_task:
            reason = "over --max-per-task"
        if reason is not None:
            left_out[reason] += 1
            continue
        verdict = restrict(verdict_of(record, task), visibilities(task.tests), PUBLIC)
        if verdict.passed:
            left_out["passed every public test"] += 1
            continue
        per_task[task.task_id] += 1
        context = attempt_context(task, record["program"], public_report(task.public_tests, verdict, limits))
        attempt = record.get("completion_id", per_task[task.task_id])
        tasks.append(replace(task, task_id=f"{task.task_id}/repair/{attempt}", context=context,
                             metadata={**task.metadata, "repair_of": task.task_id,
                                       "attempt": record.get("completion_id"), "attempt_status": record["status"],
                                       "attempt_pass_rate": record.get("pass_rate")}))
    built = TaskSuite(name=f"{suite.name}-repair", tasks=tuple(tasks), version=1, license=suite.license,
                      description=f"Repair prompts from failing attempts at {suite.name}: the problem, an earlier "
                                  "attempt and its public-test report; the original tests.",
                      prompt_template=suite.prompt_template, source=f"grpo-code tasks repair ({suite.name})",
                      packages=suite.packages)
    return RepairSuite(built, left_out)


def _left_out(record: dict, task: Task) -> str | None:
    """Why a results line makes no repair task, or None."""
    if not task.public_tests:
        return "task has no public test"
    if record.get("program") is None:
        return "no program (no_code)"
    if record.get("pass_rate") is None:
        return "no pass rate (sandbox_error, checker_error)"
    return None


def write_suite(suite: TaskSuite, out_dir: str | Path) -> Path:
    """Write ``suite`` as a suite folder (``suite.yaml`` + ``problems.jsonl``); returns the folder.

    Raises:
        ConfigError: the folder holds a suite already.
    """
    out = Path(out_dir)
    if (out / "suite.yaml").exists() or (out / "problems.jsonl").exists():
        raise ConfigError(f"{out} holds a suite already: give another --out")
    out.mkdir(parents=True, exist_ok=True)
    meta = {"name": suite.name, "description": suite.description, "version": suite.version,
            "license": suite.license, "prompt_template": suite.prompt_template, "source": "problems.jsonl",
            **({"packages": list(suite.packages)} if suite.packages else {})}
    (out / "suite.yaml").write_text(yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=100))
    with (out / "problems.jsonl").open("w", encoding="utf-8") as f:
        for task in suite:
            f.write(json.dumps(task.to_dict(), ensure_ascii=False) + "\n")
    return out


def repair_run(run_path: str | Path, suite_spec: str | None = None, out_dir: str | Path | None = None,
               max_per_task: int | None = None) -> RepairRun:
    """``grpo-code tasks repair``: read a run (``read_run``), load the suite it answered
    (``suite_spec``, else the one its summary names), build the repair suite and write it.

    Args:
        run_path: an eval folder or a score run's ``.results.jsonl``.
        suite_spec: the suite the run was scored against (default: its summary's).
        out_dir: the new suite's folder (default: ``<run folder>/repair``).
        max_per_task: at most this many repair tasks per task (default: every failing attempt).

    Raises:
        ConfigError: ``max_per_task`` below 1, no results, no suite named or the named one does
            not load (give ``--suite``), or the results are another suite's.
        UnknownSuiteError: ``suite_spec`` names no suite.
    """
    from grpo_code.errors import UnknownSuiteError
    from grpo_code.suites.registry import load_suite

    if max_per_task is not None and max_per_task < 1:
        raise ConfigError(f"--max-per-task must be >= 1, got {max_per_task}")
    run = read_run(run_path)
    spec = suite_spec or run.suite_spec
    if not spec:
        raise ConfigError(f"{run_path} has no summary naming its suite: give --suite")
    try:
        suite = load_suite(spec)
    except UnknownSuiteError as e:
        if suite_spec:
            raise
        raise ConfigError(f"the run's summary names suite {run.suite_spec!r}, which does not load ({e}): "
                          "give --suite") from None
    built = repair_suite(suite, run.results, max_per_task=max_per_task)
    folder = write_suite(built.suite, out_dir or f"{run.folder}/repair")
    return RepairRun(built.suite, built.left_out, len(run.results), suite.name, folder)
