"""The executor's pool: concurrency, async, retries on real faults, cleanup on every exit path."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from helpers import distinct, run_every, stdio_job
from sandbox import DockerExecutor, ImageMissing, Job, TestCase
from sandbox.container import LABEL, OWNER_LABEL

pytestmark = pytest.mark.docker

ADD = "def add(a, b):\n    return a + b\n"


def add_job(expected=3):
    return Job(program=ADD, tests=(TestCase(kind="assert", code=f"assert add(1, 2) == {expected}"),))


def test_run_keeps_order_and_arun_matches(executor):
    jobs = [add_job(3 if i % 3 else 4) for i in range(12)]
    sync = [v.status for v in executor.run(jobs)]
    assert sync == ["failed" if i % 3 == 0 else "passed" for i in range(12)]
    assert [v.status for v in asyncio.run(executor.arun(jobs))] == sync


async def ticking(awaitable):
    """``(awaitable's result, ticks)``: how often a task that wakes every 50 ms ran meanwhile."""
    ticks = 0

    async def ticker():
        nonlocal ticks
        while True:
            await asyncio.sleep(0.05)
            ticks += 1

    task = asyncio.create_task(ticker())
    try:
        return await awaitable, ticks
    finally:
        task.cancel()


def test_arun_leaves_the_event_loop_free(executor):
    slow = distinct(stdio_job("import time\ntime.sleep(1)\nprint(1)\n", "", "1\n"), 2)

    async def main():
        return await ticking(executor.arun(slow))

    hits = executor.stats().dedup_hits
    verdicts, ticks = asyncio.run(main())
    assert all(v.passed for v in verdicts) and executor.stats().dedup_hits == hits
    assert ticks >= 10


@pytest.mark.timeout(60)  # a verdict lost for good would make the run wait forever
def test_an_abandoned_arun_costs_the_other_runs_nothing(executor):
    # A caller whose event loop ends while its jobs still run (a timeout, a cancelled request):
    # the verdicts have no one to go to, and every other run still gets its own.
    slow = distinct(stdio_job("import time\ntime.sleep(0.5)\nprint(1)\n", "", "1\n"), 2)

    async def abandon():
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(executor.arun(slow), 0.1)

    asyncio.run(abandon())  # its loop is closed now; its two jobs are still on a container
    # queued while the abandoned verdicts come back (about 1.5 s of jobs on the other container)
    others = distinct(stdio_job("import time\ntime.sleep(0.05)\nprint(input())\n", "7\n", "7\n"), 24)
    assert [v.status for v in executor.run(others)] == ["passed"] * 24
    assert [v.status for v in executor.run(others[:4])] == ["passed"] * 4  # the workers are still there


@pytest.mark.parametrize("drive", ["threads", "loop"])
def test_a_cancelled_arun_drops_the_jobs_no_worker_has_taken(drive):
    # A service's client hung up: its run is cancelled while another run's job runs and its own
    # six wait in the queue (the one worker takes more only once that job's verdict is in). None
    # of the six runs, and the worker goes on with the next run's job.
    first = stdio_job("import time\ntime.sleep(1)\nprint(1)\n", "", "1\n")
    gone = distinct(stdio_job("import time\ntime.sleep(1)\nprint(2)\n", "", "2\n"), 6)

    async def main(ex):
        running = asyncio.create_task(ex.arun([first]))
        await asyncio.sleep(0.2)
        cancelled = asyncio.create_task(ex.arun(gone))
        await asyncio.sleep(0.3)
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        return await running, await ex.arun([add_job()])

    with DockerExecutor(concurrency=1, drive=drive) as ex:
        ([slow], [after]) = asyncio.run(main(ex))
        stats = ex.stats()
    assert slow.passed and after.passed
    assert (stats.abandoned, stats.jobs) == (6, 2)


def test_jobs_run_concurrently(executor):
    # Four jobs of 1 s each, every one distinct (copies would run once): 2 s on the pool's two
    # containers, 4 s on a pool that runs one job at a time.
    slow = distinct(stdio_job("import time\ntime.sleep(1)\nprint(1)\n", "", "1\n"), 4)
    started = time.monotonic()
    assert all(v.passed for v in run_every(executor, slow))
    assert time.monotonic() - started < 3.5


def test_container_killed_mid_job_is_retried_on_a_fresh_one(solo_executor):
    job = stdio_job("import time\ntime.sleep(1.5)\nprint(7)\n", "", "7\n")
    victim = solo_executor.container_ids()[0]
    killer = threading.Timer(0.5, lambda: solo_executor.client.api.kill(victim))
    killer.start()
    verdict = solo_executor.run_one(job)
    killer.join()
    assert verdict.passed and verdict.attempts == 2
    assert solo_executor.container_ids() and solo_executor.container_ids()[0] != victim


def test_runner_that_stops_answering_becomes_sandbox_error(solo_executor, monkeypatch):
    # A paused container: the runner cannot answer. Each attempt times out, then the job (alone)
    # is reported as sandbox_error; the next job runs normally.
    monkeypatch.setattr("sandbox.executor.RETRY_BACKOFF_S", (0.0,))
    monkeypatch.setattr("sandbox.types.Limits.worst_case_s", lambda self, n: 1.0)
    monkeypatch.setattr("sandbox.container.SandboxContainer.submit", _pausing_submit())
    verdict = solo_executor.run_one(add_job())
    assert verdict.status == "sandbox_error" and verdict.pass_rate is None
    assert verdict.attempts == solo_executor.max_retries + 1
    monkeypatch.undo()
    assert solo_executor.run_one(add_job()).passed


def _pausing_submit():
    from sandbox.container import SandboxContainer

    original = SandboxContainer.submit

    def submit(self, job):
        self.container.pause()  # a real hang of the real container
        return original(self, job)

    return submit


def test_missing_image_says_how_to_build(monkeypatch):
    from sandbox.container import connect
    from sandbox.image import require_image

    with pytest.raises(ImageMissing, match="grpo-code sandbox build"):
        require_image(connect(), "grpo-code-sandbox:does-not-exist")
    monkeypatch.setenv("GRPO_CODE_SANDBOX_IMAGE", "grpo-code-sandbox:does-not-exist")
    with pytest.raises(ImageMissing, match=r"is not built .* grpo-code sandbox build"):
        DockerExecutor(concurrency=1).start()


def test_docker_unreachable_is_one_clear_error(monkeypatch):
    from sandbox import DockerUnavailable

    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    with pytest.raises(DockerUnavailable, match="Start it"):
        DockerExecutor(concurrency=1).start()


def _containers_of(client, pid):
    return [c for c in client.containers.list(all=True, filters={"label": LABEL}, ignore_removed=True)
            if c.labels.get(OWNER_LABEL, "").split(":")[1] == str(pid)]


# The child raises KeyboardInterrupt on SIGINT whatever it inherits (a shell's background job
# starts with SIGINT ignored, and Python then installs no handler).
CHILD = textwrap.dedent("""
    import signal, sys, time
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from sandbox import DockerExecutor
    ex = DockerExecutor(concurrency=2).start()
    print("ready", flush=True)
    {body}
""")


def _start_child(body):
    proc = subprocess.Popen([sys.executable, "-c", CHILD.format(body=body)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "exception", "normal exit"])
def test_every_container_is_removed_on_exit(executor, how):
    body = {"SIGTERM": "time.sleep(60)", "SIGINT": "time.sleep(60)",
            "exception": "raise RuntimeError('boom')", "normal exit": "pass"}[how]
    proc = _start_child(body)
    if how in ("SIGTERM", "SIGINT"):
        assert len(_containers_of(executor.client, proc.pid)) == 2
        proc.send_signal(getattr(signal, how))
    proc.wait(timeout=60)
    assert _containers_of(executor.client, proc.pid) == []


def test_containers_of_a_dead_owner_are_swept_at_next_start(executor):
    # A container whose owner is gone but which still runs (here: its stream is held open by
    # this process, as by a hung client): the next pool's sweep removes it.
    from sandbox.container import SandboxContainer
    from sandbox.image import image_tag

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    owner = executor.labels[OWNER_LABEL].split(":")
    token = f"{owner[0]}:{dead.stdout.strip()}:0"
    orphan = SandboxContainer(executor.client, image_tag(), executor.settings, {LABEL: "1", OWNER_LABEL: token})
    orphan.start()
    try:
        assert len(_containers_of(executor.client, dead.stdout.strip())) == 1
        with DockerExecutor(concurrency=1):
            assert _containers_of(executor.client, dead.stdout.strip()) == []
    finally:
        orphan.remove()


# -- drive="loop": an event loop talks to the containers (``grpo-code serve``) -----------------


def _no_pump_left(ex: DockerExecutor) -> None:
    assert all(pump.done() for pump in ex._pumps) and ex._workers == 0
    assert all(s.container is None or not s.container.attached for s in ex._slots)


def test_a_loop_driven_pool_gives_the_verdicts_of_threads_at_once_and_leaves_the_loop_free(executor):
    jobs = [add_job(3 if i % 3 else 4) for i in range(12)] + [stdio_job("raise SystemExit(3)\n", "", "")]
    slow = distinct(stdio_job("import time\ntime.sleep(1)\nprint(1)\n", "", "1\n"), 4)

    async def main():
        async with DockerExecutor(concurrency=2, drive="loop") as ex:
            quick = await ex.arun(jobs)
            started = time.monotonic()
            slow_verdicts, ticks = await ticking(asyncio.gather(*(ex.arun([job]) for job in slow)))
            took = time.monotonic() - started
            _no_pump_left(ex)
            return quick, [v for [v] in slow_verdicts], took, ticks, ex.stats()

    quick, slow_verdicts, took, ticks, stats = asyncio.run(main())
    assert [v.status for v in quick] == [v.status for v in executor.run(jobs)]
    assert [v.status for v in quick] == ["failed" if i % 3 == 0 else "passed" for i in range(12)] + ["runtime_error"]
    assert all(v.passed for v in slow_verdicts) and took < 3.5  # two containers at once
    assert ticks >= 20
    assert (stats.jobs, stats.faults, stats.containers_started) == (17, 0, 2)


def test_a_loop_driven_pool_retries_a_container_killed_mid_job_on_a_fresh_one():
    job = stdio_job("import time\ntime.sleep(1.5)\nprint(7)\n", "", "7\n")

    async def main():
        async with DockerExecutor(concurrency=1, drive="loop") as ex:
            victim = ex.container_ids()[0]
            killer = threading.Timer(0.5, lambda: ex.client.api.kill(victim))
            killer.start()
            started = time.monotonic()
            [verdict] = await ex.arun([job])
            took = time.monotonic() - started
            killer.join()
            _no_pump_left(ex)
            return verdict, victim, ex.container_ids(), took

    verdict, victim, after, took = asyncio.run(main())
    assert verdict.passed and verdict.attempts == 2
    assert took < 8  # the stream's end is seen at once, not at the job's deadline (worst case 30 s and more)
    assert after and after[0] != victim


def test_a_loop_driven_pool_turns_a_runner_that_stops_answering_into_sandbox_error(monkeypatch):
    from sandbox.container import SandboxContainer

    monkeypatch.setattr("sandbox.executor.RETRY_BACKOFF_S", (0.0,))
    monkeypatch.setattr("sandbox.types.Limits.worst_case_s", lambda self, n: 1.0)
    original = SandboxContainer.asubmit

    async def pausing_submit(self, job):
        self.container.pause()  # a real hang of the real container
        return await original(self, job)

    async def main(ex):
        return (await ex.arun([add_job()]))[0]

    with DockerExecutor(concurrency=1, drive="loop") as ex:
        monkeypatch.setattr(SandboxContainer, "asubmit", pausing_submit)
        verdict = asyncio.run(main(ex))
        assert verdict.status == "sandbox_error" and verdict.pass_rate is None
        assert verdict.attempts == ex.max_retries + 1
        monkeypatch.setattr(SandboxContainer, "asubmit", original)
        assert asyncio.run(main(ex)).passed
        _no_pump_left(ex)


@pytest.mark.timeout(60)  # a verdict lost for good would make a run wait forever
def test_a_loop_that_stops_mid_job_fails_its_jobs_and_leaves_the_pool_working():
    slow = distinct(stdio_job("import time\ntime.sleep(0.5)\nprint(1)\n", "", "1\n"), 2)
    others = distinct(stdio_job("print(input())\n", "7\n", "7\n"), 6)

    async def abandon(ex):
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(ex.arun(slow), 0.1)

    async def later(ex):
        return await ex.arun(others)

    with DockerExecutor(concurrency=1, drive="loop") as ex:
        asyncio.run(abandon(ex))  # the loop ends with both jobs on the container: its pump is cancelled
        _no_pump_left(ex)
        assert ex._idle.qsize() == 1  # the slot is back for the next loop or thread
        assert [v.status for v in asyncio.run(later(ex))] == ["passed"] * 6  # on another loop
        assert [v.status for v in ex.run(others[:3])] == ["passed"] * 3  # and in threads
        _no_pump_left(ex)


def test_closing_a_loop_driven_pool_with_a_job_in_flight_fails_it_and_removes_its_container():
    from sandbox import SandboxError

    slow = stdio_job("import time\ntime.sleep(20)\nprint(1)\n", "", "1\n")

    async def main():
        async with DockerExecutor(concurrency=1, drive="loop") as ex:
            running = asyncio.create_task(ex.arun([slow]))
            await asyncio.sleep(1.0)
            ids = ex.container_ids()
        started = time.monotonic()
        with pytest.raises(SandboxError, match="event loop that ran these jobs stopped"):
            await running
        return ex, ids, time.monotonic() - started

    ex, ids, waited = asyncio.run(main())
    assert len(ids) == 1 and waited < 1.0  # failed by the close, not after the job's 20 s
    # its stream closed: its runner exits and Docker removes it (the loop never waits on Docker's API)
    deadline = time.monotonic() + 15
    while ids[0] in [c.id for c in ex.client.containers.list(all=True)] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ids[0] not in [c.id for c in ex.client.containers.list(all=True)]
