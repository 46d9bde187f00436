"""What the runner keeps from job to job: one ``RunnerState``, made once (``runner.prepare``) and
handed to every job (``jobs.run_job``); and how a job leaves the container as it found it.

Stdlib only; runs in the runner. The state: the places a job can write and their state at the
container's start (``clean.Baseline``), the counters a job can move (``counters.Counters``), what a
job left that would not go (then the container refuses every later job), the tasks of processes
that are none of the sandbox's, and the runner's cache of compiled ``assert`` tests. No judge: each
job has its own (``jobs``), gone at its end.

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
    from .counters import Counters

SYSV_IPC = ("/proc/sysvipc/shm", "/proc/sysvipc/msg", "/proc/sysvipc/sem")
IPCRM_WALL_S = 10.0
IPCRM_OUTPUT_LIMIT = 64 * 1024
JUDGE_PID_OFFSET = 4096  # a job's judge's pid, this far after the fork server's (past its processes' own)


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
        counters: what the runner sets back after each job (``counters.Counters``).
        spent: why this container takes no more jobs though it is clean (a job moved a counter
            that cannot be set back in place): the host replaces it, the job is not flagged.
    """

    def __init__(self, baseline: Baseline, counters: Counters):
        self.baseline = baseline
        self.counters = counters
        self.residue: list[str] | None = None
        self.spent: str | None = None
        self.foreign = 0
        self.compiled: dict[tuple, object] = {}
        self.next_workdir: str | None = None
        self._slot = 0  # the pid the fork server starts at
        self._settled: int | None = None  # the fork server's pid, as last settled

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
        """Why this container takes no more jobs (a job left it unclean, or moved a counter that
        cannot be set back), or None: it takes the next."""
        residue = self.residue
        if residue is not None:
            return "the container is not back at its baseline: " + "; ".join(residue)
        return None if self.spent is None else "the container is to be replaced: " + self.spent

    def start(self) -> None:
        """At the runner's start, once the fork server runs: its pid is the residents' from now on,
        and every job's first pid comes after it (a job's judge at a pid of its own: ``place_judge``)."""
        forkserver = FORKSERVER.pid or 0
        self._slot = forkserver
        self._settled = FORKSERVER.pid
        if self.counters.pids_settable:
            self.counters.note_pid_base(forkserver + 1)
            self._cover_forkserver()
            self._settle()

    def place_judge(self) -> None:
        """Before a job's judge is forked: it gets the same pid in every job, past the spare's and
        the job's first processes' (``judge_placed`` then hands those out as ever)."""
        if self.counters.pids_settable:
            self.counters.place_next(self._slot + JUDGE_PID_OFFSET)

    def judge_placed(self) -> None:
        """After a job's judge is forked: the job's own processes get the pids they get in a job
        without one (the first after the base, or the spare's)."""
        if self.counters.pids_settable:
            self.counters.reset_pids()

    def _cover_forkserver(self) -> None:
        """Cover a fork server's counting ``/proc`` files as it starts: every job sees them so."""
        if FORKSERVER.pid is not None:
            self.counters.cover_process(FORKSERVER.pid)

    def leave_clean(self) -> list[str]:
        """After a job: no process of the program's or of its judge's left (counted from what exists;
        a spare no job took included), no IPC object, nothing anywhere it could write (the next
        job's folder, if one was made, included), every counter it could move set back
        (``counters``); then measure it. The fork server and its limits are out of any program's
        and any judge's reach (another user), so it stays.

        Returns:
            the residue: what is not back at its state at the container's start
            (``clean.Baseline``), each said in a few words; empty when the container is clean.
        """
        drop_spare()
        self.next_workdir = None
        if tasks_in_container() > self.resident_tasks():
            self._kill_all()
        counters = self.counters
        residue = []
        if counters.ipc_renewable:
            if counters.ipc_used():  # its objects, and the ids it moved, go with the old namespace
                self._kill_all()
                try:
                    counters.renew_ipc()
                except OSError as e:
                    residue.append(f"System V IPC: no fresh namespace ({e})")
        elif ipc_objects():
            remove_ipc_objects(self.resident_tasks())
            if ipc_objects():
                residue.append("System V IPC objects")
        if tasks_in_container() > self.resident_tasks():
            residue.insert(0, "processes: more than the runner's own")
        residue += self.baseline.restore() + counters.renew_places()
        moved = counters.moved()
        if moved is not None and self.spent is None:
            self.spent = moved
        if counters.pids_settable:
            self._settle()
        return residue

    def _kill_all(self) -> None:
        kill_all()

    def _settle(self) -> None:
        """Set the next pid back, and start again at its own pid a fork server that was restarted
        during the job (at a pid a program chose by how many processes it made before): then the
        next job's processes get the same pids whatever earlier jobs did."""
        counters = self.counters
        if not (FORKSERVER.pid == self._settled and exists(FORKSERVER.pidfd)):
            self._kill_all()
            counters.place_next(self._slot)
            FORKSERVER.start()
            self._cover_forkserver()
        self._settled = FORKSERVER.pid
        counters.reset_pids()


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
