"""Which CPUs each sandbox container runs on.

A job's processes hand work to each other several times per test (runner, fork server,
zygote, test process, and back). When a container's processes share one CPU, each handoff is
a plain context switch; spread over CPUs, each is a cross-CPU wake-up (an inter-processor
interrupt, a VM exit on a virtual machine) with the CPUs idle in between. Measured on a 2-core
VM with ``benchmarks/sandbox_throughput.py``, two pinned containers run about 20% more samples
per second than two unpinned ones.

Each new container goes to the CPUs that carry the fewest sandbox containers of this daemon
at that moment, counting every pool (each container names its CPUs in ``CPU_LABEL``); ties go
round from an offset of this process, so that pools of different processes started together
spread out too. Pinning never limits a program more than ``ContainerSettings.cpus`` already
does: a container gets ``ceil(cpus)`` CPUs.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence

from sandbox.container import CPU_LABEL, LABEL


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
