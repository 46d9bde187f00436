"""What the runner keeps from job to job: one ``RunnerState``, made once (``runner.prepare``) and
handed to every job (``jobs.run_job``); and how a job leaves the container as it found it.

Stdlib only; runs in the runner. The state: the places a job can write and their state at the
container's start (``clean.Baseline``), what a job left that would not go (then the container
refuses every later job), the tasks of processes that are none of the sandbox's, and the runner's
cache of compiled ``assert`` tests. No judge: each job has its own (``jobs``), gone at its end.

The fork server's handle is not part of it: it is ``forkclient``'s own (``forkclient.FORKSERVER``,
one per runner process), since ``kill_all``, which anything that holds a test's processes may call
(``watch``, ``resident``), drops it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .cgroup import tasks_in_container
from .children import IPCRM_CPU_S, ipcrm_request
from .forkclient import FORKSERVER, drop_spare, exists, foreign_tasks, kill_all, spare_waiting
from .watch import spawn

if TYPE_CHECKING:
    from .clean import Baseline

SYSV_IPC = ("/proc/sysvipc/shm", "/proc/sysvipc/msg", "/proc/sysvipc/sem")
IPCRM_WALL_S = 10.0
IPCRM_OUTPUT_LIMIT = 64 * 1024


class RunnerState:
    """The runner's state between jobs.

    Attributes:
        baseline: the container's places and their state at its start: every job must leave
            them so (``leave_clean``).
        residue: what a job left that would not go; once set, this container takes no more jobs
            (``refusal``).
        foreign: tasks of processes that are none of the sandbox's (``forkclient.foreign_tasks``),
            noted at each job's start (``note_foreign``).
        compiled: compiled ``assert`` tests and setups' names, by source (``jobs.plan_tests``):
            tasks are scored many times (n samples, G completions).
        next_workdir: the next job's folder, made between jobs (``jobs.prepare_next``); None
            until then, and once a job took it.
    """

    def __init__(self, baseline: Baseline):
        self.baseline = baseline
        self.residue: list[str] | None = None
        self.foreign = 0
        self.compiled: dict[tuple, object] = {}
        self.next_workdir: str | None = None

    def resident_tasks(self) -> int:
        """Processes the container may hold between jobs, counted from what exists: the runner, the
        fork server, a spare not yet claimed (``forkclient.Spare``) (and what is none of the
        sandbox's: ``foreign``)."""
        return 1 + exists(FORKSERVER.pidfd) + spare_waiting() + self.foreign

    def note_foreign(self) -> None:
        """At a job's start, note the tasks of processes that are none of the sandbox's
        (``foreign``): read from ``/proc`` only where the container holds more tasks than its
        residents. Each resident that exists holds a task, so a count no higher than theirs leaves
        room for none (a sandbox container's case: it holds nothing else)."""
        self.foreign = 0
        if tasks_in_container() > self.resident_tasks():
            self.foreign = foreign_tasks()

    def refusal(self) -> str | None:
        """Why this container takes no more jobs (a job left it unclean), or None: it is clean."""
        residue = self.residue
        return None if residue is None else "the container is not back at its baseline: " + "; ".join(residue)

    def leave_clean(self) -> list[str]:
        """After a job: no process of the program's or of its judge's left (counted from what exists;
        a spare no job took included), no IPC object, nothing anywhere it could write (the next
        job's folder, if one was made, included); then measure it. The fork server and its limits
        are out of any program's and any judge's reach (another user), so it stays.

        Returns:
            the residue: what is not back at its state at the container's start
            (``clean.Baseline``), each said in a few words; empty when the container is clean.
        """
        drop_spare()
        self.next_workdir = None
        if tasks_in_container() > self.resident_tasks():
            kill_all()
        residue = []
        if ipc_objects():
            remove_ipc_objects(self.resident_tasks())
            if ipc_objects():
                residue.append("System V IPC objects")
        if tasks_in_container() > self.resident_tasks():
            residue.insert(0, "processes: more than the runner's own")
        return residue + self.baseline.restore()


_IPC_FDS: list[int] = []  # SYSV_IPC's files, opened once (each read of one is the kernel's list now)


def ipc_objects() -> bool:
    """Whether any System V IPC object (shared memory, message queue, semaphore set) exists."""
    if not _IPC_FDS:
        for path in SYSV_IPC:
            try:
                _IPC_FDS.append(os.open(path, os.O_RDONLY | os.O_CLOEXEC))
            except OSError:
                continue
    for fd in _IPC_FDS:
        try:
            if os.pread(fd, 65536, 0).count(b"\n") > 1:  # a header line, then one line per object
                return True
        except OSError:
            continue
    return False


def remove_ipc_objects(tasks: int) -> None:
    """Remove every System V IPC object a job's programs made: ``ipcrm --all``, run as the program's
    user (the runner may not remove another user's objects; that user may remove its own), with
    ``tasks`` processes allowed to stay. POSIX message queues and shared memory are files
    (``/dev/mqueue``, ``/dev/shm``), emptied with the other places (``clean``)."""
    spawn(ipcrm_request(), b"", IPCRM_WALL_S, IPCRM_OUTPUT_LIMIT, tasks, cpu_limit=float(IPCRM_CPU_S))
