"""Adapters' agreement: a data set's own way of judging a program, and the judge, on the same programs.

For each adapter, a corpus of 30 problems or more in its data set's exact shape
(``tests/fixtures/adapters_corpus/``, made by ``make_corpora.py`` there): ``taco`` (stdio,
call-based functions, ``class Solution`` methods), ``leetcode`` (LeetCodeDataset rows, linked lists
and trees among them), ``evalplus`` (HumanEval+ and MBPP+ release rows), ``codeforces`` (open-r1's
rows, every problem with several right answers and its ``generated_checker``), ``kodcode``
(KodCode-V1 rows: pytest files with parametrize, ``pytest.raises``, fixtures, ``capsys``,
``tmp_path``, ``monkeypatch``, test classes) and ``bigcodebench`` (BigCodeBench rows: ``unittest``
classes with temporary folders, ``unittest.mock.patch`` of what the solution looks up, ``subTest``, numpy and
pandas results; its suite names ``numpy==2.2.6`` and ``pandas==2.3.3``, and both sides run in their
image). Each problem's programs are its reference (open-r1's rows carry none:
``codeforces_solutions.jsonl``) and its first ``--mutants`` (3) mutants
(``grpo_code.curate.mutants``, seed 0: one small change each, as a model's near miss), each judged
twice, in the same image (``sandbox.image.image_tag`` of the suite's packages):

- plainly, as its data set's own harness judges it (``tests/fixtures/adapters_corpus/
  plain_judges.py``, whose docstring says how, each read from the project's own code: TACO's
  ``testing_util``, LeetCodeDataset's ``check(candidate)`` in one process, evalplus's
  ``unsafe_execute`` with the reference's answers computed there, open-r1's checker protocol,
  KodCode's ``pytest`` on ``solution.py``, BigCodeBench's one module and ``unittest.TestResult``),
  in one container per adapter (``--network none``, the program's uid, a read-only root and a
  writable ``/tmp``);
- through the judge: the task the adapter made of the row (``hf:<corpus>?adapter=NAME``), its job
  for the program, through one ``sandbox.DockerExecutor`` per adapter.

A program's verdicts agree when it passes both ways or fails both ways; where the harness judges
test by test (every one but LeetCodeDataset's, whose ``check`` stops at the first failed assert)
each test's outcome is compared too, and for a test file (KodCode, BigCodeBench) each case's, by
its name (a case skipped both ways agrees; one only one side has counts as not passed there). A
**wrong program paid** is one its data set's harness fails and the judge passes (the target: none);
a right one failed, the other way round. The cost of each side is its wall time per program (the
harness: 2 worker threads in one container; the judge: 2 warm containers). It prints a row per
adapter, every disagreement, and exits 1 when fewer than 99% of the programs' verdicts agree or a
wrong program is paid::

    python benchmarks/adapters_agreement.py [--adapters taco,leetcode,evalplus,codeforces,kodcode,bigcodebench]
                                            [--mutants 3] [--concurrency 2] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from grpo_code.curate.mutants import mutants  # noqa: E402
from grpo_code.jsonl import read_records  # noqa: E402
from grpo_code.suites.adapters import evalplus  # noqa: E402
from grpo_code.suites.registry import load_suite  # noqa: E402
from grpo_code.suites.tasks import Task  # noqa: E402
from sandbox import DockerExecutor, SandboxError  # noqa: E402
from sandbox.container import connect  # noqa: E402
from sandbox.image import image_tag, require_image  # noqa: E402
from sandbox.inside.procs import PROGRAM_UID  # noqa: E402

CORPUS = ROOT / "tests" / "fixtures" / "adapters_corpus"
PLAIN_JUDGES = CORPUS / "plain_judges.py"
ADAPTERS = {"taco": "taco", "leetcode": "leetcode", "evalplus": "evalplus", "codeforces": "open-r1",
            "kodcode": "kodcode", "bigcodebench": "bigcodebench"}
PACKAGES = {"bigcodebench": "numpy==2.2.6,pandas==2.3.3"}  # a corpus's suite's packages (hf:...&packages=)
PLAIN_LABEL = "grpo-code.adapters-plain"  # not the sandbox's label: `grpo-code sandbox clean` leaves it alone
TARGET = 0.99


@dataclass(frozen=True)
class Program:
    """One program of one task, as both sides judge it."""

    adapter: str
    task: Task
    record: dict
    kind: str  # "reference" or "mutant N (operator)"
    source: str

    @property
    def id(self) -> str:
        return f"{self.task.task_id} {self.kind}"


def corpus(adapter: str, n_mutants: int) -> list[Program]:
    """The adapter's tasks (read through it) and their programs: the reference, then mutants."""
    path = CORPUS / f"{adapter}.jsonl"
    packages = f"&packages={PACKAGES[adapter]}" if adapter in PACKAGES else ""
    suite = load_suite(f"hf:{path}?adapter={ADAPTERS[adapter]}{packages}")
    records = read_records(path)  # Python's own JSON: the harness reads the data set's values exactly
    solutions = {r["id"]: r["solution"] for r in read_records(CORPUS / "codeforces_solutions.jsonl")} \
        if adapter == "codeforces" else {}
    if len(records) != len(suite):
        raise ValueError(f"{path}: {len(records)} rows but {len(suite)} tasks")
    programs = []
    for task, record in zip(suite, records, strict=True):
        reference = task.reference_solution or solutions[record.get("id")]
        programs.append(Program(adapter, task, record, "reference", reference))
        for i, mutant in enumerate(mutants(reference, "python", n_mutants, seed=0)):
            programs.append(Program(adapter, task, record, f"mutant {i} ({mutant.operator}, line {mutant.line})",
                                    mutant.program))
    return programs


def plain_spec(p: Program, number: int) -> dict:
    """What the plain judge needs of a program (``plain_judges.py``): never the judge's verdict."""
    r = p.record
    spec: dict = {"id": number, "format": p.adapter}
    if p.adapter == "taco":
        spec.update(program=p.source, input_output=json.loads(r["input_output"]))
    elif p.adapter == "leetcode":
        spec.update(prompt=r["prompt"], completion=p.source, test=r["test"], entry_point=r["entry_point"])
    elif p.adapter == "evalplus":
        problem = evalplus.read_problem(r)  # the same inputs, typed as evalplus types them
        spec.update(dataset=problem.dataset, entry_point=problem.entry_point, reference=problem.reference,
                    program=p.source, inputs=evalplus.encode_value(list(problem.inputs)), atol=problem.atol)
    elif p.adapter == "codeforces":
        spec.update(program=p.source, checker=r["generated_checker"], tests=r["official_tests"],
                    time_limit=r["time_limit"])
    else:  # kodcode, bigcodebench: the program and the row's test file
        spec.update(program=p.source, test=r["test"], timeout=p.task.limits.wall_time_limit_s)
    return spec


def packages_of(adapter: str) -> tuple[str, ...]:
    """The pins of an adapter's corpus suite (its image)."""
    return tuple(PACKAGES[adapter].split(",")) if adapter in PACKAGES else ()


def plain_runs(programs: Sequence[Program], image: str) -> list[dict]:
    """Every program judged by its data set's own harness, one container for the lot; results in order.

    Raises:
        DockerUnavailable, ImageMissing: no daemon, or no image (the message says how to fix it).
        RuntimeError: the plain judges failed (their stderr says why).
    """
    client = connect()
    require_image(client, image)
    with tempfile.TemporaryDirectory() as folder:
        shared = Path(folder)
        shared.chmod(0o755)
        (shared / "payload.json").write_text(json.dumps({"programs": [plain_spec(p, i) for i, p in
                                                                      enumerate(programs)]}), encoding="utf-8")
        (shared / "plain_judges.py").write_text(PLAIN_JUDGES.read_text(encoding="utf-8"), encoding="utf-8")
        for path in shared.iterdir():
            path.chmod(0o644)
        container = client.containers.run(
            image, ["python3", "/bench/plain_judges.py", "/bench/payload.json"], detach=True, network_mode="none",
            read_only=True, user=f"{PROGRAM_UID}:{PROGRAM_UID}", working_dir="/tmp", labels={PLAIN_LABEL: "1"},
            tmpfs={"/tmp": "rw,exec,nosuid,nodev,size=512m,mode=1777"},
            volumes={str(shared): {"bind": "/bench", "mode": "ro"}})
        try:
            status = container.wait()["StatusCode"]
            out = container.logs(stdout=True, stderr=False).decode()
            err = container.logs(stdout=False, stderr=True).decode()
        finally:
            container.remove(force=True)
    if status != 0:
        raise RuntimeError(f"the plain judges failed (status {status}): {err[-2000:]}")
    return json.loads(out)["results"]


def judge_runs(programs: Sequence[Program], concurrency: int, packages: tuple[str, ...] = ()) -> list:
    """Every program's verdict through the judge (one ``DockerExecutor``, in the image of
    ``packages``), in order."""
    with DockerExecutor(concurrency=concurrency, packages=packages) as executor:
        return executor.run([p.task.job(p.source) for p in programs])


def case_agreement(peer: dict, verdict) -> tuple[int, int]:
    """``(cases compared, cases agreeing)`` of a test file judged both ways: each case either side
    names, passed or not (skipped both ways agrees)."""
    if peer.get("cases") is None or len(verdict.test_results) != 1:
        return 0, 0
    ours = {name: status for name, status, _ in verdict.test_results[0].cases}
    theirs = peer["cases"]
    names = set(ours) | set(theirs)

    def state(status):
        return "skipped" if status == "skipped" else status == "passed"

    return len(names), sum(state(ours.get(n)) == state(theirs.get(n)) for n in names)


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def report(programs: Sequence[Program], plain: Sequence[dict], judged: Sequence, seconds: dict,
           images: dict[str, str]) -> dict:
    """Print the table and the disagreements; return the figures (``--json``). ``seconds``: each
    side's wall time by adapter (``{"plain": {...}, "judge": {...}}``); ``images``: each adapter's."""
    rows: dict[str, dict] = {}
    disagreements = []
    for p, peer, verdict in zip(programs, plain, judged, strict=True):
        row = rows.setdefault(p.adapter, {"tasks": set(), "programs": 0, "mutants": 0, "peer_passed": 0,
                                          "judge_passed": 0, "agree": 0, "tests": 0, "tests_agree": 0,
                                          "cases": 0, "cases_agree": 0, "wrong_paid": 0, "right_failed": 0,
                                          "plain_s": seconds["plain"].get(p.adapter, 0.0),
                                          "judge_s": seconds["judge"].get(p.adapter, 0.0)})
        row["tasks"].add(p.task.task_id)
        row["programs"] += 1
        row["mutants"] += p.kind != "reference"
        ours = verdict.status == "passed"
        row["peer_passed"] += peer["passed"]
        row["judge_passed"] += ours
        row["agree"] += peer["passed"] == ours
        row["wrong_paid"] += ours and not peer["passed"]
        row["right_failed"] += peer["passed"] and not ours
        per_test = peer["tests"] is not None and len(peer["tests"]) == len(verdict.test_results)
        if per_test:
            row["tests"] += len(peer["tests"])
            row["tests_agree"] += sum(a == (b.status == "passed") for a, b in zip(peer["tests"], verdict.test_results,
                                                                                    strict=True))
        compared, agreeing = case_agreement(peer, verdict)
        row["cases"] += compared
        row["cases_agree"] += agreeing
        if compared != agreeing:
            theirs = peer["cases"] or {}
            mine = {name: status for name, status, _ in verdict.test_results[0].cases}
            differ = sorted(n for n in set(mine) | set(theirs)
                            if (mine.get(n) == "passed") != (theirs.get(n) == "passed"))
            disagreements.append(f"{p.adapter} {p.id}: cases differ: " + ", ".join(
                f"{n} (harness {theirs.get(n, 'none')}, judge {mine.get(n, 'none')})" for n in differ[:4]))
        if peer["passed"] != ours:
            first = next((t for t in verdict.test_results if t.status != "passed"), None)
            disagreements.append(f"{p.adapter} {p.id}: harness {'passed' if peer['passed'] else 'failed'}"
                                 f"{' (' + peer['detail'] + ')' if peer['detail'] else ''}; judge {verdict.status}"
                                 f"{' (' + first.message[:160] + ')' if first is not None and first.message else ''}")
    keys = next(iter(rows.values()))
    total = {key: sum(len(r[key]) if key == "tasks" else r[key] for r in rows.values()) for key in keys}
    print("adapters' agreement with their data sets' own harnesses; images "
          f"{', '.join(sorted(set(images.values())))}\n")
    print(f"{'adapter':<12} {'tasks':>5} {'programs':>8} {'mutants':>7} {'harness ok':>10} {'judge ok':>8} "
          f"{'agree %':>8} {'tests agree %':>13} {'cases agree %':>13} {'wrong paid':>10} {'right failed':>12} "
          f"{'harness s/prog':>14} {'judge s/prog':>12}")
    for name, row in [*rows.items(), ("all", total)]:
        print(f"{name:<12} {len(row['tasks']) if name != 'all' else row['tasks']:>5} {row['programs']:>8} "
              f"{row['mutants']:>7} {row['peer_passed']:>10} {row['judge_passed']:>8} "
              f"{_percent(row['agree'], row['programs']):>8} {_percent(row['tests_agree'], row['tests']):>13} "
              f"{_percent(row['cases_agree'], row['cases']):>13} {row['wrong_paid']:>10} {row['right_failed']:>12} "
              f"{row['plain_s'] / row['programs']:>14.3f} {row['judge_s'] / row['programs']:>12.3f}")
    print(f"\ndisagreements: {len(disagreements)}")
    for line in disagreements:
        print(f"  {line}")
    print(f"\nagreement: {_percent(total['agree'], total['programs'])} of programs "
          f"({total['agree']}/{total['programs']}), {_percent(total['tests_agree'], total['tests'])} of the tests "
          f"judged one by one both ways ({total['tests_agree']}/{total['tests']}), "
          f"{_percent(total['cases_agree'], total['cases'])} of the test files' cases "
          f"({total['cases_agree']}/{total['cases']}); wrong programs paid: {total['wrong_paid']}")
    print(f"wall time: harnesses {total['plain_s']:.1f} s, judge {total['judge_s']:.1f} s")
    return {"images": images, "seconds": seconds, "disagreements": disagreements,
            "adapters": {name: {**row, "tasks": len(row["tasks"])} for name, row in rows.items()}, "all": total}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 0 when at least 99% of the verdicts agree and no wrong program is paid, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adapters", default=",".join(ADAPTERS), help="comma-separated, of " + ", ".join(ADAPTERS))
    parser.add_argument("--mutants", type=int, default=3, help="mutants per task (default 3)")
    parser.add_argument("--concurrency", type=int, default=2, help="the judge's containers (default 2)")
    parser.add_argument("--json", metavar="OUT", help="write the figures here (JSON)")
    args = parser.parse_args(argv)
    chosen = args.adapters.split(",")
    if unknown := sorted(set(chosen) - set(ADAPTERS)):
        parser.error(f"unknown adapter(s) {unknown}; known: {', '.join(ADAPTERS)}")
    images = {name: image_tag(packages_of(name)) for name in chosen}
    programs, plain, judged = [], [], []
    seconds: dict[str, dict[str, float]] = {"plain": {}, "judge": {}}
    try:
        for name in chosen:  # one adapter at a time: each side's cost is its own
            ours = corpus(name, args.mutants)
            start = time.monotonic()
            plain += plain_runs(ours, images[name])
            seconds["plain"][name] = time.monotonic() - start
            start = time.monotonic()
            judged += judge_runs(ours, args.concurrency, packages_of(name))
            seconds["judge"][name] = time.monotonic() - start
            programs += ours
    except SandboxError as e:  # no daemon, no image: the message says how to fix it
        print(f"adapters_agreement: {e}", file=sys.stderr)
        return 2
    figures = report(programs, plain, judged, seconds, images)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1), encoding="utf-8")
    total = figures["all"]
    return 0 if total["agree"] >= TARGET * total["programs"] and total["wrong_paid"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
