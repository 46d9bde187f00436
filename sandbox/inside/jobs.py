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

from .forkclient import kill_all
from .guard import compile_guarded_test
from .languages import LANGUAGES, program_names
from .records import MESSAGE_LIMIT
from .records import clip as _clip
from .verdict import test_result
from .watch import spawn
from .zygote import Zygote

JOB_ROOT = "/tmp/jobs"
INSIDE = os.path.dirname(os.path.abspath(__file__))  # where program_process.js lies
SCRUB_DIRS = ("/tmp", "/dev/shm")
COMPILE_OUTPUT_LIMIT = 64 * 1024
CPU_GRACE_S = 0.1  # the tree limit sits just above the main process's own RLIMIT-based check


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
    """Each string of ``items`` with its ``{placeholders}`` filled from ``names``."""
    return [item.format(**names) for item in items]


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


GUARDED_CACHE_SIZE = 4096  # compiled assert tests kept: tasks are scored many times (n samples, G completions)
_GUARDED: dict[str, object] = {}


def _guarded(code: str):
    """``guard.compile_guarded_test(code)``, from a bounded cache (least recently used goes first)."""
    compiled = _GUARDED.pop(code, None)
    if compiled is None:
        compiled = compile_guarded_test(code)
        if len(_GUARDED) >= GUARDED_CACHE_SIZE:
            del _GUARDED[next(iter(_GUARDED))]
    _GUARDED[code] = compiled
    return compiled


def visible_test(test: dict) -> dict:
    """The part of a test the program's process may see: never expected values.

    Raises:
        SyntaxError: the test code of an assert test does not compile.
    """
    if test["kind"] == "assert":
        return {"code": test["code"], "guarded": _guarded(test["code"])}
    if test["kind"] == "call":
        return {"fn_name": test["fn_name"], "args": test.get("args", []), "kwargs": test.get("kwargs", {})}
    return {}


def _visible_tests(tests: list[dict]) -> tuple[list[dict], dict[int, str]]:
    """Each test's visible part (``visible_test``; ``{}`` where it does not compile), and, by
    test index, why a test's code does not compile (the task's fault, same for every program)."""
    visible, broken = [], {}
    for i, test in enumerate(tests):
        try:
            visible.append(visible_test(test))
        except (SyntaxError, ValueError, RecursionError) as e:
            visible.append({})
            broken[i] = f"the test code does not compile: {e}"
    return visible, broken


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


def _run_tests(job: dict, language, program_code, workdir: str, names: dict) -> list[dict]:
    """Run every test of a compiled job, each in a fresh process; return the per-test results."""
    limits = _language_limits(job["limits"], language)
    python = not language.run_command
    child_limits = _child_limits(limits, python, language)
    cpu_limit = limits["time_limit_s"] + CPU_GRACE_S
    memory_limit = (limits["memory_limit_mb"] + language.memory_overhead_mb) << 20 \
        if language.memory == "cgroup" else None
    compare, tolerance = job.get("compare", "tokens"), job.get("float_tolerance", 1e-6)
    results = []
    visible_tests, broken = _visible_tests(job["tests"])
    # A zygote gets every in-process test of the job at its start; a request names one by its place.
    zygote_index, zygote_tests = {}, []
    for i, test in enumerate(job["tests"]):
        if test["kind"] != "stdio" and i not in broken:
            zygote_index[i] = len(zygote_tests)
            zygote_tests.append([test["kind"], visible_tests[i]])
    zygote, failed_start = None, None  # failed_start: (outcome, nonce) of a top level that ran out of limits
    use_zygote = python and len(zygote_tests) > 1  # a zygote pays off from the second in-process test on
    try:
        for i, (test, visible) in enumerate(zip(job["tests"], visible_tests)):
            nonce = _token(16)
            if i in broken:
                results.append({"status": "runtime_error", "time_s": 0.0, "cpu_time_s": 0.0,
                                "message": _clip(broken[i], MESSAGE_LIMIT)})
                continue
            kind = test["kind"]
            if use_zygote and kind != "stdio" and zygote is None and failed_start is None:
                start_nonce = _token(16)
                zygote, failed = Zygote.start(
                    {"mode": "zygote", "kind": kind, "test": {}, "nonce": start_nonce, "code": program_code,
                     "workdir": workdir, "limits": child_limits}, zygote_tests, limits, cpu_limit)
                if failed is not None:  # the top level ran out of time or output: so would every test
                    failed_start = (failed, start_nonce)
                use_zygote = zygote is not None or failed_start is not None
            if use_zygote and kind != "stdio":
                if failed_start is not None:
                    outcome, nonce = failed_start
                else:
                    outcome = zygote.run(nonce, zygote_index[i], cpu_limit)
                    if not zygote.alive:
                        use_zygote = not zygote.lost
                        zygote = None
            else:
                if zygote is not None:
                    zygote.close()
                    zygote = None
                if python:
                    payload = {"mode": "python", "kind": kind, "test": visible, "nonce": nonce,
                               "code": program_code, "workdir": workdir, "limits": child_limits}
                    stdin = test.get("stdin", "").encode("utf-8") if kind == "stdio" else b""
                else:
                    payload, stdin = _exec_run(language, test, visible, nonce, workdir, names, child_limits)
                outcome = spawn(payload, stdin, limits["wall_time_limit_s"], limits["output_limit_bytes"],
                                cpu_limit=cpu_limit, memory_limit=memory_limit)
            results.append(test_result(test, outcome, limits, nonce, compare, tolerance, language))
    finally:
        if zygote is not None:
            zygote.close()
    return results


def run_job(job: dict) -> dict:
    """Compile once, run every test in a fresh process, clean up; return the verdict dict."""
    language = LANGUAGES[job["language"]]
    limits = job["limits"]
    workdir = os.path.join(JOB_ROOT, _token(8))
    os.makedirs(workdir, mode=0o700)
    names = {**program_names(language, job["program"]), "memory_mb": str(limits["memory_limit_mb"]),
             "inside": INSIDE}
    with open(os.path.join(workdir, language.source_file.format(**names)), "w", encoding="utf-8") as f:
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
    if "status" not in verdict:
        verdict["tests"] = _run_tests(job, language, program_code, workdir, names)
        failed = [t["status"] for t in verdict["tests"] if t["status"] != "passed"]
        verdict["status"] = failed[0] if failed else "passed"
    verdict["run_time_s"] = round(time.monotonic() - started, 6)
    scrub()
    return verdict
