"""Which CPUs each sandbox container runs on.

A job's processes hand work to each other several times per test (runner, fork server,
zygote, test process, and back). When a container's processes share one CPU, each handoff is
a plain context switch; spread over CPUs, each is a cross-CPU wake-up (an inter-processor
interrupt, a VM exit on a virtual machine) with the CPUs idle in between. Measured on a 2-core
VM with ``benchmarks/sandbox_throughput.py``, two pinned containers run about 20% more samples
per second than two unpinned ones.

Each new container goes to the CPUs that carry the fewest sandbox containers of this daemon
at that moment, counting every pool (each container names its CPUs in ``CPU_LABEL``); ties go
round from an offset of this process. Pools that start at the same instant (the ranks of a
training run, the actors of a Ray node) would count the same load and choose the same CPUs, so
a pool chooses and starts its containers holding ``placement_lock``, a file lock on the daemon's
host that the next pool waits for. Pinning never limits a program more than ``ContainerSettings.cpus`` already
does: a container gets ``ceil(cpus)`` CPUs.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import re
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from sandbox.container import CPU_LABEL, LABEL

log = logging.getLogger(__name__)

LOCK_TIMEOUT_S = 120.0


@contextlib.contextmanager
def placement_lock(client, timeout_s: float = LOCK_TIMEOUT_S) -> Iterator[None]:
    """Hold this daemon's placement lock: an exclusive ``flock`` on a file in this host's temp
    folder, named after the daemon's ID, which every pool of this host takes while it chooses
    CPUs and starts its containers (their ``CPU_LABEL`` is then visible to the next pool).

    The kernel releases the lock when its holder dies. After ``timeout_s`` seconds of waiting
    (a holder that hangs) the pool goes on without it, with a warning. Pools on other hosts
    that share a remote daemon do not see this lock.

    Raises:
        docker.errors.DockerException: the daemon cannot be asked for its ID.
    """
    import fcntl

    daemon = re.sub(r"[^A-Za-z0-9]", "", str(client.info().get("ID") or "local"))[:64]
    path = Path(tempfile.gettempdir()) / f"grpo-code-placement-{daemon}.lock"
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except PermissionError:  # another user's lock file: a read-only descriptor locks it as well
        fd = os.open(path, os.O_RDONLY)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    log.warning("the sandbox placement lock %s is held for over %.0f s: placing without it",
                                path, timeout_s)
                    break
                time.sleep(0.02)
        yield
    finally:
        os.close(fd)  # releases the lock


def place(client, n: int, cpus: float) -> Sequence[str | None]:
    """CPU sets for ``n`` new containers of ``cpus`` CPUs each, on this daemon's least-loaded CPUs.

    Args:
        client: a ``docker.DockerClient``; the daemon's ``NCPU`` and its running sandbox
            containers' ``CPU_LABEL`` give the CPUs and their load.
        n: how many containers.
        cpus: the CPU share of one container (``ContainerSettings.cpus``); each set has
            ``ceil(cpus)`` CPUs, at most all of them.

    Returns:
        ``n`` strings in Docker's ``cpuset_cpus`` form (``"3"``, ``"0,1"``), or ``None`` each
        where the daemon does not say how many CPUs it has.

    Raises:
        docker.errors.DockerException: the daemon cannot be asked.
    """
    ncpu = int(client.info().get("NCPU") or 0)
    if ncpu <= 0:
        return [None] * n
    load = dict.fromkeys(range(ncpu), 0)
    for container in client.api.containers(filters={"label": LABEL}):
        for cpu in (container.get("Labels") or {}).get(CPU_LABEL, "").split(","):
            if cpu.isdigit() and int(cpu) in load:
                load[int(cpu)] += 1
    return spread(load, n, max(1, math.ceil(cpus)), offset=os.getpid() % ncpu)


def spread(load: dict[int, int], n: int, width: int, offset: int = 0) -> list[str]:
    """Choose ``width`` CPUs for each of ``n`` containers, one container after the other, each
    on the CPUs that carry the fewest containers so far; ties go to the CPU that comes first
    from ``offset`` on, round the CPU numbers.

    Args:
        load: containers per CPU now, for every CPU there is (updated in place).
        n: how many containers.
        width: CPUs per container (at most all of them).
        offset: where the tie order starts.

    Returns:
        ``n`` CPU sets in Docker's ``cpuset_cpus`` form, e.g. ``"3"`` or ``"0,1"``.
    """
    ncpu = len(load)
    sets = []
    for _ in range(n):
        chosen = sorted(load, key=lambda cpu: (load[cpu], (cpu - offset) % ncpu))[:width]
        for cpu in chosen:
            load[cpu] += 1
        sets.append(",".join(str(cpu) for cpu in sorted(chosen)))
    return sets
