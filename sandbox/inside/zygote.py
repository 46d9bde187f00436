"""The runner's handle on a zygote: a process that ran a program once and forks one per test.

Stdlib only. For a Python job's ``assert`` and ``call`` tests, the program's top level
(imports, definitions) runs once, in a zygote forked by the fork server; each test then runs
in a fresh process forked from it (``program_process.serve_tests``), so a test costs a fork instead of a
fork and the program's imports. A test process holds the program, its own test and what the
program's process may see of the job's other in-process tests (never an expected value of a
``call`` test); the top level sees no test. A test's time and CPU time do not include the top
level, which has the test's limits.

If the top level does not finish in time or within the output limit, that is the outcome of
every test. If it fails otherwise (an exception, an exit, a signal), or a zygote dies during a
test (the program killed it; that test is a ``runtime_error``), the runner runs the job's
remaining tests one fresh process each, the way it runs ``stdio`` tests, for exact verdicts.
"""

from __future__ import annotations

import marshal
import os
import select
import time

from .forkclient import FORKSERVER, fork_child, kill_all
from .records import ENDED, READY, is_record
from .watch import Outcome, Watch

RUNNER_FORKSERVER_AND_ZYGOTE = 3  # tasks alive in the container between two tests
EXIT_WAIT_S = 1.0  # how long a closed zygote may take to exit before it is killed


class Zygote:
    """A live zygote: ``run`` one test at a time, ``close`` when the job is done.

    ``alive`` turns False once it is closed or killed (a limit, stray processes); ``lost`` turns
    True if it went away on its own during a test.
    """

    def __init__(self, watch: Watch, ctl_w: int, pid: int, pidfd: int, limits: dict):
        self.watch = watch
        self.pid = pid
        self.ctl_w = ctl_w
        self.pidfd = pidfd
        self.limits = limits
        self.alive = True
        self.lost = False

    @classmethod
    def start(cls, payload: dict, tests: list, limits: dict,
              cpu_limit: float | None) -> tuple[Zygote | None, Outcome | None]:
        """Have a zygote forked for ``payload`` (mode ``zygote``); wait until the top level ran,
        then hand it ``tests``, the job's in-process tests (``[kind, test]`` each, ``test`` as
        ``jobs.visible_test`` gives it), which the top level never sees.

        Returns:
            ``(zygote, None)`` once it is ready; ``(None, outcome)`` if the top level ran out of
            time or output (judge every test with that outcome and ``payload["nonce"]``);
            ``(None, None)`` if it failed otherwise (run each test in its own process).

        Raises:
            ForkserverLost: the fork server does not answer.
        """
        nonce, output_limit = payload["nonce"], limits["output_limit_bytes"]
        pid, ours, ctl_w = fork_child(payload, channel=True)
        os.set_blocking(ctl_w, False)  # requests queue in the watch if the pipe is full
        started = time.monotonic()
        pidfd = os.pidfd_open(pid)  # a zombie until the fork server reaps it: never missed
        watch = Watch(ours, b"", pidfd)
        outcome = Outcome()
        watch.run(outcome, started + limits["wall_time_limit_s"], output_limit, cpu_limit,
                  until=lambda o: o.ends_with(READY, nonce))
        if outcome.killed_for is None and is_record(outcome.last_record(), READY, nonce):
            zygote = cls(watch, ctl_w, pid, pidfd, limits)
            zygote._request(tests)
            return zygote, None
        outcome.wall_s = time.monotonic() - started
        os.close(ctl_w)
        watch.kill_and_close(outcome, output_limit)
        os.close(pidfd)
        return None, (outcome if outcome.killed_for in ("timeout", "output_limit") else None)

    def run(self, nonce: str, index: int, cpu_limit: float | None) -> Outcome:
        """Run the zygote's test ``index`` (of the ``tests`` it started with) in a process forked
        from it, the test's records marked with ``nonce``; return its outcome."""
        output_limit = self.limits["output_limit_bytes"]
        outcome = Outcome()
        started = time.monotonic()
        self._request((nonce, index))
        self.watch.run(outcome, started + self.limits["wall_time_limit_s"], output_limit, cpu_limit,
                       until=lambda o: o.ends_with(ENDED, nonce))
        if not self.watch.finish(outcome, nonce, started, output_limit, RUNNER_FORKSERVER_AND_ZYGOTE):
            self.lost = outcome.killed_for == "forker"
            os.close(self.ctl_w)
            self._release()  # the watch is closed already: everything was killed
        return outcome

    def _request(self, message) -> None:
        data = marshal.dumps(message)
        self.watch.send(self.ctl_w, len(data).to_bytes(4, "little") + data, close=False)

    def _release(self) -> None:
        self.alive = False
        os.close(self.pidfd)

    def close(self) -> None:
        """End the zygote: it exits when its request channel closes (killed if it does not)."""
        if not self.alive:
            return
        os.close(self.ctl_w)
        if select.select([self.pidfd], [], [], EXIT_WAIT_S)[0]:
            FORKSERVER.reap(self.pid)
            try:  # the runner's child instead, if a test killed the fork server (orphans come here)
                os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                pass
        else:
            kill_all()
        self.watch.close()
        self._release()
