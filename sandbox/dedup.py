"""Run identical jobs once: the copies of a batch share one run and each gets its own verdict.

A GRPO group at low temperature often holds the same program several times over; its copies
would run the same tests in the same sandbox for the same verdict. Two jobs are the same job
only when everything that decides a verdict is equal: the program text, the language, every
test case (kind, code, stdin, expected output or value, arguments), the limits, the stdio
comparison and its float tolerance; that is, when the request the runner would receive is the
same, byte for byte (``Job.to_wire``, without the submission id). ``job_id`` (free text for
logs) is not part of it. Every copy gets an independent copy of the verdict.

What it gives up: a program whose verdict depends on chance or on the clock (``random``
without a seed, timing) is run once for all its copies in the batch.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from dataclasses import dataclass

from sandbox.types import Job, Verdict


def job_key(job: Job) -> str:
    """The identity of what a job asks the sandbox: the runner's request without its
    submission id, as JSON in the order the runner reads it (every field that can change a verdict,
    none that cannot). Keys are not sorted: a program sees the order of a dict it is given
    (``kwargs``, a dict in ``args``), so two orders are two jobs."""
    return json.dumps(job.to_wire(""), ensure_ascii=True, allow_nan=True)


@dataclass(frozen=True)
class Collapsed:
    """A batch with its copies folded together.

    Attributes:
        unique: the distinct jobs, in the order of their first copy.
        where: for each job of the batch, the index of its job in ``unique``.
    """

    unique: list[Job]
    where: list[int]

    @property
    def hits(self) -> int:
        """Jobs of the batch that are copies of an earlier one (runs saved)."""
        return len(self.where) - len(self.unique)

    def copies(self) -> dict[int, list[int]]:
        """For each index in ``unique``, the indices of the batch's jobs that are copies of it."""
        out: dict[int, list[int]] = {}
        for i, u in enumerate(self.where):
            out.setdefault(u, []).append(i)
        return out

    def expand(self, verdicts: Sequence[Verdict]) -> list[Verdict]:
        """The verdict of every job of the batch, in order, from the verdicts of ``unique``:
        the first copy gets the verdict itself, every later copy an independent copy of it."""
        if len(verdicts) != len(self.unique):
            raise ValueError(f"{len(verdicts)} verdicts for {len(self.unique)} distinct jobs")
        seen = [False] * len(self.unique)
        out = []
        for i in self.where:
            out.append(copy.deepcopy(verdicts[i]) if seen[i] else verdicts[i])
            seen[i] = True
        return out


def collapse(jobs: Sequence[Job]) -> Collapsed:
    """Fold the identical jobs of a batch together (see the module docstring for "identical")."""
    if len(jobs) == 1:  # nothing to fold (a service's one-job runs): no key to write
        return Collapsed([jobs[0]], [0])
    index: dict[str, int] = {}
    unique: list[Job] = []
    where = []
    for job in jobs:
        key = job_key(job)
        i = index.get(key)
        if i is None:
            i = index[key] = len(unique)
            unique.append(job)
        where.append(i)
    return Collapsed(unique, where)
