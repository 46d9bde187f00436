"""A seccomp filter for every child of the fork server: what no judge or program may ask the kernel.

Stdlib only (``ctypes``); installed by the fork server at its start (``install``), so the judge,
every process of a program and everything they start inherit it, and none can remove it. The
runner holds ``CAP_SYS_ADMIN`` (it gives each job fresh counters, ``counters``), and with that
capability in the container Docker's default seccomp profile lets *every* process of it call
``unshare``, ``setns``, ``clone`` with namespace flags, ``clone3``, ``mount`` and its kin, ``bpf``
and ``perf_event_open``. A program holds no capability, but a user namespace needs none, and
inside one it would hold them all: so this filter refuses them again, for the fork server's tree,
whatever Docker's profile allows.

It also keeps the host's page cache from being read or emptied by a program, as a later job's
program would read it: ``cachestat`` is refused, and ``posix_fadvise(POSIX_FADV_DONTNEED)`` (which
drops the pages of a file of the image, whoever else reads it) succeeds and does nothing, as an
advice may.

The filter is a classic BPF program over ``seccomp_data`` (``linux/seccomp.h``): a system call of
another architecture than the interpreter's (x32, i386 on x86_64) is refused with ``ENOSYS``;
``clone3`` and ``cachestat`` with ``ENOSYS`` (as Docker does for ``clone3``: the C library falls
back on ``clone``, whose flags the filter can read); ``clone`` with a namespace flag, and each call
of ``DENIED``, with ``EPERM``; everything else is left to Docker's profile and the kernel.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO = 0x7FFF0000, 0x00050000
_LD_W_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06  # BPF_LD|W|ABS, BPF_JMP|J*|K, BPF_RET|K
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in seccomp_data (the low half of args[0] on a little-endian machine)
X32_BIT = 0x40000000
POSIX_FADV_DONTNEED = 4
# CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET (NEWTIME is clone3's and unshare's only)
CLONE_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000

# Refused with EPERM: namespaces, mounts and the filesystem tree, the kernel's own programs and
# counters, keyrings, and what changes the machine (most need a capability no program has; the
# filter makes that hold in any user namespace too, and whatever Docker's profile says).
DENIED = (
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "open_tree_attr",
    "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", "bpf", "perf_event_open", "fanotify_init",
    "lookup_dcookie", "quotactl", "quotactl_fd", "name_to_handle_at", "open_by_handle_at", "sethostname",
    "setdomainname", "syslog", "keyctl", "add_key", "request_key", "userfaultfd", "kexec_load", "kexec_file_load",
    "init_module", "finit_module", "delete_module", "acct", "swapon", "swapoff", "reboot", "settimeofday",
    "clock_settime", "clock_adjtime", "iopl", "ioperm", "vhangup",
)
# System call numbers (asm/unistd_64.h, asm-generic/unistd.h; tests/test_counters.py checks them
# against the headers). Each architecture: (AUDIT_ARCH_*, numbers, whether x32 calls exist).
ARCHES = {
    "x86_64": (0xC000003E, {
        "unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161,
        "move_mount": 429, "open_tree": 428, "open_tree_attr": 467, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
        "fspick": 433, "mount_setattr": 442, "bpf": 321, "perf_event_open": 298, "fanotify_init": 300,
        "lookup_dcookie": 212, "quotactl": 179, "quotactl_fd": 443, "name_to_handle_at": 303,
        "open_by_handle_at": 304, "sethostname": 170, "setdomainname": 171, "syslog": 103, "keyctl": 250,
        "add_key": 248, "request_key": 249, "userfaultfd": 323, "kexec_load": 246, "kexec_file_load": 320,
        "init_module": 175, "finit_module": 313, "delete_module": 176, "acct": 163, "swapon": 167, "swapoff": 168,
        "reboot": 169, "settimeofday": 164, "clock_settime": 227, "clock_adjtime": 305, "iopl": 172, "ioperm": 173,
        "vhangup": 153, "clone": 56, "clone3": 435, "cachestat": 451, "fadvise64": 221}, True),
    "aarch64": (0xC00000B7, {
        "unshare": 97, "setns": 268, "mount": 40, "umount2": 39, "pivot_root": 41, "chroot": 51, "move_mount": 429,
        "open_tree": 428, "open_tree_attr": 467, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
        "mount_setattr": 442, "bpf": 280, "perf_event_open": 241, "fanotify_init": 262, "lookup_dcookie": 18,
        "quotactl": 60, "quotactl_fd": 443, "name_to_handle_at": 264, "open_by_handle_at": 265, "sethostname": 161,
        "setdomainname": 162, "syslog": 116, "keyctl": 219, "add_key": 217, "request_key": 218, "userfaultfd": 282,
        "kexec_load": 104, "kexec_file_load": 294, "init_module": 105, "finit_module": 273, "delete_module": 106,
        "acct": 89, "swapon": 224, "swapoff": 225, "reboot": 142, "settimeofday": 170, "clock_settime": 112,
        "clock_adjtime": 266, "vhangup": 58, "clone": 220, "clone3": 435, "cachestat": 451, "fadvise64": 223}, False),
}


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def filter_program(machine: str) -> bytes:
    """The filter's BPF instructions for ``machine`` (``os.uname().machine``), as the kernel reads them.

    Raises:
        KeyError: an architecture this module does not know.
    """
    audit_arch, numbers, x32 = ARCHES[machine]
    allow, eperm, enosys = SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | errno.EPERM, SECCOMP_RET_ERRNO | errno.ENOSYS
    done = SECCOMP_RET_ERRNO  # errno 0: the call returns 0, success, and does nothing
    denied = sorted({numbers[name] for name in DENIED if name in numbers})
    # (code, k, jump if true, jump if false): a jump names a label; the returns sit at the end
    body: list[tuple[int, int, str | None, str | None]] = [
        (_LD_W_ABS, _ARCH, None, None),
        (_JEQ, audit_arch, None, "enosys"),
        (_LD_W_ABS, _NR, None, None),
    ]
    if x32:
        body.append((_JGE, X32_BIT, "enosys", None))
    body += [(_JEQ, numbers["clone3"], "enosys", None), (_JEQ, numbers["cachestat"], "enosys", None)]
    body += [(_JEQ, nr, "eperm", None) for nr in denied]
    body += [(_JEQ, numbers["clone"], None, "fadvise"),
             (_LD_W_ABS, _ARG0, None, None),
             (_JSET, CLONE_NAMESPACES, "eperm", "allow")]
    labels = {"fadvise": len(body)}
    body += [(_JEQ, numbers["fadvise64"], None, "allow"),
             (_LD_W_ABS, _ARG0 + 8 * 3, None, None),  # its advice
             (_JEQ, POSIX_FADV_DONTNEED, "done", "allow")]
    labels.update(allow=len(body), eperm=len(body) + 1, enosys=len(body) + 2, done=len(body) + 3)
    out = []
    for i, (code, k, jt, jf) in enumerate(body):
        out.append(_insn(code, k, labels[jt] - i - 1 if jt else 0, labels[jf] - i - 1 if jf else 0))
    out += [_insn(_RET, allow), _insn(_RET, eperm), _insn(_RET, enosys), _insn(_RET, done)]
    return b"".join(out)


def install() -> None:
    """Install the filter on this process (and so on everything it forks or runs from now on),
    after ``no_new_privs`` (which a sandbox container has already).

    Raises:
        OSError: the kernel refused, or this architecture has no table here.
    """
    try:
        program = filter_program(os.uname().machine)
    except KeyError as e:
        raise OSError(errno.ENOSYS, f"no seccomp table for {os.uname().machine}") from e
    libc = ctypes.CDLL(None, use_errno=True)
    prctl = libc.prctl
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = struct.pack("=HxxxxxxQ", len(program) // 8, ctypes.addressof(buffer))  # struct sock_fprog
    fprog_buffer = ctypes.create_string_buffer(fprog, len(fprog))
    for option, arg in ((PR_SET_NO_NEW_PRIVS, 1), (PR_SET_SECCOMP, SECCOMP_MODE_FILTER)):
        pointer = ctypes.addressof(fprog_buffer) if option == PR_SET_SECCOMP else None
        if prctl(option, arg, pointer, 0, 0) != 0:
            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code), "prctl")
