"""One job in the container: write the program, compile it once, run each test in a fresh process,
judge each test, leave the container as clean as it was.

Stdlib only; runs in the runner. The fork server forks every test process (``forkclient``), or
a zygote does for a Python program's ``call`` tests and the processes that serve the judge's calls
(``resident``); either way each is the runner's child. ``watch`` feeds and reads each one within
its limits, and ``verdict`` judges it. The whole job keeps within its budget (``JobFault`` if the
runner itself fails).
"""

from __future__ import annotations

import json
import os
import time
import traceback

from .capture import captured
from .cgroup import tasks_in_container
from .clean import Baseline
from .forkclient import FORKSERVER, ForkserverLost, foreign_tasks, fork_child, kill_all
from .guard import plan_assert, setup_names
from .languages import LANGUAGES, program_names, runtime_names
from .procs import PROGRAM_UID
from .records import JUDGE_EVENTS, MESSAGE_LIMIT, PLANTED_SUFFIXES, VERDICT, flag_names, read_records
from .records import clip as _clip
from .resident import JUDGE_OUTPUT_LIMIT, Judge, Zygote, exists
from .verdict import judged_result, test_result
from .watch import Outcome, Watch, spawn, watch_all

JOB_ROOT = "/tmp/jobs"  # root's (0755): a program can neither add nor remove entries in it
JUDGE_DIR = "/run/judge"  # the judge's own tmpfs (uid JUDGE_UID, 0700): its folder and TMPDIR
INSIDE = os.path.dirname(os.path.abspath(__file__))  # where program/driver.js lies
SYSV_IPC = ("/proc/sysvipc/shm", "/proc/sysvipc/msg", "/proc/sysvipc/sem")
COMPILE_OUTPUT_LIMIT = 64 * 1024
CPU_GRACE_S = 0.1  # the tree limit sits just above the main process's own RLIMIT-based check
JUDGE: list = [None]  # the container's judge (``resident.Judge``), kept from job to job
CHECKER_WALL_S = 5.0  # the least wall-clock time a task's checker gets for one test


class JobFault(Exception):
    """The runner failed on a job (a bug, or the fork server lost): the host retries it on a fresh
    container. ``started``: a process of the program's had run by then; ``flags``: what the
    monitor saw until the fault."""

    def __init__(self, error: str, started: bool, flags: set[str]):
        super().__init__(error)
        self.started, self.flags = started, flags


def _token(n_bytes: int) -> str:
    return os.urandom(n_bytes).hex()


def _child_limits(limits: dict, python: bool, language=None) -> dict:
    """The rlimits of a test process. A Python child is forked and keeps the fork server's mappings,
    so the fork server adds its own size to ``memory_bytes``; an exec'd program starts empty, and
    gets no address-space limit where its runtime reserves more than it uses (``cgroup``)."""
    memory = limits["memory_limit_mb"] * 1024 * 1024
    if language is not None and language.memory == "cgroup":
        memory = 0
    return {
        "cpu_s": limits["time_limit_s"],
        "memory_bytes" if python else "as_bytes": memory,
        "fsize_bytes": limits["file_size_limit_mb"] * 1024 * 1024,
    }


def _language_limits(limits: dict, language) -> dict:
    """The job's limits with the runtime's start-up time added: CPU, and three times it to the
    wall clock (``Language.startup_s``; the JVM's start-up is not the program's time)."""
    if not language.startup_s:
        return limits
    return {**limits, "time_limit_s": limits["time_limit_s"] + language.startup_s,
            "wall_time_limit_s": limits["wall_time_limit_s"] + 3 * language.startup_s}


def _fill(items, names: dict) -> list[str]:
    """Each string of ``items`` with its ``{placeholders}`` filled from ``names``; one that fills to
    nothing is left out (``{node_snapshot}`` where there is no snapshot)."""
    return [filled for filled in (item.format(**names) for item in items) if filled]


def _env(language, names: dict) -> dict[str, str]:
    return {name: value.format(**names) for name, value in language.env}


def _exec_run(language, test: dict, visible: dict, nonce: str, workdir: str, names: dict,
              child_limits: dict) -> tuple[dict, bytes]:
    """The payload and stdin of one test of an exec'd language: a ``stdio`` test runs the program
    with the test's stdin; a ``call`` test runs the language's driver, which reads the call and
    the nonce on stdin before the program is loaded."""
    payload = {"mode": "exec", "kind": test["kind"], "nonce": nonce, "workdir": workdir, "limits": child_limits,
               "env": _env(language, names)}
    if test["kind"] == "call":
        payload["argv"] = _fill(language.call_command, names)
        payload["result_fd_env"] = "GRPO_CODE_RESULT_FD"
        return payload, json.dumps({"nonce": nonce, **visible}).encode()
    payload["argv"] = _fill(language.run_command, names)
    return payload, test.get("stdin", "").encode("utf-8")


CACHE_SIZE = 4096  # compiled assert tests kept: tasks are scored many times (n samples, G completions)
_COMPILED: dict[tuple, object] = {}


def _cached(key: tuple, make):
    """``make()``, from a bounded cache by ``key`` (least recently used goes first); exceptions
    are not cached."""
    value = _COMPILED.pop(key, None)
    if value is None:
        value = make()
        if len(_COMPILED) >= CACHE_SIZE:
            del _COMPILED[next(iter(_COMPILED))]
    _COMPILED[key] = value
    return value


class Plan:
    """How one test of a job runs: ``kind`` is ``stdio``, ``call``, ``judged`` (an ``assert`` test
    the judge runs, ``judged`` its compiled form) or ``broken`` (the test cannot be judged: it does
    not compile, or it needs what cannot cross; ``why`` says how: the task's fault, the same for
    every program). ``visible`` is what a process of the program's may see of it (never an
    expected value)."""

    __slots__ = ("judged", "kind", "visible", "why")

    def __init__(self, kind: str, visible=None, judged=None, why: str = ""):
        self.kind, self.visible, self.judged, self.why = kind, visible, judged, why


def plan_tests(tests: list[dict], setup: str | None) -> list[Plan]:
    """The ``Plan`` of each test of a job whose test setup is ``setup``."""
    try:
        names = _cached(("setup", setup), lambda: setup_names(setup)) if setup else frozenset()
    except (SyntaxError, ValueError, RecursionError):
        names = frozenset()  # the judge reports the broken setup on every test
    plans = []
    for test in tests:
        kind = test["kind"]
        if kind == "stdio":
            plans.append(Plan("stdio", {}))
        elif kind == "call":
            plans.append(Plan("call", {"fn_name": test["fn_name"], "args": test.get("args", []),
                                       "kwargs": test.get("kwargs", {})}))
        else:
            code = test["code"]
            try:
                planned = _cached(("judge", code, names), lambda code=code: plan_assert(code, names))
            except (SyntaxError, ValueError, RecursionError) as e:
                plans.append(Plan("broken", why=f"the test code does not compile: {e}"))
                continue
            if isinstance(planned, str):
                plans.append(Plan("broken", why=f"the judge cannot run this test: {planned}"))
            else:
                plans.append(Plan("judged", judged=planned))
    return plans


def _ipc_objects() -> bool:
    """Whether any System V IPC object (shared memory, message queue, semaphore set) exists."""
    for path in SYSV_IPC:
        try:
            with open(path, "rb") as f:
                if len(f.read(65536).splitlines()) > 1:  # a header line, then one line per object
                    return True
        except OSError:
            continue
    return False


def remove_ipc_objects() -> None:
    """Remove every System V IPC object a job's programs made: ``ipcrm --all``, run as the program's
    user (the runner may not remove another user's objects; that user may remove its own). POSIX
    message queues and shared memory are files (``/dev/mqueue``, ``/dev/shm``), emptied with the
    other places (``clean``)."""
    if not _ipc_objects():
        return
    payload = {"mode": "exec", "argv": ["ipcrm", "--all"], "workdir": "/tmp", "nonce": _token(16), "env": {},
               "limits": {"cpu_s": 5, "as_bytes": 0, "fsize_bytes": 0}}
    spawn(payload, b"", 10.0, COMPILE_OUTPUT_LIMIT, resident_tasks(), cpu_limit=5.0)


FOREIGN = [0]  # tasks of processes not the sandbox's (``forkclient.foreign_tasks``), read per job


def resident_tasks() -> int:
    """Processes the container may hold between jobs, counted from what exists: the runner, the
    fork server, the judge (and what is none of the sandbox's: ``FOREIGN``)."""
    judge = JUDGE[0]
    return 1 + exists(FORKSERVER.pidfd) + (judge is not None and judge.exists()) + FOREIGN[0]


BASELINE: list[Baseline | None] = [None]  # the container's places and their state at its start (``take_baseline``)


def take_baseline() -> None:
    """Empty the container's places once and note their state: every job must leave them so."""
    BASELINE[0] = Baseline()


def leave_clean() -> list[str]:
    """After a job: no process of the program's left (counted from what exists), no IPC object,
    nothing anywhere it could write; then measure it. The judge, the fork server and their limits
    are out of any program's reach (another user), so they stay.

    Returns:
        the residue: what is not back at its state at the container's start (``clean.Baseline``),
        each said in a few words; empty when the container is clean.
    """
    if tasks_in_container() > resident_tasks():
        kill_all()
        if JUDGE[0] is not None:
            JUDGE[0].forget()
        JUDGE[0] = None
    remove_ipc_objects()
    residue = []
    if tasks_in_container() > resident_tasks():
        residue.append("processes: more than the runner's own")
    if _ipc_objects():
        residue.append("System V IPC objects")
    baseline = BASELINE[0]
    if baseline is not None:
        residue += baseline.restore()
    return residue


def _compile(language, workdir: str, limits: dict, names: dict, wall_s: float) -> tuple[bool, str, float]:
    """Compile once: the compiler's processes together get ``compile_time_limit_s`` CPU seconds."""
    payload = {"mode": "exec", "argv": _fill(language.compile_command, names), "workdir": workdir,
               "nonce": _token(16), "env": _env(language, names),
               "limits": {"cpu_s": limits["compile_time_limit_s"], "as_bytes": 0,
                          "fsize_bytes": 512 * 1024 * 1024}}
    outcome = spawn(payload, b"", min(limits["compile_time_limit_s"] * 2 + 5, wall_s), COMPILE_OUTPUT_LIMIT,
                    resident_tasks(), cpu_limit=limits["compile_time_limit_s"] + CPU_GRACE_S)
    text = (bytes(outcome.stdout) + bytes(outcome.stderr)).decode("utf-8", "replace")
    if outcome.killed_for == "timeout":
        return False, "compilation timed out\n" + text, outcome.wall_s
    if outcome.killed_for or outcome.signal is not None or outcome.exit_code != 0:
        return False, text or f"compiler failed (status {outcome.exit_code}, signal {outcome.signal})", outcome.wall_s
    return True, text, outcome.wall_s


class _TestRun:
    """The running of one job's tests: the job's zygote and judge, started when first needed;
    ``deadline``: when the job's whole budget is spent."""

    def __init__(self, job: dict, language, program_code, workdir: str, names: dict, deadline: float):
        self.job, self.language, self.code, self.workdir, self.names = job, language, program_code, workdir, names
        self.deadline = deadline
        self.limits = limits = _language_limits(job["limits"], language)
        self.python = not language.run_command
        self.child_limits = _child_limits(limits, self.python, language)
        self.cpu_limit = limits["time_limit_s"] + CPU_GRACE_S
        self.memory_limit = (limits["memory_limit_mb"] + language.memory_overhead_mb) << 20 \
            if language.memory == "cgroup" else None
        self.plans = plan_tests(job["tests"], job.get("test_setup"))
        # A zygote gets every call test of the job at its start, the judge every judged one; a
        # request names one by its place.
        self.zygote_index: dict[int, int] = {}
        self.zygote_tests: list[list] = []
        self.judge_index: dict[int, int] = {}
        self.judge_tests: list[list] = []
        for i, plan in enumerate(self.plans):
            if plan.kind == "call":
                self.zygote_index[i] = len(self.zygote_tests)
                self.zygote_tests.append(["call", plan.visible])
            elif plan.kind == "judged":
                self.judge_index[i] = len(self.judge_tests)
                self.judge_tests.append(list(plan.judged))
        # A zygote pays off from the second test forked from the program on.
        self.use_zygote = self.python and len(self.zygote_index) + len(self.judge_index) > 1
        self.zygote: Zygote | None = None
        self.judge: Judge | None = None  # the container's judge, once it has this job's tests
        self.failed_start: tuple[Outcome, str] | None = None  # a zygote's top level that ran out of limits
        self.records = bytearray()  # records of the zygote's top level (flags)
        self.start_nonce = ""
        self.results: list[dict] = []

    def tasks(self) -> int:
        """Processes that may be alive in the container between two tests, counted from what
        exists: the runner, the fork server, the judge and the job's zygote."""
        return resident_tasks() + (self.zygote is not None and self.zygote.exists())

    def known(self) -> set[int]:
        """Pids of the runner's residents (a zygote may not name one as its test process)."""
        return {pid for pid in (FORKSERVER.pid, self.zygote and self.zygote.pid, JUDGE[0] and JUDGE[0].pid) if pid}

    def wall(self) -> float:
        """The wall-clock seconds the next test may take: its limit, within the job's budget."""
        return max(0.0, min(self.limits["wall_time_limit_s"], self.deadline - time.monotonic()))

    def payload(self, mode: str, kind: str, nonce: str, visible=None) -> dict:
        """The request of a Python child (``program.child.child_main``)."""
        return {"mode": mode, "kind": kind, "test": visible or {}, "nonce": nonce, "code": self.code,
                "workdir": self.workdir, "limits": self.child_limits}

    def _ensure_zygote(self) -> Zygote | None:
        if self.use_zygote and self.zygote is None and self.failed_start is None:
            nonce = self.start_nonce = _token(16)
            limits = {**self.limits, "wall_time_limit_s": self.wall()}
            self.zygote, failed = Zygote.start(self.payload("zygote", "zygote", nonce), self.zygote_tests,
                                               limits, self.cpu_limit)
            if self.zygote is not None:
                self.records += self.zygote.start_records
            if failed is not None:  # the top level ran out of time or output: so would every test
                self.failed_start = (failed, nonce)
                self.records += failed.records
            self.use_zygote = self.zygote is not None or self.failed_start is not None
        return self.zygote

    def _ensure_judge(self) -> Judge:
        """The container's judge, started if there is none, with this job's tests."""
        if self.judge is None:
            for _ in range(2):
                judge = JUDGE[0]
                if judge is None or not judge.exists():
                    if judge is not None:  # it went away: let it go
                        judge.forget()
                    JUDGE[0] = judge = Judge.start({"mode": "judge", "nonce": _token(16), "workdir": JUDGE_DIR,
                                                    "limits": {"cpu_s": None, "fsize_bytes": 1 << 20}})
                if judge.job(self.job.get("test_setup"), self.judge_tests, self.limits["memory_limit_mb"] << 20,
                             self.job.get("checker"), self.job.get("allow_non_finite") is True):
                    self.judge = judge
                    break
            else:
                raise ForkserverLost("the judge does not take the job's tests")
        return self.judge

    def _zygote_gone(self) -> None:
        if self.zygote is not None and not self.zygote.alive:
            self.use_zygote = False  # the rest: one fresh process per test, for exact verdicts
            self.zygote = None

    def _everything_killed(self) -> None:
        """After a ``kill_all``: the residents are gone; they restart when next needed."""
        for resident in (self.zygote, JUDGE[0]):
            if resident is not None:
                resident.forget()
        self._zygote_gone()
        self.judge = JUDGE[0] = None

    def _out_of_budget(self) -> dict:
        return {"status": "timeout", "time_s": 0.0, "cpu_time_s": 0.0,
                "message": "the job's whole time budget ran out before this test"}

    def run(self) -> list[dict]:
        limits = self.limits
        compare, tolerance = self.job["compare"], self.job["float_tolerance"]  # Job.to_wire always sends both
        results = self.results
        try:
            for i, (test, plan) in enumerate(zip(self.job["tests"], self.plans, strict=True)):
                nonce = _token(16)
                if plan.kind == "broken":
                    results.append({"status": "runtime_error", "time_s": 0.0, "cpu_time_s": 0.0,
                                    "message": _clip(plan.why, MESSAGE_LIMIT)})
                    continue
                if self.wall() <= 0:
                    results.append(self._out_of_budget())
                    continue
                if plan.kind == "judged":
                    results.append(self._judged(i, nonce))
                    continue
                zygote = self._ensure_zygote() if plan.kind == "call" else None
                if plan.kind == "call" and self.failed_start is not None:
                    outcome, nonce = self.failed_start
                elif zygote is not None:
                    outcome = self._zygote_test(zygote, nonce, self.zygote_index[i], test, plan)
                else:
                    outcome = self._fresh_test(test, plan, nonce)
                checker = (lambda got, test=test, nonce=nonce: self._check(test, got, nonce)) \
                    if plan.kind == "stdio" and self.job.get("checker") else None
                result = test_result(test, outcome, limits, nonce, compare, tolerance, self.language, checker,
                                     self.job.get("allow_non_finite") is True)
                if plan.kind == "stdio" and test.get("capture") is True:
                    result["output"] = captured(outcome)
                results.append(result)
        finally:
            if self.zygote is not None:
                self.zygote.close()
        return results

    def _fresh_test(self, test: dict, plan: Plan, nonce: str) -> Outcome:
        """A ``stdio`` or ``call`` test in a process of its own, forked by the fork server."""
        if self.python:
            payload = self.payload("python", plan.kind, nonce, plan.visible)
            stdin = test.get("stdin", "").encode("utf-8") if plan.kind == "stdio" else b""
        else:
            payload, stdin = _exec_run(self.language, test, plan.visible, nonce, self.workdir, self.names,
                                       self.child_limits)
        tasks = self.tasks()
        outcome = spawn(payload, stdin, self.wall(), self.limits["output_limit_bytes"], tasks,
                        cpu_limit=self.cpu_limit, memory_limit=self.memory_limit)
        if outcome.killed_for is not None or tasks_in_container() > tasks:
            self._everything_killed()
        return outcome

    def _zygote_test(self, zygote: Zygote, nonce: str, index: int, test: dict, plan: Plan) -> Outcome:
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

    def _check(self, test: dict, output: str, nonce: str) -> tuple[str, str, float | None, set[str]]:
        """The task's checker's judgement of a ``stdio`` test's output, run by the judge within the
        test's wall-clock limit (at least ``CHECKER_WALL_S``): ``(status, message, score, flags)``.
        A checker that does not answer in time on this output fails the test (``checker_fault``):
        it answered on the reference's and on malformed outputs (``tasks validate``)."""
        judge = self._ensure_judge()
        verdict = Outcome()
        if judge.request(("check", nonce, test.get("stdin", ""), output, test["expected_stdout"])):
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
        score = record["score"]
        try:
            value = float(score) if score else None
        except ValueError:
            value = None
        flags = {record["flags"]} if record["flags"] else set()
        return record["status"], record["message"], value, flags

    def _judged(self, i: int, nonce: str) -> dict:
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
                pid, ours, _ = fork_child(self.payload("python", "serve", nonce), extra=(call_r, reply_w))
                program_watch = Watch(ours, b"")
                program_watch.follow(pid)
            judge.request(("test", nonce, self.judge_index[i]), [call_w, reply_r])
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
        return judged_result(program, record, limits, nonce)


def _verdict_record(outcome: Outcome, nonce: str):
    """The judge's ``verdict`` record for the test of ``nonce`` among what it wrote, or None."""
    records, _ = read_records(bytes(outcome.records), nonce, JUDGE_EVENTS)
    return records[0] if records else None


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


_STATE: dict = {"started": False, "run": None, "residue": None}  # the job in progress, for a fault's report;
# what a job left that would not go: once set, this container takes no more jobs


def refusal() -> str | None:
    """Why this container takes no more jobs (a job left it unclean), or None: it is clean."""
    residue = _STATE["residue"]
    return None if residue is None else "the container is not back at its baseline: " + "; ".join(residue)


def run_job(job: dict) -> dict:
    """Compile once, run every test in a fresh process, leave the container clean; return the
    verdict dict (``messages.RunReply``).

    Raises:
        JobFault: the runner failed (the container is cleaned up first).
    """
    _STATE["started"], _STATE["run"] = False, None
    try:
        return _run_job(job)
    except Exception as e:  # a fault of the runner's: reported, the host retries it elsewhere
        run = _STATE["run"]
        flags = {f for result in (run.results if run is not None else ()) for f in result.get("flags", ())}
        kill_all()
        JUDGE[0] = None
        _STATE["residue"] = leave_clean() or None
        raise JobFault(traceback.format_exc()[-4000:], _STATE["started"], flags) from e


def _run_job(job: dict) -> dict:
    started = time.monotonic()
    FOREIGN[0] = foreign_tasks()
    deadline = started + job["budget_s"]
    language = LANGUAGES[job["language"]]
    limits = job["limits"]
    workdir = os.path.join(JOB_ROOT, _token(8))
    os.makedirs(workdir, mode=0o700)
    os.chown(workdir, PROGRAM_UID, PROGRAM_UID)
    names = {**program_names(language, job["program"]), "memory_mb": str(limits["memory_limit_mb"]),
             "inside": INSIDE, **runtime_names(limits["memory_limit_mb"])}  # the runtimes' start-up state
    source_file = language.source_file.format(**names)
    with open(os.path.join(workdir, source_file), "w", encoding="utf-8") as f:
        f.write(job["program"])
        os.fchown(f.fileno(), PROGRAM_UID, PROGRAM_UID)
    verdict: dict = {"id": job.get("id"), "ok": True, "tests": [], "compile_output": "", "compile_time_s": 0.0}
    if language.compile_command:
        _STATE["started"] = True  # the compiler reads the program's text: its fault from here on
        ok, output, seconds = _compile(language, workdir, limits, names, max(0.0, deadline - time.monotonic()))
        verdict["compile_output"] = _clip(output, COMPILE_OUTPUT_LIMIT)
        verdict["compile_time_s"] = round(seconds, 6)
        if not ok:
            verdict["status"] = "compile_error"
    program_code = None
    if "status" not in verdict and not language.run_command:
        # Compiled once here (compiling runs none of the program's code); each test process
        # gets the code object, and a SyntaxError needs no process at all.
        try:
            program_code = compile(job["program"], language.source_file, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, MemoryError, RecursionError) as e:
            verdict["status"] = "compile_error"
            verdict["compile_output"] = _clip("".join(traceback.format_exception_only(type(e), e)).strip(),
                                              COMPILE_OUTPUT_LIMIT)
    flags: set[str] = set()
    if "status" not in verdict:
        _STATE["started"] = True
        run = _STATE["run"] = _TestRun(job, language, program_code, workdir, names, deadline)
        verdict["tests"] = run.run()
        for result in verdict["tests"]:
            flags.update(result.pop("flags", ()))
        records, malformed = read_records(bytes(run.records), run.start_nonce)
        flags |= flag_names(records)
        if malformed:
            flags.add("test_tampering")
        failed = [t["status"] for t in verdict["tests"] if t["status"] != "passed"]
        verdict["status"] = failed[0] if failed else "passed"
    if _planted(workdir, source_file):
        flags.add("module_planted")
    verdict["run_time_s"] = round(time.monotonic() - started, 6)
    residue = leave_clean()
    if residue:  # the host replaces this container; until then it takes no job (``refusal``)
        flags.add("residue")
        verdict["residue"] = _STATE["residue"] = residue
    verdict["flags"] = sorted(flags)
    return verdict
