"""Process utilities shared by the runner, the fork server and the processes they fork.

Stdlib only, light: loaded by the fork server, so every forked child has it.
"""

from __future__ import annotations

import _socket
import array
import ctypes
import os
import resource
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .messages import ChildLimits, ChildRequest

CALL_FD_OFFSET = 2  # a serving process's call channel sits at result_fd + 2, its replies at + 3
# Who runs what (docs/architecture.md, "Three trust levels"): the runner and the fork server run as
# root with a few capabilities; the judge as JUDGE_UID and every process of the program's as
# PROGRAM_UID, neither with any capability. The kernel refuses a process of one uid to signal, trace,
# read the memory of, or change the limits of a process of another: that is the boundary.
JUDGE_UID = 10000
PROGRAM_UID = 10001
# Capabilities (linux/capability.h) the fork server keeps: it makes each child one of those users.
CAP_SETGID, CAP_SETUID, CAP_SETPCAP = 6, 7, 8
CAP_LAST = 63  # above the kernel's highest: dropping a capability it does not know is refused, and ignored
REPLY_LIMIT = 64 * 1024 * 1024  # bytes of one reply of the program's process to the judge
MAX_VALUE_DEPTH = 200  # levels a value that crosses the call channel may nest
# The special methods a handle to an object of the program's has exactly where the object's type
# has them (``program.encode`` writes the set, a bit per name in this order; ``judge.remote`` makes
# the judge's class for the type): ``callable(x)``, ``hasattr(x, "__len__")``, ``bool(x)`` of an
# object without ``__bool__`` or ``__len__``, and ``hash`` of an unhashable one answer as in one process.
HANDLE_DUNDERS = ("__call__", "__len__", "__iter__", "__next__", "__contains__", "__getitem__", "__setitem__",
                  "__delitem__", "__bool__", "__hash__", "__enter__", "__exit__", "__reversed__", "__await__",
                  "__aiter__", "__anext__", "__neg__", "__pos__", "__abs__", "__invert__", "__int__", "__float__",
                  "__index__", "__floor__", "__ceil__", "__trunc__", "__round__", *(
                      f"__{prefix}{name}__" for name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
                                                         "matmul", "and", "or", "xor", "lshift", "rshift", "divmod")
                      for prefix in ("", "r", "i") if not (prefix == "i" and name == "divmod")))
REF_MARK = b"\x00grpo-code ref\x00"  # marks a reference inside a value the judge sends (``program.calls``)

_PRCTL: Any
try:  # looked up once: a dlopen per test process would cost milliseconds
    _PRCTL = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):  # pragma: no cover - no libc symbol
    _PRCTL = None


def set_dumpable(flag: int) -> None:
    """prctl(PR_SET_DUMPABLE): 0 forbids ptrace and /proc/PID/mem by same-user processes."""
    if _PRCTL is not None:
        _PRCTL(4, flag, 0, 0, 0)


def keep_capabilities(keep: tuple[int, ...]) -> None:
    """Drop every capability of this process but ``keep`` (effective and permitted; capset(2)).

    Raises:
        OSError: the kernel refused.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    mask = [0, 0]
    for cap in keep:
        mask[cap // 32] |= 1 << (cap % 32)
    data = (ctypes.c_uint32 * 6)(mask[0], mask[0], 0, mask[1], mask[1], 0)  # effective, permitted, inheritable
    if libc.capset(header, data) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, os.strerror(errno))


def empty_bounding_set() -> None:
    """Drop every capability from this process's bounding set (its children inherit it): no
    program can ever gain one, even through a binary with file capabilities (needs CAP_SETPCAP)."""
    if _PRCTL is None:  # pragma: no cover - no libc symbol
        return
    for cap in range(CAP_LAST + 1):
        _PRCTL(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP


def become(uid: int) -> None:
    """Make this process ``uid`` (its group the same number, no supplementary groups): as it
    leaves root, the kernel clears every capability it held."""
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


_CLONE_PARENT, _SIGCHLD = 0x8000, 17
_SYS_CLONE = {"x86_64": 56, "aarch64": 220}.get(os.uname().machine)
_SYSCALL: Any
_BEFORE_FORK: Any
_AFTER_FORK_CHILD: Any
_AFTER_FORK_PARENT: Any
try:  # bound once, before any program runs: a zygote's loop calls it after the program's top level
    _PYTHON = ctypes.pythonapi
    _BEFORE_FORK, _AFTER_FORK_CHILD, _AFTER_FORK_PARENT = (
        _PYTHON.PyOS_BeforeFork, _PYTHON.PyOS_AfterFork_Child, _PYTHON.PyOS_AfterFork_Parent)
    _SYSCALL = ctypes.PyDLL(None, use_errno=True).syscall  # PyDLL: the GIL stays held across the clone
    _SYSCALL.restype = ctypes.c_long
except (OSError, AttributeError):  # pragma: no cover - not CPython on Linux
    _SYSCALL = _BEFORE_FORK = _AFTER_FORK_CHILD = _AFTER_FORK_PARENT = None


def fork_to_parent(_syscall=_SYSCALL, _before=_BEFORE_FORK, _after_child=_AFTER_FORK_CHILD,
                   _after_parent=_AFTER_FORK_PARENT, _flags=_CLONE_PARENT | _SIGCHLD, _nr=_SYS_CLONE,
                   _get_errno=ctypes.get_errno, _strerror=os.strerror, _OSError=OSError) -> int:
    """``os.fork()``, but the child's parent is this process's parent (clone(2) with
    ``CLONE_PARENT``): 0 in the child, its pid in this process.

    The fork server forks every child of the container so, and a zygote every test process: so
    each process of a program is a child of the runner (PID 1), which alone waits for it and
    reads its exit status and CPU time from the kernel. CPython's own steps around a fork run as
    in ``os.fork`` (``PyOS_BeforeFork`` and the after-fork hooks: locks, threads, ``random``'s
    reseed). Bound to pristine references when this module loads.

    Raises:
        OSError: the kernel refused (no process slot left, out of memory).
    """
    _before()
    pid = _syscall(_nr, _flags, 0, 0, 0, 0)
    if pid == 0:
        _after_child()
        return 0
    errno = _get_errno()
    _after_parent()
    if pid < 0:
        raise _OSError(errno, _strerror(errno))
    return pid


def reap_exited() -> bool:
    """Reap every child that has exited, without waiting; True if a child is still running."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True


def cpu_limit_s(rlimits: ChildLimits) -> int:
    """A child's RLIMIT_CPU soft limit: whole seconds, at least 1 (the hard one is 1 more)."""
    return max(1, -int(-rlimits["cpu_s"] // 1))  # a ceiling without ``math``: programs import it themselves


def setup_child(p: ChildRequest, uid: int, cpu_hard=None) -> int:
    """File descriptors, folder, limits and user of a child the fork server has just forked;
    returns its result fd.

    ``p["fds"]`` (stdin, stdout, stderr and result pipe ends) go to fds 0, 1, 2 and
    ``p["result_fd"]``, ``p["extra_fds"]`` (target -> source) to their targets; every other fd
    is closed. Limits from ``p["rlimits"]``: ``cpu_s`` (RLIMIT_CPU, hard limit ``cpu_hard`` or
    one second more; absent for no CPU limit), ``fsize_bytes``, ``as_bytes`` (0: none); no core
    files, 256 open files. Signal dispositions are the fork server's: all default but SIGPIPE
    (ignored, as Python does); so is its OOM score (the OOM killer's first choice, never the
    runner). Then the child becomes ``uid`` (``become``), after its limits are set, so it can
    never raise them again.
    """
    stdin_r, stdout_w, stderr_w, result_w = p["fds"]
    result_fd = p["result_fd"]
    os.dup2(stdin_r, 0)
    os.dup2(stdout_w, 1)
    os.dup2(stderr_w, 2)
    os.dup2(result_w, result_fd)
    keep = {result_fd}
    for target, source in p.get("extra_fds", {}).items():  # request and call channels
        os.dup2(source, target)
        keep.add(target)
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 65536)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
    set_limits(p["rlimits"], cpu_hard)
    become(uid)
    os.chdir(p["workdir"])  # as the new user: the fork server itself may not enter the folder
    return result_fd


def with_own_size(rlimits: ChildLimits, own_bytes: int) -> ChildLimits:
    """``rlimits`` of a Python child forked from a process of ``own_bytes`` of address space (it
    starts with those mappings): ``memory_bytes`` more than that is its ``as_bytes``."""
    if rlimits.get("memory_bytes"):
        rlimits["as_bytes"] = rlimits["memory_bytes"] + own_bytes
    rlimits["own_bytes"] = own_bytes
    return rlimits


def set_limits(rlimits: ChildLimits, cpu_hard=None) -> None:
    """A child's own limits (``rlimits``): ``fsize_bytes``, ``cpu_s`` (RLIMIT_CPU, hard limit
    ``cpu_hard`` or one second more; absent for none), ``as_bytes`` (0 or absent: none). Only ever
    lowered, so a child of the program's user may set them itself; and its file mode mask
    (``umask``, default 0o077)."""
    os.umask(rlimits.get("umask", 0o077))
    resource.setrlimit(resource.RLIMIT_FSIZE, (rlimits["fsize_bytes"], rlimits["fsize_bytes"]))
    if rlimits.get("cpu_s") is not None:
        cpu = cpu_limit_s(rlimits)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1 if cpu_hard is None else cpu_hard))
    if rlimits.get("as_bytes"):
        resource.setrlimit(resource.RLIMIT_AS, (rlimits["as_bytes"], rlimits["as_bytes"]))


MAX_FDS = 8  # descriptors one message may carry


def send_message(sock, data: bytes, fds: Sequence[int] = ()) -> None:
    """Send ``data`` on a Unix stream socket as one message: a 4-byte little-endian length, then
    the data, with ``fds`` passed as SCM_RIGHTS (``recv_message`` reads it)."""
    message = len(data).to_bytes(4, "little") + data
    ancillary = [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
    sent = sock.sendmsg([message], ancillary)
    if sent < len(message):
        sock.sendall(message[sent:])


def recv_message(sock, _recvmsg=_socket.socket.recvmsg, _recv=_socket.socket.recv, _from_bytes=int.from_bytes,
                 _space=_socket.CMSG_SPACE(MAX_FDS * 4), _scm=_socket.SCM_RIGHTS, _sol=_socket.SOL_SOCKET,
                 _append=list.append, _len=len, _range=range, _min=min) -> tuple[bytes, list[int]] | None:
    """One message of ``send_message``: ``(data, fds)``, or None at end of file. It reads exactly
    one message, so that the next one (and its descriptors) stays on the socket.

    Bound to pristine references when this module loads (in the fork server, before any
    program), so a zygote's loop can use it after the program's top level has run.
    """
    header, ancillary, _, _ = _recvmsg(sock, 4, _space)
    if not header:
        return None
    fds: list[int] = []
    for level, kind, blob in ancillary:
        if level == _sol and kind == _scm:
            for i in _range(0, _len(blob) - 3, 4):
                _append(fds, _from_bytes(blob[i:i + 4], "little", signed=True))
    while _len(header) < 4:
        more = _recv(sock, 4 - _len(header))
        if not more:
            return None
        header += more
    size, data = _from_bytes(header, "little"), b""
    while _len(data) < size:
        more = _recv(sock, _min(size - _len(data), 1 << 20))
        if not more:
            return None
        data += more
    return data, fds
