"""(task, completion) -> program -> sandbox job -> verdict.

The one path shared by rewards, ``grpo-code score`` and ``grpo-code eval``, so they can never
disagree about a completion. Any ``sandbox.Executor`` runs the jobs; identical jobs of a batch
run once (``sandbox.dedup``, the rule the executors apply), and each ``Scored`` says whether its
verdict is such a copy. Each ``Scored`` carries the visibility of its job's tests (a host-side
label the sandbox never sees: ``grpo_code.suites.visibility``), so its pass rate on public and on hidden
tests can be told apart. A suite that names packages runs in their image (``check_executor``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from grpo_code.errors import ConfigError
from grpo_code.suites.extract import extract_program
from grpo_code.suites.tasks import Task, TaskSuite
from grpo_code.suites.visibility import split_rates
from sandbox import Executor, Job, Verdict
from sandbox.dedup import collapse


@dataclass(frozen=True)
class Scored:
    """A completion's program (None when nothing runnable was found) and its verdict.

    ``deduplicated`` is True when an earlier completion of the same batch gave the very same job
    (program, tests, limits): the sandbox ran it once and this one got a copy of the verdict.
    ``visibility`` holds the visibility of each test of the job (``public`` or ``hidden``).
    """

    program: str | None
    verdict: Verdict
    deduplicated: bool = False
    visibility: tuple[str, ...] = ()

    @property
    def public_pass_rate(self) -> float | None:
        """The pass rate on the job's public tests (None: none, or no pass rate)."""
        return split_rates(self.verdict, self.visibility)["public"]

    @property
    def hidden_pass_rate(self) -> float | None:
        """The pass rate on the job's hidden tests (None: none, or no pass rate)."""
        return split_rates(self.verdict, self.visibility)["hidden"]


def check_executor(executor: Executor, suite: TaskSuite) -> None:
    """Refuse an executor whose image lacks a package of ``suite``'s (``TaskSuite.packages``): in
    it a correct program's import would fail, and every completion would be paid as a wrong one.
    The executor is made for the suite with ``make_executor(packages=suite.packages)``.

    Raises:
        ConfigError: one line, naming the packages its image lacks and how to make the executor.
    """
    lacking = sorted(set(suite.packages) - set(getattr(executor, "packages", ())))
    if lacking:
        raise ConfigError(f"suite {suite.name!r} runs in the sandbox image of its packages, and this executor's image "
                          f"lacks {', '.join(lacking)}: make it with make_executor(packages=suite.packages)")


def program_of(task: Task, completion: str) -> str | None:
    """The program extracted from ``completion`` for ``task`` (None: ``no_code``)."""
    return extract_program(completion, language=task.language, prompt=task.prompt,
                           entry_point=task.entry_point)


def _plan(items: Sequence[tuple[Task, str]]) -> tuple[list[str | None], list[Job], list[int]]:
    programs = [program_of(task, completion) for task, completion in items]
    jobs, where = [], []
    for i, ((task, _), program) in enumerate(zip(items, programs, strict=True)):
        if program is not None:
            jobs.append(task.job(program))
            where.append(i)
    return programs, jobs, where


def _assemble(items, programs, jobs, where, verdicts) -> list[Scored]:
    by_index = dict(zip(where, verdicts, strict=True))
    batch = collapse(jobs)
    first: set[int] = set()
    copies = set()
    for i, u in zip(where, batch.where, strict=True):
        if u in first:
            copies.add(i)
        first.add(u)
    out = []
    for i, ((task, _), program) in enumerate(zip(items, programs, strict=True)):
        verdict = by_index.get(i) or Verdict.program_level(
            "no_code", len(task.tests), "no runnable code could be extracted from the completion")
        out.append(Scored(program, verdict, deduplicated=i in copies,
                          visibility=tuple(t.visibility for t in task.tests)))
    return out


def score_completions(executor: Executor, items: Sequence[tuple[Task, str]],
                      on_scored: Callable[[int], None] | None = None) -> list[Scored]:
    r"""Score ``(task, completion)`` pairs in the sandbox; results in the same order.

    Args:
        executor: a started ``sandbox.Executor``.
        items: the pairs.
        on_scored: called with the number of newly scored items (progress), as they finish.

    Example:
        >>> from grpo_code import load_suite, make_executor, score_completions
        >>> task = load_suite("warmup-python").get("warmup-python/add")
        >>> right, wrong = "def add(a, b):\n    return a + b\n", "def add(a, b):\n    return a - b\n"
        >>> completions = [f"```python\n{right}```", wrong]
        >>> with make_executor(concurrency=2) as executor:
        ...     scored = score_completions(executor, [(task, completion) for completion in completions])
        >>> [(s.verdict.status, s.verdict.pass_rate) for s in scored]
        [('passed', 1.0), ('failed', 0.25)]
    """
    programs, jobs, where = _plan(items)
    if on_scored is not None and len(items) > len(jobs):
        on_scored(len(items) - len(jobs))
    verdicts = executor.run(jobs, on_verdict=(lambda i, v: on_scored(1)) if on_scored else None)
    return _assemble(items, programs, jobs, where, verdicts)


async def ascore_completions(executor: Executor, items: Sequence[tuple[Task, str]]) -> list[Scored]:
    """Like ``score_completions``, awaitable (used by the async TRL reward function)."""
    programs, jobs, where = _plan(items)
    verdicts = await executor.arun(jobs)
    return _assemble(items, programs, jobs, where, verdicts)


def check_references(executor: Executor, tasks: Sequence[Task],
                     on_done: Callable[[int], None] | None = None) -> list[tuple[Task, Verdict | None]]:
    """Run every task's reference solution against its own tests.

    Args:
        executor: a started executor.
        tasks: the tasks.
        on_done: called with the number of references run (progress), as they finish.

    Returns:
        ``(task, verdict)`` per task, in order; the verdict is None for a task with no reference.
    """
    with_reference = [(t, t.reference_solution) for t in tasks if t.reference_solution is not None]
    jobs = [t.job(reference) for t, reference in with_reference]
    verdicts = dict(zip((t.task_id for t, _ in with_reference),
                        executor.run(jobs, on_verdict=(lambda i, v: on_done(1)) if on_done else None), strict=True))
    return [(t, verdicts.get(t.task_id)) for t in tasks]


# Outputs a program could print to break a task's checker: empty, numbers past any range, bytes that
# are not text, a very long line, lines by the thousand, words where numbers go.
MALFORMED_OUTPUTS = {
    "empty": "",
    "huge numbers": " ".join(["9" * 5000, "-1e999", "nan", "inf", "1e-400"]) + "\n",
    "binary": "\x00\xff\xfe\x01 \x1b[2J\udcff".encode("utf-8", "surrogateescape").decode("utf-8", "replace") + "\n",
    "a very long line": "x" * 200_000 + "\n",
    "many lines": "1\n" * 20_000,
    "words": "yes no maybe\n",
}


def check_checkers(executor: Executor, tasks: Sequence[Task],
                   on_done: Callable[[int], None] | None = None) -> list[tuple[Task, str, str]]:
    """Run each task's checker on outputs a program could print to break it (``MALFORMED_OUTPUTS``).

    A checker that raises, runs out of time or answers nonsense on a program's output fails that
    test and flags it (``checker_fault``): the program's doing, so a checker must survive these
    first, or programs that print them are scored by its bugs.

    ``on_done`` is called with the number of outputs checked (progress), as they finish.

    Returns:
        ``(task, output name, what happened)`` for each output that broke a task's checker.
    """
    checked = [t for t in tasks if t.checker is not None]
    jobs, where = [], []
    for task in checked:
        for name, text in MALFORMED_OUTPUTS.items():
            program = f"import sys\nsys.stdout.write({text!r})\n"
            jobs.append(Job(program=program, tests=task.tests, language="python", limits=task.job("").limits,
                            compare=task.compare, float_tolerance=task.float_tolerance, checker=task.checker,
                            job_id=task.task_id))
            where.append((task, name))
    broken = []
    verdicts = executor.run(jobs, on_verdict=(lambda i, v: on_done(1)) if on_done else None)
    for (task, name), verdict in zip(where, verdicts, strict=True):
        if "checker_fault" in verdict.flags or verdict.pass_rate is None:
            bad = next((t.message for t in verdict.test_results if t.status in ("failed", "checker_error")
                        and "checker" in t.message), verdict.message)
            broken.append((task, name, bad))
    return broken
