"""The cost of a ``run_tests`` tool call against a plain ``score`` of the same program, side by side.

One warm ``DockerExecutor``; for each task of the suite (with public tests) two programs, its
reference and a wrong one (the entry point returning None: the report then lists failures). Each
program goes, in turn, through ``CodeEnvironment.run_tests`` (reset, the public tests, the
report: what a model's tool call costs), through ``scoring.ascore_completions`` on the task's public tests
alone (the same sandbox job, without the environment and the report) and through ``ascore_completions`` on all
its tests (what scoring the program costs). One call at a time, the three taking turns program by
program for ``--rounds`` rounds. Prints the p50 and p95 of each in ms and the ratios of the medians.

    python benchmarks/run_tests_cost.py [--suite warmup-python?split=train] [--rounds 5] [--concurrency 2]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from dataclasses import replace

from grpo_code.rl.environment import CodeEnvironmentFactory
from grpo_code.rl.rewards import PassRateReward
from grpo_code.score.scoring import ascore_completions
from grpo_code.suites.registry import load_suite
from sandbox import DockerExecutor


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measure(suite, executor, rounds: int) -> dict[str, list[float]]:
    factory = CodeEnvironmentFactory(PassRateReward(suite, executor))
    env = factory()
    times: dict[str, list[float]] = {"run_tests": [], "score public": [], "score all": []}
    programs = [(t, p) for t in suite if t.public_tests and t.reference_solution
                for p in (t.reference_solution, f"def {t.entry_point}(*args, **kwargs):\n    return None\n")]
    for _ in range(rounds):
        for task, program in programs:
            started = time.perf_counter()
            env.reset(task_id=task.task_id)
            await env.run_tests(program)
            times["run_tests"].append(time.perf_counter() - started)
            started = time.perf_counter()
            await ascore_completions(executor, [(replace(task, tests=task.public_tests), program)])
            times["score public"].append(time.perf_counter() - started)
            started = time.perf_counter()
            await ascore_completions(executor, [(task, program)])
            times["score all"].append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="warmup-python?split=train")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args()
    suite = load_suite(args.suite)
    with DockerExecutor(concurrency=args.concurrency) as executor:
        asyncio.run(measure(suite, executor, 1))  # warm-up: containers, zygotes, caches
        times = asyncio.run(measure(suite, executor, args.rounds))
    tests = {"public": [len(t.public_tests) for t in suite if t.public_tests],
             "all": [len(t.tests) for t in suite if t.public_tests]}
    print(f"suite {args.suite}: {len(tests['all'])} tasks with public tests, {len(times['run_tests'])} calls each; "
          f"tests per job: public {statistics.mean(tests['public']):.1f}, all {statistics.mean(tests['all']):.1f}")
    for name, values in times.items():
        ms = [v * 1000 for v in values]
        print(f"{name:<13} p50 {percentile(ms, 0.5):7.2f} ms   p95 {percentile(ms, 0.95):7.2f} ms")
    p50 = {name: statistics.median(values) for name, values in times.items()}
    print(f"ratio run_tests / score public (the environment and report's overhead): "
          f"{p50['run_tests'] / p50['score public']:.2f}")
    print(f"ratio run_tests / score all (a tool call against scoring the program): "
          f"{p50['run_tests'] / p50['score all']:.2f}")


if __name__ == "__main__":
    main()
