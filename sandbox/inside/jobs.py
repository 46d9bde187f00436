"""One job in the container: write the program, compile it once, run each test in a fresh process,
judge each test, clean up.

Stdlib only; runs in the runner. The fork server forks every test process (``forkclient``), or
a zygote does for a Python program's ``assert`` and ``call`` tests (``zygote``); ``watch`` feeds
and reads each one within its limits, and ``verdict`` judges it.
"""

from __future__ import annotations

import json
import os
import time
import traceback

from .cgroup import tasks_in_container
from .forkclient import FORKSERVER, ForkserverLost, fork_child
from .guard import compile_guarded_test, plan_assert, setup_names
from .languages import LANGUAGES, program_names, runtime_names
from .records import ENDED, MESSAGE_LIMIT, PLANTED_SUFFIXES, VERDICT, flags_in, for_nonce, parse
from .records import clip as _clip
from .resident import JUDGE_OUTPUT_LIMIT, Judge, Zygote
from .verdict import judged_result, test_result
from .watch import RUNNER_AND_FORKSERVER, Outcome, Watch, spawn, watch_all

JOB_ROOT = "/tmp/jobs"
INSIDE = os.path.dirname(os.path.abspath(__file__))  # where program_process.js lies
SCRUB_DIRS = ("/tmp", "/dev/shm")
COMPILE_OUTPUT_LIMIT = 64 * 1024
CPU_GRACE_S = 0.1  # the tree limit sits just above the main process's own RLIMIT-based check
JUDGE: list = [None]  # the container's judge (``resident.Judge``), kept from job to job
CHECKER_WALL_S = 5.0  # the least wall-clock time a task's checker gets for one test


def _token(n_bytes: int) -> str:
    return os.urandom(n_bytes).hex()


def _child_limits(limits: dict, python: bool, language=None) -> dict:
    """rlimits of a test process. A Python child is forked and keeps the fork server's mappings,
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
    the nonce on stdin (never on its command line or in its environment, which the program can
    read) before the program is loaded."""
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
    the judge runs, ``judged`` its compiled form), ``in_process`` (an ``assert`` test judged in
    the program's process, ``why`` says why) or ``broken`` (the test code does not compile,
    ``why`` says how: the task's fault, the same for every program). ``visible`` is what a
    process of the program's may see of it (never an expected value)."""

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
                if isinstance(planned, str):
                    plans.append(Plan("in_process", {"code": code, "guarded": _cached(
                        ("guard", code), lambda code=code: compile_guarded_test(code))}, why=planned))
                else:
                    plans.append(Plan("judged", judged=planned))
            except (SyntaxError, ValueError, RecursionError) as e:
                plans.append(Plan("broken", why=f"the test code does not compile: {e}"))
    return plans


def _remove_tree(path: str) -> None:
    """Remove a file, a link or a folder with everything in it (no recursion); errors are ignored."""
    stack, folders = [path], []
    while stack:
        entry = stack.pop()
        try:
            os.unlink(entry)  # files and links, links to folders included
            continue
        except IsADirectoryError:
            folders.append(entry)
        except OSError:
            continue
        try:
            with os.scandir(entry) as entries:
                stack += [e.path for e in entries]
        except OSError:
            pass
    for folder in reversed(folders):
        try:
            os.rmdir(folder)
        except OSError:
            pass


def scrub() -> None:
    """Remove everything a job left in the writable folders."""
    for root in SCRUB_DIRS:
        try:
            with os.scandir(root) as entries:
                paths = [e.path for e in entries]
        except OSError:
            continue
        for path in paths:
            _remove_tree(path)


def _compile(language, workdir: str, limits: dict, names: dict) -> tuple[bool, str, float]:
    """Compile once: the compiler's processes together get ``compile_time_limit_s`` CPU seconds."""
    payload = {"mode": "exec", "argv": _fill(language.compile_command, names), "workdir": workdir,
               "nonce": _token(16), "env": _env(language, names),
               "limits": {"cpu_s": limits["compile_time_limit_s"], "as_bytes": 0,
                          "fsize_bytes": 512 * 1024 * 1024}}
    outcome = spawn(payload, b"", limits["compile_time_limit_s"] * 2 + 5, COMPILE_OUTPUT_LIMIT,
                    cpu_limit=limits["compile_time_limit_s"] + CPU_GRACE_S)
    text = (bytes(outcome.stdout) + bytes(outcome.stderr)).decode("utf-8", "replace")
    if outcome.killed_for == "timeout":
        return False, "compilation timed out\n" + text, outcome.wall_s
    if outcome.killed_for or outcome.signal is not None or outcome.exit_code != 0:
        return False, text or f"compiler failed (status {outcome.exit_code}, signal {outcome.signal})", outcome.wall_s
    return True, text, outcome.wall_s


class _TestRun:
    """The running of one job's tests: the job's zygote and judge, started when first needed."""

    def __init__(self, job: dict, language, program_code, workdir: str, names: dict):
        self.job, self.language, self.code, self.workdir, self.names = job, language, program_code, workdir, names
        self.limits = limits = _language_limits(job["limits"], language)
        self.python = not language.run_command
        self.child_limits = _child_limits(limits, self.python, language)
        self.cpu_limit = limits["time_limit_s"] + CPU_GRACE_S
        self.memory_limit = (limits["memory_limit_mb"] + language.memory_overhead_mb) << 20 \
            if language.memory == "cgroup" else None
        self.plans = plan_tests(job["tests"], job.get("test_setup"))
        # A zygote gets every call and in-process assert test of the job at its start, the judge
        # every judged one; a request names one by its place.
        self.zygote_index, self.zygote_tests, self.judge_index, self.judge_tests = {}, [], {}, []
        for i, plan in enumerate(self.plans):
            if plan.kind in ("call", "in_process"):
                self.zygote_index[i] = len(self.zygote_tests)
                self.zygote_tests.append(["call" if plan.kind == "call" else "assert", plan.visible])
            elif plan.kind == "judged":
                self.judge_index[i] = len(self.judge_tests)
                self.judge_tests.append(list(plan.judged))
        # A zygote pays off from the second test forked from the program on.
        self.use_zygote = self.python and len(self.zygote_index) + len(self.judge_index) > 1
        self.zygote: Zygote | None = None
        self.judge: Judge | None = None  # the container's judge, once it has this job's tests
        self.failed_start = None  # (outcome, nonce) of a zygote's top level that ran out of limits
        self.records = bytearray()  # records of the zygote's top level (flags)

    def tasks(self) -> int:
        """Processes alive in the container between two tests: runner, fork server, residents."""
        return RUNNER_AND_FORKSERVER + sum(r is not None and r.alive for r in (self.zygote, JUDGE[0]))

    def payload(self, mode: str, kind: str, nonce: str, visible=None) -> dict:
        """The request of a Python child (``program_process.child_main``)."""
        return {"mode": mode, "kind": kind, "test": visible or {}, "nonce": nonce, "code": self.code,
                "workdir": self.workdir, "limits": self.child_limits}

    def _ensure_zygote(self) -> Zygote | None:
        if self.use_zygote and self.zygote is None and self.failed_start is None:
            nonce = _token(16)
            self.zygote, failed = Zygote.start(self.payload("zygote", "zygote", nonce), self.zygote_tests,
                                               self.limits, self.cpu_limit)
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
                if judge is None or not judge.usable():
                    if judge is not None:  # it went away: let it go
                        judge.forget()
                    JUDGE[0] = judge = Judge.start({"mode": "judge", "nonce": _token(16), "workdir": JOB_ROOT,
                                                    "limits": {"cpu_s": None, "fsize_bytes": 1 << 20}})
                if judge.job(self.job.get("test_setup"), self.judge_tests, self.limits["memory_limit_mb"] << 20,
                             self.job.get("checker")):
                    self.judge = judge
                    break
            else:
                raise ForkserverLost("the judge does not take the job's tests")
        return self.judge

    def _zygote_gone(self) -> None:
        if self.zygote is not None and not self.zygote.alive:
            self.use_zygote = not self.zygote.lost
            self.zygote = None

    def _everything_killed(self) -> None:
        """After a ``kill_all``: the residents are gone; they restart when next needed."""
        for resident in (self.zygote, JUDGE[0]):
            if resident is not None:
                resident.forget()
        self._zygote_gone()
        self.judge = JUDGE[0] = None

    def run(self) -> list[dict]:
        limits = self.limits
        compare, tolerance = self.job["compare"], self.job["float_tolerance"]  # Job.to_wire always sends both
        results = []
        try:
            for i, (test, plan) in enumerate(zip(self.job["tests"], self.plans)):
                nonce = _token(16)
                if plan.kind == "broken":
                    results.append({"status": "runtime_error", "time_s": 0.0, "cpu_time_s": 0.0,
                                    "message": _clip(plan.why, MESSAGE_LIMIT)})
                    continue
                if plan.kind == "judged":
                    results.append(self._judged(i, test, nonce))
                    continue
                zygote = self._ensure_zygote() if plan.kind != "stdio" else None
                if plan.kind != "stdio" and self.failed_start is not None:
                    outcome, nonce = self.failed_start
                elif zygote is not None:
                    outcome = zygote.run(nonce, self.zygote_index[i], self.cpu_limit, self.tasks())
                    if not zygote.alive:
                        self._everything_killed()
                else:
                    kind = plan.kind if plan.kind != "in_process" else "assert"
                    if self.python:
                        payload = self.payload("python", kind, nonce, plan.visible)
                        stdin = test.get("stdin", "").encode("utf-8") if kind == "stdio" else b""
                    else:
                        payload, stdin = _exec_run(self.language, test, plan.visible, nonce, self.workdir, self.names,
                                                   self.child_limits)
                    tasks = self.tasks()
                    outcome = spawn(payload, stdin, limits["wall_time_limit_s"], limits["output_limit_bytes"],
                                    cpu_limit=self.cpu_limit, tasks=tasks, memory_limit=self.memory_limit)
                    if outcome.killed_for is not None or tasks_in_container() > tasks:
                        self._everything_killed()
                checker = (lambda got, test=test, nonce=nonce: self._check(test, got, nonce)) \
                    if plan.kind == "stdio" and self.job.get("checker") else None
                result = test_result(test, outcome, limits, nonce, compare, tolerance, self.language, checker)
                if plan.kind == "in_process":
                    result["judged_in_process"] = True
                results.append(result)
        finally:
            if self.zygote is not None:
                self.zygote.close()
        return results

    def _check(self, test: dict, output: str, nonce: str) -> tuple[str, str, float | None]:
        """The task's checker's judgement of a ``stdio`` test's output, run by the judge within the
        test's wall-clock limit (at least ``CHECKER_WALL_S``): ``(status, message, score)``."""
        judge = self._ensure_judge()
        verdict = Outcome()
        if judge.request(("check", nonce, test.get("stdin", ""), output, test["expected_stdout"])):
            deadline = time.monotonic() + max(self.limits["wall_time_limit_s"], CHECKER_WALL_S)
            watch_all([(judge.watch, verdict, JUDGE_OUTPUT_LIMIT)], deadline, None,
                      lambda: verdict.ends_with(VERDICT, nonce))
        record = _verdict_record(verdict, nonce)
        if record is None:
            if judge.alive:
                judge.kill()
            self._everything_killed()
            return "checker_error", "the task's checker did not answer in time (or its judge went away)", None
        score = record.get("score")
        return record.get("status", "checker_error"), record.get("message", ""), float(score) if score else None

    def _judged(self, i: int, test: dict, nonce: str) -> dict:
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
        try:
            if zygote is not None:
                program_watch = zygote.watch if zygote.serve(nonce, [call_r, reply_w]) else None
            else:
                _, ours, _ = fork_child(self.payload("python", "serve", nonce), extra=(call_r, reply_w))
                program_watch = Watch(ours, b"", FORKSERVER.pidfd)
            if program_watch is not None:
                judge.request(("test", nonce, self.judge_index[i]), [call_w, reply_r])
        finally:
            for fd in (call_r, call_w, reply_r, reply_w):
                os.close(fd)
        program, verdict = Outcome(), Outcome()
        if program_watch is None:  # the zygote did not take the request: everything was killed
            self._everything_killed()
            program.killed_for = "forker"
            return judged_result(program, None, limits, nonce)
        parts = [(program_watch, program, limits["output_limit_bytes"])]
        if judge.alive:
            parts.append((judge.watch, verdict, JUDGE_OUTPUT_LIMIT))
        watch_all(parts, started + limits["wall_time_limit_s"], self.cpu_limit,
                  lambda: program.ends_with(ENDED, nonce) and verdict.ends_with(VERDICT, nonce))
        record = _verdict_record(verdict, nonce)
        if record is None and judge.alive:
            judge.watch.drain(verdict, JUDGE_OUTPUT_LIMIT)
            record = _verdict_record(verdict, nonce)
        judge_gone = not judge.alive or judge.watch.forker_gone
        tasks = self.tasks()
        if judge_gone and program.killed_for is None:
            program.killed_for = "judge"
        if zygote is not None:
            zygote.finish(program, nonce, started, tasks)
            clean = zygote.alive
        else:
            clean = program_watch.finish(program, nonce, started, limits["output_limit_bytes"], tasks)
            if clean:
                program_watch.close()
        if not clean:
            self._everything_killed()
        return judged_result(program, record, limits, nonce, forked_ready=zygote is not None)


def _run_tests(job: dict, language, program_code, workdir: str, names: dict) -> tuple[list[dict], bytes]:
    """Run every test of a compiled job, each in a fresh process; return the per-test results and
    the records of the job's zygote's top level (for its flags). ``names`` fill the language's
    command templates (``languages.program_names``)."""
    run = _TestRun(job, language, program_code, workdir, names)
    return run.run(), bytes(run.records)


def run_job(job: dict) -> dict:
    """Compile once, run every test in a fresh process, clean up; return the verdict dict."""
    language = LANGUAGES[job["language"]]
    limits = job["limits"]
    workdir = os.path.join(JOB_ROOT, _token(8))
    os.makedirs(workdir, mode=0o700)
    names = {**program_names(language, job["program"]), "memory_mb": str(limits["memory_limit_mb"]),
             "inside": INSIDE, **runtime_names(limits["memory_limit_mb"])}  # the runtimes' start-up state
    source_file = language.source_file.format(**names)
    with open(os.path.join(workdir, source_file), "w", encoding="utf-8") as f:
        f.write(job["program"])
    verdict = {"id": job.get("id"), "ok": True, "tests": [], "compile_output": "", "compile_time_s": 0.0}
    started = time.monotonic()
    if language.compile_command:
        ok, output, seconds = _compile(language, workdir, limits, names)
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
    flags = set()
    if "status" not in verdict:
        verdict["tests"], start_records = _run_tests(job, language, program_code, workdir, names)
        for result in verdict["tests"]:
            flags.update(result.pop("flags", ()))
        flags.update(flags_in([r for r in map(parse, start_records.splitlines()) if r is not None]))
        failed = [t["status"] for t in verdict["tests"] if t["status"] != "passed"]
        verdict["status"] = failed[0] if failed else "passed"
    if _planted(workdir, source_file):
        flags.add("module_planted")
    verdict["flags"] = sorted(flags)
    verdict["run_time_s"] = round(time.monotonic() - started, 6)
    scrub()
    return verdict


def _verdict_record(outcome: Outcome, nonce: str) -> dict | None:
    """The judge's ``verdict`` record for the test of ``nonce`` among what it wrote, or None."""
    return next((r for r in for_nonce(bytes(outcome.records), nonce) if r.get("event") == VERDICT), None)


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
