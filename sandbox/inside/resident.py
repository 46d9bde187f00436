"""The runner's handles on its resident children: a zygote, and the judge.

Stdlib only. Both are forked by the fork server once per job, live until the job is done, and
take requests on a Unix socket (``procs.send_message``): a ``Zygote`` ran the program's top
level once and forks a fresh test process per request (``program_process.serve_tests``); the
``Judge`` runs the job's ``assert`` tests in a trusted process (``judge``). Each test still
runs in a fresh process of the program's: the zygote only saves the program's imports and
definitions.

If a zygote's top level does not finish in time or within the output limit, that is the
outcome of every test it would have run. If it fails otherwise (an exception, an exit, a
signal), or a zygote dies during a test (the program killed it; that test is a
``runtime_error``), the runner runs the job's remaining tests one fresh process each, for exact
verdicts.
"""

from __future__ import annotations

import marshal
import os
import select
import time

from .forkclient import FORKSERVER, fork_child, kill_all
from .procs import send_message
from .records import ENDED, READY, is_record
from .watch import Outcome, Watch

EXIT_WAIT_S = 1.0  # how long a closed resident may take to exit before it is killed
JUDGE_OUTPUT_LIMIT = 1 << 30  # the judge's own output is not the program's: only read and dropped


class Resident:
    """A live child with a request socket. ``alive`` turns False once it is closed or killed (a
    limit, stray processes, an unanswered request); ``lost`` turns True if it went away on its
    own during a test."""

    def __init__(self, watch: Watch, ctl, pid: int, pidfd: int):
        self.watch, self.ctl, self.pid, self.pidfd = watch, ctl, pid, pidfd
        self.alive = True
        self.lost = False

    @staticmethod
    def _fork(payload: dict) -> tuple[Watch, object, int, int]:
        pid, ours, ctl = fork_child(payload, channel=True)
        pidfd = os.pidfd_open(pid)  # a zombie until the fork server reaps it: never missed
        return Watch(ours, b"", pidfd), ctl, pid, pidfd

    def request(self, message, fds: list[int] = ()) -> bool:
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
            FORKSERVER.reap(self.pid)
            try:  # the runner's child instead, if a test killed the fork server (orphans come here)
                os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                pass
        else:
            kill_all()
        self.watch.close()
        self.alive = False
        os.close(self.pidfd)


class Zygote(Resident):
    """A process that ran a program's top level once: ``run`` one test at a time in a process
    forked from it, or ``serve`` the judge's calls of one test from one."""

    def __init__(self, watch, ctl, pid, pidfd, limits: dict):
        super().__init__(watch, ctl, pid, pidfd)
        self.limits = limits

    @classmethod
    def start(cls, payload: dict, tests: list, limits: dict,
              cpu_limit: float | None) -> tuple[Zygote | None, Outcome | None]:
        """Have a zygote forked for ``payload`` (mode ``zygote``); wait until the top level ran,
        then hand it ``tests``, the job's ``call`` tests and ``assert`` tests judged in process
        (``[kind, test]`` each, ``test`` as ``jobs.visible_test`` gives it), which the top level
        never sees.

        Returns:
            ``(zygote, None)`` once it is ready; ``(None, outcome)`` if the top level ran out of
            time or output (judge every test with that outcome and ``payload["nonce"]``);
            ``(None, None)`` if it failed otherwise (run each test in its own process). The
            top level's records (its flags) are in ``zygote.start_records`` or the outcome.

        Raises:
            ForkserverLost: the fork server does not answer.
        """
        nonce, output_limit = payload["nonce"], limits["output_limit_bytes"]
        watch, ctl, pid, pidfd = cls._fork(payload)
        started = time.monotonic()
        outcome = Outcome()
        watch.run(outcome, started + limits["wall_time_limit_s"], output_limit, cpu_limit,
                  until=lambda o: o.ends_with(READY, nonce))
        if outcome.killed_for is None and is_record(outcome.last_record(), READY, nonce):
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

    def run(self, nonce: str, index: int, cpu_limit: float | None, tasks: int) -> Outcome:
        """Run the zygote's test ``index`` (of the ``tests`` it started with) in a process forked
        from it, the test's records marked with ``nonce``; return its outcome. ``tasks``: the
        processes that may stay alive in the container after the test."""
        outcome = Outcome()
        started = time.monotonic()
        if not self.request((nonce, index)):
            outcome.killed_for = "forker"
            return outcome
        output_limit = self.limits["output_limit_bytes"]
        self.watch.run(outcome, started + self.limits["wall_time_limit_s"], output_limit, cpu_limit,
                       until=lambda o: o.ends_with(ENDED, nonce))
        self.finish(outcome, nonce, started, tasks)
        return outcome

    def serve(self, nonce: str, fds: list[int]) -> bool:
        """Have a process forked that serves the judge's calls of one test on ``fds`` (its call
        and reply ends); it is watched with the judge (``jobs``). False if the zygote is gone."""
        return self.request((nonce, -1), fds)

    def finish(self, outcome: Outcome, nonce: str, started: float, tasks: int) -> None:
        """After a test: take its exit record; if anything was killed, let the zygote go."""
        if not self.watch.finish(outcome, nonce, started, self.limits["output_limit_bytes"], tasks):
            self.lost = outcome.killed_for == "forker"
            self.release()  # the watch is closed already: everything was killed


class Judge(Resident):
    """The container's judge (``judge.judge_main``), kept from job to job: ``job`` hands it a job's
    tests, then ``request(("test", nonce, index), [call_w, reply_r])`` runs one; its ``verdict``
    record arrives on ``watch``."""

    @classmethod
    def start(cls, payload: dict) -> Judge:
        """Have the judge forked for ``payload`` (mode ``judge``).

        Raises:
            ForkserverLost: the fork server does not answer.
        """
        return cls(*cls._fork(payload))

    def usable(self) -> bool:
        """Alive, as far as the runner knows, and not gone on its own since."""
        return self.alive and not select.select([self.pidfd], [], [], 0)[0]

    def job(self, setup: str | None, tests: list, memory_bytes: int, checker: str | None) -> bool:
        """Hand the judge a job's test setup, tests and checker (``judge``); False if it does not
        take them."""
        return self.request(("job", setup, tests, memory_bytes, checker))
