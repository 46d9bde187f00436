"""Process utilities shared by the runner, the fork server and the processes they fork.

Stdlib only, light: loaded by the fork server, so every forked child has it.
"""

from __future__ import annotations

import ctypes
import os

try:  # looked up once: a dlopen per test process would cost milliseconds
    _PRCTL = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):  # pragma: no cover - no libc symbol
    _PRCTL = None


def set_dumpable(flag: int) -> None:
    """prctl(PR_SET_DUMPABLE): 0 forbids ptrace and /proc/PID/mem by same-user processes."""
    if _PRCTL is not None:
        _PRCTL(4, flag, 0, 0, 0)


def reap_exited() -> bool:
    """Reap every child that has exited, without waiting; True if a child is still running."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True
