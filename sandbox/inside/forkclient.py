"""The runner's handle on the fork server, which forks every child process of the container
(each one a child of the runner: ``procs.fork_to_parent``).

Stdlib only. ``Forkserver`` starts the fork server (``forkserver.py``) when first needed and again
after each ``kill_all``; ``fork_child`` has it fork a child with fresh pipes, or hands the request
to the spare made ready for the job (``Spare``).
"""

from __future__ import annotations

import marshal
import os
import resource
import select
import signal
import socket
import stat
import sys
import time
from typing import TYPE_CHECKING

from .procs import JUDGE_UID, PROGRAM_UID, reap_exited, send_message, set_dumpable

if TYPE_CHECKING:
    from .messages import ChildRequest, SpareRequest


def exists(pidfd: int) -> bool:
    """Whether the process of ``pidfd`` is still running (what exists, not what we believe)."""
    return pidfd >= 0 and not select.select([pidfd], [], [], 0)[0]


def kill_all() -> None:
    """SIGKILL every process of a program's and of the judge's, and the fork server; reap them all.

    Processes of the container that are none of these (a Harbor verifier's own shell, say) live
    on. Every process a program made has the program's user (it holds no capability to become
    another), so one ``kill(-1)`` sent as that user ends them all at once, fork bombs included
    (the kernel signals every process of the user in one pass); the judge and the fork server are
    ended by pid.
    """
    forkserver = FORKSERVER.pid
    FORKSERVER.forget()
    while True:
        _kill_as(PROGRAM_UID)
        for pid in [*_processes_of(JUDGE_UID), *([forkserver] if forkserver else [])]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if not reap_exited():
            return
        forkserver = None
        time.sleep(0.0005)


def _kill_as(uid: int) -> None:
    """``kill(-1, SIGKILL)`` sent as ``uid``: every process of that user dies, in one pass.

    No process is forked for it (a fork bomb leaves the container no process slot): the runner
    takes ``uid`` as its real and effective user for the one call and keeps root as its saved
    user, to come back. Meanwhile a program may not touch it: it is PID 1 of its namespace
    (SIGKILL and SIGSTOP from inside are dropped), not dumpable (no ptrace, no ``/proc/1/mem``),
    and its saved user differs (no ``prlimit``); after the call no program process runs again.
    """
    os.setresuid(uid, uid, 0)
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:  # the user has no process
        pass
    finally:
        os.setresuid(0, 0, 0)  # the permitted capabilities come back as effective ones
        set_dumpable(0)  # (a change of user resets it)


def _statuses():
    """``(pid, real uid, threads)`` of every process of the container."""
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/status", "rb") as f:
                    status = f.read(4096)
                uid = int(status[status.find(b"\nUid:") + 5:].split(None, 1)[0])
                threads = int(status[status.find(b"\nThreads:") + 9:].split(None, 1)[0])
            except (OSError, ValueError, IndexError):
                continue
            yield int(name), uid, threads


def _processes_of(uid: int) -> list[int]:
    """Pids of the processes whose real user is ``uid``."""
    return [pid for pid, owner, _ in _statuses() if owner == uid]


def foreign_tasks() -> int:
    """Tasks (threads) of the container's processes that are none of the sandbox's: not the
    runner, the fork server, the judge or a program (0 in a sandbox container; a Harbor verifier's
    own shell, say, in another)."""
    ours = {1, FORKSERVER.pid}
    return sum(threads for pid, uid, threads in _statuses()
               if pid not in ours and uid not in (JUDGE_UID, PROGRAM_UID))


FORKSERVER_ARGV = [sys.executable, "-I", os.path.dirname(os.path.abspath(__file__)), "forkserver"]  # __main__.py
REPLY_TIMEOUT_S = 5.0  # the fork server answers in milliseconds; longer: it was stopped


class ForkserverLost(Exception):
    """The fork server does not answer or cannot fork, even after a restart (the job fails; the
    host retries it on a fresh container)."""


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
        self.spare: Spare | None = None  # a Python child it forked for the next job, waiting

    def start(self) -> None:
        """Start the fork server unless it runs (one that a program killed is reaped first)."""
        if self.sock is not None and self.pid is not None and not exists(self.pidfd):
            pid = self.pid
            self.forget()
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        if self.sock is not None:
            return
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        # LD_BIND_NOW: every symbol of the interpreter and its libraries is bound as it starts, so no
        # child it forks binds one on first use (a lookup and a page of each library copied, in
        # every test process); it clears its environment for its children (``forkserver.main``).
        # Its fds 0, 1 and 2 are pipes, as a test's are: the interpreter makes sys.stdin, stdout
        # and stderr for what they are at its start (a pipe: not seekable, not a tty), and every
        # Python child keeps those objects on its own test's pipes. Stderr stays the runner's
        # (the container's log) where that is a pipe.
        stdin_r, stdin_w = os.pipe()
        out_r, out_w = os.pipe()
        stderr = 2 if stat.S_ISFIFO(os.fstat(2).st_mode) else out_w
        try:
            self.pid = os.posix_spawn(
                sys.executable, FORKSERVER_ARGV, {**os.environ, "LD_BIND_NOW": "1"},
                file_actions=[(os.POSIX_SPAWN_DUP2, stdin_r, 0), (os.POSIX_SPAWN_DUP2, out_w, 1),
                              (os.POSIX_SPAWN_DUP2, stderr, 2), (os.POSIX_SPAWN_DUP2, theirs.fileno(), 3)])
        finally:
            for fd in (stdin_r, stdin_w, out_r, out_w):
                os.close(fd)
            theirs.close()
        ours.settimeout(REPLY_TIMEOUT_S)
        self.sock, self.pidfd = ours, os.pidfd_open(self.pid)

    def forget(self) -> None:
        """The fork server is being killed (``kill_all``), and the spare with it: drop the handles."""
        if self.sock is not None:
            self.sock.close()
            os.close(self.pidfd)
        self.pid, self.pidfd, self.sock = None, -1, None
        if self.spare is not None:
            self.spare.release()
            self.spare = None

    def fork(self, payload: ChildRequest, fds: list[int]) -> int:
        """Have a child forked for ``payload`` (a ``messages.ChildRequest``) with ``fds`` (its
        stdin, stdout, stderr and result ends, then a resident's request channel or a serving
        process's call channels); return its pid. The child is the runner's own
        (``procs.fork_to_parent``).

        A fork server that does not answer, or whose fork the kernel refuses (a program left no
        process slot or memory), is dealt with by killing everything and trying once more.

        Raises:
            ForkserverLost: no answer or no child, from the running fork server nor from a fresh one.
        """
        message = marshal.dumps(payload)  # type: ignore[arg-type]  # a TypedDict is a dict: marshal's stub names dict only
        for _ in range(2):
            self.start()
            try:
                assert self.sock is not None  # start() made it (for mypy)
                send_message(self.sock, message, fds)
                reply = _recv_exact(self.sock, 4)
            except OSError:  # a timeout included: it was stopped or killed
                reply = None
            pid = int.from_bytes(reply, "little", signed=True) if reply is not None else 0
            if pid > 0:
                return pid
            kill_all()  # start over from a clean container
        raise ForkserverLost("the fork server does not answer, or cannot fork")


class Spare:
    """A Python child made ready, between two jobs, for the next one (``messages.SpareRequest``):
    forked, the program's user in the job's folder, its streams and monitor set up, waiting on its
    request channel. The job's first Python process (a zygote, or a test's own process) is this
    one, handed the request the fork server would have forked it for (``fork_child``): the fork
    and the set-up are off the job's path. ``claimed``: the running job will take it, so it no
    longer counts among the processes the container holds between jobs."""

    def __init__(self, pid: int, ours: list[int], ctl: socket.socket, workdir: str):
        self.pid, self.ours, self.ctl, self.workdir = pid, ours, ctl, workdir
        self.pidfd = os.pidfd_open(pid)  # the runner's child: a zombie until reaped, never missed
        self.claimed = False

    def waiting(self) -> bool:
        """Whether it still runs."""
        return exists(self.pidfd)

    def take(self, payload: ChildRequest, fds: tuple[int, ...]) -> bool:
        """Hand it ``payload`` with ``fds`` (a serving process's call channels); False (and it is
        gone) if it is not there to take it."""
        try:
            if self.waiting():
                send_message(self.ctl, marshal.dumps(payload), fds)  # type: ignore[arg-type]  # (as ``Forkserver.fork``)
                return True
        except OSError:
            pass
        self.end()
        return False

    def end(self) -> None:
        """Kill it (unused), reap it, let it go."""
        try:
            signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):  # gone, and reaped by a ``kill_all``
            pass
        self.release()

    def release(self) -> None:
        """Let go of it (gone, or killed with everything else): close its handles."""
        self.ctl.close()
        os.close(self.pidfd)
        for fd in self.ours:
            os.close(fd)


FORKSERVER = Forkserver()


def make_spare(workdir: str) -> None:
    """Have a spare (``Spare``) made ready in ``workdir``, the next job's folder; none if the fork
    server cannot fork one now (the job then forks its processes as ever)."""
    drop_spare()
    request: SpareRequest = {"mode": "spare", "workdir": workdir, "rlimits": {"fsize_bytes": resource.RLIM_INFINITY}}
    try:
        pid, ours, ctl = fork_child(request, channel=True)
    except ForkserverLost:
        return
    assert ctl is not None  # asked for (for mypy)
    FORKSERVER.spare = Spare(pid, ours, ctl, workdir)


def claim_spare(python: bool) -> None:
    """At a job's start: the spare is the job's to take if the job is a Python one (and it still
    waits); else it goes."""
    spare = FORKSERVER.spare
    if spare is not None and python and spare.waiting():
        spare.claimed = True
    else:
        drop_spare()


def drop_spare() -> None:
    """Kill the spare, if any is left untaken (at the end of a job, or one that is no Python one)."""
    spare, FORKSERVER.spare = FORKSERVER.spare, None
    if spare is not None:
        spare.end()


def spare_waiting() -> bool:
    """Whether a spare waits, unclaimed, between jobs (one more process the container holds)."""
    spare = FORKSERVER.spare
    return spare is not None and not spare.claimed and spare.waiting()


def fork_child(payload: ChildRequest, channel: bool = False,
               extra: tuple[int, ...] = ()) -> tuple[int, list[int], socket.socket | None]:
    """Have the fork server fork a child for ``payload`` with fresh pipes, or, for the job's
    first Python process, hand ``payload`` to the spare the job claimed (``Spare``).

    Args:
        payload: the child's request (``children``; ``program.child.child_main``,
            ``judge.main.judge_main`` read it).
        channel: give the child a request socket (a zygote's, the judge's).
        extra: more descriptors for the child (a serving process's call and reply ends); the
            caller keeps and closes its own copies.

    Returns:
        ``(pid, ours, ctl)``: our ends of its stdin, stdout, stderr and result pipes, in that
        order, and, if ``channel``, our end of its request socket (a ``socket.socket``; else None).

    Raises:
        ForkserverLost: the fork server does not answer (every pipe is closed then).
    """
    spare = FORKSERVER.spare
    if spare is not None and spare.claimed and payload["mode"] in ("python", "zygote") \
            and payload["workdir"] == spare.workdir:
        FORKSERVER.spare = None
        if spare.take(payload, extra):
            if not channel:
                spare.ctl.close()
            os.close(spare.pidfd)
            return spare.pid, spare.ours, spare.ctl if channel else None
    pipes = [os.pipe() for _ in range(4)]
    theirs = [pipes[0][0], *(w for _, w in pipes[1:4])]
    ours = [pipes[0][1], *(r for r, _ in pipes[1:4])]
    owner = JUDGE_UID if payload["mode"] == "judge" else PROGRAM_UID
    for fd in theirs[:3]:  # its stdin, stdout and stderr are its own: /dev/stdin reopens them, as anywhere
        os.fchown(fd, owner, owner)
    ctl: socket.socket | None = None
    their_ctl: socket.socket | None = None
    if channel:
        ctl, their_ctl = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        ctl.settimeout(REPLY_TIMEOUT_S)  # a child that stops reading its requests must not stop the runner
    try:
        pid = FORKSERVER.fork(payload, theirs + ([their_ctl.fileno()] if their_ctl is not None else []) + list(extra))
    except ForkserverLost:
        for fd in ours:
            os.close(fd)
        if ctl is not None:
            ctl.close()
        raise
    finally:
        for fd in theirs:
            os.close(fd)
        if their_ctl is not None:
            their_ctl.close()
    return pid, ours, ctl
