"""Mounts, for the runner: what ``mount(2)`` and ``umount2(2)`` do, the container's mount table,
and the two uses the runner makes of them (a fresh tmpfs in place of a used one, a file covered).

Stdlib only (``ctypes``); runs in the runner, which needs ``CAP_SYS_ADMIN`` for any of it (a
sandbox container grants it, ``sandbox/container.py``; no child keeps it). Where the kernel or
a security module (AppArmor's ``docker-default`` profile denies ``mount``) refuses, every call
here raises ``OSError``, and the caller falls back (``counters``).
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, NamedTuple

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x1, 0x2, 0x4, 0x8
MS_REMOUNT, MS_BIND = 0x20, 0x1000
MS_NOATIME, MS_NODIRATIME, MS_RELATIME, MS_STRICTATIME = 0x400, 0x800, 0x200000, 0x1000000
MNT_DETACH = 2
_FLAGS = {"ro": MS_RDONLY, "nosuid": MS_NOSUID, "nodev": MS_NODEV, "noexec": MS_NOEXEC, "noatime": MS_NOATIME,
          "nodiratime": MS_NODIRATIME, "relatime": MS_RELATIME, "strictatime": MS_STRICTATIME}

_LIBC: Any
try:
    _LIBC = ctypes.CDLL(None, use_errno=True)
    _LIBC.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
    _LIBC.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
except (OSError, AttributeError):  # pragma: no cover - no libc
    _LIBC = None


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, os.strerror(errno), what)


def _bytes(text: str | None) -> bytes | None:
    return None if text is None else text.encode()


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    """``mount(2)``; raises ``OSError``."""
    if _LIBC is None:  # pragma: no cover
        raise OSError(38, "no libc mount", target)
    _check(_LIBC.mount(_bytes(source), target.encode(), _bytes(fstype), flags, _bytes(data)), target)


def umount(target: str) -> None:
    """``umount2(2)`` with ``MNT_DETACH``: the mount leaves the tree now; what still holds it
    (an open file, a working folder) keeps its files, out of every path's reach."""
    if _LIBC is None:  # pragma: no cover
        raise OSError(38, "no libc umount2", target)
    _check(_LIBC.umount2(target.encode(), MNT_DETACH), target)


class Mount(NamedTuple):
    """One line of ``/proc/self/mountinfo``: where, what, and with which options."""

    point: str
    fstype: str
    flags: int  # the per-mount options as ``MS_*`` flags
    data: str  # the filesystem's own options (``size=...,mode=...``), ``rw``/``ro`` left out


def _unescape(field: str) -> str:
    """A mountinfo path field: spaces, tabs, newlines and backslashes are written as octal escapes."""
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field


def mount_table(mountinfo: str = "/proc/self/mountinfo") -> dict[str, Mount]:
    """The container's mounts by mount point (a later mount over the same point hides the earlier)."""
    mounts: dict[str, Mount] = {}
    try:
        with open(mountinfo, encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                fields = line.split()
                if "-" not in fields[6:]:
                    continue
                dash = fields.index("-", 6)
                flags = 0
                for option in fields[5].split(","):
                    flags |= _FLAGS.get(option, 0)
                data = ",".join(o for o in fields[dash + 3].split(",") if o not in ("rw", "ro")) \
                    if len(fields) > dash + 3 else ""
                point = _unescape(fields[4])
                mounts[point] = Mount(point, fields[dash + 1], flags, data)
    except OSError:
        pass
    return mounts


def fresh_tmpfs(like: Mount) -> None:
    """Put a fresh tmpfs where the mount ``like`` is, with its options, in place of what is there:
    its files, inode numbers and counters start anew, as in a container just started. The one
    there leaves the tree (``umount``)."""
    umount(like.point)
    mount("tmpfs", like.point, "tmpfs", like.flags, like.data or None)


def cover(target: str, source: str) -> None:
    """Bind the file (or folder) ``source`` over ``target``, read-only: a path to ``target`` then
    reaches ``source`` instead (what was there stays for whoever held it open)."""
    mount(source, target, None, MS_BIND)
    mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)


def open_writable(path: str) -> int:
    """A descriptor open for writing on ``path``, a file of a read-only mount (``/proc/sys``): the
    file alone is bound over itself and made writable for the one ``open``, and the binding goes
    again at once. The mount table is as it was; only this descriptor writes."""
    mount(path, path, None, MS_BIND)
    try:
        mount(None, path, None, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV | MS_NOEXEC)
        return os.open(path, os.O_RDWR | os.O_CLOEXEC)
    finally:
        umount(path)
