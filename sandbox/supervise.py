"""The runner's side of test processes: have them forked, feed stdin, read output, enforce limits, kill.

Stdlib only. The runner never forks a test process itself: the fork server does
(``Forkserver``, ``forkserver.py``), or a zygote for a Python job's in-process tests
(``zygote.py``). A ``Watch`` reads a test process's stdout, stderr and result channel into an
``Outcome`` while it enforces the limits of one test: wall-clock deadline, output size, and the
CPU time of the whole container (a fork bomb's processes share the test's limit instead of each
getting their own RLIMIT_CPU). The test is over when the process that forked it writes its exit
record. ``kill_all`` ends every process in the container but the runner.
"""

from __future__ import annotations

import array
import json
import marshal
import os
import select
import signal
import socket
import sys
import time

if __package__:  # sandbox.supervise, imported on the host
    from .child import reap_exited
else:  # inside the image, beside runner.py
    from child import reap_exited

STDERR_TAIL = 2048
RESULT_LIMIT = 8 * 1024 * 1024  # bytes a test may send on its result channel
PIPE_CHUNK = 65536
CPU_POLL_S = 0.05


class Outcome:
    """What one test process did: exit status, usage, captured output, result records.

    ``killed_for`` is ``timeout``, ``output_limit``, ``forker`` (the process that forked the
    test, fork server or zygote, went away before reporting its exit) or None.
    """

    __slots__ = ("exit_code", "signal", "wall_s", "cpu_s", "stdout", "stderr", "records", "printed",
                 "killed_for", "oom")

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
        if start < 0:
            return None
        try:
            record = json.loads(self.records[start:])
        except ValueError:
            return None
        return record if isinstance(record, dict) else None

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


def kill_all() -> None:
    """SIGKILL every process in the container but this one (the fork server too), and reap them all."""
    FORKSERVER.forget()
    while True:
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if not reap_exited():
            return
        time.sleep(0.0005)


_OOM_SEEN = [-1]  # the container's OOM-kill count when last read


def _oom_kills() -> int:
    """OOM kills recorded for this container's memory cgroup (v1 or v2); -1 if unknown."""
    for path in ("/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control"):
        try:
            with open(path) as f:
                for line in f:
                    if line.startswith("oom_kill "):
                        return int(line.split()[1])
        except OSError:
            continue
    return -1


def note_oom_baseline() -> None:
    """Read the OOM-kill count once at start, so the first OOM kill is recognized."""
    _OOM_SEEN[0] = _oom_kills()


def check_oom(outcome: Outcome) -> None:
    """Set ``outcome.oom`` if the cgroup's OOM killer struck since the last check."""
    now_ooms = _oom_kills()
    outcome.oom = _OOM_SEEN[0] >= 0 and now_ooms > _OOM_SEEN[0]
    _OOM_SEEN[0] = now_ooms


_CGROUP_FILES: dict = {}  # name -> (fd, kind) once opened; fd -1 where none is readable


def _cgroup_fd(name: str, paths: tuple) -> tuple[int, str]:
    if name not in _CGROUP_FILES:
        for path, kind in paths:
            try:
                _CGROUP_FILES[name] = (os.open(path, os.O_RDONLY), kind)
                break
            except OSError:
                continue
        else:
            _CGROUP_FILES[name] = (-1, "")
    return _CGROUP_FILES[name]


def container_cpu_s() -> float | None:
    """CPU seconds used by every process of this container so far (cgroup v2 or v1); None if unknown."""
    fd, kind = _cgroup_fd("cpu", (("/sys/fs/cgroup/cpu.stat", "v2"),
                                  ("/sys/fs/cgroup/cpuacct/cpuacct.usage", "v1"),
                                  ("/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage", "v1")))
    if fd < 0:
        return None
    text = os.pread(fd, 4096, 0)
    if kind == "v1":
        return int(text) / 1e9
    for line in text.splitlines():
        if line.startswith(b"usage_usec "):
            return int(line.split()[1]) / 1e6
    return None


def tasks_in_container() -> int:
    """Processes and threads alive in this container, the runner included (cgroup pids, or /proc)."""
    fd, _ = _cgroup_fd("pids", (("/sys/fs/cgroup/pids.current", "v2"),
                                ("/sys/fs/cgroup/pids/pids.current", "v1")))
    if fd >= 0:
        return int(os.pread(fd, 64, 0))
    count = 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                count += len(os.listdir(f"/proc/{name}/task"))
            except OSError:
                pass
    return count


def is_record(record: dict | None, event: str, nonce: str) -> bool:
    """Whether ``record`` (see ``Outcome.last_record``) is ``event`` for the process with ``nonce``."""
    return record is not None and record.get("event") == event and record.get("nonce") == nonce


FORKSERVER_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "forkserver.py")
REPLY_TIMEOUT_S = 5.0  # the fork server answers in milliseconds; longer: it was stopped


class ForkserverLost(Exception):
    """The fork server does not answer, even after a restart (the job fails; the host retries it)."""


def _recv_exact(sock: socket.socket, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        more = sock.recv(n - len(data))
        if not more:
            return None
        data += more
    return data


class Forkserver:
    """The runner's handle on the fork server (``forkserver.py``), started when first needed
    and again after each ``kill_all``."""

    def __init__(self):
        self.pid: int | None = None
        self.pidfd = -1
        self.sock: socket.socket | None = None

    def start(self) -> None:
        """Start the fork server unless it runs (one that a program killed is reaped first)."""
        if self.sock is not None and select.select([self.pidfd], [], [], 0)[0]:
            pid = self.pid
            self.forget()
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        if self.sock is not None:
            return
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        null = os.open(os.devnull, os.O_RDWR)
        try:
            self.pid = os.posix_spawn(
                sys.executable, [sys.executable, "-I", FORKSERVER_SCRIPT], os.environ,
                file_actions=[(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1),
                              (os.POSIX_SPAWN_DUP2, theirs.fileno(), 3)])
        finally:
            os.close(null)
            theirs.close()
        ours.settimeout(REPLY_TIMEOUT_S)
        self.sock, self.pidfd = ours, os.pidfd_open(self.pid)

    def forget(self) -> None:
        """The fork server is being killed (``kill_all``): drop the handle."""
        if self.sock is not None:
            self.sock.close()
            os.close(self.pidfd)
        self.pid, self.pidfd, self.sock = None, -1, None

    def fork(self, payload: dict, fds: list[int]) -> int:
        """Have a child forked for ``payload`` (see ``child.child_main``) with ``fds`` (its stdin,
        stdout, stderr and result ends, then a zygote's request channel); return its pid.

        Raises:
            ForkserverLost: no answer, from the running fork server nor from a fresh one.
        """
        message = marshal.dumps(payload)
        message = len(message).to_bytes(4, "little") + message
        for _ in range(2):
            self.start()
            try:
                ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
                sent = self.sock.sendmsg([message], ancillary)
                if sent < len(message):
                    self.sock.sendall(message[sent:])
                reply = _recv_exact(self.sock, 4)
            except OSError:  # a timeout included: it was stopped or killed
                reply = None
            if reply is not None:
                return int.from_bytes(reply, "little", signed=True)
            kill_all()  # start over from a clean container
        raise ForkserverLost("the fork server does not answer")

    def reap(self, pid: int) -> None:
        """Have the fork server reap its child ``pid``, which has exited (a closed zygote)."""
        self.fork({"mode": "reap", "pid": pid}, [])


FORKSERVER = Forkserver()


def fork_child(payload: dict, channel: bool = False) -> tuple[int, list[int], int]:
    """Have the fork server fork a child for ``payload`` with fresh pipes.

    Returns:
        ``(pid, ours, ctl_w)``: our ends of its stdin, stdout, stderr and result pipes, in that
        order, and, if ``channel``, the write end of its request channel (else -1).

    Raises:
        ForkserverLost: the fork server does not answer (every pipe is closed then).
    """
    pipes = [os.pipe() for _ in range(5 if channel else 4)]
    theirs = [pipes[0][0], *(w for _, w in pipes[1:4]), *(r for r, _ in pipes[4:])]
    ours = [pipes[0][1], *(r for r, _ in pipes[1:4])]
    ctl_w = pipes[4][1] if channel else -1
    try:
        pid = FORKSERVER.fork(payload, theirs)
    except ForkserverLost:
        for fd in [*ours, ctl_w] if channel else ours:
            os.close(fd)
        raise
    finally:
        for fd in theirs:
            os.close(fd)
    return pid, ours, ctl_w


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
        forker goes away, or a limit is hit (then ``outcome.killed_for`` says which).

        Args:
            deadline: ``time.monotonic()`` value at which the test is out of wall time.
            output_limit: bytes of stdout and stderr together.
            cpu_limit: CPU seconds all processes of the container may use from now (polled
                every ``CPU_POLL_S``), or None.
            until: a predicate on the outcome, checked as records arrive.
        """
        self.cpu_start = cpu_start = container_cpu_s()
        next_cpu_check = time.monotonic() + CPU_POLL_S if cpu_limit is not None and cpu_start is not None \
            else float("inf")
        while not self.forker_gone and outcome.killed_for is None:
            now = time.monotonic()
            if now >= deadline:
                outcome.killed_for = "timeout"
                return
            if now >= next_cpu_check:
                used = container_cpu_s()
                if used is not None and used - cpu_start > cpu_limit:
                    outcome.killed_for = "timeout"
                    return
                next_cpu_check = now + CPU_POLL_S
            for fd, _ in self.poller.poll(min(deadline, next_cpu_check) - now):
                if fd == self.forker_pidfd:
                    self.forker_gone = True
                elif fd in self.writers:
                    self._write_ready(fd)
                elif fd in self.open_readers:
                    self._read_ready(fd, outcome, output_limit)
                    if self.streams[fd] == "records" and until(outcome):
                        return

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
            if not is_record(record, "ended", nonce):  # the forker went away: read what it left first
                self.drain(outcome, output_limit)
                record = outcome.last_record()
            status, cpu_us = (record.get("status"), record.get("cpu_us")) if record else (None, None)
            if is_record(record, "ended", nonce) and type(status) is int and type(cpu_us) is int:
                outcome.drop_last_record()
                outcome.set_status(status)
                outcome.cpu_s = cpu_us / 1e6
                self.drain(outcome, output_limit)  # the test process is gone: its output is all there
                if outcome.killed_for is None and tasks_in_container() <= tasks:
                    if outcome.signal is not None:
                        check_oom(outcome)
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
            check_oom(outcome)

    def close(self) -> None:
        """Close the pipes this watch owns (a request channel handed to ``send`` stays open)."""
        for fd in (*self.streams, *(fd for fd, (_, close) in self.writers.items() if close)):
            os.close(fd)
        self.streams, self.writers, self.open_readers = {}, {}, set()
        self.poller.close()


RUNNER_AND_FORKSERVER = 2  # tasks alive in the container between two tests of a well-behaved job


def spawn(payload: dict, stdin_data: bytes, wall_s: float, output_limit: int,
          cpu_limit: float | None = None) -> Outcome:
    """Have the fork server fork a child for ``payload``, feed it ``stdin_data``, supervise it.

    Stops it at ``wall_s`` seconds, when its output passes ``output_limit`` bytes, or when the
    container's processes together have used ``cpu_limit`` CPU seconds.

    Raises:
        ForkserverLost: the fork server does not answer.
    """
    _, ours, _ = fork_child(payload)
    started = time.monotonic()  # after the fork: a fork server restarted meanwhile costs the test nothing
    watch = Watch(ours, stdin_data, FORKSERVER.pidfd)
    outcome = Outcome()
    nonce = payload["nonce"]
    watch.run(outcome, started + wall_s, output_limit, cpu_limit,
              until=lambda o: o.ends_with("ended", nonce))
    if watch.finish(outcome, nonce, started, output_limit, RUNNER_AND_FORKSERVER):
        watch.close()
    return outcome
