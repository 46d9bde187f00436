"""The ``Executor`` protocol: what the RL side needs from an executor, whichever runs the jobs.

``DockerExecutor`` (a pool of containers on this machine's Docker daemon) and ``RayExecutor``
(actors on the nodes of a Ray cluster, each owning a ``DockerExecutor`` on its node) implement
it on top of ``ExecutorBase``, and count what they did in ``ExecutorStats``; ``grpo_code`` types
against it and builds one with ``sandbox.factory.make_executor``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, Self, runtime_checkable

from sandbox.types import Job, Verdict


def check_concurrency(concurrency: int | None, name: str = "concurrency") -> None:
    """The rule of every executor's ``concurrency``: None (every CPU) or at least 1; 0 never
    means "every CPU".

    Args:
        concurrency: the number asked for.
        name: what the caller calls it, for the message (``--concurrency``, ...).

    Raises:
        ValueError: below 1.
    """
    if concurrency is not None and concurrency < 1:
        raise ValueError(f"{name} must be >= 1 (leave it out for every CPU), got {concurrency}")


@dataclass
class ExecutorStats:
    """What an executor has done since it started (counts; read with ``Executor.stats``; ``+``
    adds two executors' counts).

    Attributes:
        jobs: verdicts returned (dedup hits included).
        faults: container faults (each one discards its container).
        retries: jobs sent again after a fault (attempts beyond the first).
        mismatches: replies that carried another submission's identity (counted in ``faults`` too).
        sandbox_errors: jobs given up after their last retry (verdict ``sandbox_error``).
        program_faults: jobs whose program broke its container on every attempt (a failure
            flagged ``sandbox_tamper``, never ``sandbox_error``).
        containers_started: containers started, the first ones and every replacement.
        recycled: containers replaced after ``max_jobs_per_container`` jobs, or after a job that
            moved a counter the runner cannot set back in place (``SandboxContainer.spent``).
        residue_replacements: containers replaced because a job left them unclean (what it left
            would not go: the job's verdict is flagged ``residue``).
        dedup_hits: jobs that were copies of another job of their batch, so did not run
            (``sandbox.dedup``): they got a copy of its verdict.
        abandoned: jobs dropped unrun because their run's caller had gone (``arun`` cancelled).
    """

    jobs: int = 0
    faults: int = 0
    retries: int = 0
    mismatches: int = 0
    sandbox_errors: int = 0
    program_faults: int = 0
    containers_started: int = 0
    recycled: int = 0
    residue_replacements: int = 0
    dedup_hits: int = 0
    abandoned: int = 0

    def __add__(self, other: ExecutorStats) -> ExecutorStats:
        return ExecutorStats(**{name: getattr(self, name) + getattr(other, name) for name in self.__dataclass_fields__})


@runtime_checkable
class Executor(Protocol):
    """Runs sandbox jobs; a (sync or async) context manager that leaves no container behind.

    ``run`` never raises for a single job: a job whose sandbox failed after its retries gets a
    ``sandbox_error`` verdict. Identical jobs of one batch run once (``sandbox.dedup``).
    """

    concurrency: int  # jobs run at once, all workers together

    def start(self) -> Executor:
        """Start the workers (idempotent); raises SandboxError (or a subclass) when none can start."""

    def close(self) -> None:
        """Stop the workers and remove every container they started (idempotent)."""

    def run(self, jobs: Sequence[Job], on_verdict: Callable[[int, Verdict], None] | None = None) -> list[Verdict]:
        """The verdicts of ``jobs``, in their order; ``on_verdict(index, verdict)`` as each one is ready."""

    async def arun(self, jobs: Sequence[Job]) -> list[Verdict]:
        """Like ``run``, awaitable; the event loop goes on meanwhile."""

    def stats(self) -> ExecutorStats:
        """Counters since the start (jobs, faults, retries, dedup hits, ...), all workers together."""

    def node_seconds(self) -> dict[str, float]:
        """Seconds each node's sandbox was busy since the start (wall clock, node name -> seconds)."""

    def __enter__(self) -> Executor: ...

    def __exit__(self, *exc) -> None: ...

    async def __aenter__(self) -> Executor: ...

    async def __aexit__(self, *exc) -> None: ...


class ExecutorBase:
    """What every executor does the same way on top of its own ``start``, ``close`` and ``run``:
    ``run_one``, ``arun`` and the (sync and async) context managers."""

    def start(self) -> Self:
        """Start the workers (the executor's own)."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop the workers (the executor's own)."""
        raise NotImplementedError

    def run(self, jobs: Sequence[Job], on_verdict: Callable[[int, Verdict], None] | None = None) -> list[Verdict]:
        """Run a batch (the executor's own; see ``Executor.run``)."""
        raise NotImplementedError

    def run_one(self, job: Job) -> Verdict:
        """Run one job; faults are retried; never raises for the job."""
        return self.run([job])[0]

    async def arun(self, jobs: Sequence[Job]) -> list[Verdict]:
        """Like ``run``, awaitable: the batch runs on a thread while the event loop goes on."""
        return await asyncio.to_thread(self.run, jobs)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return await asyncio.to_thread(self.start)

    async def __aexit__(self, *exc) -> None:
        await asyncio.to_thread(self.close)
