"""The fork server: a small interpreter that forks every child process of the container.

Stdlib only. The runner starts it (``forkclient.Forkserver``) with a Unix socket on fd 3. It
never runs a program's code; it only forks. Forking from here instead of from the runner
matters for speed: a fork, the copy-on-write faults after it and the exit all cost in
proportion to the memory of the process that forks, and this one holds only what a test process
needs (``program``, ``records``, ``procs``, the ``judge`` package, and ``typing``, which programs import
most and which costs 5-15 ms to import), not the runner's JSON, AST and job state. It runs as
root keeping only the capabilities to make each child a user of its own (``procs.become``), with
an empty bounding set, so no program (another user) can signal, trace or limit it; and under a
seccomp filter (``seccomp``) that every child inherits: no judge or program may create a
namespace or mount anything, whatever the container's capabilities let Docker's profile allow.

Protocol, one request at a time: the runner sends ``procs.send_message`` of ``marshal`` of a
``messages.ChildRequest``, with the child's stdin, stdout, stderr and result-channel pipe ends
(and, for a resident, its request channel; for a process serving the judge's calls, its call and
reply channels) as SCM_RIGHTS. The fork server forks the child as a child of the runner
(``procs.fork_to_parent``: the runner waits for it and reads its outcome from the kernel) and
replies with its pid (4 bytes, little-endian), or 0 if the kernel refused the fork. At end of
file it exits.
"""

from __future__ import annotations

import _socket
import gc
import marshal
import os
import signal
import sys
from typing import TYPE_CHECKING

from .judge.main import judge_main
from .procs import (
    CALL_FD_OFFSET,
    CAP_SETGID,
    CAP_SETUID,
    empty_bounding_set,
    fork_to_parent,
    keep_capabilities,
    recv_message,
    set_dumpable,
    with_own_size,
)
from .program.child import child_main, program_env
from .seccomp import install as install_seccomp

if TYPE_CHECKING:
    from .messages import ChildRequest

CHANNEL_FD = 3


def _vm_size() -> int:
    """Bytes of address space this process maps (a forked child starts with them): its mappings
    added up (``/proc/self/maps``; its counting ``/proc`` files, ``status`` among them, are covered
    once it runs: ``counters.Counters.cover_process``)."""
    try:
        with open("/proc/self/maps") as f:
            return sum(int(end, 16) - int(start, 16)
                       for start, _, end in (line.split(None, 1)[0].partition("-") for line in f))
    except (OSError, ValueError):
        return 64 * 1024 * 1024


def serve(sock) -> None:
    """Answer requests until the runner closes the socket; never returns in a forked child."""
    own_size = _vm_size()
    while True:
        request = recv_message(sock)
        if request is None:
            return
        payload: ChildRequest = marshal.loads(request[0])
        fds = request[1]
        stdin_r, out_w, err_w, res_w = fds[:4]
        payload["fds"] = (stdin_r, out_w, err_w, res_w)
        # Not guessable at 3; it and the channels beside it (up to + 3) stay below the children's
        # open-files limit of 256, so that a zygote's test process can move its call channel there.
        payload["result_fd"] = 16 + int.from_bytes(os.urandom(2), "little") % 224
        mode = payload["mode"]
        if mode in ("zygote", "spare", "judge"):  # a request channel beside the result channel
            payload["ctl_fd"] = payload["result_fd"] + 1
            payload["extra_fds"] = {payload["ctl_fd"]: fds[4]}
        elif len(fds) > 4:  # a process serving the judge's calls: its call and reply channels
            call_fd = payload["result_fd"] + CALL_FD_OFFSET
            payload["extra_fds"] = {call_fd: fds[4], call_fd + 1: fds[5]}
        with_own_size(payload["rlimits"], own_size)  # a forked child starts with this process's mappings
        try:
            pid = fork_to_parent()
        except OSError:  # no process slot or memory left: the runner sees pid 0
            pid = -1
        if pid == 0:  # neither returns
            if payload["mode"] == "judge":
                judge_main(payload)
            child_main(payload)
        del payload, request  # nothing of this request may reach the next child
        for fd in fds:
            os.close(fd)
        sock.sendall(max(pid, 0).to_bytes(4, "little", signed=True))


def main() -> None:
    """The fork server's process (started by the runner only): serve fork requests until the end."""
    if os.environ.get("GRPO_CODE_SANDBOX") != "1" or os.getppid() != 1:
        sys.exit("forkserver.py runs only under the runner of a grpo-code sandbox container")
    os.environ.clear()  # every child's, a program's own (its HOME is its job's folder: ``child``)
    os.environ.update(program_env(""))
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # children keep the runner's dispositions
    with open("/proc/self/oom_score_adj", "w") as f:  # inherited: the OOM killer takes a test first
        f.write("1000")
    set_dumpable(0)  # (after: a non-dumpable process's /proc files belong to root)
    empty_bounding_set()  # inherited by every child: no capability can ever be gained back
    keep_capabilities((CAP_SETGID, CAP_SETUID))  # all it needs: to make each child a user of its own
    try:  # inherited by every child: no namespace, mount, bpf, ... whatever Docker's profile allows
        install_seccomp()
    except OSError as e:  # never a child without it
        sys.exit(f"forkserver.py: cannot install its seccomp filter: {e}")
    import typing  # noqa: F401 - what generated Python imports most (5-15 ms): loaded once, not per job
    gc.freeze()  # this process's objects: never traversed (and copied) by a test process's GC
    serve(_socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM, 0, CHANNEL_FD))
    os._exit(0)


if __name__ == "__main__":
    main()
