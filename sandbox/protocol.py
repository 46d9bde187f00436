"""The ``Executor`` protocol: what the RL side needs from an executor, whichever runs the jobs.

``DockerExecutor`` (a pool of containers on this machine's Docker daemon) and ``RayExecutor``
(actors on the nodes of a Ray cluster, each owning a ``DockerExecutor`` on its node) implement
it; ``grpo_code`` types against it and builds one with ``make_executor``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, Self, runtime_checkable

from sandbox.types import Job, Verdict

if TYPE_CHECKING:
    from sandbox.executor import ExecutorStats

EXECUTOR_KINDS = ("docker", "ray")


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
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def run(self, jobs: Sequence[Job], on_verdict: Callable[[int, Verdict], None] | None = None) -> list[Verdict]:
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


def make_executor(kind: str = "docker", *, concurrency: int | None = None, ray_address: str | None = None,
                  **kwargs) -> Executor:
    """An executor of ``kind`` (not started).

    Args:
        kind: ``docker`` (this machine's daemon) or ``ray`` (a Ray cluster; needs the ``ray``
            extra: ``pip install 'grpo-code[ray]'``).
        concurrency: jobs at once, all workers together (default: the CPUs, of this machine or
            of the cluster's sandbox nodes).
        ray_address: the Ray cluster to join (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``);
            default: join the local one, or start one. Only with ``kind="ray"``.
        **kwargs: passed on to ``DockerExecutor`` (for ``ray``: to the pool of every node, or
            to ``RayExecutor`` for its own options).

    Raises:
        ValueError: an unknown kind, or a Ray address for the docker executor.
        SandboxError: Ray is asked for but not installed.
    """
    if kind not in EXECUTOR_KINDS:
        raise ValueError(f"unknown executor {kind!r}; choose one of {', '.join(EXECUTOR_KINDS)}")
    if kind == "docker":
        if ray_address:
            raise ValueError("a Ray address needs the ray executor (--executor ray)")
        from sandbox.executor import DockerExecutor

        return DockerExecutor(concurrency=concurrency, **kwargs)
    from sandbox.ray_executor import RayExecutor, require_ray

    require_ray()
    return RayExecutor(address=ray_address, concurrency=concurrency, **kwargs)
