"""Small builders shared by tests."""

from __future__ import annotations

from grpo_code.tasks import parse_task
from sandbox import Job, Limits, TestCase


def task_of(case: dict):
    """The Task of a failure case (its JSON follows docs/task-format.md)."""
    return parse_task(case["task"])


def reference(task) -> str:
    """The task's reference solution (a test's task has one)."""
    assert task.reference_solution is not None, f"{task.task_id} has no reference solution"
    return task.reference_solution


def statuses(verdict) -> list[str]:
    return [t.status for t in verdict.test_results]


def matches(status: str, allowed: str) -> bool:
    """`allowed` is a status or several joined by | (the cases file's notation)."""
    return status in allowed.split("|")


def stdio_job(program: str, stdin: str, expected: str, language: str = "python", **limits) -> Job:
    return Job(program=program, tests=(TestCase(kind="stdio", stdin=stdin, expected_stdout=expected),),
               language=language, limits=Limits(**limits))
