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
    pipes = [os.pipe() for _ in range(4)]
    ours = [pipes[0][1], pipes[1][0], pipes[2][0], pipes[3][0]]
    w = watch.Watch(ours, b"")
    w.follow(child.pid)
    yield w
    child.kill()
    child.wait()
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
