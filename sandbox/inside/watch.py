"""The runner's side of a test process: feed its stdin, read its output, enforce its limits, and
read its outcome from the kernel.

Stdlib only. A ``Watch`` reads a test's stdout, stderr and result channel into an ``Outcome``
while it enforces the limits of one test: wall-clock deadline, output size, the CPU time of the
whole container (a fork bomb's processes share the test's limit instead of each getting their
own RLIMIT_CPU) and, for runtimes that reserve large address spaces (the JVM, Go, V8), the
container's resident memory above what it held when the test started. Every process of a
program is a child of the runner (``procs.fork_to_parent``): the test is over when the test
process ends (its pidfd), and its exit status and CPU time come from ``wait4``, never from a
record. ``spawn`` has the fork server fork one test process and watches it.
"""

from __future__ import annotations

import os
import select
import time
from typing import TYPE_CHECKING

from .cgroup import (
    container_cpu_s,
    container_memory_bytes,
    container_memory_usage_and_peak,
    oom_since_last_check,
    tasks_in_container,
)
from .forkclient import fork_child, kill_all

if TYPE_CHECKING:
    from .messages import ChildRequest

STDERR_TAIL = 2048
RESULT_LIMIT = 8 * 1024 * 1024  # bytes a test may send on its result channel
PIPE_CHUNK = 65536
CPU_POLL_S = 0.05
MEMORY_POLL_S = 0.02  # a test whose memory is polled: CPU and memory, every 20 ms


class Outcome:
    """What one test's processes did: exit status, usage, captured output, result records.

    ``killed_for`` is ``timeout``, ``output_limit``, ``memory_limit`` (the container's resident
    memory passed the test's limit), ``lost`` (the resident that was to fork the test, a zygote,
    went away first, or named a process that is not a test of its), ``judge`` (the judge went
    away during the test) or None.
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
        self.exit_code: int | None = None
        self.signal: int | None = None
        self.wall_s = 0.0
        self.cpu_s = 0.0
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.records = bytearray()
        self.printed = 0
        self.killed_for: str | None = None
        self.oom = False

    def set_status(self, status: int) -> None:
        """Record a wait status (``os.wait4``, the kernel's) as an exit code or a signal."""
        if os.WIFSIGNALED(status):
            self.signal = os.WTERMSIG(status)
        else:
            self.exit_code = os.WEXITSTATUS(status)

    def has_line(self, event: str, nonce: str) -> bool:
        """Whether a complete line of the result channel looks like ``event`` for ``nonce`` (a cheap
        test as bytes arrive; ``records.read_records`` reads them strictly)."""
        return f'"event": "{event}", "nonce": "{nonce}"'.encode() in self.records


class Watch:
    """A test's pipes seen from the runner: feeds its stdin, reads its output into an ``Outcome``;
    ``follow(pid)`` names the process whose end ends the test (the runner's child); ``guard(pidfd)``
    a resident whose end, before that, ends it too (a zygote, the judge)."""

    def __init__(self, ours: list[int], stdin_data: bytes):
        stdin_w, out_r, err_r, res_r = ours
        self.pid: int | None = None
        self.pidfd = -1
        self.exited = False
        self.guards: set[int] = set()
        self.gone_guards: set[int] = set()  # guards whose process has ended
        self.cpu_start: float | None = None
        self.poller = select.epoll()
        self.streams = {out_r: "stdout", err_r: "stderr", res_r: "records"}
        for fd in self.streams:
            os.set_blocking(fd, False)
            self.poller.register(fd, select.EPOLLIN)
        self.open_readers = set(self.streams)
        self.writers: dict[int, list] = {}  # fd -> [pending bytes, close when sent]
        if stdin_data:
            self.send(stdin_w, stdin_data, close=True)
        else:
            os.close(stdin_w)

    def follow(self, pid: int) -> None:
        """Watch process ``pid``, a child of the runner: the test ends when it ends."""
        self.pid, self.exited = pid, False
        self.pidfd = os.pidfd_open(pid)
        self.poller.register(self.pidfd, select.EPOLLIN)

    def guard(self, pidfd: int) -> None:
        """End the watch if the process of ``pidfd`` ends (a resident the test depends on)."""
        self.guards.add(pidfd)
        self.poller.register(pidfd, select.EPOLLIN)

    def unguard(self, pidfd: int, forget_end: bool = False) -> None:
        """Stop watching the process of ``pidfd`` (``guard`` started it). An end of it seen
        already still ends the watch, unless ``forget_end``: the caller knows it came after what
        the guard was for."""
        if pidfd in self.guards:
            self.guards.discard(pidfd)
            self.poller.unregister(pidfd)
        if forget_end:
            self.gone_guards.discard(pidfd)

    @property
    def guard_gone(self) -> bool:
        """Whether a guarded process has ended (and its end was not forgotten)."""
        return bool(self.gone_guards)

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
            except OSError:  # the reader is gone; the watch sees it go
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

    def step(self, outcome: Outcome, output_limit: int, timeout: float) -> bool:
        """Handle what is ready within ``timeout`` seconds; True if something that can end the
        test happened (a record arrived, the followed process ended)."""
        event = False
        for fd, _ in self.poller.poll(timeout):
            if fd == self.pidfd and self.pidfd >= 0:
                if not self.exited:
                    self.exited = event = True
                    self.poller.unregister(fd)
            elif fd in self.guards:
                self.gone_guards.add(fd)
                self.poller.unregister(fd)
                self.guards.discard(fd)
            elif fd in self.writers:
                self._write_ready(fd)
            elif fd in self.open_readers:
                self._read_ready(fd, outcome, output_limit)
                event = event or self.streams.get(fd) == "records"
        return event

    def drain(self, outcome: Outcome, output_limit: int) -> None:
        """Read what the pipes hold now (data or end of file), without waiting for more."""
        while outcome.killed_for is None:
            ready = [fd for fd, _ in self.poller.poll(0) if fd in self.open_readers]
            if not ready:
                return
            for fd in ready:
                self._read_ready(fd, outcome, output_limit)

    def reap(self, outcome: Outcome) -> bool:
        """If the followed process has ended, take its exit status and CPU time from the kernel
        (``wait4``) into ``outcome``; True if it had."""
        if self.pid is None:
            return False
        try:
            pid, status, usage = os.wait4(self.pid, os.WNOHANG)
        except ChildProcessError:  # reaped already (by a ``kill_all``)
            pid = 0
        if pid == 0:
            return False
        outcome.set_status(status)
        outcome.cpu_s = usage.ru_utime + usage.ru_stime
        self.release()
        return True

    def release(self) -> None:
        """Stop following the process (it was reaped)."""
        if self.pidfd >= 0:
            if not self.exited:
                self.poller.unregister(self.pidfd)
            os.close(self.pidfd)
        self.pid, self.pidfd, self.exited = None, -1, False

    def finish(self, outcome: Outcome, started: float, output_limit: int, tasks: int) -> bool:
        """After a watch: take the test process's outcome from the kernel, read what is left. If
        the test broke a limit, did not end, or processes beyond ``tasks`` remain, kill every
        process but the runner and close the pipes. Returns True if nothing was killed."""
        outcome.wall_s = time.monotonic() - started
        if outcome.killed_for is None and self.exited and self.reap(outcome):
            self.drain(outcome, output_limit)  # the test process is gone: its output is there
            if outcome.killed_for is None and tasks_in_container() <= tasks:
                if outcome.signal is not None:
                    outcome.oom = oom_since_last_check()
                return True
        elif outcome.killed_for is None and self.guard_gone:
            outcome.killed_for = "lost"
        if self.cpu_start is not None and not outcome.cpu_s:
            outcome.cpu_s = max(0.0, (container_cpu_s() or 0.0) - self.cpu_start)
        self.kill_and_close(outcome, output_limit)
        return False

    def kill_and_close(self, outcome: Outcome, output_limit: int) -> None:
        """Take the followed process's outcome if it has ended, kill every process but the runner,
        read the pipes to their end (every writer is gone), close them; note an OOM kill if a
        process died by a signal."""
        if outcome.exit_code is None and outcome.signal is None:
            self.reap(outcome)
        kill_all()
        self.drain(outcome, output_limit)  # every writer is gone: this reads to the end
        self.close()
        if outcome.signal is not None or outcome.killed_for == "lost":
            outcome.oom = oom_since_last_check()

    def close(self) -> None:
        """Close the pipes this watch owns (a request channel handed to ``send`` stays open)."""
        self.release()
        for fd in (*self.streams, *(fd for fd, (_, close) in self.writers.items() if close)):
            os.close(fd)
        self.streams, self.writers, self.open_readers = {}, {}, set()
        self.poller.close()


def watch_all(parts: list, deadline: float, cpu_limit: float | None, until, memory_limit: int | None = None,
              memory_start: int | None = None) -> None:
    """Read the processes of one test, each ``(watch, outcome, output_limit)``, until ``until()``
    holds after an event (a record arrived, a followed process ended), a guarded resident goes
    away, or a limit is hit; a limit marks the first part's outcome (``killed_for``: ``timeout``,
    ``output_limit``, ``memory_limit``).

    Args:
        parts: the program's process first, then any other (the judge).
        deadline: ``time.monotonic()`` value at which the test is out of wall time.
        cpu_limit: CPU seconds all processes of the container may use from now (polled every
            ``CPU_POLL_S``), or None.
        until: a predicate, checked after each event.
        memory_limit: bytes of resident memory the container may hold beyond ``memory_start``
            (polled every ``MEMORY_POLL_S``), or None.
        memory_start: the container's resident memory before the test (default: now).
    """
    first_watch, first = parts[0][0], parts[0][1]
    first_watch.cpu_start = cpu_start = container_cpu_s()
    if memory_limit is not None and memory_start is None:
        memory_start = container_memory_bytes()
    poll_s = CPU_POLL_S if memory_start is None else MEMORY_POLL_S
    next_check = time.monotonic() + poll_s if (cpu_limit is not None and cpu_start is not None) \
        or memory_start is not None else float("inf")
    outer = None
    if len(parts) > 1:
        outer = select.epoll()
        for watch, _, _ in parts:
            outer.register(watch.poller.fileno(), select.EPOLLIN)
    try:
        if until():
            return
        while not any(watch.guard_gone for watch, _, _ in parts) and all(o.killed_for is None for _, o, _ in parts):
            now = time.monotonic()
            if now >= next_check or now >= deadline:
                # memory first: a poll that comes late (a loaded host) can find both limits broken,
                # and the memory a program still holds is the fact; the CPU it went on to use
                # while nobody looked is not
                if memory_start is not None and memory_limit is not None \
                        and (container_memory_bytes() or 0) - memory_start > memory_limit:
                    first.killed_for = "memory_limit"
                    return
                if now >= deadline:
                    first.killed_for = "timeout"
                    return
                if cpu_limit is not None and cpu_start is not None:
                    used = container_cpu_s()
                    if used is not None and used - cpu_start > cpu_limit:
                        first.killed_for = "timeout"
                        return
                next_check = now + poll_s
            wait = min(deadline, next_check) - now
            if outer is None:
                event = first_watch.step(first, parts[0][2], wait)
            else:
                ready = {fd for fd, _ in outer.poll(wait)}
                event = False
                for watch, outcome, output_limit in parts:
                    if watch.poller.fileno() in ready:
                        event = watch.step(outcome, output_limit, 0) or event
            if event and until():
                return
        for _, outcome, _ in parts[1:]:  # a limit hit in another part is the test's
            if outcome.killed_for is not None and first.killed_for is None:
                first.killed_for = outcome.killed_for
    finally:
        if outer is not None:
            outer.close()


def spawn(payload: ChildRequest, stdin_data: bytes, wall_s: float, output_limit: int, tasks: int,
          cpu_limit: float | None = None, memory_limit: int | None = None) -> Outcome:
    """Have the fork server fork a child for ``payload``, feed it ``stdin_data``, supervise it.

    Stops it at ``wall_s`` seconds, when its output passes ``output_limit`` bytes, when the
    container's processes together have used ``cpu_limit`` CPU seconds, or when they hold
    ``memory_limit`` bytes of resident memory more than before the fork. A burst of memory
    between two polls is still caught when it set the container's highest memory charge: then
    the kernel's peak says how high the test went (page cache included: the compile step has read
    the runtime's files already). ``tasks``: the processes that may stay alive in the container
    when it is done (more are killed).

    Raises:
        ForkserverLost: the fork server does not answer, or cannot fork.
    """
    memory_start = container_memory_bytes() if memory_limit is not None else None
    charge_start = container_memory_usage_and_peak() if memory_limit is not None else None
    pid, ours, _ = fork_child(payload)
    started = time.monotonic()  # after the fork: a fork server restarted meanwhile costs the test nothing
    watch = Watch(ours, stdin_data)
    watch.follow(pid)
    outcome = Outcome()
    watch_all([(watch, outcome, output_limit)], started + wall_s, cpu_limit, lambda: watch.exited,
              memory_limit, memory_start)
    if watch.finish(outcome, started, output_limit, tasks):
        watch.close()
    if charge_start is not None and memory_limit is not None and outcome.killed_for is None:
        charge_end = container_memory_usage_and_peak()
        usage, peak = charge_start
        if charge_end is not None and charge_end[1] > peak and charge_end[1] - usage > memory_limit:
            outcome.killed_for = "memory_limit"  # a new high, set by this test, past its limit
    return outcome

