"""The runner's side of a test process: feed its stdin, read its output, enforce its limits.

Stdlib only. A ``Watch`` reads a test process's stdout, stderr and result channel into an
``Outcome`` while it enforces the limits of one test: wall-clock deadline, output size, the
CPU time of the whole container (a fork bomb's processes share the test's limit instead of each
getting their own RLIMIT_CPU) and, for runtimes that reserve large address spaces (the JVM, Go,
V8), the container's resident memory above what it held when the test started. The test is
over when the process that forked it writes its ``ended`` record. ``spawn`` has the fork server
fork one test process and watches it.
"""

from __future__ import annotations

import os
import select
import time

from .cgroup import (
    container_cpu_s,
    container_memory_bytes,
    container_memory_usage_and_peak,
    oom_since_last_check,
    tasks_in_container,
)
from .forkclient import FORKSERVER, fork_child, kill_all
from .records import ENDED, is_record, parse

STDERR_TAIL = 2048
RESULT_LIMIT = 8 * 1024 * 1024  # bytes a test may send on its result channel
PIPE_CHUNK = 65536
CPU_POLL_S = 0.05
MEMORY_POLL_S = 0.02  # a test whose memory is polled: CPU and memory, every 20 ms


class Outcome:
    """What one test process did: exit status, usage, captured output, result records.

    ``killed_for`` is ``timeout``, ``output_limit``, ``memory_limit`` (the container's resident
    memory passed the test's limit), ``forker`` (the process that forked the test, fork server or
    zygote, went away before reporting its exit), ``judge`` (the judge went away during the test)
    or None.
    """

    __slots__ = (
        "cpu_s",
        "exit_code",
        "killed_for",
        "oom",
        "printed",
        "records",
        "signal",
        "stderr",
        "stdout",
        "wall_s",
    )

    def __init__(self):
        self.exit_code = None
        self.signal = None
        self.wall_s = 0.0
        self.cpu_s = 0.0
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.records = bytearray()
        self.printed = 0
        self.killed_for = None
        self.oom = False

    def set_status(self, status: int) -> None:
        """Record a wait status (``os.wait4``) as an exit code or a signal."""
        if os.WIFSIGNALED(status):
            self.signal = os.WTERMSIG(status)
        else:
            self.exit_code = os.WEXITSTATUS(status)

    def _last_line_start(self) -> int:
        """Where the last line of the result channel starts; -1 if it is not complete."""
        buf = self.records
        return buf.rfind(b"\n", 0, len(buf) - 1) + 1 if buf.endswith(b"\n") else -1

    def last_record(self) -> dict | None:
        """The last complete line of the result channel, parsed; None if there is none."""
        start = self._last_line_start()
        return None if start < 0 else parse(self.records[start:])

    def ends_with(self, event: str, nonce: str) -> bool:
        """Whether the last complete line looks like ``event`` for ``nonce`` (a cheap test as
        records arrive; ``last_record`` parses it)."""
        start = self._last_line_start()
        if start < 0:
            return False
        line = self.records[start:]
        return f'"event": "{event}"'.encode() in line and nonce.encode() in line

    def drop_last_record(self) -> None:
        """Remove the last complete line (taken out by ``finish``)."""
        del self.records[self._last_line_start():]


class Watch:
    """A test process's pipes seen from the runner: feeds its stdin, reads its output into an
    ``Outcome``; ``forker_pidfd`` is the process that reports its exit (fork server or zygote)."""

    def __init__(self, ours: list[int], stdin_data: bytes, forker_pidfd: int):
        stdin_w, out_r, err_r, res_r = ours
        self.forker_pidfd = forker_pidfd
        self.forker_gone = False
        self.cpu_start: float | None = None
        self.poller = select.epoll()
        self.streams = {out_r: "stdout", err_r: "stderr", res_r: "records"}
        for fd in self.streams:
            os.set_blocking(fd, False)
            self.poller.register(fd, select.EPOLLIN)
        self.poller.register(forker_pidfd, select.EPOLLIN)
        self.open_readers = set(self.streams)
        self.writers: dict[int, list] = {}  # fd -> [pending bytes, close when sent]
        if stdin_data:
            self.send(stdin_w, stdin_data, close=True)
        else:
            os.close(stdin_w)

    def send(self, fd: int, data: bytes, close: bool) -> None:
        """Write ``data`` to ``fd`` while watching, after what is still pending for it, never
        blocking (a request channel must be non-blocking already); close ``fd`` after if ``close``."""
        if fd in self.writers:
            self.writers[fd] = [memoryview(bytes(self.writers[fd][0]) + data), close]
            return
        if not close:  # a request: most fit the pipe at once
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                pass
            except OSError:  # the zygote is gone; ``run`` sees it go
                return
            if not data:
                return
        os.set_blocking(fd, False)
        self.writers[fd] = [memoryview(data), close]
        self.poller.register(fd, select.EPOLLOUT)

    def _write_ready(self, fd: int) -> None:
        pending, close = self.writers[fd]
        try:
            pending = pending[os.write(fd, pending[:PIPE_CHUNK]):]
        except BlockingIOError:
            return
        except OSError:  # the reader is gone (a program that closed its stdin: fine)
            pending = pending[:0]
        self.writers[fd][0] = pending
        if not pending:
            self.poller.unregister(fd)
            del self.writers[fd]
            if close:
                os.close(fd)

    def _read_ready(self, fd: int, outcome: Outcome, output_limit: int) -> int:
        """Read what ``fd`` has into ``outcome``: bytes read, 0 if none yet, -1 at end of file."""
        try:
            data = os.read(fd, PIPE_CHUNK)
        except BlockingIOError:
            return 0
        if not data:
            self.poller.unregister(fd)
            self.open_readers.discard(fd)
            return -1
        stream = self.streams[fd]
        if stream == "records":
            if len(outcome.records) + len(data) > RESULT_LIMIT:
                outcome.killed_for = "output_limit"
            else:
                outcome.records += data
            return len(data)
        outcome.printed += len(data)
        if outcome.printed > output_limit:
            outcome.killed_for = "output_limit"
        elif stream == "stdout":
            outcome.stdout += data
        else:
            outcome.stderr += data
            del outcome.stderr[:-STDERR_TAIL]
        return len(data)

    def run(self, outcome: Outcome, deadline: float, output_limit: int, cpu_limit: float | None,
            until) -> None:
        """Read into ``outcome`` until ``until(outcome)`` holds after a result record arrives, the
        forker goes away, or a limit is hit (then ``outcome.killed_for`` says which); see
        ``watch_all``."""
        watch_all([(self, outcome, output_limit)], deadline, cpu_limit, lambda: until(outcome))

    def step(self, outcome: Outcome, output_limit: int, timeout: float) -> bool:
        """Handle what is ready within ``timeout`` seconds; True if a result record arrived."""
        got_record = False
        for fd, _ in self.poller.poll(timeout):
            if fd == self.forker_pidfd:
                self.forker_gone = True
            elif fd in self.writers:
                self._write_ready(fd)
            elif fd in self.open_readers:
                self._read_ready(fd, outcome, output_limit)
                got_record = got_record or self.streams.get(fd) == "records"
        return got_record

    def drain(self, outcome: Outcome, output_limit: int) -> None:
        """Read what the pipes hold now (data or end of file), without waiting for more."""
        while outcome.killed_for is None:
            ready = [fd for fd, _ in self.poller.poll(0) if fd in self.open_readers]
            if not ready:
                return
            for fd in ready:
                self._read_ready(fd, outcome, output_limit)

    def finish(self, outcome: Outcome, nonce: str, started: float, output_limit: int, tasks: int) -> bool:
        """After ``run``: take the test's exit record out of ``outcome`` (status, CPU time). If the
        test broke a limit, its forker went away, or processes beyond ``tasks`` remain, kill every
        process but the runner and close the pipes. Returns True if nothing was killed."""
        outcome.wall_s = time.monotonic() - started
        if outcome.killed_for is None:
            record = outcome.last_record()
            if not is_record(record, ENDED, nonce):  # the forker went away: read what it left first
                self.drain(outcome, output_limit)
                record = outcome.last_record()
            status, cpu_us = (record.get("status"), record.get("cpu_us")) if record else (None, None)
            if is_record(record, ENDED, nonce) and type(status) is int and type(cpu_us) is int:
                outcome.drop_last_record()
                outcome.set_status(status)
                outcome.cpu_s = cpu_us / 1e6
                self.drain(outcome, output_limit)  # the test process is gone: its output is all there
                if outcome.killed_for is None and tasks_in_container() <= tasks:
                    if outcome.signal is not None:
                        outcome.oom = oom_since_last_check()
                    return True
            elif outcome.killed_for is None:
                outcome.killed_for = "forker"
        if self.cpu_start is not None and not outcome.cpu_s:
            outcome.cpu_s = max(0.0, (container_cpu_s() or 0.0) - self.cpu_start)
        self.kill_and_close(outcome, output_limit)
        return False

    def kill_and_close(self, outcome: Outcome, output_limit: int) -> None:
        """Kill every process but the runner, read the pipes to their end (every writer is
        gone), close them; note an OOM kill if a process died by a signal."""
        kill_all()
        self.drain(outcome, output_limit)  # every writer is gone: this reads to the end
        self.close()
        if outcome.signal is not None or outcome.killed_for == "forker":
            outcome.oom = oom_since_last_check()

    def close(self) -> None:
        """Close the pipes this watch owns (a request channel handed to ``send`` stays open)."""
        for fd in (*self.streams, *(fd for fd, (_, close) in self.writers.items() if close)):
            os.close(fd)
        self.streams, self.writers, self.open_readers = {}, {}, set()
        self.poller.close()


def watch_all(parts: list, deadline: float, cpu_limit: float | None, until, memory_limit: int | None = None,
              memory_start: int | None = None) -> None:
    """Read the processes of one test, each ``(watch, outcome, output_limit)``, until ``until()``
    holds after a result record arrives, a forker goes away, or a limit is hit; a limit marks the
    first part's outcome (``killed_for``: ``timeout``, ``output_limit``, ``memory_limit``).

    Args:
        parts: the program's process first, then any other (the judge).
        deadline: ``time.monotonic()`` value at which the test is out of wall time.
        cpu_limit: CPU seconds all processes of the container may use from now (polled every
            ``CPU_POLL_S``), or None.
        until: a predicate, checked as records arrive.
        memory_limit: bytes of resident memory the container may hold beyond ``memory_start``
            (polled every ``MEMORY_POLL_S``), or None.
        memory_start: the container's resident memory before the test (default: now).
    """
    first_watch, first = parts[0][0], parts[0][1]
    first_watch.cpu_start = cpu_start = container_cpu_s()
    if memory_limit is not None and memory_start is None:
        memory_start = container_memory_bytes()
    poll_s = CPU_POLL_S if memory_start is None else MEMORY_POLL_S
    next_cpu_check = time.monotonic() + poll_s if (cpu_limit is not None and cpu_start is not None) \
        or memory_start is not None else float("inf")
    outer = None
    if len(parts) > 1:
        outer = select.epoll()
        for watch, _, _ in parts:
            outer.register(watch.poller.fileno(), select.EPOLLIN)
    try:
        while not any(watch.forker_gone for watch, _, _ in parts) and all(o.killed_for is None for _, o, _ in parts):
            now = time.monotonic()
            if now >= deadline:
                first.killed_for = "timeout"
                return
            if now >= next_cpu_check:
                if cpu_limit is not None and cpu_start is not None:
                    used = container_cpu_s()
                    if used is not None and used - cpu_start > cpu_limit:
                        first.killed_for = "timeout"
                        return
                if memory_start is not None and (container_memory_bytes() or 0) - memory_start > memory_limit:
                    first.killed_for = "memory_limit"
                    return
                next_cpu_check = now + poll_s
            wait = min(deadline, next_cpu_check) - now
            if outer is None:
                got_record = first_watch.step(first, parts[0][2], wait)
            else:
                ready = {fd for fd, _ in outer.poll(wait)}
                got_record = False
                for watch, outcome, output_limit in parts:
                    if watch.poller.fileno() in ready:
                        got_record = watch.step(outcome, output_limit, 0) or got_record
            if got_record and until():
                return
        for _, outcome, _ in parts[1:]:  # a limit hit in another part is the test's
            if outcome.killed_for is not None and first.killed_for is None:
                first.killed_for = outcome.killed_for
    finally:
        if outer is not None:
            outer.close()


RUNNER_AND_FORKSERVER = 2  # tasks alive in the container between two tests of a well-behaved job


def spawn(payload: dict, stdin_data: bytes, wall_s: float, output_limit: int,
          cpu_limit: float | None = None, tasks: int = RUNNER_AND_FORKSERVER,
          memory_limit: int | None = None) -> Outcome:
    """Have the fork server fork a child for ``payload``, feed it ``stdin_data``, supervise it.

    Stops it at ``wall_s`` seconds, when its output passes ``output_limit`` bytes, when the
    container's processes together have used ``cpu_limit`` CPU seconds, or when they hold
    ``memory_limit`` bytes of resident memory more than before the fork. A burst of memory
    between two polls is still caught when it set the container's highest memory charge: then
    the kernel's peak says how high the test went (page cache included: the compile step has read
    the runtime's files already). ``tasks``: the processes that may stay alive in the container
    when it is done (more are killed).

    Raises:
        ForkserverLost: the fork server does not answer.
    """
    memory_start = container_memory_bytes() if memory_limit is not None else None
    charge_start = container_memory_usage_and_peak() if memory_limit is not None else None
    _, ours, _ = fork_child(payload)
    started = time.monotonic()  # after the fork: a fork server restarted meanwhile costs the test nothing
    watch = Watch(ours, stdin_data, FORKSERVER.pidfd)
    outcome = Outcome()
    nonce = payload["nonce"]
    watch_all([(watch, outcome, output_limit)], started + wall_s, cpu_limit,
              lambda: outcome.ends_with(ENDED, nonce), memory_limit, memory_start)
    if watch.finish(outcome, nonce, started, output_limit, tasks):
        watch.close()
    if charge_start is not None and outcome.killed_for is None:
        charge_end = container_memory_usage_and_peak()
        usage, peak = charge_start
        if charge_end is not None and charge_end[1] > peak and charge_end[1] - usage > memory_limit:
            outcome.killed_for = "memory_limit"  # a new high, set by this test, past its limit
    return outcome
