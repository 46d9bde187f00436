"""The counters a job's programs can move and a later job can read, and how each job starts with
none of an earlier job's values in them.

Stdlib only; runs in the runner (root, ``CAP_SYS_ADMIN`` among its capabilities in a sandbox
container). A counter is anything a program changes that outlives it and that a program of a
later job can read: the next inode number of a writable tmpfs (a file created and removed leaves
nothing the clean-up's measurement sees, but the next file's ``st_ino`` is one higher), the next
pid, the next System V IPC id, the cgroup's counters (CPU time, memory peak, page faults,
refused forks, OOM kills), the residents' own ``/proc`` counters (the runner's, the fork
server's: context switches, CPU time, memory, start time), the network namespace's
(packets on the loopback, UDP and IP counters). ``benchmarks/counters.py`` measures each as a
writer and a reader would use it.

What the runner does about each (``Counters``), when the container lets it mount:

- **writable tmpfs**: ``/tmp`` (the job's folder is in it) and ``/dev/shm`` are fresh tmpfs mounts
  for every job (``renew_places``), with the options Docker gave them; the old ones leave the tree
  with whatever the job left in them (each unmount waits for an RCU grace period of the kernel's:
  about 12 us here);
- **pids**: after every job the next pid is set back to the same number (``ns_last_pid``), and
  the process that stays from job to job (the fork server) is started at a pid of its own, fixed,
  with the runner and again whenever it was started during a job (the runner's state settles it:
  ``state.RunnerState``); a job's judge, forked at the job's start, gets the same pid in every job;
- **System V IPC ids**: the next id of each kind is set (``{shm,msg,sem}_next_id``); a job that
  created any object has used it, and the runner then moves to a fresh IPC namespace (its own,
  the fork server's restarted in it, ``/dev/mqueue`` mounted again for it) where every id starts
  anew and the old objects go with the old namespace;
- **the cgroup's counters**: programs see a copy of the cgroup's settings alone
  (``cgroup.hide_counters``); the runner reads the real files through descriptors of its own;
- **the residents' ``/proc`` files** that count (``PROC_FILES``): covered with a file no program
  may read, as each resident starts (so whether one was restarted shows nowhere either);
- **the network namespace's counters** cannot be set back in place: a job that moved them
  (``moved``) has its container replaced, as one that left residue, but without a flag (a correct
  program may use the loopback).

Where the runner cannot mount (a Harbor verifier box, a host whose AppArmor profile denies
``mount``), it keeps the clean-up by emptying (``clean``), and the counters above stay readable
(docs/sandbox.md says so, and ``grpo-code sandbox check`` names the counters a later job reads).
Counters of the whole machine (the kernel's inode numbers of pipes, sockets and memfds, forks
since boot, the page cache, ``/proc/stat``) are no container's to set back; docs/sandbox.md lists
them with what each carries.
"""

from __future__ import annotations

import ctypes
import logging
import os

from .cgroup import hide_counters
from .mounts import (
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_RDONLY,
    MS_REMOUNT,
    Mount,
    cover,
    fresh_tmpfs,
    mount,
    mount_table,
    open_writable,
    umount,
)

log = logging.getLogger(__name__)

SCRATCH = "/mnt"  # a folder of the image: a tiny tmpfs of the runner's own (the cover files) is mounted there
RENEWED = ("/tmp", "/dev/shm")  # the tmpfs mounts a program may write (the job's folder is in /tmp)
MQUEUE = "/dev/mqueue"
PROC_FILES = ("stat", "status", "statm", "sched", "schedstat", "oom_score", "arch_status")  # what counts
NS_LAST_PID = "/proc/sys/kernel/ns_last_pid"
IPC_NEXT_IDS = ("/proc/sys/kernel/shm_next_id", "/proc/sys/kernel/msg_next_id", "/proc/sys/kernel/sem_next_id")
IPC_NEXT_ID = b"0"  # the id the next object of each kind gets (a fresh namespace's first)
NET_FILES = ("/proc/net/dev", "/proc/net/snmp")  # the network namespace's counters (and IPv6's, where it is on)
NET6_FILE, IPV6_CONF = "/proc/net/snmp6", "/proc/sys/net/ipv6/conf"
CLONE_NEWIPC = 0x08000000


def _read(fd: int, size: int = 16384) -> bytes:
    """A ``/proc`` file's content (a ``sysctl``'s read costs in proportion to ``size``: keep it small)."""
    return os.pread(fd, size, 0)


class Counters:
    """What the runner can set back after each job, found once at its start (``start``).

    Attributes:
        modes: what this container does about each kind of counter, in words (``renewed``,
            ``hidden``, ``set back``, or why not: the runner logs each it cannot close, and
            ``grpo-code sandbox check`` names what a later job then reads).
    """

    def __init__(self) -> None:
        self.modes: dict[str, str] = {}
        self._cover_file: str | None = None
        self._renewed: list[Mount] = []  # the mounts made anew after every job
        self._pid_fd = -1
        self._pid_base = 0
        self._ipc_fds: list[int] = []
        self._net: list[tuple[int, bytes]] = []

    # -- at the runner's start ----------------------------------------------------------------

    def start(self) -> None:
        """Find out what this container lets the runner do, and do what is done once: the
        runner's ``/proc`` files covered, the cgroup's counters hidden, ``/tmp`` renewed and
        ``/dev/shm`` made a folder of it, the descriptors that set the next pid and IPC ids.
        Call it before any child exists, with ``/`` as the working folder."""
        if _interfaces() == ["lo"]:  # (another interface's traffic is none of a program's doing)
            files = NET_FILES if _ipv6_off() else (*NET_FILES, NET6_FILE)
            self._net = [(fd, _read(fd)) for fd in (_open(path) for path in files) if fd >= 0]
            self.modes["network"] = "measured: a job that moves it has its container replaced"
        else:
            self.modes["network"] = "not measured: the container has a network of its own"
        try:
            mount("tmpfs", SCRATCH, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0700")
        except OSError as e:
            why = f"not closed: the runner cannot mount ({e.strerror})"
            self.modes.update(tmpfs=why, pids=why, ipc="ids not set back: " + why, cgroup=why, proc=why)
            return
        self._cover_file = os.path.join(SCRATCH, "none")
        os.close(os.open(self._cover_file, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0))  # mode 000: no one reads it
        mount(None, SCRATCH, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0700")
        self._try("proc", "covered (the runner's; the fork server's as it starts)", self._start_proc)
        self._try("cgroup", "hidden: programs see its settings alone", hide_counters)
        self._try("tmpfs", "renewed after every job", self._start_tmp)
        self._try("pids", "set back after every job", self._start_pids)
        self._try("ipc", "ids set; a job that made an object gets the next one a fresh namespace", self._start_ipc)

    def _try(self, name: str, done: str, step) -> None:
        try:
            step()
            self.modes[name] = done
        except OSError as e:
            self.modes[name] = f"not closed: {e}"
            log.warning("counters: %s: %s", name, e)

    def _start_proc(self) -> None:
        try:
            self.cover_process(1)
        except OSError:
            self._cover_file = None  # none covered, then: the same for every fork server
            raise

    def _start_tmp(self) -> None:
        table = mount_table()
        tmpfs = [table[point] for point in RENEWED if point in table and table[point].fstype == "tmpfs"]
        if not tmpfs:
            raise OSError(0, f"none of {', '.join(RENEWED)} is a tmpfs of the container's")
        self._renewed = tmpfs
        failed = self.renew_places()
        if failed:
            self._renewed = []
            raise OSError(0, "; ".join(failed))

    def _start_pids(self) -> None:
        self._pid_fd = open_writable(NS_LAST_PID)

    def _start_ipc(self) -> None:
        self._ipc_fds = [open_writable(path) for path in IPC_NEXT_IDS]
        for fd in self._ipc_fds:
            os.pwrite(fd, IPC_NEXT_ID, 0)

    @property
    def renewed(self) -> frozenset[str]:
        """The places made anew after every job (``clean`` neither measures nor empties them)."""
        return frozenset(m.point for m in self._renewed)

    @property
    def pids_settable(self) -> bool:
        """Whether the runner sets the next pid (``reset_pids``, ``place_next``)."""
        return self._pid_fd >= 0

    @property
    def ipc_renewable(self) -> bool:
        """Whether the runner knows a job made a System V IPC object (``ipc_used``) and can start
        a fresh IPC namespace (``renew_ipc``)."""
        return bool(self._ipc_fds)

    # -- after every job ------------------------------------------------------------------------

    def renew_places(self) -> list[str]:
        """A fresh ``/tmp`` and ``/dev/shm``; what failed, in words."""
        failed = []
        for place in self._renewed:
            try:
                fresh_tmpfs(place)
            except OSError as e:
                failed.append(f"{place.point}: cannot be made anew ({e})")
        return failed

    def ipc_used(self) -> bool:
        """Whether a System V IPC object was made since the ids were last set."""
        return any(_read(fd, 32).strip() != IPC_NEXT_ID for fd in self._ipc_fds)

    def renew_ipc(self) -> None:
        """Move the runner to a fresh IPC namespace, with ``/dev/mqueue`` mounted for it and its ids
        set; the caller has killed every child (they are in the old one) and starts the fork
        server again in this one.

        Raises:
            OSError: the kernel refused (the caller reports the container as not clean).
        """
        for fd in self._ipc_fds:  # (an open sysctl holds the old namespace's table)
            os.close(fd)
        self._ipc_fds = []
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(CLONE_NEWIPC) != 0:
            errno = ctypes.get_errno()
            raise OSError(errno, os.strerror(errno), "unshare(CLONE_NEWIPC)")
        queues = mount_table().get(MQUEUE)
        if queues is not None:
            umount(MQUEUE)
            mount("mqueue", MQUEUE, "mqueue", queues.flags, queues.data or None)
        self._start_ipc()

    def moved(self) -> str | None:
        """What moved of the counters that cannot be set back in place (the network namespace's):
        the container must be replaced; None if nothing did."""
        for fd, before in self._net:
            if _read(fd) != before:
                return "the network namespace's counters moved (a job used the loopback)"
        return None

    def reset_pids(self) -> None:
        """Set the next pid back to the same number (``note_pid_base``)."""
        os.pwrite(self._pid_fd, str(self._pid_base).encode(), 0)

    def place_next(self, pid: int) -> None:
        """Make ``pid`` the next pid the kernel hands out (if it is free)."""
        os.pwrite(self._pid_fd, str(pid - 1).encode(), 0)

    def note_pid_base(self, pid: int) -> None:
        """From now on every job's first pid is ``pid`` + 1 or the first free one after it."""
        self._pid_base = pid

    def cover_process(self, pid: int) -> None:
        """Cover the counting ``/proc`` files of the process ``pid`` (one that lives from job to
        job: the runner, the fork server) with a file no program may read. They go with the
        process (a job's judge is a process of its own job: its counters are that job's). Covering
        looks its ``/proc`` folder up, so the folder's times are those of the process's start, not
        of the first program that looked.

        Raises:
            OSError: the runner may not mount (at its start: ``start`` then covers nothing).
        """
        if self._cover_file is None or _same_file(f"/proc/{pid}/stat", self._cover_file):
            return  # (a process at a pid an earlier one had is a new folder of /proc: not covered)
        for folder in (f"/proc/{pid}", f"/proc/{pid}/task/{pid}"):
            for name in PROC_FILES:
                path = f"{folder}/{name}"
                try:
                    cover(path, self._cover_file)
                except FileNotFoundError:  # gone, or no such file on this kernel
                    continue


def _same_file(a: str, b: str) -> bool:
    try:
        x, y = os.stat(a), os.stat(b)
    except OSError:
        return False
    return (x.st_dev, x.st_ino) == (y.st_dev, y.st_ino)


def _interfaces() -> list[str]:
    try:
        return sorted(os.listdir("/sys/class/net"))
    except OSError:
        return []


def _ipv6_off() -> bool:
    """Whether IPv6 is off on every interface of the network namespace (Docker's ``none``): a
    program's IPv6 send then fails before any counter of IPv6's moves, and none can turn it on."""
    try:
        names = os.listdir(IPV6_CONF)
        return all(open(f"{IPV6_CONF}/{name}/disable_ipv6").read().strip() == "1" for name in names)
    except OSError:
        return not os.path.exists(NET6_FILE)


def _open(path: str) -> int:
    try:
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return -1
