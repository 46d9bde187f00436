"""The runner's handles on a job's resident children: its zygote, and its judge.

Stdlib only. Both are forked by the fork server (as children of the runner), live as long as the
job needs them (never longer), and take requests on a Unix socket (``procs.send_message``): a
``Zygote`` ran the program's top level once and forks a fresh test process per request
(``program.zygote``); the ``Judge`` runs the job's ``assert`` tests and checker in a trusted
process of its own user (``judge``), forked with the job's tests, so no code of another job ever
ran in it. Each test still runs in a fresh process of the program's: the zygote only saves the
program's imports and definitions.

A zygote is the program's process: all it says is which pid it forked for a test, and the runner
believes that only if the pid is a child of its own (``follow_forked``); the test's outcome then
comes from the kernel. If a zygote's top level does not finish in time or within the output
limit, that is the outcome of every test it would have run. If it fails otherwise (an exception,
an exit, a signal), or a zygote dies, the runner runs the job's remaining tests one fresh process
each, for exact verdicts, from the test whose process the zygote had not yet named.
"""

from __future__ import annotations

import marshal
import os
import select
import socket
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .forkclient import exists, fork_child, kill_all
from .procs import send_message
from .records import FORKED, READY, read_records
from .watch import Outcome, Watch

if TYPE_CHECKING:
    from .messages import (
        ChildRequest,
        JudgeMessage,
        JudgeRequest,
        LimitsWire,
        PythonRequest,
        ZygoteFork,
        ZygoteTests,
    )

EXIT_WAIT_S = 1.0  # how long a closed resident may take to exit before it is killed
JUDGE_OUTPUT_LIMIT = 1 << 30  # the judge's own output is not the program's: only read and dropped


class Resident:
    """A live child of the runner with a request socket. ``alive`` turns False once the runner
    lets it go (closed, killed, gone); whether it still runs is ``exists()``."""

    def __init__(self, watch: Watch, ctl: socket.socket, pid: int, pidfd: int):
        self.watch, self.ctl, self.pid, self.pidfd = watch, ctl, pid, pidfd
        self.alive = True

    @staticmethod
    def _fork(payload: ChildRequest) -> tuple[Watch, socket.socket, int, int]:
        pid, ours, ctl = fork_child(payload, channel=True)
        assert ctl is not None  # asked for (for mypy)
        pidfd = os.pidfd_open(pid)  # the runner's child: a zombie until the runner reaps it, never missed
        return Watch(ours, b""), ctl, pid, pidfd

    def exists(self) -> bool:
        return self.alive and exists(self.pidfd)

    def request(self, message: ZygoteTests | ZygoteFork | JudgeMessage, fds: Sequence[int] = ()) -> bool:
        """Send a request (``marshal`` data) with ``fds``; False (and everything killed) if the
        child does not take it."""
        try:
            send_message(self.ctl, marshal.dumps(message), fds)
            return True
        except OSError:
            self.kill()
            return False

    def kill(self) -> None:
        """Kill every process but the runner (the watch's pipes are closed), and let this go."""
        kill_all()
        self.watch.close()
        self.release()

    def forget(self) -> None:
        """Let go of a child that is gone, or killed with everything else: close its watch too."""
        if self.alive:
            self.watch.close()
            self.release()

    def release(self) -> None:
        """Let go of a child that is gone (its watch closed already)."""
        if self.alive:
            self.alive = False
            self.ctl.close()
            os.close(self.pidfd)

    def close(self) -> None:
        """End the child: it exits when its request socket closes (killed if it does not)."""
        if not self.alive:
            return
        self.ctl.close()
        if select.select([self.pidfd], [], [], EXIT_WAIT_S)[0]:
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:  # reaped by a ``kill_all`` already
                pass
        else:
            kill_all()
        self.watch.close()
        self.alive = False
        os.close(self.pidfd)


class Zygote(Resident):
    """A process that ran a program's top level once: each request has it fork a test process."""

    def __init__(self, watch: Watch, ctl: socket.socket, pid: int, pidfd: int, limits: LimitsWire):
        super().__init__(watch, ctl, pid, pidfd)
        self.limits = limits
        self.start_records = b""  # what its top level wrote (its flags)

    @classmethod
    def start(cls, payload: PythonRequest, tests: ZygoteTests, limits: LimitsWire,
              cpu_limit: float | None) -> tuple[Zygote | None, Outcome | None]:
        """Have a zygote forked for ``payload`` (mode ``zygote``); wait until the top level ran,
        then hand it ``tests``, the job's ``call`` tests (``(kind, test)`` each), which the top
        level never sees.

        Returns:
            ``(zygote, None)`` once it is ready; ``(None, outcome)`` if the top level ran out of
            time or output (judge every test with that outcome and ``payload["nonce"]``);
            ``(None, None)`` if it failed otherwise (run each test in its own process). The
            top level's records (its flags) are in ``Zygote.start_records`` or the outcome.

        Raises:
            ForkserverLost: the fork server does not answer.
        """
        from .watch import watch_all

        nonce, output_limit = payload["nonce"], limits["output_limit_bytes"]
        watch, ctl, pid, pidfd = cls._fork(payload)
        watch.follow(pid)  # until it is ready, the zygote is the test process
        started = time.monotonic()
        outcome = Outcome()
        watch_all([(watch, outcome, output_limit)], started + limits["wall_time_limit_s"], cpu_limit,
                  lambda: outcome.has_line(READY, nonce) or watch.exited)
        ready = any(r["event"] == READY for r in read_records(bytes(outcome.records), nonce)[0])
        if outcome.killed_for is None and ready and not watch.exited:
            watch.release()  # its end no longer ends a watch by itself: ``guard`` it per test
            zygote = cls(watch, ctl, pid, pidfd, limits)
            zygote.start_records = bytes(outcome.records)
            if zygote.request(tests):
                return zygote, None
            return None, None
        outcome.wall_s = time.monotonic() - started
        ctl.close()
        watch.kill_and_close(outcome, output_limit)
        os.close(pidfd)
        return None, (outcome if outcome.killed_for in ("timeout", "output_limit") else None)

    def fork_test(self, nonce: str, index: int, fds: Sequence[int] = ()) -> bool:
        """Ask for a test process for test ``index`` (or, with ``index`` -1 and ``fds``, one that
        serves the judge's calls), marked ``nonce``; its end (or the zygote's before it forked)
        ends the watch. False if the zygote is gone."""
        fork: ZygoteFork = (nonce, index)
        if not self.request(fork, fds):
            return False
        self.watch.guard(self.pidfd)
        return True

    def follow_forked(self, outcome: Outcome, nonce: str, known: set[int]) -> bool:
        """Once the zygote has said which process it forked for ``nonce``: follow that process if
        it is a child of the runner's and not one of ``known`` (the residents); else mark
        ``outcome`` ``lost`` (the zygote lied: the test fails). True when the watch may stop."""
        watch = self.watch
        if watch.pid is not None:
            return watch.exited
        if not outcome.has_line(FORKED, nonce):
            return False
        # The zygote wrote the record before any end of its: an end seen in the same poll (its test
        # process killed it at once, the runner scheduled late) came after it named the test's
        # process, which the test now waits for.
        watch.unguard(self.pidfd, forget_end=True)
        forked = [r for r in read_records(bytes(outcome.records), nonce)[0] if r["event"] == FORKED]
        pid = forked[0]["pid"] if len(forked) == 1 else 0
        if pid in known or pid <= 1 or not _is_own_child(pid):
            outcome.killed_for = "lost"
            return True
        watch.follow(pid)
        return watch.exited

    def finish(self, outcome: Outcome, started: float, tasks: int) -> bool:
        """After a test: take its outcome; if anything was killed, let the zygote go. False if
        the zygote went away before it named the test's process (killed by an earlier test's
        process, say: a ``SIGKILL`` takes effect only when the zygote next runs): the test did
        not run, and everything was killed; run it again in a fresh process."""
        named = self.watch.pid is not None or outcome.killed_for is not None
        self.watch.unguard(self.pidfd)
        if not self.watch.finish(outcome, started, self.limits["output_limit_bytes"], tasks):
            self.release()  # the watch is closed already: everything was killed
        return named


def _is_own_child(pid: int) -> bool:
    """Whether ``pid`` is a child of this process that has not been waited for yet."""
    try:
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        return True
    except ChildProcessError:
        return False


class Judge(Resident):
    """A job's judge (``judge.main.judge_main``), forked with the job's tests: ``test`` runs one and
    ``check`` has the task's checker judge an output; each ``verdict`` record arrives on ``watch``."""

    @classmethod
    def start(cls, payload: JudgeRequest) -> Judge:
        """Have a judge forked for ``payload`` (mode ``judge``, with the job's tests).

        Raises:
            ForkserverLost: the fork server does not answer.
        """
        judge = cls(*cls._fork(payload))
        judge.watch.guard(judge.pidfd)  # its end ends any watch of it
        return judge

    def test(self, nonce: str, index: int, fds: Sequence[int]) -> bool:
        """Run the job's judged test ``index`` for ``nonce`` against the program's process at the
        other end of ``fds``, its call and reply channels (``messages.JudgeTest``)."""
        return self.request(("test", nonce, index), fds)

    def ended(self) -> tuple[str, int] | None:
        """How the judge ended, where it has and the runner has not reaped it yet: ``("signal",
        number)`` or ``("exit", status)``, the kernel's word; None while it runs, or once let go."""
        if not self.alive:
            return None
        try:
            status = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:  # reaped by a ``kill_all`` already
            return None
        if status is None:
            return None
        return ("exit", status.si_status) if status.si_code == os.CLD_EXITED else ("signal", status.si_status)

    def check(self, nonce: str, stdin: str, output: str, expected: str) -> bool:
        """Have the task's checker judge the program's ``output`` of a ``stdio`` test
        (``messages.JudgeCheck``)."""
        return self.request(("check", nonce, stdin, output, expected))


__all__ = ["JUDGE_OUTPUT_LIMIT", "Judge", "Zygote", "exists"]
