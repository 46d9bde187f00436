"""The container's own counters, read from its cgroup: CPU time, memory, live processes, OOM kills;
and the view of the cgroup that programs get, its settings without its counters.

Stdlib only; read by the runner (``watch``) to enforce a test's CPU limit (and, for runtimes that
reserve large address spaces, its memory limit) over the whole process tree, to find processes a
test left behind, and to tell an OOM kill from another signal. The runner reads each file through
a descriptor it opened once (``open_all``), so that ``hide_counters`` can put a copy of the
cgroup's settings alone over ``/sys/fs/cgroup``: every counter there is the container's, moved
by every job, and a program that read one would read what an earlier job did.
"""

from __future__ import annotations

import os

from .mounts import MS_NODEV, MS_NOEXEC, MS_NOSUID, MS_RDONLY, MS_REMOUNT, mount

CGROUP_ROOT = "/sys/fs/cgroup"
_OOM_SEEN = [-1]  # the container's OOM-kill count when last read
# The files of a cgroup that hold settings, not counters (cgroup v1 and v2): what a runtime reads
# to size itself (the JVM's, Node.js's and Rust's limits and CPU quota) stays readable.
SETTING_SUFFIXES = ("limit_in_bytes", ".max", "_device")
SETTING_NAMES = frozenset({
    "cgroup.clone_children", "notify_on_release", "cgroup.controllers", "cgroup.subtree_control", "cgroup.type",
    "cgroup.max.depth", "cgroup.max.descendants", "cpu.max.burst", "memory.swappiness", "memory.use_hierarchy",
    "memory.move_charge_at_immigrate", "memory.high", "memory.low", "memory.min", "memory.oom.group",
    "memory.swap.high", "cpu.cfs_period_us", "cpu.cfs_quota_us", "cpu.cfs_burst_us", "cpu.shares", "cpu.idle",
    "cpu.rt_period_us", "cpu.rt_runtime_us", "cpu.weight", "cpu.weight.nice", "cpu.uclamp.min", "cpu.uclamp.max",
    "devices.list", "freezer.state", "io.weight", "io.bfq.weight"})
COPY_LIMIT = 64 * 1024  # bytes of one setting copied


def is_setting(name: str) -> bool:
    """Whether the cgroup file ``name`` holds a setting (kept in programs' view), not a counter."""
    if name.startswith("cpuset."):
        return name != "cpuset.memory_pressure"
    return name in SETTING_NAMES or name.endswith(SETTING_SUFFIXES)


def _oom_kills() -> int:
    """OOM kills recorded for this container's memory cgroup (v1 or v2); -1 if unknown."""
    fd, _ = _cgroup_fd("oom", ((f"{CGROUP_ROOT}/memory.events", "v2"),
                               (f"{CGROUP_ROOT}/memory/memory.oom_control", "v1")))
    if fd < 0:
        return -1
    for line in os.pread(fd, 8192, 0).splitlines():
        if line.startswith(b"oom_kill "):
            return int(line.split()[1])
    return -1


def note_oom_baseline() -> None:
    """Read the OOM-kill count once at start, so the first OOM kill is recognized."""
    _OOM_SEEN[0] = _oom_kills()


def oom_since_last_check() -> bool:
    """Whether the cgroup's OOM killer struck since the last call (or ``note_oom_baseline``)."""
    now_ooms = _oom_kills()
    struck = _OOM_SEEN[0] >= 0 and now_ooms > _OOM_SEEN[0]
    _OOM_SEEN[0] = now_ooms
    return struck


_CGROUP_FILES: dict = {}  # name -> (fd, kind) once opened; fd -1 where none is readable


def _cgroup_fd(name: str, paths: tuple) -> tuple[int, str]:
    if name not in _CGROUP_FILES:
        for path, kind in paths:
            try:
                _CGROUP_FILES[name] = (os.open(path, os.O_RDONLY | os.O_CLOEXEC), kind)
                break
            except OSError:
                continue
        else:
            _CGROUP_FILES[name] = (-1, "")
    return _CGROUP_FILES[name]


def container_cpu_s() -> float | None:
    """CPU seconds used by every process of this container so far (cgroup v2 or v1); None if unknown."""
    fd, kind = _cgroup_fd("cpu", ((f"{CGROUP_ROOT}/cpu.stat", "v2"),
                                  (f"{CGROUP_ROOT}/cpuacct/cpuacct.usage", "v1"),
                                  (f"{CGROUP_ROOT}/cpu,cpuacct/cpuacct.usage", "v1")))
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
    fd, _ = _cgroup_fd("pids", ((f"{CGROUP_ROOT}/pids.current", "v2"),
                                (f"{CGROUP_ROOT}/pids/pids.current", "v1")))
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


_MEMORY_STAT_KEYS = {"v2": (b"anon", b"shmem"), "v1": (b"rss", b"shmem")}


def container_memory_bytes() -> int | None:
    """Resident memory that the container's processes hold (cgroup v2 or v1); None if unknown.

    Anonymous memory (heaps, stacks, private copies) plus shared memory and tmpfs files: what the
    processes own, not the page cache of files they read (the JVM's class archive, a compiler's
    binaries), which the kernel can drop and which stays charged to the container after a test.
    """
    fd, kind = _cgroup_fd("memory", ((f"{CGROUP_ROOT}/memory.stat", "v2"),
                                     (f"{CGROUP_ROOT}/memory/memory.stat", "v1")))
    if fd < 0:
        return None
    wanted = _MEMORY_STAT_KEYS[kind]
    total = found = 0
    for line in os.pread(fd, 8192, 0).splitlines():
        key, _, value = line.partition(b" ")
        if key in wanted:
            total += int(value)
            found += 1
            if found == len(wanted):
                return total
    return total if found else None


def container_memory_usage_and_peak() -> tuple[int, int] | None:
    """The container's memory charge now and its highest so far, bytes (cgroup v2 ``memory.current``
    and ``memory.peak``, or v1's ``usage_in_bytes`` and ``max_usage_in_bytes``; page cache
    included); None if unknown. The peak is the kernel's own record, so a burst between two
    polls of ``container_memory_bytes`` is in it when it set a new high."""
    usage_fd, _ = _cgroup_fd("memory.usage", ((f"{CGROUP_ROOT}/memory.current", "v2"),
                                                 (f"{CGROUP_ROOT}/memory/memory.usage_in_bytes", "v1")))
    peak_fd, _ = _cgroup_fd("memory.peak", ((f"{CGROUP_ROOT}/memory.peak", "v2"),
                                            (f"{CGROUP_ROOT}/memory/memory.max_usage_in_bytes", "v1")))
    if usage_fd < 0 or peak_fd < 0:
        return None
    return int(os.pread(usage_fd, 64, 0)), int(os.pread(peak_fd, 64, 0))


def open_all() -> None:
    """Open every cgroup file the runner reads (each read is then a ``pread`` of its descriptor,
    whatever is mounted over ``/sys/fs/cgroup`` later)."""
    _oom_kills()
    container_cpu_s()
    tasks_in_container()
    container_memory_bytes()
    container_memory_usage_and_peak()


def _settings(folder: str) -> dict[str, bytes | str | dict]:
    """The settings in ``folder`` of the cgroup tree (one level of sub-folders, v1's controllers):
    name -> its bytes, a link's target, or a sub-folder's settings."""
    found: dict[str, bytes | str | dict] = {}
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return found
    for entry in entries:
        try:
            if entry.is_symlink():
                found[entry.name] = os.readlink(entry.path)
            elif entry.is_dir() and folder == CGROUP_ROOT:
                found[entry.name] = _settings(entry.path)
            elif entry.is_file() and is_setting(entry.name):
                with open(entry.path, "rb") as f:
                    found[entry.name] = f.read(COPY_LIMIT)
        except OSError:
            continue
    return found


def _write(folder: str, settings: dict[str, bytes | str | dict]) -> None:
    for name, value in settings.items():
        path = os.path.join(folder, name)
        if isinstance(value, dict):
            os.mkdir(path, 0o555)
            _write(path, value)
            os.chmod(path, 0o555)
        elif isinstance(value, str):
            os.symlink(value, path)
        else:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
            try:
                os.write(fd, value)
            finally:
                os.close(fd)


def hide_counters() -> None:
    """Put a read-only copy of the cgroup's settings over ``/sys/fs/cgroup``: its limits and CPU
    quota stay readable (a runtime sizes itself by them), its counters (CPU time, memory peak and
    failures, page faults, refused forks, OOM kills, ...) are gone from every path. The runner's
    own readings go on through the descriptors ``open_all`` opened.

    Raises:
        OSError: the runner may not mount (the caller falls back: programs see the counters).
    """
    open_all()
    settings = _settings(CGROUP_ROOT)
    flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
    mount("tmpfs", CGROUP_ROOT, "tmpfs", flags, "size=1m,mode=0755")
    _write(CGROUP_ROOT, settings)
    mount(None, CGROUP_ROOT, None, MS_REMOUNT | MS_RDONLY | flags, "size=1m,mode=0755")
