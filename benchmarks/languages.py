"""Per language: compile seconds per job and run milliseconds per test, on stdio-basics, in one run.

Runs the reference solution of every stdio-basics problem in each of the suite's languages through
one ``DockerExecutor`` (a compile per job, then a fresh process per test: 5 tests per problem), the
languages taking turns problem by problem so that all of them see the same drift of a shared
machine. Prints, per language, the median and p90 compile time (the runner's compile step, the
compiler's processes included; Python has none), the median wall-clock and CPU milliseconds per
test, the median seconds per job, and the ratios to C++ (compile) and C (run), the sandbox's
native peers.

    python benchmarks/languages.py [--problems N] [--rounds 1] [--concurrency 1]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from grpo_code.registry import load_suite
from sandbox import DockerExecutor


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=None, help="the first N problems (default all 42)")
    parser.add_argument("--rounds", type=int, default=1, help="times through the problems (default 1)")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="containers (default 1: each test's timing is not shared with another of ours)")
    args = parser.parse_args()

    suite = load_suite("stdio-basics")
    by_problem: dict[str, dict[str, object]] = defaultdict(dict)
    for task in suite:
        by_problem[task.metadata["problem"]][task.language] = task
    problems = list(by_problem)[: args.problems]
    languages = suite.languages
    compile_s, test_ms, test_cpu_ms, job_s = (defaultdict(list) for _ in range(4))
    failures = []
    with DockerExecutor(concurrency=args.concurrency) as ex:
        for round_ in range(args.rounds):
            for i, problem in enumerate(problems):
                order = languages[(i + round_) % len(languages):] + languages[:(i + round_) % len(languages)]
                tasks = [by_problem[problem][lang] for lang in order]
                started = time.perf_counter()
                verdicts = ex.run([t.job(t.reference_solution) for t in tasks])
                elapsed = (time.perf_counter() - started) / len(tasks)
                for task, verdict in zip(tasks, verdicts, strict=True):
                    if not verdict.passed:
                        failures.append((task.task_id, verdict.status))
                        continue
                    compile_s[task.language].append(verdict.compile_time_s)
                    test_ms[task.language] += [t.time_s * 1000 for t in verdict.test_results]
                    test_cpu_ms[task.language] += [t.cpu_time_s * 1000 for t in verdict.test_results]
                    job_s[task.language].append(verdict.run_time_s)
                print(f"round {round_ + 1}, problem {i + 1}/{len(problems)} ({problem}): {elapsed:.2f} s per job",
                      flush=True)
    base_compile = statistics.median(compile_s["cpp"]) if compile_s["cpp"] else None
    base_run = statistics.median(test_ms["c"]) if test_ms["c"] else None
    print(f"\n{len(problems)} problems x {args.rounds} round(s), {args.concurrency} container(s)")
    print(f"{'language':<11} {'compile s p50':>13} {'p90':>6} {'/ C++':>6} {'test ms p50':>11} {'p90':>7} "
          f"{'cpu ms p50':>10} {'/ C':>6} {'job s p50':>9}")
    for lang in languages:
        if not compile_s[lang]:
            print(f"{lang:<11} no passing job")
            continue
        c50, c90 = statistics.median(compile_s[lang]), _percentile(compile_s[lang], 0.9)
        t50, t90 = statistics.median(test_ms[lang]), _percentile(test_ms[lang], 0.9)
        cpu50 = statistics.median(test_cpu_ms[lang])
        ratio_c = f"{c50 / base_compile:.2f}" if base_compile else "-"
        ratio_t = f"{t50 / base_run:.1f}" if base_run else "-"
        print(f"{lang:<11} {c50:>13.3f} {c90:>6.2f} {ratio_c:>6} {t50:>11.1f} {t90:>7.1f} {cpu50:>10.1f} {ratio_t:>6} "
              f"{statistics.median(job_s[lang]):>9.2f}")
    if failures:
        print(f"\n{len(failures)} reference(s) did not pass: {failures[:10]}")


if __name__ == "__main__":
    main()
