"""The host side of the sandbox: a pool of warm containers that runs jobs concurrently.

Each container runs one job at a time (the next one already waits in its input, so it never
idles between jobs, even when the jobs come from many concurrent ``run`` calls of one job each,
as a service's requests do: every call feeds one queue); its runner has a fresh process forked
per test case, so the cost per job is a few milliseconds instead of a ``docker run`` (about
300 ms). Faults (a container that dies, a runner that fails or stops answering, a daemon
restart) are retried on a fresh container; a job whose every attempt faulted after its program
started broke the sandbox itself (a failure flagged ``sandbox_tamper``), any other is reported as
a ``sandbox_error`` verdict for that job alone: ``run`` never raises for a single job.

Identical jobs of one batch run once (``sandbox.dedup``). Containers carry a label; ``close``
removes them all, and is called on normal exit, on exceptions (context manager), at interpreter
exit, and on SIGTERM/SIGHUP. A process killed outright (SIGKILL) leaves nothing either: its attach
streams close, each runner exits and Docker removes its container (``SandboxContainer``); a
sweep at start removes any container left by a killed process all the same.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import queue
import signal
import socket
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Generator, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, cast

from sandbox.attempts import JobAttempts
from sandbox.container import (
    LABEL,
    OWNER_LABEL,
    ContainerSettings,
    ReplyMismatch,
    SandboxContainer,
    connect,
    owner_alive,
    owner_token,
)
from sandbox.dedup import Collapsed, collapse
from sandbox.image import check_pins, require_image
from sandbox.placement import place, placement_lock
from sandbox.protocol import ExecutorBase, ExecutorStats, check_concurrency
from sandbox.types import Job, SandboxError, SandboxFault, Verdict

log = logging.getLogger(__name__)

RETRY_BACKOFF_S = (0.2, 1.0, 3.0)
PIPELINE_DEPTH = 2  # jobs submitted ahead to one container: no idle gap between two jobs
DRIVES = ("threads", "loop")
# What a container's pipeline (``DockerExecutor._pipeline``) asks of its driver, a thread or an event loop
_ENSURE, _SUBMIT, _RECEIVE, _DISCARD, _SLEEP = range(5)

_Reply = tuple[int, "Verdict | BaseException"]  # a job's place in its run, and its verdict (or a bug)
_Queued = tuple[JobAttempts, Callable[[_Reply], Any]]  # a job, and where its verdict goes


def sweep_orphans(client) -> int:
    """Remove sandbox containers whose owning process is gone; returns how many."""
    import docker.errors

    removed = 0
    for container in client.containers.list(all=True, filters={"label": LABEL}, ignore_removed=True):
        token = container.labels.get(OWNER_LABEL, "")
        if owner_alive(token):
            continue
        try:
            container.remove(force=True)
            removed += 1
        except docker.errors.DockerException as e:
            log.warning("could not remove orphan sandbox container %s: %s", container.short_id, e)
    if removed:
        log.info("removed %d sandbox container(s) left by killed processes", removed)
    return removed


class _Slot:
    """A place in the pool, on its own CPUs; holds a container, restarted on demand after a fault."""

    def __init__(self, executor: DockerExecutor, cpuset: str | None):
        self.executor = executor
        self.cpuset = cpuset
        self.container: SandboxContainer | None = None

    def accepting(self) -> bool:
        """Whether the current container takes more jobs (it is replaced after
        ``max_jobs_per_container``, once nothing is pending on it)."""
        return self.container is not None and self.container.jobs_submitted < self.executor.max_jobs_per_container

    def ready(self) -> bool:
        """Whether the slot's container serves as it is: there is one, and it takes more jobs or
        still has jobs pending (one that has taken its share is replaced once it has none)."""
        return self.container is not None and (self.accepting() or bool(self.container.pending))

    def ensure(self) -> SandboxContainer:
        """The slot's container: started if there is none, replaced if it has taken its share of
        jobs and nothing is pending on it (``ready``). Raises SandboxFault."""
        ex = self.executor
        if self.container is not None and not self.ready():
            self.discard()  # recycle: a long-lived container is replaced now and then
            ex._count(recycled=1)
        if self.container is None:
            image = cast(str, ex.image)  # set by start()
            container = SandboxContainer(ex.client, image, ex.settings, ex.labels, self.cpuset)
            container.start()
            ex._count(containers_started=1)
            self.cpuset = container.cpuset  # None if the daemon refused it
            self.container = container
        return self.container

    def discard(self) -> None:
        if self.container is not None:
            self.container.remove()
            self.container = None


async def _finished(work: Awaitable[Any]) -> Any:
    """``await work`` (a thread's), which a cancellation of the caller does not cut short: the
    caller is cancelled only once the thread is done with the slot (a container started or removed
    behind a cancelled pump would be nobody's)."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        with contextlib.suppress(BaseException):
            await task
        raise


class _Steps:
    """A container's pipeline (``DockerExecutor._pipeline``) as its driver runs it: ``next()`` is
    the pipeline's next call (None once it has ended), given the last call's ``value`` or ``error``
    (thrown into the pipeline), which the driver sets."""

    def __init__(self, pipeline: Generator[tuple, Any, None]):
        self.pipeline = pipeline
        self.value: Any = None
        self.error: BaseException | None = None

    def next(self) -> tuple | None:
        value, error, self.value, self.error = self.value, self.error, None, None
        try:
            return self.pipeline.throw(error) if error is not None else self.pipeline.send(value)
        except StopIteration:
            return None


class DockerExecutor(ExecutorBase):
    """Run sandbox jobs in a pool of warm, locked-down Docker containers.

    Use it as a context manager, sync or async (or call ``start``/``close``)::

        with DockerExecutor() as ex:
            verdicts = ex.run(jobs)
        async with DockerExecutor() as ex:
            verdicts = await ex.arun(jobs)

    Args:
        concurrency: containers in the pool, one job each at a time (at least 1); default (None):
            CPU cores.
        image: the sandbox image tag; default: the tag of this version's image with ``packages``
            (``sandbox.image.image_tag``).
        packages: the pinned packages (``name==version``) the programs and tests import: the pool
            runs the image of those packages on the lean one (``grpo-code sandbox build
            --packages ...`` builds it); none (default): the lean image.
        settings: how containers are confined (memory, CPUs and CPU pinning, processes, tmpfs).
        max_retries: how often a job is retried on a fresh container after a fault.
        max_jobs_per_container: a container is replaced after this many jobs.
        client: a ``docker.DockerClient``; default: from the environment.
        drive: who talks to the containers. ``threads`` (default): a thread per busy container,
            for ``run`` and ``arun`` alike. ``loop``: for a service whose every call is an
            ``arun`` on one event loop (``grpo-code serve``): the loop itself, with a reader
            callback per container and no thread (a container starts or goes in a thread of
            the loop's), which saves the hand-overs between threads; ``run`` still works, in
            threads. A loop that stops must cancel its tasks (``asyncio.run`` and uvicorn do): the
            jobs in flight on it then fail with a ``SandboxError``. A daemon reached over TLS or
            SSH gets threads all the same.

    Raises:
        ValueError: ``concurrency`` below 1 (``protocol.check_concurrency``), a pin that is not
            exact (``sandbox.image.check_pins``).

    Raises (from ``start``):
        DockerUnavailable: the daemon cannot be reached (the message says how to start it).
        ImageMissing: the image is not built (the message holds the ``grpo-code sandbox build``
            command that builds it).
        SandboxError: no container of the pool could be started.
    """

    def __init__(self, concurrency: int | None = None, image: str | None = None,
                 settings: ContainerSettings | None = None, max_retries: int = 2,
                 max_jobs_per_container: int = 1000, client=None, drive: str = "threads",
                 packages: Iterable[str] = ()):
        check_concurrency(concurrency)
        if drive not in DRIVES:
            raise ValueError(f"drive must be one of {', '.join(DRIVES)}, got {drive!r}")
        self.drive = drive
        self.concurrency = concurrency or os.cpu_count() or 1
        self.image = image
        self.packages = check_pins(packages)
        self.settings = settings or ContainerSettings()
        self.max_retries = max_retries
        self.max_jobs_per_container = max_jobs_per_container
        self.client = client
        self.labels = {LABEL: "1", OWNER_LABEL: owner_token()}
        self._slots: list[_Slot] = []
        self._idle: queue.Queue[_Slot] = queue.Queue()
        self._threads: ThreadPoolExecutor | None = None
        # Every run's jobs, one queue for all of them: ``(JobAttempts, where its verdict goes)``;
        # ``_workers`` workers (one container each, at most ``concurrency``) drain it.
        self._todo: queue.SimpleQueue[_Queued] = queue.SimpleQueue()
        self._workers = 0
        self._workers_lock = threading.Lock()
        self._pumps: set[asyncio.Task] = set()  # ``drive="loop"``: the pipelines an event loop drives
        self._lock = threading.Lock()
        self._previous_handlers: dict[int, Any] = {}
        self._stats = ExecutorStats()
        self._stats_lock = threading.Lock()
        self._running = 0  # run() calls going now
        self._busy_since: float | None = None
        self._busy_s = 0.0
        self.started = False

    # -- lifecycle -------------------------------------------------------------------

    def start(self) -> DockerExecutor:
        """Connect, check the image, sweep orphans, start the pool (idempotent).

        The pool chooses its CPUs and starts its containers holding the daemon's placement lock
        (``sandbox.placement``), so that pools starting at the same instant do not pin the same CPUs.
        """
        with self._lock:
            if self.started:
                return self
            self.client = self.client or connect(max_pool_size=self.concurrency + 8)
            self.image = self.image or require_image(self.client, packages=self.packages)
            sweep_orphans(self.client)
            self._idle = queue.Queue()
            self._todo, self._workers = queue.SimpleQueue(), 0
            self._threads = ThreadPoolExecutor(self.concurrency, thread_name_prefix="sandbox")
            self.started = True
            atexit.register(self.close)
            self._install_signal_handlers()
        with placement_lock(self.client) if self.settings.pin_cpus else contextlib.nullcontext():
            cpusets = (place(self.client, self.concurrency, self.settings.cpus) if self.settings.pin_cpus
                       else [None] * self.concurrency)
            self._slots = [_Slot(self, cpuset) for cpuset in cpusets]
            errors = [error for error in self._threads.map(self._warm, self._slots) if error]
        for slot in self._slots:
            self._idle.put(slot)
        if self.drive == "loop" and not all(s.container is None or s.container.plain_stream for s in self._slots):
            log.warning("the Docker daemon's streams are not plain sockets (TLS or SSH): threads drive the pool")
            self.drive = "threads"
        if len(errors) == len(self._slots):
            self.close()
            raise SandboxError(f"no sandbox container could be started: {errors[0]}")
        return self

    @staticmethod
    def _warm(slot: _Slot) -> str | None:
        try:
            slot.ensure()
            return None
        except SandboxFault as e:
            return str(e)

    def close(self) -> None:
        """Remove every container of the pool (idempotent; safe from signal handlers and atexit)."""
        with self._lock:
            if not self.started:
                return
            self.started = False
            threads, self._threads = self._threads, None
        if threads is not None:
            threads.shutdown(wait=False, cancel_futures=True)
        # In parallel: each removal takes 0.1-0.5 s.
        workers = [threading.Thread(target=slot.discard, daemon=True) for slot in self._slots]
        for w in workers:
            w.start()
        for w in workers:
            w.join(timeout=30)
        self._restore_signal_handlers()
        atexit.unregister(self.close)

    async def __aexit__(self, *exc) -> None:
        """Close, having first cancelled the pumps this loop drives (``drive="loop"``): the jobs
        in flight on them fail (``_pump``), and no container is removed under a pump's feet."""
        loop = asyncio.get_running_loop()
        pumps = [pump for pump in list(self._pumps) if not pump.done() and pump.get_loop() is loop]
        for pump in pumps:
            pump.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)
        await asyncio.to_thread(self.close)

    def _install_signal_handlers(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        for sig in (signal.SIGTERM, signal.SIGHUP):
            previous = signal.getsignal(sig)
            if previous in (signal.SIG_DFL, None):
                self._previous_handlers[sig] = previous
                signal.signal(sig, self._on_signal)

    def _restore_signal_handlers(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        for sig, previous in self._previous_handlers.items():
            if signal.getsignal(sig) == self._on_signal:
                signal.signal(sig, previous or signal.SIG_DFL)
        self._previous_handlers.clear()

    def _on_signal(self, signum, frame) -> None:
        self.close()
        raise SystemExit(128 + signum)

    # -- running jobs ----------------------------------------------------------------

    def run(self, jobs: Sequence[Job], on_verdict: Callable[[int, Verdict], None] | None = None) -> list[Verdict]:
        """Run jobs concurrently; returns their verdicts in the jobs' order. Identical jobs run
        once, and each copy gets a copy of the verdict (``sandbox.dedup``).

        Args:
            jobs: the jobs.
            on_verdict: called as ``on_verdict(index, verdict)`` as each job finishes (progress),
                in the calling thread.
        """
        done: queue.SimpleQueue = queue.SimpleQueue()
        batch, _ = self._enqueue(jobs, done.put)
        copies = batch.copies() if on_verdict is not None else {}
        verdicts: list[Verdict | None] = [None] * len(batch.unique)
        try:
            for _ in batch.unique:
                u, verdict = self._take(verdicts, done.get())
                if on_verdict is not None:
                    for i in copies[u]:
                        on_verdict(i, verdict)
        finally:
            self._busy(-1)
        return batch.expand(cast(list[Verdict], verdicts))

    async def arun(self, jobs: Sequence[Job]) -> list[Verdict]:
        """Like ``run``, awaitable, with no thread of its own while it waits: the workers hand
        each verdict to the event loop (a service awaits thousands of one-job runs at once).
        With ``drive="loop"`` the workers are this loop's own (``_pump``). Cancelled, it drops
        its jobs that no worker has taken yet (a service's client that hung up leaves no work
        queued behind it; ``ExecutorStats.abandoned``); those already taken run to their end."""
        loop = asyncio.get_running_loop()
        done: asyncio.Queue = asyncio.Queue()

        def reply(item: _Reply) -> None:
            if asyncio._get_running_loop() is loop:  # a pump of this loop's
                done.put_nowait(item)
                return
            with contextlib.suppress(RuntimeError):  # the loop closed: no one waits for the verdict now
                loop.call_soon_threadsafe(done.put_nowait, item)

        batch, queued = self._enqueue(jobs, reply, self._start_pump if self.drive == "loop" else None)
        verdicts: list[Verdict | None] = [None] * len(batch.unique)
        try:
            for _ in batch.unique:
                self._take(verdicts, await done.get())
        except asyncio.CancelledError:
            for attempts in queued:
                attempts.abandoned = True
            raise
        finally:
            self._busy(-1)
        return batch.expand(cast(list[Verdict], verdicts))

    @staticmethod
    def _take(verdicts: list[Verdict | None], reply: _Reply) -> tuple[int, Verdict]:
        """Place a worker's reply ``(index, verdict)`` in ``verdicts``; a bug it carries is raised
        here, in the caller's thread."""
        u, verdict = reply
        if isinstance(verdict, BaseException):
            raise verdict
        verdicts[u] = verdict
        return u, verdict

    def _enqueue(self, jobs: Sequence[Job], reply: Callable[[_Reply], Any],
                 start_worker: Callable[[], Any] | None = None) -> tuple[Collapsed, list[JobAttempts]]:
        """Queue a run's distinct jobs (``reply`` takes each ``(index, verdict)``, from a worker's
        thread) and start the workers they need (``start_worker``; default: a thread's
        ``_work``); the run counts as busy until ``_busy(-1)``. Returns the batch and its jobs
        as queued."""
        threads = self._threads
        if not self.started or threads is None:
            raise SandboxError("the executor is not started: use `with DockerExecutor() as ex:`")
        batch = collapse(jobs)
        queued = [JobAttempts(index, job) for index, job in enumerate(batch.unique)]
        for attempts in queued:
            self._todo.put((attempts, reply))
        self._busy(+1)
        with self._workers_lock:  # after the puts: a worker leaves only when the queue is empty
            more = max(0, min(self.concurrency - self._workers, len(batch.unique)))
            self._workers += more
        for _ in range(more):
            if start_worker is None:
                threads.submit(self._work)
            else:
                start_worker()
        self._count(jobs=batch.hits, dedup_hits=batch.hits)
        return batch, queued

    def _busy(self, change: int) -> None:
        """Count a ``run`` in (+1) or out (-1): the node's busy seconds add up the time with at
        least one ``run`` going (several at once count once)."""
        with self._stats_lock:
            now = time.monotonic()
            if self._running and self._busy_since is not None:
                self._busy_s += now - self._busy_since
            self._running += change
            self._busy_since = now

    def node_seconds(self) -> dict[str, float]:
        """``{this host's name: seconds}``: wall-clock seconds with at least one ``run`` going,
        since the start."""
        with self._stats_lock:
            since = self._busy_since
            busy = self._busy_s + (time.monotonic() - since if self._running and since is not None else 0.0)
        return {socket.gethostname(): busy}

    def _pipeline(self, slot: _Slot) -> Generator[tuple, Any, None]:
        """One container's share of the queued jobs, until the queue is empty: up to
        ``PIPELINE_DEPTH`` jobs in flight on it (the runner starts the next job the moment one
        ends), faults retried on a fresh container, each verdict put on its run's reply queue.
        What it needs done with the container it yields to its driver (a thread's ``_work``, an
        event loop's ``_pump``): ``(_ENSURE, slot)`` -> the container, ``(_SUBMIT, container,
        job)``, ``(_RECEIVE, container)`` -> ``(job, verdict)``, ``(_DISCARD, slot)``,
        ``(_SLEEP, seconds)``; a driver throws back whatever the call raised.

        ``inflight`` holds this worker's jobs, oldest first; the container's own ``pending`` queue
        is always a prefix of it (the jobs sent to this container), so a replaced or fresh
        container is given exactly the jobs it has not seen, and each reply is checked against
        the submission it answers (``SandboxContainer.receive``).
        """
        inflight: deque[_Queued] = deque()
        try:
            while True:
                while len(inflight) < PIPELINE_DEPTH:
                    try:
                        queued = self._todo.get_nowait()
                    except queue.Empty:
                        break
                    if queued[0].abandoned:  # no one waits for its verdict
                        self._count(abandoned=1)
                    else:
                        inflight.append(queued)
                if not inflight:
                    with self._workers_lock:
                        if self._todo.empty():
                            self._workers -= 1
                            return
                    continue
                culprit = 0
                try:
                    container = yield (_ENSURE, slot)
                    sent = len(container.pending)
                    while sent < len(inflight) and slot.accepting():
                        culprit = sent
                        yield (_SUBMIT, container, inflight[sent][0].job)
                        sent += 1
                    culprit = 0
                    job, verdict = yield (_RECEIVE, container)
                except SandboxFault as e:
                    yield (_DISCARD, slot)
                    backoff = self._fault(inflight, culprit, e)
                    if backoff:
                        yield (_SLEEP, backoff)
                    continue
                entry, reply = inflight.popleft()
                if job is not entry.job:  # the pending queue is a prefix of inflight: never happens
                    raise SandboxError(f"sandbox executor bug: a verdict of job {job.job_id!r} came back "
                                       f"for job {entry.job.job_id!r}")
                if entry.attempt > 1:
                    log.info("job %s succeeded on attempt %d", job.job_id or "-", entry.attempt)
                self._count(jobs=1)
                reply((entry.index, verdict if entry.attempt == verdict.attempts else
                       replace(verdict, attempts=entry.attempt)))
                if "residue" in verdict.flags or container.spent:  # it left what would not go, or moved a
                    # counter that cannot be set back: a fresh container for the rest; the jobs sent after it
                    self._count(residue_replacements=int("residue" in verdict.flags),  # go again, to the fresh
                                recycled=int("residue" not in verdict.flags))  # one (not as faults)
                    yield (_DISCARD, slot)
        except BaseException as e:  # a bug (or the loop that drove it stopped): every run waiting on the queue gets it
            with self._workers_lock:
                self._workers -= 1
                while True:
                    try:
                        inflight.append(self._todo.get_nowait())
                    except queue.Empty:
                        break
            error = e if not isinstance(e, GeneratorExit) else SandboxError(
                "the worker that ran these jobs was stopped before they finished")
            for entry, reply in inflight:
                reply((entry.index, error))
            raise

    def _work(self) -> None:
        """A thread's worker: one container's ``_pipeline``, its calls made here, blocking."""
        slot = self._idle.get()
        steps = _Steps(self._pipeline(slot))
        try:
            while (step := steps.next()) is not None:
                try:
                    if step[0] == _ENSURE:
                        steps.value = slot.ensure()
                    elif step[0] == _SUBMIT:
                        step[1].submit(step[2])
                    elif step[0] == _RECEIVE:
                        steps.value = step[1].receive()
                    elif step[0] == _DISCARD:
                        slot.discard()
                    else:
                        time.sleep(step[1])
                except BaseException as e:  # noqa: BLE001 - the pipeline's to handle (or to re-raise)
                    steps.error = e
        finally:
            if slot.container is not None and slot.container.pending:  # left by a bug: out of step
                slot.discard()
            self._idle.put(slot)

    def _start_pump(self) -> None:
        task = asyncio.get_running_loop().create_task(self._pump())
        self._pumps.add(task)
        task.add_done_callback(self._pumps.discard)

    async def _pump(self) -> None:
        """An event loop's worker (``drive="loop"``): one container's ``_pipeline``, its stream
        read by this loop (``SandboxContainer.attach``); a container starts or goes in a thread
        of the loop's (Docker's API blocks). The container is detached when the queue is empty."""
        loop = asyncio.get_running_loop()
        try:  # a pump starts only for a free slot (``_enqueue``'s count)...
            slot = self._idle.get_nowait()
        except queue.Empty:  # ...which a thread's worker that has just left may not have put back yet
            slot = await asyncio.to_thread(self._idle.get)
        steps = _Steps(self._pipeline(slot))
        try:
            while (step := steps.next()) is not None:
                try:
                    if step[0] == _ENSURE:
                        steps.value = await self._aensure(slot, loop)
                    elif step[0] == _SUBMIT:
                        await step[1].asubmit(step[2])
                    elif step[0] == _RECEIVE:
                        steps.value = await step[1].areceive()
                    elif step[0] == _DISCARD:
                        await self._adiscard(slot)
                    else:
                        await asyncio.sleep(step[1])
                except (asyncio.CancelledError, GeneratorExit):  # the loop stops: the jobs cannot finish here
                    steps.error = SandboxError("the event loop that ran these jobs stopped before they finished")
                    with contextlib.suppress(BaseException):
                        steps.next()  # the pipeline hands the error to every run waiting on its jobs
                    if slot.container is not None:  # its stream is out of step with what was sent
                        slot.container.abandon()  # not Docker's API on the loop: it removes the container
                        slot.container = None
                    raise
                except BaseException as e:  # noqa: BLE001 - the pipeline's to handle (or to re-raise)
                    steps.error = e
        finally:
            if slot.container is not None and slot.container.pending:  # left by a bug: out of step
                slot.container.abandon()
                slot.container = None
            elif slot.container is not None:
                slot.container.detach()
            self._idle.put(slot)

    @staticmethod
    async def _aensure(slot: _Slot, loop: asyncio.AbstractEventLoop) -> SandboxContainer:
        """``_Slot.ensure`` on an event loop: a container that must start (or be recycled)
        does so in a thread; the slot's container is read by ``loop``."""
        container = slot.container
        if container is None or not slot.ready():
            if container is not None:
                container.detach()
            container = await _finished(asyncio.to_thread(slot.ensure))
        if not container.attached:
            container.attach(loop)
        return container

    @staticmethod
    async def _adiscard(slot: _Slot) -> None:
        if slot.container is not None:
            slot.container.detach()
            await _finished(asyncio.to_thread(slot.discard))

    def _fault(self, inflight: deque[_Queued], culprit: int, error: SandboxFault) -> float | None:
        """A fault on the job at ``inflight[culprit]``: count an attempt; after the last one, its
        verdict (``JobAttempts.given_up``). The other jobs in flight are sent again, attempts
        unchanged. Returns the seconds to wait before the retry (None: no retry)."""
        entry, reply = inflight[culprit]
        entry.error = str(error)
        entry.program_faults += error.started
        entry.flags = tuple(sorted({*entry.flags, *error.flags}))
        self._count(faults=1, mismatches=int(isinstance(error, ReplyMismatch)))
        log.warning("sandbox fault on job %s (attempt %d): %s", entry.job.job_id or "-", entry.attempt, error)
        if entry.attempt > self.max_retries:
            del inflight[culprit]
            verdict = entry.given_up()
            self._count(jobs=1, sandbox_errors=int(verdict.status == "sandbox_error"),
                        program_faults=int(verdict.status != "sandbox_error"))
            reply((entry.index, verdict))
            return None
        entry.attempt += 1
        self._count(retries=1)
        return RETRY_BACKOFF_S[min(entry.attempt - 2, len(RETRY_BACKOFF_S) - 1)]

    def _count(self, **increments: int) -> None:
        with self._stats_lock:
            for name, n in increments.items():
                setattr(self._stats, name, getattr(self._stats, name) + n)

    def stats(self) -> ExecutorStats:
        """A copy of the counters since the executor started (see ``ExecutorStats``)."""
        with self._stats_lock:
            return replace(self._stats)

    def container_ids(self) -> list[str]:
        """Full ids of the pool's running containers (for checks and tests)."""
        return [s.container.container.id for s in self._slots
                if s.container is not None and s.container.container is not None]
