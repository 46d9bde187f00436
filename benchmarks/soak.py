"""Soak: many GRPO-shaped jobs through one executor; every verdict must be its own job's.

A GRPO step scores a *group* of completions per prompt; they share the task id, and right and
wrong programs sit side by side. This script builds such batches (``grpo_batch``): groups of 4
completions of one task, mixing right programs, wrong ones, partly right ones, programs that crash
their test process, slow programs just under the CPU limit and programs over it, and ``assert``,
``call`` and ``stdio`` tests. Each job's right verdict (status and per-test statuses) is known in
advance, so a verdict that reaches the wrong completion is counted as a mismatch, whatever its
cause. Containers are recycled often (``--max-jobs-per-container``) so that the pool's replace
path runs many times.

It prints jobs/s, faults, retries, reply mismatches (from the executor's own counters), wrong
verdicts (checked here), and the memory of the client process and (Docker) of the pool's
containers at the start and the end; it exits 1 if any verdict was not its own job's, or any job
faulted, so ``make bench`` fails on it. ``--executor ray`` runs the same batches through a
``RayExecutor`` (the local Ray, started here if none runs; ``--ray-address`` for another)::

    python benchmarks/soak.py [--jobs 20000] [--batch 656] [--workers 2] [--max-jobs-per-container 200]
    python benchmarks/soak.py --executor ray [--ray-address auto]

``tests/test_verdict_identity.py`` runs the short form of it on every test run (2,000 jobs per
executor); this script is the long one.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

from sandbox import EXECUTOR_KINDS, DockerExecutor, Job, Limits, TestCase, Verdict, make_executor

GROUP = 4  # completions per prompt (TRL's num_generations)
SLOW_LIMIT_S = 0.1  # CPU seconds per test of the slow programs

# kinds of completion and their shares of a batch
KINDS = {"right": 40, "wrong": 30, "partial": 12, "crash": 6, "exit": 4, "slow_ok": 2, "slow_over": 1}


@dataclass(frozen=True)
class Expected:
    """The verdict a job deserves: its status and per-test statuses."""

    status: str
    tests: tuple[str, ...]

    def matches(self, verdict: Verdict) -> bool:
        return verdict.status == self.status and tuple(t.status for t in verdict.test_results) == self.tests


def _program(kind: str, task: int) -> str:
    """A program for task ``task``: ``f(x)`` should return ``x * 3 + task``; run as a script, it
    prints ``f`` of the number on stdin."""
    body = {
        "right": f"    return x * 3 + {task}\n",
        "wrong": f"    return x * 3 + {task + 1}\n",
        "partial": f"    return x * 3 + {task} if x < 2 else -1\n",
        "crash": "    import os, signal\n    os.kill(os.getpid(), signal.SIGSEGV)\n",
        "exit": "    import os\n    os._exit(0)\n",
        "slow_ok": (f"    import time\n    t = time.process_time()\n"
                    f"    while time.process_time() - t < {SLOW_LIMIT_S * 0.4}:\n        pass\n"
                    f"    return x * 3 + {task}\n"),
        "slow_over": "    while True:\n        pass\n",
    }[kind]
    return f"def f(x):\n{body}\n\nif __name__ == '__main__':\n    print(f(int(input())))\n"


def _tests(task: int, shape: str) -> tuple[tuple[TestCase, ...], tuple[int, ...]]:
    """The task's tests in one shape, and the argument each one passes to ``f``."""
    xs: tuple[int, ...]
    if shape == "assert":
        xs = (0, 1, 5)
        return tuple(TestCase(kind="assert", code=f"assert f({x}) == {x * 3 + task}") for x in xs), xs
    if shape == "call":
        xs = (1, 7)
        return tuple(TestCase(kind="call", fn_name="f", args=[x], expected=x * 3 + task) for x in xs), xs
    return (TestCase(kind="stdio", stdin="4\n", expected_stdout=f"{12 + task}\n"),), (4,)


def _expected(kind: str, shape: str, xs: tuple[int, ...]) -> Expected:
    if kind in ("right", "slow_ok"):
        statuses = ("passed",) * len(xs)
    elif kind == "partial":
        statuses = tuple("passed" if x < 2 else "failed" for x in xs)
    elif kind == "exit":  # no pass recorded; as a script, an empty output
        statuses = ("failed" if shape == "stdio" else "runtime_error",) * len(xs)
    else:
        statuses = ({"wrong": "failed", "crash": "runtime_error", "slow_over": "timeout"}[kind],) * len(xs)
    failed = [s for s in statuses if s != "passed"]
    return Expected(failed[0] if failed else "passed", statuses)


def grpo_batch(n_jobs: int, seed: int = 0, first_task: int = 0,
               distinct: bool = True) -> tuple[list[Job], list[Expected]]:
    """``n_jobs`` jobs in groups of ``GROUP`` completions of one task each (the group's jobs share
    ``job_id``, the task id), with the verdict each one deserves.

    Args:
        n_jobs: how many jobs (the last group may be short).
        seed: the random mix of completion kinds and test shapes.
        first_task: the number of the first task (tasks differ in their expected values).
        distinct: give every program a comment of its own, so that every job runs; else about a
            third are copies of another job of their group (as in GRPO at a low temperature),
            which an executor runs once (``sandbox.dedup``).

    Returns:
        ``(jobs, expected)``, aligned.
    """
    rng = random.Random(seed)
    kinds, weights = list(KINDS), list(KINDS.values())
    jobs: list[Job] = []
    expected: list = []
    task = first_task
    while len(jobs) < n_jobs:
        shape = rng.choice(("assert", "assert", "call", "stdio"))
        tests, xs = _tests(task, shape)
        for _ in range(min(GROUP, n_jobs - len(jobs))):
            kind = rng.choices(kinds, weights)[0]
            slow = kind in ("slow_ok", "slow_over")
            limits = Limits(time_limit_s=SLOW_LIMIT_S if slow else 1.0, memory_limit_mb=128)
            program = _program(kind, task) + (f"# completion {len(jobs)}\n" if distinct else "")
            jobs.append(Job(program=program, tests=tests, limits=limits, job_id=f"soak/{task}"))
            expected.append(_expected(kind, shape, xs))
        task += 1
    return jobs, expected


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def containers_memory_mb(executor) -> list[float]:
    """Memory in use (cgroup usage less page cache) of each of the pool's containers, MiB (a
    ``DockerExecutor``'s; none for another executor, whose pools live in other processes)."""
    if not isinstance(executor, DockerExecutor):
        return []
    usage = []
    for cid in executor.container_ids():
        stats = executor.client.api.stats(cid, stream=False)
        mem = stats.get("memory_stats", {})
        cache = mem.get("stats", {}).get("inactive_file", mem.get("stats", {}).get("cache", 0))
        usage.append((mem.get("usage", 0) - cache) / 2**20)
    return usage


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--executor", choices=EXECUTOR_KINDS, default="docker")
    parser.add_argument("--ray-address", default=None, help="the Ray cluster (--executor ray); default: the local one")
    parser.add_argument("--jobs", type=int, default=20000)
    parser.add_argument("--batch", type=int, default=656, help="jobs per executor.run (a GRPO step's completions)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-jobs-per-container", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    with make_executor(args.executor, concurrency=args.workers, ray_address=args.ray_address,
                       max_jobs_per_container=args.max_jobs_per_container) as ex:
        client_start, containers_start = _rss_mb(), containers_memory_mb(ex)
        wrong, done, task = 0, 0, 0
        started = time.perf_counter()
        while done < args.jobs:
            n = min(args.batch, args.jobs - done)
            jobs, expected = grpo_batch(n, seed=args.seed + done, first_task=task)
            task += (n + GROUP - 1) // GROUP
            verdicts = ex.run(jobs)
            wrong += sum(not e.matches(v) and v.status != "sandbox_error"
                         for e, v in zip(expected, verdicts, strict=True))
            done += n
        seconds = time.perf_counter() - started
        client_end, containers_end = _rss_mb(), containers_memory_mb(ex)
        stats = ex.stats()
    print(f"{args.executor}: jobs {done} in {seconds:.1f} s: {done / seconds:.1f} jobs/s ({args.workers} workers, "
          f"batches of {args.batch}, a container replaced every {args.max_jobs_per_container} jobs)")
    print(f"faults {stats.faults}, retries {stats.retries}, reply mismatches {stats.mismatches}, "
          f"sandbox_error verdicts {stats.sandbox_errors}, containers started {stats.containers_started} "
          f"(recycled {stats.recycled})")
    print(f"wrong verdicts (a verdict that is not its own program's): {wrong}")
    print(f"client RSS: {client_start:.1f} -> {client_end:.1f} MiB")
    if containers_start:
        print("containers (MiB in use): " + ", ".join(f"{a:.1f}" for a in containers_start) + " -> "
              + ", ".join(f"{b:.1f}" for b in containers_end))
    if wrong or stats.faults or stats.mismatches or stats.sandbox_errors or stats.dedup_hits:
        sys.exit(f"soak failed: {wrong} wrong verdict(s), {stats.faults} fault(s), {stats.mismatches} reply "
                 f"mismatch(es), {stats.sandbox_errors} sandbox_error(s), {stats.dedup_hits} dedup hit(s)")


if __name__ == "__main__":
    main()
