"""The runner's watch over a test (``sandbox.inside.watch``), on this host: which limit a test is
stopped for when one poll finds several broken.

The container's counters are the fault injected here: a poll that comes late (a loaded host, the
runner not scheduled) reads a program that has both passed its memory limit and used its CPU
time. The memory it holds is what the poll sees for certain, so the test is a ``memory_limit``
(CI once saw a Go program that allocates without end come back ``timeout``).
"""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from sandbox.inside import watch

MiB = 1 << 20


@pytest.fixture
def sleeper():
    """A real child process to watch (it sleeps; the counters say what the poll reads)."""
    child = subprocess.Popen(["sleep", "30"])
    pipes, w = watched_pipes()
    w.follow(child.pid)
    yield w
    child.kill()
    child.wait()
    close_pipes(pipes)


def watched_pipes() -> tuple[list[tuple[int, int]], watch.Watch]:
    """A test's four pipes (stdin, stdout, stderr, records) and a watch over the runner's ends."""
    pipes = [os.pipe() for _ in range(4)]
    return pipes, watch.Watch([pipes[0][1], pipes[1][0], pipes[2][0], pipes[3][0]], b"")


def close_pipes(pipes: list[tuple[int, int]]) -> None:
    for r, wr in pipes:
        for fd in (r, wr):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.mark.parametrize("late_by", ["poll", "deadline"])
@pytest.mark.parametrize(("held_mib", "stopped_for"), [(400, "memory_limit"), (120, "timeout")])
def test_a_late_poll_that_finds_both_limits_broken_says_memory(monkeypatch, sleeper, late_by, held_mib, stopped_for):
    """Past its CPU time when the late poll comes: a memory_limit if it holds more than its memory
    limit then, else a timeout."""
    cpu, memory = [10.0], [100 * MiB]
    monkeypatch.setattr(watch, "container_cpu_s", lambda: cpu[0])
    monkeypatch.setattr(watch, "container_memory_bytes", lambda: memory[0])
    outcome = watch.Outcome()
    deadline = time.monotonic() + (0.0 if late_by == "deadline" else 60.0)

    def until() -> bool:  # before the first poll: the program ran on while nobody looked
        cpu[0], memory[0] = 12.0, held_mib * MiB
        return False

    watch.watch_all([(sleeper, outcome, 1 << 20)], deadline, 1.0, until, memory_limit=128 * MiB,
                    memory_start=100 * MiB)
    assert outcome.killed_for == stopped_for


def test_a_zygote_that_ends_in_the_poll_that_brings_its_forked_record_does_not_end_the_test():
    """The zygote names the test's process, and that process kills it at once; a late runner reads
    the record and the zygote's end in one poll. The test goes on to its own process's end (CI once
    saw such a test ``lost``: a runtime_error for a program whose own verdict was ``failed``)."""
    from sandbox.inside.records import FORKED, record_line
    from sandbox.inside.resident import Zygote

    zygote_process = subprocess.Popen(["sleep", "0.05"])
    zygote_pidfd = os.pidfd_open(zygote_process.pid)
    test_process = subprocess.Popen(["sleep", "0.3"])
    pipes, w = watched_pipes()
    zygote = object.__new__(Zygote)  # only what follow_forked reads: its watch and pidfd
    zygote.watch, zygote.pidfd = w, zygote_pidfd
    w.guard(zygote_pidfd)  # as fork_test does
    os.write(pipes[3][1], record_line(FORKED, "n1", {"pid": test_process.pid}))
    time.sleep(0.3)  # the zygote has ended: its end and the record are both ready for the first poll
    outcome = watch.Outcome()
    try:
        watch.watch_all([(w, outcome, 1 << 20)], time.monotonic() + 10, None,
                        lambda: zygote.follow_forked(outcome, "n1", set()))
        assert (outcome.killed_for, w.guard_gone, w.pid, w.exited) == (None, False, test_process.pid, True)
    finally:
        for process in (zygote_process, test_process):
            process.kill()
            process.wait()
        os.close(zygote_pidfd)
        close_pipes(pipes)
