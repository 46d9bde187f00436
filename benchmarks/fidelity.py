"""Fidelity: a correct program's verdict through the judge is the one it gets when run alone.

Runs every program of the fidelity corpus (``tests/fidelity/``, read by ``fidelity_corpus``:
correct programs written as people and models write them, in every language, in the stdio, call
and assert forms) twice, in the same image (``sandbox.image.image_tag``):

- plainly, without the harness: one container per language (``--network none``, the program's
  uid 10001, a read-only root and a writable ``/tmp`` as the sandbox's), running
  ``benchmarks/fidelity_plain.py`` over all of that language's programs: each compiled with its
  language's ``compile_command`` and run with its ``run_command``, one fresh process per test (that
  file's docstring says how a call and an assert test run). A stdio test passes when the process
  exits with status 0 and its stdout matches by the judge's own comparison
  (``sandbox.inside.compare.compare_output``); a call test when the process exits with status 0
  after writing a value equal to the expected one (``sandbox.inside.compare.json_equal``); an
  assert test when the process exits with status 0 after the test's statements ran to their end.
  Two languages' containers run at a time.
- through the judge: each program as a ``sandbox.Job`` (its task's job), all of them through one
  ``sandbox.DockerExecutor``.

The plain run is the reference. A program agrees when each of its tests has the same outcome
(passed or not) both ways, but a test the corpus documents as differing by design (``differs``:
docs/architecture.md says why), which must differ; the target is 100%. It prints the agreement per language and form,
every disagreement (the plain outcome and the judge's status and message, test by test), the
programs whose plain run fails (the corpus's own errors: the program or its tests are wrong),
the plain test that took the most CPU and the one that wrote the most, the overall agreement and
the wall time of each side, and exits 1 if any program disagrees or fails its plain run.
``--plain-only`` checks the corpus itself (no judge); ``--json OUT`` writes every test's outcomes
both ways::

    python benchmarks/fidelity.py [--language python,go] [--ids python/sum-open0,...] [--json OUT]
                                  [--concurrency 2] [--plain-only]
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from fidelity_corpus import EXTENSIONS, CorpusError, Program, load_corpus  # noqa: E402
from sandbox import ContainerSettings, DockerExecutor, SandboxError, Verdict  # noqa: E402
from sandbox.container import connect  # noqa: E402
from sandbox.image import image_tag, require_image  # noqa: E402
from sandbox.inside.compare import compare_output, json_equal  # noqa: E402
from sandbox.inside.procs import PROGRAM_UID  # noqa: E402

PLAIN_RUNNER = Path(__file__).resolve().parent / "fidelity_plain.py"
PLAIN_LABEL = "grpo-code.fidelity-plain"  # not the sandbox's label: `grpo-code sandbox clean` leaves it alone
PLAIN_WALL_S = 30.0  # per test: the reference is not limited, only stopped if it hangs
PLAIN_PARALLEL = 2  # languages' containers at a time


@dataclass(frozen=True)
class Outcome:
    """One test's outcome on one side: passed or not, and why not."""

    passed: bool
    detail: str = ""
    cpu_s: float | None = None  # the test's CPU seconds (plain runs: its process and what it waited for)
    output_bytes: int | None = None  # stdout + stderr (plain runs)


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


def plain_outcome(program: Program, index: int, run: dict) -> Outcome:
    """The outcome of test ``index`` of ``program`` from its plain run ``run`` (``fidelity_plain``'s record)."""
    test = program.task.tests[index]
    if run["timed_out"]:
        return Outcome(False, f"still running after {PLAIN_WALL_S:g} s")
    if run["exit_code"] != 0:
        how = f"signal {run['signal']}" if run["signal"] is not None else f"exit status {run['exit_code']}"
        return Outcome(False, f"{how}: {_last_line(run['stderr'])}")
    if test.kind == "stdio":
        problem = compare_output(run["stdout"], test.expected_stdout or "", program.task.compare,
                                 program.task.float_tolerance)
        return Outcome(problem is None, problem or "")
    answer = run["answer"]
    if answer is None:
        return Outcome(False, "ended without an answer")
    if test.kind == "assert":
        return Outcome(True)
    if "not_plain" in answer:
        return Outcome(False, f"returned {answer['not_plain']}, not plain data")
    got = json.loads(answer["value"])
    if json_equal(got, test.expected):
        return Outcome(True)
    return Outcome(False, f"expected {json.dumps(test.expected)[:100]}, got {answer['value'][:100]}")


def plain_outcomes(program: Program, result: dict) -> list[Outcome]:
    """Every test's plain outcome of one program."""
    if result["compile"] is not None and not result["compile"]["ok"]:
        failed = Outcome(False, f"compile error: {_last_line(result['compile']['output'])}")
        return [failed] * len(program.task.tests)
    return [replace(plain_outcome(program, i, run), cpu_s=run["cpu_s"], output_bytes=run["output_bytes"])
            for i, run in enumerate(result["tests"])]


def _attach_run(client, image: str, payload: bytes) -> tuple[bytes, bytes, int]:
    """Run the plain runner in a fresh container of ``image``, ``payload`` on its stdin; its stdout,
    stderr and exit status. The container is removed whatever happens."""
    from docker.utils.socket import frames_iter

    api = client.api
    settings = ContainerSettings()
    host_config = api.create_host_config(
        network_mode="none", read_only=True,
        tmpfs={"/tmp": f"rw,exec,nosuid,nodev,size={settings.tmpfs_mb}m,mode=1777"})
    config = api.create_container_config(
        image, ["python3", "-c", PLAIN_RUNNER.read_text(encoding="utf-8")], stdin_open=True, tty=False,
        user=f"{PROGRAM_UID}:{PROGRAM_UID}", working_dir="/tmp", labels={PLAIN_LABEL: "1"}, host_config=host_config)
    config["StdinOnce"] = True  # our end of the stream closing is the runner's end of input
    container = api.create_container_from_config(config)["Id"]
    try:
        response = api.attach_socket(container, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1})
        sock = getattr(response, "_sock", response)
        api.start(container)
        sock.sendall(payload)
        sock.shutdown(socket.SHUT_WR)
        streams = {1: bytearray(), 2: bytearray()}
        for stream, data in frames_iter(sock, tty=False):
            streams[stream] += data
        response.close()
        status = api.wait(container)["StatusCode"]
        return bytes(streams[1]), bytes(streams[2]), status
    finally:
        api.remove_container(container, force=True)


def plain_runs(programs: Sequence[Program], image: str) -> dict[str, list[Outcome]]:
    """Every program's plain outcomes, by id: one container per language.

    Raises:
        DockerUnavailable, ImageMissing: no daemon, or no image (the message says how to fix it).
        RuntimeError: a plain runner failed (its stderr says why).
    """
    client = connect()
    require_image(client, image)
    by_language: dict[str, list[Program]] = defaultdict(list)
    for program in programs:
        by_language[program.language].append(program)

    def run_language(batch: list[Program]) -> dict[str, list[Outcome]]:
        # what each test runs, never what it must give: expected values stay here
        specs = [{"id": p.id, "language": p.language, "program": p.program, "memory_mb": p.task.limits.memory_limit_mb,
                  "tests": [{k: v for k, v in t.check_dict().items() if k not in ("expected", "expected_stdout")}
                            for t in p.task.tests]} for p in batch]
        payload = {"wall_s": PLAIN_WALL_S, "programs": specs}
        out, err, status = _attach_run(client, image, json.dumps(payload).encode())
        if status != 0:
            raise RuntimeError(f"the plain runner failed ({batch[0].language}, status {status}): "
                               f"{err.decode('utf-8', 'replace')[-2000:]}")
        results = json.loads(out)["results"]
        return {p.id: plain_outcomes(p, r) for p, r in zip(batch, results, strict=True)}

    outcomes: dict[str, list[Outcome]] = {}
    with ThreadPoolExecutor(PLAIN_PARALLEL) as pool:
        for part in pool.map(run_language, by_language.values()):
            outcomes.update(part)
    return outcomes


def judge_runs(programs: Sequence[Program], concurrency: int) -> dict[str, tuple[Verdict, list[Outcome]]]:
    """Every program's verdict through the judge (one ``DockerExecutor``) and its tests' outcomes, by id."""
    jobs = [replace(p.task.job(p.program), capture_output=True) for p in programs]
    with DockerExecutor(concurrency=concurrency) as executor:
        verdicts = executor.run(jobs)
    found = {}
    for program, verdict in zip(programs, verdicts, strict=True):
        if verdict.test_results:
            outcomes = [Outcome(t.status == "passed", "" if t.status == "passed" else f"{t.status}: {t.message}")
                        for t in verdict.test_results]
        else:  # compile_error, sandbox_error: no test ran
            outcomes = [Outcome(False, f"{verdict.status}: {_last_line(verdict.compile_output or '')}")] \
                * len(program.task.tests)
        found[program.id] = (verdict, outcomes)
    return found


@dataclass(frozen=True)
class Comparison:
    """One program's outcomes both ways, test by test."""

    program: Program
    plain: list[Outcome]
    judge: list[Outcome]

    @property
    def agrees(self) -> bool:
        """Every test has the same outcome (passed or not) both ways, but a documented difference,
        which differs (a program's ``differs``)."""
        return all((a.passed == b.passed) != (i in self.program.differs)
                   for i, (a, b) in enumerate(zip(self.plain, self.judge, strict=True)))

    def record(self) -> dict:
        """The JSON form (``--json``)."""
        p = self.program
        return {"id": p.id, "language": p.language, "form": p.form, "tags": list(p.tags), "agree": self.agrees,
                "tests": [{"plain": {"passed": a.passed, "detail": a.detail, "cpu_s": a.cpu_s,
                                     "output_bytes": a.output_bytes},
                           "judge": {"passed": b.passed, "detail": b.detail}}
                          for a, b in zip(self.plain, self.judge, strict=True)]}


class Tally:
    """Counts of one row of the agreement table."""

    def __init__(self) -> None:
        self.programs = self.tests = self.plain_passed = self.judge_passed = self.agree = self.tests_agree = 0
        self.documented = 0  # tests whose difference is by design (a program's ``differs``)

    def add(self, c: Comparison) -> None:
        self.programs += 1
        self.tests += len(c.plain)
        self.plain_passed += all(o.passed for o in c.plain)
        self.judge_passed += all(o.passed for o in c.judge)
        self.agree += c.agrees
        self.tests_agree += sum(a.passed == b.passed for a, b in zip(c.plain, c.judge, strict=True))
        self.documented += len(c.program.differs)


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def report(comparisons: Sequence[Comparison], seconds: dict[str, float], image: str) -> bool:
    """Print the agreement table, the disagreements, the failing plain runs, the heaviest plain test and
    the wall times; return whether every program agreed and passed its plain run."""
    rows: dict[tuple[str, str], Tally] = defaultdict(Tally)
    for c in comparisons:
        rows[c.program.language, c.program.form].add(c)
        rows["all", ""].add(c)
    total = rows["all", ""]
    print(f"fidelity corpus: {total.programs} programs, {total.tests} tests; image {image}\n")
    print(f"{'language':<11} {'form':<7} {'programs':>8} {'tests':>6} {'plain ok':>8} {'judge ok':>8} "
          f"{'agree':>6} {'agree %':>8} {'tests agree %':>13}")
    order = {name: i for i, name in enumerate(EXTENSIONS)}
    for (language, form), row in sorted(rows.items(), key=lambda kv: (order.get(kv[0][0], 99), kv[0][1])):
        print(f"{language:<11} {form:<7} {row.programs:>8} {row.tests:>6} {row.plain_passed:>8} {row.judge_passed:>8} "
              f"{row.agree:>6} {_percent(row.agree, row.programs):>8} {_percent(row.tests_agree, row.tests):>13}")
    disagreeing = [c for c in comparisons if not c.agrees]
    print(f"\ndisagreements: {len(disagreeing)}")
    for c in disagreeing:
        print(f"  {c.program.id}  [{', '.join(c.program.tags)}]")
        for i, (a, b) in enumerate(zip(c.plain, c.judge, strict=True)):
            if (a.passed != b.passed) != (i in c.program.differs):
                plain_text = "passed" if a.passed else f"failed ({a.detail})"
                note = " (documented to differ: it agrees now; drop it from 'differs')" \
                    if i in c.program.differs else ""
                print(f"    test {i}: plain {plain_text}; judge {'passed' if b.passed else b.detail[:300]}{note}")
    by_design = [(c.program.id, i, why) for c in comparisons for i, why in sorted(c.program.differs.items())]
    print(f"\ndifferences by design (docs/architecture.md): {len(by_design)} tests")
    for program_id, i, why in by_design:
        print(f"  {program_id} test {i}: {why}")
    broken = [c for c in comparisons if not all(o.passed for o in c.plain)]
    print(f"\nplain runs that fail (the corpus's own errors: the program or its tests are wrong): {len(broken)}")
    for c in broken:
        print(f"  {c.program.id}: {next(o.detail for o in c.plain if not o.passed)[:300]}")
    tests = [(o, c.program.id, i) for c in comparisons for i, o in enumerate(c.plain)]
    if tests:
        cpu = max(tests, key=lambda t: t[0].cpu_s or 0.0)
        out = max(tests, key=lambda t: t[0].output_bytes or 0)
        print(f"\nplain runs: most CPU {cpu[0].cpu_s or 0:.2f} s ({cpu[1]} test {cpu[2]}), most output "
              f"{out[0].output_bytes or 0:,} bytes ({out[1]} test {out[2]})")
    print(f"\nagreement: {_percent(total.agree, total.programs)} of programs ({total.agree}/{total.programs}), "
          f"{_percent(total.tests_agree, total.tests)} of tests ({total.tests_agree}/{total.tests}; "
          f"{total.documented} differ by design)")
    print(f"wall time: plain runs {seconds['plain']:.1f} s, judge {seconds['judge']:.1f} s, "
          f"total {seconds['plain'] + seconds['judge']:.1f} s")
    return not disagreeing and not broken


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 0 when every program agrees and passes its plain run, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", help="only these languages, comma-separated")
    parser.add_argument("--ids", help="only these programs, comma-separated ids (LANGUAGE/NAME)")
    parser.add_argument("--json", metavar="OUT", help="write every program's outcomes here (JSON)")
    parser.add_argument("--concurrency", type=int, default=2, help="the judge's containers (default 2)")
    parser.add_argument("--plain-only", action="store_true",
                        help="only the plain runs (checks the corpus itself: every program must pass them)")
    args = parser.parse_args(argv)
    try:
        programs = load_corpus(args.language.split(",") if args.language else None,
                               args.ids.split(",") if args.ids else None)
    except CorpusError as e:
        parser.error(str(e))
    image = image_tag()
    seconds = {}
    start = time.monotonic()
    try:
        plain = plain_runs(programs, image)
    except SandboxError as e:  # no daemon, no image: the message says how to fix it
        print(f"fidelity: {e}", file=sys.stderr)
        return 2
    seconds["plain"] = time.monotonic() - start
    start = time.monotonic()
    if args.plain_only:
        judged = plain
    else:
        judged = {pid: outcomes for pid, (_, outcomes) in judge_runs(programs, args.concurrency).items()}
    seconds["judge"] = time.monotonic() - start
    comparisons = [Comparison(p, plain[p.id], judged[p.id]) for p in programs]
    ok = report(comparisons, seconds, image)
    if args.json:
        Path(args.json).write_text(json.dumps({"image": image, "seconds": seconds,
                                               "programs": [c.record() for c in comparisons]}, indent=1),
                                   encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
