"""A zygote's loop: the program's top level ran once; fork a fresh test process per request.

Only the program's top level is shared, as a snapshot: each test still runs in a process of its
own. Every test process is forked with ``procs.fork_to_parent``, so it is a child of the runner,
which waits for it and reads its outcome from the kernel; the zygote only says which pid it
forked (a ``forked`` record, believed only if that pid is the runner's child).
"""

from __future__ import annotations

import _socket
import marshal
import os
import resource

from ..procs import CALL_FD_OFFSET, fork_to_parent, recv_message
from ..records import FORKED, record_line, write_all


def serve_tests(ctl_fd: int, result_fd: int, cpu_s: int, before_serving=None, _fork=fork_to_parent,
                _close=os.close, _dup2=os.dup2, _exit=os._exit, _loads=marshal.loads, _socket_of=_socket.socket,
                _setrlimit=resource.setrlimit, _rlimit_cpu=resource.RLIMIT_CPU, _getrlimit=resource.getrlimit,
                _tuple=tuple, _recv_message=recv_message, _record_line=record_line, _write_all=write_all):
    """Fork one process per test request; that process returns ``(nonce, kind, test, kept)``.

    Messages on the Unix socket ``ctl_fd`` (``procs.recv_message``), ``marshal`` data. The first
    holds the job's ``call`` tests, ``(kind, test)`` each, loaded once (each object a test process
    touches or allocates after the fork can cost it a page copy). Each next one is a request,
    ``(nonce, index)`` for one of them, or ``(nonce, -1)`` with two descriptors, a call channel and
    its reply channel, for a process that serves the judge's calls (``calls``). The new process
    gets the per-test CPU limit back and returns what to run (``kept``: what the loop holds, for
    the test process to keep referenced: each object freed after the fork would write to, and so
    copy, the page that holds it). ``before_serving`` runs once, before the first process that
    serves the judge's calls is forked. At end of file (the runner is done with the job) the zygote
    exits.
    """
    try:
        _, hard = _getrlimit(_rlimit_cpu)
        _setrlimit(_rlimit_cpu, (hard, hard))  # the program's top level is done: lift the soft limit
        sock = _socket_of(fileno=ctl_fd)
        tests = None
        while True:
            message = _recv_message(sock)
            if message is None:
                _exit(0)
            data, fds = message
            if tests is None:
                tests = _loads(data)
                continue
            nonce, index = _loads(data)
            if index < 0 and before_serving is not None:  # the first process that serves the judge's calls
                before_serving()
                before_serving = None
            pid = _fork()
            if pid == 0:
                _close(ctl_fd)
                _setrlimit(_rlimit_cpu, (cpu_s, cpu_s + 1))
                if index < 0:
                    _dup2(fds[0], result_fd + CALL_FD_OFFSET)
                    _dup2(fds[1], result_fd + CALL_FD_OFFSET + 1)
                    for fd in fds:
                        _close(fd)
                    return _tuple((nonce, "serve", None, (tests, sock, message, data, fds)))
                kind, test = tests[index]
                return _tuple((nonce, kind, test, (tests, sock, message, data, fds)))
            for fd in fds:
                _close(fd)
            _write_all(result_fd, _record_line(FORKED, nonce, {"pid": pid}))
    except BaseException:  # noqa: BLE001 - a broken zygote stops; the runner sees it go
        _exit(70)
