"""A job in an executor's hands: its place in the batch, its attempts, and the verdict of a job
given up after its last one (the one owner of the rule that tells a program that broke its sandbox
from a sandbox that failed). ``DockerExecutor`` retries on fresh containers, ``RayExecutor`` on
other actors; both keep their jobs in flight as ``JobAttempts``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.types import Job, Verdict


@dataclass
class JobAttempts:
    """A job of a ``run`` in one worker's hands: its place in the batch, attempts, last error, and
    how many of its faults came after its program had started (``program_faults``).

    Attributes:
        index: the job's place in the batch (of its distinct jobs).
        job: the job.
        attempt: the attempt under way (1 for the first).
        error: the last fault's message.
        program_faults: faults that came after the program started.
        flags: the monitor's flags of the faulted attempts.
        abandoned: its run's caller has gone (an ``arun`` cancelled): a worker that has not
            started it drops it.
    """

    index: int
    job: Job
    attempt: int = 1
    error: str = ""
    program_faults: int = 0
    flags: tuple[str, ...] = ()
    abandoned: bool = False

    def given_up(self) -> Verdict:
        """The verdict of a job whose every attempt failed (``error``: the last).

        A job that broke its container after its program started, again on every fresh
        container, broke it itself: a failure with reward 0, flagged ``sandbox_tamper`` (a
        ``sandbox_error`` would mask it in training, and a policy would learn that breaking the
        judge is free). Any other fault is the infrastructure's: ``sandbox_error``.
        """
        if self.program_faults == self.attempt:
            return Verdict.program_level(
                "runtime_error", len(self.job.tests),
                f"the program broke its sandbox on {self.attempt} fresh containers: {self.error}",
                attempts=self.attempt, flags=(*self.flags, "sandbox_tamper"))
        return Verdict.program_level("sandbox_error", len(self.job.tests),
                                     f"sandbox failed {self.attempt} times: {self.error}", attempts=self.attempt,
                                     flags=self.flags)
