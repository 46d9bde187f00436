"""Per language: compile seconds per job and run milliseconds per test, on stdio-basics, in one run.

Runs the reference solution of every stdio-basics problem in each of the suite's languages through
one ``DockerExecutor`` (a compile per job, then a fresh process per test: 5 tests per problem), the
languages taking turns problem by problem so that all of them see the same drift of a shared
machine. Prints, per language, the median and p90 compile time (the runner's compile step, the
compiler's processes included; Python has none), the median wall-clock and CPU milliseconds per
test, the median seconds per job, and the ratios to C++ (compile) and C (run), the sandbox's
native peers.

With ``--before-image TAG`` (an image built from an earlier tree, such as main's: ``grpo-code
sandbox build`` there prints its tag), the same jobs also run on that image, the two taking turns
problem by problem (which goes first alternates), each turn in a fresh container placed as the
other's was (on the CPU least loaded then: two live pools would be pinned to different CPUs, and a
shared machine's CPUs differ), and a second table gives,
per language, the median compile seconds, the median CPU and wall milliseconds per test and the
median of each job's wall milliseconds over its tests (its compile included), before and after, and
after / before: the median over the problems (rounds, with ``--scanner``) of the ratio at each (the
two images' turns there are close in time; a shared machine's load drifts over the run).

With ``--scanner N``, the jobs are instead one Java program that reads its input with a
``Scanner`` (java.util's), N tests a job, one job a round (``--rounds``): the per-test figures issue
43 measured. Scanner is the common idiom, and a dearer start than the references' (which read
with ``StringTokenizer`` or a ``BufferedReader``): its locale set-up costs the JVM about 25 ms of
CPU more, in the JDK's own code (its classes come from the image's archive already).

    python benchmarks/languages.py [--problems N] [--rounds 1] [--concurrency 1] [--before-image TAG]
    python benchmarks/languages.py --scanner 30 --rounds 10 [--before-image TAG]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import time
from collections import defaultdict

from grpo_code.suites.registry import load_suite
from grpo_code.suites.tasks import Task
from sandbox import DockerExecutor, Job, TestCase

SCANNER_PROGRAM = """import java.util.Scanner;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int n = in.nextInt();
        long sum = 0;
        for (int i = 0; i < n; i++) sum += in.nextLong();
        System.out.println(sum);
    }
}
"""

Batch = list[tuple[str, str, Job]]  # (id, language, job) of the jobs one executor.run takes
MEASURES = ("compile", "cpu", "wall", "job")


class Timings:
    """What one image's runs measured, per language."""

    def __init__(self) -> None:
        # measure -> language -> values: compile seconds per job, CPU and wall ms per test, and
        # each job's wall (its compile included) in ms over its tests
        self.values: dict[str, dict[str, list[float]]] = {m: defaultdict(list) for m in MEASURES}
        self.job_s: dict[str, list[float]] = defaultdict(list)
        self.turns: list[dict[str, dict[str, float]]] = []  # per batch: language -> measure -> median
        self.failures: list[tuple[str, str]] = []

    def add(self, batch: Batch, verdicts) -> None:
        turn: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        for (job_id, language, _), verdict in zip(batch, verdicts, strict=True):
            if not verdict.passed:
                self.failures.append((job_id, verdict.status))
                continue
            figures = {"compile": [verdict.compile_time_s], "cpu": [t.cpu_time_s * 1000 for t in verdict.test_results],
                       "wall": [t.time_s * 1000 for t in verdict.test_results],
                       "job": [verdict.run_time_s * 1000 / len(verdict.test_results)]}
            for measure, values in figures.items():
                self.values[measure][language] += values
                turn[language][measure] += values
            self.job_s[language].append(verdict.run_time_s)
        self.turns.append({lang: {measure: statistics.median(values) for measure, values in measures.items()}
                           for lang, measures in turn.items()})


def _stdio_basics(problems: int | None, rounds: int) -> tuple[list[str], list[tuple[str, Batch]]]:
    """The suite's languages, and a batch per problem and round: the problem's reference in every
    language, the languages' order turned by one each problem."""
    suite = load_suite("stdio-basics")
    by_problem: dict[str, dict[str, Task]] = defaultdict(dict)
    for task in suite:
        by_problem[task.metadata["problem"]][task.language] = task
    languages = suite.languages
    batches = []
    for round_ in range(rounds):
        for i, problem in enumerate(list(by_problem)[:problems]):
            shift = (i + round_) % len(languages)
            tasks = [by_problem[problem][lang] for lang in languages[shift:] + languages[:shift]]
            batches.append((f"round {round_ + 1}, problem {i + 1} ({problem})",
                            [(t.task_id, t.language, t.job(t.reference_solution or "")) for t in tasks]))
    return languages, batches


def _scanner(tests: int, rounds: int) -> tuple[list[str], list[tuple[str, Batch]]]:
    """A batch per round: one Java job of ``tests`` tests whose program reads with ``Scanner``."""
    cases = []
    for i in range(tests):
        values = [(i * 7919 + k * 104729) % 2_000_001 - 1_000_000 for k in range(1 + i % 10)]
        cases.append(TestCase(kind="stdio", stdin=f"{len(values)}\n{' '.join(map(str, values))}\n",
                              expected_stdout=f"{sum(values)}\n"))
    job = Job(program=SCANNER_PROGRAM, tests=tuple(cases), language="java")
    return ["java"], [(f"round {r + 1}", [("java-scanner", "java", job)]) for r in range(rounds)]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _print_table(timings: Timings, languages: list[str]) -> None:
    compile_s, test_ms, cpu_ms = (timings.values[m] for m in ("compile", "wall", "cpu"))
    base_compile = _median(compile_s["cpp"])
    base_run = _median(test_ms["c"])
    print(f"{'language':<11} {'compile s p50':>13} {'p90':>6} {'/ C++':>6} {'test ms p50':>11} {'p90':>7} "
          f"{'cpu ms p50':>10} {'/ C':>6} {'job s p50':>9}")
    for lang in languages:
        if not compile_s[lang]:
            print(f"{lang:<11} no passing job")
            continue
        c50, c90 = statistics.median(compile_s[lang]), _percentile(compile_s[lang], 0.9)
        t50, t90 = statistics.median(test_ms[lang]), _percentile(test_ms[lang], 0.9)
        cpu50 = statistics.median(cpu_ms[lang])
        ratio_c = f"{c50 / base_compile:.2f}" if base_compile else "-"
        ratio_t = f"{t50 / base_run:.1f}" if base_run else "-"
        print(f"{lang:<11} {c50:>13.3f} {c90:>6.2f} {ratio_c:>6} {t50:>11.1f} {t90:>7.1f} {cpu50:>10.1f} {ratio_t:>6} "
              f"{statistics.median(timings.job_s[lang]):>9.2f}")


def _print_comparison(before: Timings, after: Timings, languages: list[str]) -> None:
    """Per language and measure: the medians before and after, and the median over the batches of
    after / before in the batch (the two images' turns at one problem are minutes apart at most;
    the load of a shared machine drifts more over a whole run)."""
    def cell(lang: str, measure: str, digits: int) -> str:
        b, a = _median(before.values[measure][lang]), _median(after.values[measure][lang])
        ratios = [t_a[lang][measure] / t_b[lang][measure] for t_b, t_a in zip(before.turns, after.turns, strict=True)
                  if lang in t_a and lang in t_b and t_b[lang][measure]]
        if b is None or a is None or not ratios:
            return f"{'-':>23}"
        return f"{b:>8.{digits}f} {a:>8.{digits}f} {statistics.median(ratios):>5.2f}"

    print(f"{'language':<11} {'compile s: before after  a/b':>29} {'cpu ms/test: before after  a/b':>31} "
          f"{'wall ms/test: before after  a/b':>32} {'job ms/test: before after  a/b':>31}")
    for lang in languages:
        print(f"{lang:<11} {cell(lang, 'compile', 3):>29} {cell(lang, 'cpu', 1):>31} {cell(lang, 'wall', 1):>32} "
              f"{cell(lang, 'job', 1):>31}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=None, help="the first N problems (default all 42)")
    parser.add_argument("--rounds", type=int, default=1, help="times through the problems (default 1)")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="containers (default 1: each test's timing is not shared with another of ours)")
    parser.add_argument("--before-image", default=None,
                        help="also run every job on this image (an earlier tree's), taking turns, and compare")
    parser.add_argument("--scanner", type=int, default=None, metavar="N",
                        help="instead, a Java job reading with java.util.Scanner, N tests, one a round")
    args = parser.parse_args()

    languages, batches = (_scanner(args.scanner, args.rounds) if args.scanner
                          else _stdio_basics(args.problems, args.rounds))
    runs = [("after", None, Timings())]
    if args.before_image:
        runs.append(("before", args.before_image, Timings()))
    with contextlib.ExitStack() as stack:
        # One image: one executor for the whole run. Two: a fresh executor for each image's turn,
        # placed as the other's was (the least loaded CPUs then); two live pools would be pinned to
        # different CPUs, and a shared machine's differ (the JVM's test by hand, one moment, CPU 0
        # against CPU 1: 197 against 102 ms of wall, 103 against 101 of CPU).
        single = stack.enter_context(DockerExecutor(concurrency=args.concurrency)) if len(runs) == 1 else None
        for i, (name, batch) in enumerate(batches):
            timed = {}
            for label, image, timings in runs[i % len(runs):] + runs[:i % len(runs)]:
                with (contextlib.nullcontext(single) if single
                      else DockerExecutor(concurrency=args.concurrency, image=image)) as executor:
                    started = time.perf_counter()
                    timings.add(batch, executor.run([job for _, _, job in batch]))
                    timed[label] = (time.perf_counter() - started) / len(batch)
            print(f"[{i + 1}/{len(batches)}] {name}: "
                  + ", ".join(f"{label} {s:.2f} s per job" for label, s in sorted(timed.items()))
                  + f" (load average {os.getloadavg()[0]:.1f})", flush=True)
    what = f"a Java Scanner job of {args.scanner} tests" if args.scanner else f"{len(batches) // args.rounds} problems"
    print(f"\n{what} x {args.rounds} round(s), {args.concurrency} container(s)")
    for label, _, timings in runs:
        if len(runs) > 1:
            print(f"\n{label}:")
        _print_table(timings, languages)
    if args.before_image:
        print(f"\nbefore ({args.before_image}) and after, medians:")
        _print_comparison(runs[1][2], runs[0][2], languages)
    for label, _, timings in runs:
        if timings.failures:
            print(f"\n{label}: {len(timings.failures)} reference(s) did not pass: {timings.failures[:10]}")


if __name__ == "__main__":
    main()
