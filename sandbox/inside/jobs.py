"""One job in the container (``run_job``): write the program, compile it once, run each test in a
fresh process, judge each test, leave the container as clean as it was (``state.RunnerState``).

Stdlib only; runs in the runner. The fork server forks every test process (``forkclient``), for
the request ``children`` builds, or a zygote does for a Python program's ``call`` tests and the
processes that serve the judge's calls (``resident``); either way each is the runner's child.
``watch`` feeds and reads each one within its limits, and ``verdict`` judges it. The whole job
keeps within its budget (``JobFault`` if the runner itself fails).
"""

from __future__ import annotations

import json
import os
import time
import traceback
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from .capture import captured
from .cgroup import tasks_in_container
from .children import (
    child_rlimits,
    compile_request,
    judge_request,
    language_limits,
    program_request,
    run_request,
)
from .forkclient import FORKSERVER, claim_spare, fork_child, kill_all, make_spare
from .guard import FILE_KINDS, plan_assert, plan_file, program_reads, setup_names
from .languages import LANGUAGES, program_names, runtime_names
from .procs import PROGRAM_UID
from .records import JUDGE_EVENTS, MESSAGE_LIMIT, PLANTED_SUFFIXES, VERDICT, flag_names, read_records
from .records import clip as _clip
from .resident import JUDGE_OUTPUT_LIMIT, Judge, Zygote
from .verdict import judged_result, record_score, test_result
from .watch import Outcome, Watch, spawn, watch_all

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import CodeType

    from .languages import Language
    from .messages import (
        CallTestWire,
        CallVisible,
        ChildRequest,
        JudgedTest,
        LimitsWire,
        PythonRequest,
        RunReply,
        RunRequest,
        StdioTestWire,
        TestResultWire,
        TestWire,
        VerdictRecord,
        ZygoteTests,
    )
    from .state import RunnerState

JOB_ROOT = "/tmp/jobs"  # root's (0755): a program can neither add nor remove entries in it
JUDGE_DIR = "/run/judge"  # the judge's own tmpfs (uid JUDGE_UID, 0700): its folder and TMPDIR
INSIDE = os.path.dirname(os.path.abspath(__file__))  # where program/driver.js lies
COMPILE_OUTPUT_LIMIT = 64 * 1024
CPU_GRACE_S = 0.1  # the tree limit sits just above the main process's own RLIMIT-based check
CHECKER_WALL_S = 5.0  # the least wall-clock time a task's checker gets for one test
CACHE_SIZE = 4096  # compiled assert tests kept: tasks are scored many times (n samples, G completions)
T = TypeVar("T")


class JobFault(Exception):
    """The runner failed on a job (a bug, or the fork server lost): the host retries it on a fresh
    container. ``started``: a process of the program's had run by then; ``flags``: what the
    monitor saw until the fault."""

    def __init__(self, error: str, started: bool, flags: set[str]):
        super().__init__(error)
        self.started, self.flags = started, flags


def _token(n_bytes: int) -> str:
    return os.urandom(n_bytes).hex()


def _cached(cache: dict[tuple, Any], key: tuple, make: Callable[[], T]) -> T:
    """``make()``, from the bounded ``cache`` by ``key`` (least recently used goes first);
    exceptions are not cached."""
    value = cache.pop(key, None)
    if value is None:
        value = make()
        if len(cache) >= CACHE_SIZE:
            del cache[next(iter(cache))]
    cache[key] = value
    return value


class Plan:
    """How one test of a job runs: ``kind`` is ``stdio``, ``call``, ``judged`` (an ``assert`` test
    the judge runs, ``judged`` its compiled form) or ``broken`` (the test cannot be judged: it does
    not compile, or it needs what cannot cross; ``why`` says how: the task's fault, the same for
    every program). ``visible``, for a ``call`` test, is what a process of the program's may see of
    it (never an expected value)."""

    __slots__ = ("judged", "kind", "visible", "why")

    def __init__(self, kind: Literal["stdio", "call", "judged", "broken"], visible: CallVisible | None = None,
                 judged: JudgedTest | None = None, why: str = ""):
        self.kind, self.visible, self.judged, self.why = kind, visible, judged, why


def plan_tests(tests: list[TestWire], setup: str | None, cache: dict[tuple, Any],
               entry_point: str | None = None) -> list[Plan]:
    """The ``Plan`` of each test of a job whose test setup is ``setup`` (and whose task's entry
    point is ``entry_point``); what is compiled is kept in ``cache`` (``RunnerState.compiled``)."""
    try:
        names = _cached(cache, ("setup", setup), partial(setup_names, setup)) if setup else frozenset()
    except (SyntaxError, ValueError, RecursionError):
        names = frozenset()  # the judge reports the broken setup on every test
    plans = []
    for test in tests:
        if test["kind"] == "stdio":
            plans.append(Plan("stdio"))
        elif test["kind"] == "call":
            plans.append(Plan("call", {"fn_name": test["fn_name"], "args": test.get("args", []),
                                       "kwargs": test.get("kwargs", {})}))
        else:
            code = test["code"]
            plan = partial(plan_assert, code, names, entry_point) if test["kind"] == "assert" else \
                partial(plan_file, test["kind"], code, test["module"], names, entry_point)
            try:
                planned = _cached(cache, ("judge", test["kind"], code, test.get("module"), names, entry_point), plan)
            except (SyntaxError, ValueError, RecursionError) as e:
                plans.append(Plan("broken", why=f"the test code does not compile: {e}"))
                continue
            if isinstance(planned, str):
                plans.append(Plan("broken", why=f"the judge cannot run this test: {planned}"))
            else:
                plans.append(Plan("judged", judged=planned))
    return plans


def _compile(language: Language, workdir: str, limits: LimitsWire, names: dict[str, str], wall_s: float,
             tasks: int) -> tuple[bool, str, float]:
    """Compile once (``children.compile_request``), ``tasks`` processes allowed to stay."""
    outcome = spawn(compile_request(language, workdir, names, limits), b"",
                    min(limits["compile_time_limit_s"] * 2 + 5, wall_s), COMPILE_OUTPUT_LIMIT, tasks,
                    cpu_limit=limits["compile_time_limit_s"] + CPU_GRACE_S)
    text = (bytes(outcome.stdout) + bytes(outcome.stderr)).decode("utf-8", "replace")
    if outcome.killed_for == "timeout":
        return False, "compilation timed out\n" + text, outcome.wall_s
    if outcome.killed_for or outcome.signal is not None or outcome.exit_code != 0:
        return False, text or f"compiler failed (status {outcome.exit_code}, signal {outcome.signal})", outcome.wall_s
    return True, text, outcome.wall_s


class _TestRun:
    """The running of one job's tests: the job's zygote and its judge, started when first needed
    and gone at its end; ``deadline``: when the job's whole budget is spent."""

    def __init__(self, state: RunnerState, job: RunRequest, language: Language, program_code: CodeType | None,
                 workdir: str, names: dict[str, str], deadline: float):
        self.state, self.job, self.language, self.code = state, job, language, program_code
        self.workdir, self.names, self.deadline = workdir, names, deadline
        self.limits = limits = language_limits(job["limits"], language)
        self.python = not language.run_command
        self.rlimits = child_rlimits(limits, self.python, language)
        # A test's code shares the program's folder, as in one process: the files and temporary
        # folders a test makes are the program's too, and the program's the test's (``judge.files``)
        self.shares = any(test["kind"] in FILE_KINDS or test["kind"] == "assert" for test in job["tests"])
        if self.shares:
            self.rlimits["umask"] = 0
        self.cpu_limit = limits["time_limit_s"] + CPU_GRACE_S
        self.memory_limit = (limits["memory_limit_mb"] + language.memory_overhead_mb) << 20 \
            if language.memory == "cgroup" else None
        self.plans = plan_tests(job["tests"], job.get("test_setup"), state.compiled, job.get("entry_point"))
        # A zygote gets every call test of the job at its start, the judge every judged one; a
        # request names one by its place.
        self.zygote_index: dict[int, int] = {}
        self.zygote_tests: ZygoteTests = []
        self.judge_index: dict[int, int] = {}
        self.judge_tests: list[JudgedTest] = []
        for i, plan in enumerate(self.plans):
            if plan.visible is not None:  # a call test
                self.zygote_index[i] = len(self.zygote_tests)
                self.zygote_tests.append(("call", plan.visible))
            elif plan.judged is not None:
                self.judge_index[i] = len(self.judge_tests)
                self.judge_tests.append(plan.judged)
        # A zygote pays off from the second test forked from the program on.
        self.use_zygote = self.python and len(self.zygote_index) + len(self.judge_index) > 1
        self.zygote: Zygote | None = None
        self.judge: Judge | None = None  # this job's judge, forked with its tests when first needed
        self.failed_start: tuple[Outcome, str] | None = None  # a zygote's top level that ran out of limits
        self.records = bytearray()  # records of the zygote's top level (flags)
        self.start_nonce = ""
        self.results: list[TestResultWire] = []

    def tasks(self) -> int:
        """Processes that may be alive in the container between two tests, counted from what
        exists: the runner, the fork server, the job's judge and its zygote."""
        return self.state.resident_tasks() + (self.zygote is not None and self.zygote.exists()) \
            + (self.judge is not None and self.judge.exists())

    def known(self) -> set[int]:
        """Pids of the runner's residents (a zygote may not name one as its test process)."""
        judge = self.judge
        return {pid for pid in (FORKSERVER.pid, self.zygote and self.zygote.pid, judge and judge.pid) if pid}

    def wall(self) -> float:
        """The wall-clock seconds the next test may take: its limit, within the job's budget."""
        return max(0.0, min(self.limits["wall_time_limit_s"], self.deadline - time.monotonic()))

    def program(self, mode: Literal["python", "zygote"], kind: Literal["stdio", "call", "serve", "zygote"],
                nonce: str, visible: CallVisible | None = None) -> PythonRequest:
        """The request of a Python child (``children.program_request``)."""
        assert self.code is not None  # a Python job's, compiled before its tests run (for mypy)
        return program_request(mode, kind, nonce, self.code, visible, self.workdir, self.rlimits)

    def _ensure_zygote(self) -> Zygote | None:
        if self.use_zygote and self.zygote is None and self.failed_start is None:
            nonce = self.start_nonce = _token(16)
            limits: LimitsWire = {**self.limits, "wall_time_limit_s": self.wall()}
            self.zygote, failed = Zygote.start(self.program("zygote", "zygote", nonce), self.zygote_tests,
                                               limits, self.cpu_limit)
            if self.zygote is not None:
                self.records += self.zygote.start_records
            if failed is not None:  # the top level ran out of time or output: so would every test
                self.failed_start = (failed, nonce)
                self.records += failed.records
            self.use_zygote = self.zygote is not None or self.failed_start is not None
        return self.zygote

    def _ensure_judge(self) -> Judge:
        """This job's judge, forked with the job's tests when first needed (``resident.Judge``):
        no code of another job ever ran in it, and it goes when the job ends (``run``)."""
        if self.judge is None or not self.judge.exists():
            if self.judge is not None:  # it went away (killed with everything else): a fresh one
                self.judge.forget()
            if self.shares:  # the job's folder is the test's too (``judge.files``)
                os.chmod(self.workdir, 0o777)
            self.state.place_judge()
            self.judge = Judge.start(judge_request(JUDGE_DIR, (
                self.job.get("test_setup"), self.judge_tests, self.limits["memory_limit_mb"] << 20,
                self.job.get("checker"), self.job.get("allow_non_finite") is True,
                self.workdir if self.shares else None,
                program_reads(self.code) if self.judge_tests and self.code is not None else frozenset())))
            self.state.judge_placed()
        return self.judge

    def _zygote_gone(self) -> None:
        if self.zygote is not None and not self.zygote.alive:
            self.use_zygote = False  # the rest: one fresh process per test, for exact verdicts
            self.zygote = None

    def _everything_killed(self) -> None:
        """After a ``kill_all``: the residents are gone; they restart when next needed."""
        for resident in (self.zygote, self.judge):
            if resident is not None:
                resident.forget()
        self._zygote_gone()
        self.judge = None

    def _out_of_budget(self) -> TestResultWire:
        return {"status": "timeout", "time_s": 0.0, "cpu_time_s": 0.0,
                "message": "the job's whole time budget ran out before this test"}

    def run(self) -> list[TestResultWire]:
        limits = self.limits
        compare, tolerance = self.job["compare"], self.job["float_tolerance"]  # Job.to_wire always sends both
        results = self.results
        try:
            if self.judge_tests or self.job.get("checker"):  # the job's judge lives as long as the job
                self._ensure_judge()
            for i, (test, plan) in enumerate(zip(self.job["tests"], self.plans, strict=True)):
                nonce = _token(16)
                if plan.kind == "broken":
                    results.append({"status": "runtime_error", "time_s": 0.0, "cpu_time_s": 0.0,
                                    "message": _clip(plan.why, MESSAGE_LIMIT)})
                    continue
                if self.wall() <= 0:
                    results.append(self._out_of_budget())
                    continue
                if test["kind"] != "stdio" and test["kind"] != "call":  # judged: an assert test or a test file
                    results.append(self._judged(i, nonce))
                    continue
                zygote = self._ensure_zygote() if test["kind"] == "call" else None
                if test["kind"] == "call" and self.failed_start is not None:
                    outcome, nonce = self.failed_start
                elif zygote is not None:
                    outcome = self._zygote_test(zygote, nonce, self.zygote_index[i], test, plan)
                else:
                    outcome = self._fresh_test(test, plan, nonce)
                checker = self._checker(test, nonce) if test["kind"] == "stdio" and self.job.get("checker") else None
                result = test_result(test, outcome, limits, nonce, compare, tolerance, self.language, checker,
                                     self.job.get("allow_non_finite") is True)
                if test["kind"] == "stdio" and test.get("capture") is True:
                    result["output"] = captured(outcome)
                results.append(result)
        finally:
            for resident in (self.zygote, self.judge):
                if resident is not None:
                    resident.close()
        return results

    def _fresh_test(self, test: StdioTestWire | CallTestWire, plan: Plan, nonce: str) -> Outcome:
        """A ``stdio`` or ``call`` test in a process of its own, forked by the fork server."""
        stdin = test.get("stdin", "").encode("utf-8") if test["kind"] == "stdio" else b""
        payload: ChildRequest
        if self.python:
            payload = self.program("python", test["kind"], nonce, plan.visible)
        elif test["kind"] == "call":  # the driver reads the call and the nonce first
            payload = run_request(self.language, "call", self.workdir, self.names, self.rlimits)
            stdin = json.dumps({"nonce": nonce, **(plan.visible or {})}).encode()
        else:
            payload = run_request(self.language, "stdio", self.workdir, self.names, self.rlimits)
        tasks = self.tasks()
        outcome = spawn(payload, stdin, self.wall(), self.limits["output_limit_bytes"], tasks,
                        cpu_limit=self.cpu_limit, memory_limit=self.memory_limit)
        if outcome.killed_for is not None or tasks_in_container() > tasks:
            self._everything_killed()
        return outcome

    def _zygote_test(self, zygote: Zygote, nonce: str, index: int, test: StdioTestWire | CallTestWire,
                     plan: Plan) -> Outcome:
        """A ``call`` test in a process the zygote forks (in a fresh one if the zygote is gone)."""
        outcome = Outcome()
        started = time.monotonic()
        if not zygote.fork_test(nonce, index):
            self._everything_killed()
            return self._fresh_test(test, plan, nonce)
        known = self.known()
        watch_all([(zygote.watch, outcome, self.limits["output_limit_bytes"])], started + self.wall(), self.cpu_limit,
                  lambda: zygote.follow_forked(outcome, nonce, known))
        named = zygote.finish(outcome, started, self.tasks())
        if not zygote.alive:
            self._everything_killed()
        return outcome if named else self._fresh_test(test, plan, nonce)

    def _checker(self, test: StdioTestWire, nonce: str) -> Callable[[str], tuple[str, str, float | None, set[str]]]:
        """The task's checker on the program's output of ``test`` (``_check``), for ``verdict.test_result``."""
        return lambda output: self._check(test, output, nonce)

    def _check(self, test: StdioTestWire, output: str, nonce: str) -> tuple[str, str, float | None, set[str]]:
        """The task's checker's judgement of a ``stdio`` test's output, run by the judge within the
        test's wall-clock limit (at least ``CHECKER_WALL_S``): ``(status, message, score, flags)``.
        A checker that does not answer in time on this output fails the test (``checker_fault``):
        it answered on the reference's and on malformed outputs (``tasks validate``)."""
        judge = self._ensure_judge()
        verdict = Outcome()
        if judge.check(nonce, test.get("stdin", ""), output, test["expected_stdout"]):
            deadline = time.monotonic() + max(self.limits["wall_time_limit_s"], CHECKER_WALL_S)
            watch_all([(judge.watch, verdict, JUDGE_OUTPUT_LIMIT)], deadline, None,
                      lambda: verdict.has_line(VERDICT, nonce))
        record = _verdict_record(verdict, nonce)
        if record is None:
            if judge.alive:
                judge.kill()
            self._everything_killed()
            return "failed", "the task's checker did not answer in time on the program's output", None, \
                {"checker_fault"}
        flags = {record["flags"]} if record["flags"] else set()
        return record["status"], record["message"], record_score(record), flags

    def _judged(self, i: int, nonce: str) -> TestResultWire:
        """Run test ``i`` in the judge, against a process of the program's that serves its calls."""
        limits = self.limits
        zygote = self._ensure_zygote()
        if self.failed_start is not None:
            outcome, start_nonce = self.failed_start
            return judged_result(outcome, None, limits, start_nonce)
        judge = self._ensure_judge()
        call_r, call_w = os.pipe()
        reply_r, reply_w = os.pipe()
        started = time.monotonic()
        program = Outcome()
        try:
            if zygote is not None and not zygote.fork_test(nonce, -1, [call_r, reply_w]):
                self._everything_killed()  # the zygote is gone: a fresh process serves this test
                zygote, judge = None, self._ensure_judge()
            if zygote is not None:
                program_watch = zygote.watch
            else:
                pid, ours, _ = fork_child(self.program("python", "serve", nonce), extra=(call_r, reply_w))
                program_watch = Watch(ours, b"")
                program_watch.follow(pid)
            judge.test(nonce, self.judge_index[i], [call_w, reply_r])
        finally:
            for fd in (call_r, call_w, reply_r, reply_w):
                os.close(fd)
        verdict = Outcome()
        known = self.known()

        def done() -> bool:
            ended = zygote.follow_forked(program, nonce, known) if zygote is not None else program_watch.exited
            return program.killed_for is not None or (ended and verdict.has_line(VERDICT, nonce))

        parts = [(program_watch, program, limits["output_limit_bytes"])]
        if judge.alive:
            parts.append((judge.watch, verdict, JUDGE_OUTPUT_LIMIT))
        watch_all(parts, started + self.wall(), self.cpu_limit, done)
        record = _verdict_record(verdict, nonce)
        if record is None and judge.alive:
            judge.watch.drain(verdict, JUDGE_OUTPUT_LIMIT)
            record = _verdict_record(verdict, nonce)
        ended = judge.ended() if record is None else None  # before anything reaps it
        if judge.watch.guard_gone and program.killed_for is None:
            program.killed_for = "judge"
        tasks, named = self.tasks(), True
        if zygote is not None:
            named = zygote.finish(program, started, tasks)
            clean = zygote.alive
        else:
            clean = program_watch.finish(program, started, limits["output_limit_bytes"], tasks)
            if clean:
                program_watch.close()
        if not clean:
            self._everything_killed()
        if not named:  # the zygote went before it named the test process: again, in a fresh process
            return self._judged(i, _token(16))
        return judged_result(program, record, limits, nonce, ended)


def _verdict_record(outcome: Outcome, nonce: str) -> VerdictRecord | None:
    """The judge's ``verdict`` record for the test of ``nonce`` among what it wrote, or None."""
    records, _ = read_records(bytes(outcome.records), nonce, JUDGE_EVENTS)
    return records[0] if records and records[0]["event"] == VERDICT else None


def _planted(workdir: str, source_file: str) -> bool:
    """Whether the program left a module where an import could find it: the job's folder (other
    than its own source) or the top of /tmp and /dev/shm."""
    for folder, own in ((workdir, source_file), ("/tmp", None), ("/dev/shm", None)):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        if any(name != own and (name.endswith(PLANTED_SUFFIXES) or name == "__pycache__") for name in names):
            return True
    return False


class _Progress:
    """How far a job got, for a fault's report: ``started``, a process of the program's had run;
    ``run``, its tests' running (their flags so far)."""

    __slots__ = ("run", "started")

    def __init__(self) -> None:
        self.started = False
        self.run: _TestRun | None = None

    def flags(self) -> set[str]:
        """What the monitor saw in the tests that finished."""
        results = self.run.results if self.run is not None else ()
        return {f for result in results for f in result.get("flags", ())}


def _job_folder() -> str:
    """A fresh folder for a job, the program's (its files, its working folder, its HOME)."""
    workdir = os.path.join(JOB_ROOT, _token(8))
    os.makedirs(workdir, mode=0o700)
    os.chown(workdir, PROGRAM_UID, PROGRAM_UID)
    return workdir


def prepare_next(state: RunnerState, language: str, spare: bool = True) -> None:
    """Between jobs, once a job in ``language`` is answered: the next job's folder, made now, off
    its path, and after a Python job (the next is most likely one too), with ``spare`` (the runner
    would wait for the host meanwhile: no request came yet), a Python child made ready in it
    (``forkclient.Spare``); a job already waiting forks its own, with no hand-over. Nothing for a
    container that takes no more jobs."""
    if state.refusal() is not None:
        return
    try:
        state.next_workdir = _job_folder()
    except OSError:  # the job makes it, and says what is wrong
        return
    if spare and not LANGUAGES[language].run_command:
        try:
            make_spare(state.next_workdir)
        except OSError:  # no descriptor or process left: the job forks its own
            pass


def run_job(state: RunnerState, request: RunRequest) -> RunReply:
    """Compile once, run every test in a fresh process, leave the container clean; return the
    verdict (``messages.RunReply``).

    Raises:
        JobFault: the runner failed (the container is cleaned up first, and refuses every later
            job if it could not be).
    """
    progress = _Progress()
    try:
        return _run_job(state, request, progress)
    except Exception as e:  # a fault of the runner's: reported, the host retries it elsewhere
        flags = progress.flags()
        kill_all()
        state.residue = state.leave_clean() or None
        raise JobFault(traceback.format_exc()[-4000:], progress.started, flags) from e


def _run_job(state: RunnerState, job: RunRequest, progress: _Progress) -> RunReply:
    started = time.monotonic()
    state.note_foreign()
    deadline = started + job["budget_s"]
    language = LANGUAGES[job["language"]]
    claim_spare(python=not language.run_command)
    limits = job["limits"]
    workdir, state.next_workdir = state.next_workdir or _job_folder(), None
    names = {**program_names(language, job["program"]), "memory_mb": str(limits["memory_limit_mb"]),
             "inside": INSIDE, **runtime_names(limits["memory_limit_mb"])}  # the runtimes' start-up state
    source_file = language.source_file.format(**names)
    status: str | None = None
    compile_output, compile_time_s = "", 0.0
    try:  # a lone surrogate (JSON's "\ud800") is no text a file can hold: no program to compile
        source = job["program"].encode("utf-8")
    except UnicodeEncodeError as e:
        source, status = b"", "compile_error"
        compile_output = f"the program is not UTF-8 text: {e.reason} at character {e.start}"
    with open(os.path.join(workdir, source_file), "wb") as f:
        f.write(source)
        os.fchown(f.fileno(), PROGRAM_UID, PROGRAM_UID)
    if status is None and language.compile_command:
        progress.started = True  # the compiler reads the program's text: its fault from here on
        ok, output, seconds = _compile(language, workdir, limits, names, max(0.0, deadline - time.monotonic()),
                                       state.resident_tasks())
        compile_output, compile_time_s = _clip(output, COMPILE_OUTPUT_LIMIT), round(seconds, 6)
        if not ok:
            status = "compile_error"
    program_code = None
    if status is None and not language.run_command:
        # Compiled once here (compiling runs none of the program's code); each test process
        # gets the code object, and a SyntaxError needs no process at all.
        try:
            program_code = compile(job["program"], language.source_file, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, MemoryError, RecursionError) as e:
            status = "compile_error"
            compile_output = _clip("".join(traceback.format_exception_only(type(e), e)).strip(), COMPILE_OUTPUT_LIMIT)
    flags: set[str] = set()
    tests: list[TestResultWire] = []
    if status is None:
        progress.started = True
        run = progress.run = _TestRun(state, job, language, program_code, workdir, names, deadline)
        tests = run.run()
        for result in tests:
            flags.update(result.pop("flags", ()))
        records, malformed = read_records(bytes(run.records), run.start_nonce)
        flags |= flag_names(records)
        if malformed:
            flags.add("test_tampering")
        failed = [t["status"] for t in tests if t["status"] != "passed"]
        status = failed[0] if failed else "passed"
    if _planted(workdir, source_file):
        flags.add("module_planted")
    run_time_s = round(time.monotonic() - started, 6)
    residue = state.leave_clean()
    if residue:  # the host replaces this container; until then it takes no job (``RunnerState.refusal``)
        state.residue = residue
        return {"id": job.get("id"), "ok": True, "tests": tests, "compile_output": compile_output,
                "compile_time_s": compile_time_s, "status": status, "run_time_s": run_time_s, "residue": residue,
                "flags": sorted(flags | {"residue"})}
    return {"id": job.get("id"), "ok": True, "tests": tests, "compile_output": compile_output,
            "compile_time_s": compile_time_s, "status": status, "run_time_s": run_time_s, "flags": sorted(flags)}
