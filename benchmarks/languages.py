"""Per language: compile seconds per job and run milliseconds per test, on stdio-basics, in one run.

Runs the reference solution of every stdio-basics problem in each of the suite's languages through
one ``DockerExecutor`` (a compile per job, then a fresh process per test: 5 tests per problem), the
languages taking turns problem by problem so that all of them see the same drift of a shared
machine. Prints, per language, the median and p90 compile time (the runner's compile step, the
compiler's processes included; Python has none), the median wall-clock and CPU milliseconds per
test, the median seconds per job, and the ratios to C++ (compile) and C (run), the sandbox's
native peers.

With ``--before-image TAG`` (an image built from an earlier tree, such as main's: ``grpo-code
sandbox build`` there prints its tag), the same jobs also run on that image, in a second executor,
the two taking turns problem by problem (which goes first alternates), and a second table gives,
per language, the median compile seconds and the median CPU and wall milliseconds per test before
and after, and after / before.

    python benchmarks/languages.py [--problems N] [--rounds 1] [--concurrency 1] [--before-image TAG]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time
from collections import defaultdict

from grpo_code.suites.registry import load_suite
from grpo_code.suites.tasks import Task
from sandbox import DockerExecutor


class Timings:
    """What one image's runs measured, per language."""

    def __init__(self) -> None:
        self.compile_s: dict[str, list[float]] = defaultdict(list)
        self.test_ms: dict[str, list[float]] = defaultdict(list)
        self.test_cpu_ms: dict[str, list[float]] = defaultdict(list)
        self.job_s: dict[str, list[float]] = defaultdict(list)
        self.failures: list[tuple[str, str]] = []

    def add(self, tasks, verdicts) -> None:
        for task, verdict in zip(tasks, verdicts, strict=True):
            if not verdict.passed:
                self.failures.append((task.task_id, verdict.status))
                continue
            self.compile_s[task.language].append(verdict.compile_time_s)
            self.test_ms[task.language] += [t.time_s * 1000 for t in verdict.test_results]
            self.test_cpu_ms[task.language] += [t.cpu_time_s * 1000 for t in verdict.test_results]
            self.job_s[task.language].append(verdict.run_time_s)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _print_table(timings: Timings, languages: list[str]) -> None:
    base_compile = _median(timings.compile_s["cpp"])
    base_run = _median(timings.test_ms["c"])
    print(f"{'language':<11} {'compile s p50':>13} {'p90':>6} {'/ C++':>6} {'test ms p50':>11} {'p90':>7} "
          f"{'cpu ms p50':>10} {'/ C':>6} {'job s p50':>9}")
    for lang in languages:
        if not timings.compile_s[lang]:
            print(f"{lang:<11} no passing job")
            continue
        c50, c90 = statistics.median(timings.compile_s[lang]), _percentile(timings.compile_s[lang], 0.9)
        t50, t90 = statistics.median(timings.test_ms[lang]), _percentile(timings.test_ms[lang], 0.9)
        cpu50 = statistics.median(timings.test_cpu_ms[lang])
        ratio_c = f"{c50 / base_compile:.2f}" if base_compile else "-"
        ratio_t = f"{t50 / base_run:.1f}" if base_run else "-"
        print(f"{lang:<11} {c50:>13.3f} {c90:>6.2f} {ratio_c:>6} {t50:>11.1f} {t90:>7.1f} {cpu50:>10.1f} {ratio_t:>6} "
              f"{statistics.median(timings.job_s[lang]):>9.2f}")


def _print_comparison(before: Timings, after: Timings, languages: list[str]) -> None:
    def cell(b: float | None, a: float | None, digits: int) -> str:
        if b is None or a is None:
            return f"{'-':>22}"
        ratio = f"{a / b:.2f}" if b else "-"
        return f"{b:>8.{digits}f} {a:>8.{digits}f} {ratio:>5}"

    print(f"{'language':<11} {'compile s: before after  a/b':>28} {'cpu ms/test: before after  a/b':>31} "
          f"{'wall ms/test: before after  a/b':>32}")
    for lang in languages:
        print(f"{lang:<11} {cell(_median(before.compile_s[lang]), _median(after.compile_s[lang]), 3):>28} "
              f"{cell(_median(before.test_cpu_ms[lang]), _median(after.test_cpu_ms[lang]), 1):>31} "
              f"{cell(_median(before.test_ms[lang]), _median(after.test_ms[lang]), 1):>32}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=None, help="the first N problems (default all 42)")
    parser.add_argument("--rounds", type=int, default=1, help="times through the problems (default 1)")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="containers (default 1: each test's timing is not shared with another of ours)")
    parser.add_argument("--before-image", default=None,
                        help="also run every job on this image (an earlier tree's), taking turns, and compare")
    args = parser.parse_args()

    suite = load_suite("stdio-basics")
    by_problem: dict[str, dict[str, Task]] = defaultdict(dict)
    for task in suite:
        by_problem[task.metadata["problem"]][task.language] = task
    problems = list(by_problem)[: args.problems]
    languages = suite.languages
    after, before = Timings(), Timings()
    with contextlib.ExitStack() as stack:
        runs = [("after", stack.enter_context(DockerExecutor(concurrency=args.concurrency)), after)]
        if args.before_image:
            runs.append(("before", stack.enter_context(DockerExecutor(concurrency=args.concurrency,
                                                                      image=args.before_image)), before))
        for round_ in range(args.rounds):
            for i, problem in enumerate(problems):
                shift = (i + round_) % len(languages)
                tasks = [by_problem[problem][lang] for lang in languages[shift:] + languages[:shift]]
                timed = {}
                for label, executor, timings in runs[(i + round_) % len(runs):] + runs[:(i + round_) % len(runs)]:
                    started = time.perf_counter()
                    timings.add(tasks, executor.run([t.job(t.reference_solution or "") for t in tasks]))
                    timed[label] = (time.perf_counter() - started) / len(tasks)
                print(f"round {round_ + 1}, problem {i + 1}/{len(problems)} ({problem}): "
                      + ", ".join(f"{label} {s:.2f} s per job" for label, s in sorted(timed.items())), flush=True)
    print(f"\n{len(problems)} problems x {args.rounds} round(s), {args.concurrency} container(s)")
    for label, _, timings in runs:
        if len(runs) > 1:
            print(f"\n{label}:")
        _print_table(timings, languages)
    if args.before_image:
        print(f"\nbefore ({args.before_image}) and after, medians:")
        _print_comparison(before, after, languages)
    for label, _, timings in runs:
        if timings.failures:
            print(f"\n{label}: {len(timings.failures)} reference(s) did not pass: {timings.failures[:10]}")


if __name__ == "__main__":
    main()
