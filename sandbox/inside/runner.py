"""The in-container runner: PID 1 of a sandbox container, the protocol with the host.

Stdlib only. It runs as PID 1 of a sandbox container (unprivileged user, no capabilities, no
network, read-only root) and talks to the host over the container's attached stdin/stdout:
one JSON object per line in each direction (``ping`` and ``run`` requests, see ``serve``); each
``run`` request is one job (``jobs.run_job``). What it keeps from job to job is one
``state.RunnerState``, made by ``prepare``.

Why PID 1: ``kill(-1, SIGKILL)`` from the runner ends every other process in the container,
including children that escaped with ``setsid``. Why root: the runner and the fork server are the
only processes with capabilities (the container grants ``CHOWN``, ``DAC_OVERRIDE``, ``FOWNER``,
``KILL``, ``SETGID`` and ``SETUID``, nothing else); every child becomes an unprivileged user of
its own before it runs anything (``procs.become``): the judge ``JUDGE_UID``, programs
``PROGRAM_UID``. A program can therefore neither signal, trace, read nor limit a trusted process,
and the runner can still kill, and clean up after, anything a program leaves.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import signal
import sys
import traceback
from typing import TYPE_CHECKING

from .cgroup import note_oom_baseline
from .clean import Baseline
from .counters import Counters
from .forkclient import FORKSERVER, kill_all
from .jobs import JOB_ROOT, JUDGE_DIR, JobFault, prepare_next, run_job
from .procs import JUDGE_UID, set_dumpable
from .state import RunnerState

if TYPE_CHECKING:
    from .messages import Reply

PROTOCOL = 2


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


class LineReader:
    """Newline-delimited messages from a file descriptor."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buf = bytearray()

    def readline(self) -> bytes | None:
        """The next line from the host, without its newline; None at the end of the stream."""
        while True:
            i = self.buf.find(b"\n")
            if i >= 0:
                line = bytes(self.buf[:i])
                del self.buf[: i + 1]
                return line
            data = os.read(self.fd, 1 << 16)
            if not data:
                return None
            self.buf += data

    def waiting(self) -> bool:
        """Whether the host has sent more already (the next request, in full or in part)."""
        return bool(self.buf) or bool(select.select([self.fd], [], [], 0)[0])


def _reply(message: Reply) -> None:
    _write_all(1, (json.dumps(message) + "\n").encode())


def serve(state: RunnerState, fd_in: int = 0) -> None:
    """Answer requests until stdin closes, one job at a time, with the runner's ``state``.

    Requests (``messages.Request``): ``{"op": "ping"}`` -> ``{"ok": true, "op": "pong",
    "protocol": 2}`` (``messages.PongReply``); ``{"op": "run", ...}`` -> the verdict (see
    ``jobs.run_job``), or ``{"ok": false, "error", "started", "flags"}`` if the runner failed on it
    or refuses it (``messages.FaultReply``).
    """
    reader = LineReader(fd_in)
    while True:
        line = reader.readline()
        if line is None:
            return
        request_id = None
        language = None  # of the job that ran
        reply: Reply
        try:
            request = json.loads(line)  # a ``messages.Request``: the host's, trusted
            request_id = request.get("id")
            if request.get("op") == "ping":
                _reply({"ok": True, "op": "pong", "protocol": PROTOCOL, "id": request_id})
                continue
            refused = state.refusal()
            if refused is not None:  # a job left this container unclean: the host replaces it
                reply = {"ok": False, "id": request_id, "error": refused, "started": False, "flags": []}
            else:
                reply = run_job(state, request)
                language = request["language"]
                if state.spent is not None:  # clean, but it moved what cannot be set back: replace the container
                    reply["recycle"] = state.spent
        except JobFault as e:
            reply = {"ok": False, "id": request_id, "error": str(e), "started": e.started, "flags": sorted(e.flags)}
        except Exception:  # noqa: BLE001 - a runner bug outside a job is reported, the host retries elsewhere
            kill_all()
            state.leave_clean()
            reply = {"ok": False, "id": request_id, "error": traceback.format_exc()[-4000:], "started": False,
                     "flags": []}
        try:  # between jobs the container holds the runner and the fork server (the judge, a spare)
            FORKSERVER.start()
        except OSError:  # the next job's request says it
            pass
        _reply(reply)
        if language is not None:  # after the reply: off the path of this job and of the next
            prepare_next(state, language, spare=not reader.waiting())


def exit_when_host_gone(fd: int = 0) -> None:
    """Exit the moment the host's end of stdin hangs up, even in the middle of a job: the host
    that would read the reply is gone (the container runs with ``StdinOnce``, so Docker closes
    stdin when the host's attach stream ends, even when the host was SIGKILLed). As PID 1,
    exiting ends every process of the container, and Docker removes it. The kernel signals
    (SIGIO) each write to stdin and its hang-up; no thread (a thread is a task of the container,
    which the per-test leftover check counts)."""

    def on_sigio(signum, frame):
        poller = select.poll()
        poller.register(fd, 0)  # no events asked for: poll reports only POLLHUP / POLLERR / POLLNVAL
        if poller.poll(0):
            os._exit(0)

    signal.signal(signal.SIGIO, on_sigio)
    fcntl.fcntl(fd, fcntl.F_SETOWN, os.getpid())
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_ASYNC)


def prepare() -> RunnerState:
    """What the runner sets up before its first job: PID 1 and root (checked: ``kill_all`` and the
    scrub of /tmp would hit the host's processes and files anywhere else), the counters a job can
    move (``counters``: what this container lets the runner set back), the job and judge folders,
    the OOM baseline, the places a job may write and their clean state, a running fork server.
    Returns the runner's state, which every job is handed."""
    if os.getpid() != 1 or os.environ.get("GRPO_CODE_SANDBOX") != "1":
        sys.exit("runner.py runs only as PID 1 of a grpo-code sandbox container (see sandbox/executor.py)")
    if os.geteuid() != 0:
        sys.exit("runner.py runs as root in its container (with the capabilities sandbox/container.py grants): "
                 "it makes every child a user of its own")
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as PID 1, default-disposition signals are dropped
    set_dumpable(0)
    os.chdir("/")  # (no process of the sandbox's holds a place that is made anew after each job)
    counters = Counters()
    counters.start()
    os.makedirs(JOB_ROOT, exist_ok=True)
    os.makedirs(JUDGE_DIR, mode=0o700, exist_ok=True)
    os.chown(JUDGE_DIR, JUDGE_UID, JUDGE_UID)  # (the tmpfs is mounted so already; a plain folder is made so)
    os.chmod(JUDGE_DIR, 0o700)
    note_oom_baseline()
    # the places a job may write, emptied once: every job must leave them so (those made anew aside)
    state = RunnerState(Baseline(renewed=counters.renewed), counters)
    FORKSERVER.start()  # ready before the first job
    state.start()
    return state


def main() -> None:
    """PID 1 of a sandbox container: set up, exit when the host is gone, serve jobs."""
    state = prepare()
    exit_when_host_gone()
    serve(state)
