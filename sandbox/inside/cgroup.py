"""The container's own counters, read from its cgroup: CPU time, memory, live processes, OOM kills.

Stdlib only; read by the runner (``watch``) to enforce a test's CPU limit (and, for runtimes that
reserve large address spaces, its memory limit) over the whole process tree, to find processes a
test left behind, and to tell an OOM kill from another signal.
"""

from __future__ import annotations

import os

_OOM_SEEN = [-1]  # the container's OOM-kill count when last read


def _oom_kills() -> int:
    """OOM kills recorded for this container's memory cgroup (v1 or v2); -1 if unknown."""
    for path in ("/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control"):
        try:
            with open(path) as f:
                for line in f:
                    if line.startswith("oom_kill "):
                        return int(line.split()[1])
        except OSError:
            continue
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
                _CGROUP_FILES[name] = (os.open(path, os.O_RDONLY), kind)
                break
            except OSError:
                continue
        else:
            _CGROUP_FILES[name] = (-1, "")
    return _CGROUP_FILES[name]


def container_cpu_s() -> float | None:
    """CPU seconds used by every process of this container so far (cgroup v2 or v1); None if unknown."""
    fd, kind = _cgroup_fd("cpu", (("/sys/fs/cgroup/cpu.stat", "v2"),
                                  ("/sys/fs/cgroup/cpuacct/cpuacct.usage", "v1"),
                                  ("/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage", "v1")))
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
    fd, _ = _cgroup_fd("pids", (("/sys/fs/cgroup/pids.current", "v2"),
                                ("/sys/fs/cgroup/pids/pids.current", "v1")))
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
    fd, kind = _cgroup_fd("memory", (("/sys/fs/cgroup/memory.stat", "v2"),
                                     ("/sys/fs/cgroup/memory/memory.stat", "v1")))
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
    usage_fd, _ = _cgroup_fd("memory.usage", (("/sys/fs/cgroup/memory.current", "v2"),
                                                 ("/sys/fs/cgroup/memory/memory.usage_in_bytes", "v1")))
    peak_fd, _ = _cgroup_fd("memory.peak", (("/sys/fs/cgroup/memory.peak", "v2"),
                                            ("/sys/fs/cgroup/memory/memory.max_usage_in_bytes", "v1")))
    if usage_fd < 0 or peak_fd < 0:
        return None
    return int(os.pread(usage_fd, 64, 0)), int(os.pread(peak_fd, 64, 0))
