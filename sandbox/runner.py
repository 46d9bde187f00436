"""The in-container runner: compile a program once, run each test case in a fresh process.

Stdlib only. It runs as PID 1 of a sandbox container (unprivileged user, no capabilities, no
network, read-only root) and talks to the host over the container's attached stdin/stdout:
one JSON object per line in each direction (``ping`` and ``run`` requests, see ``serve``).

Why PID 1: signals sent from inside a PID namespace to its init are dropped unless init
handles them, so a program cannot kill the runner, and ``kill(-1, SIGKILL)`` from the runner
ends every other process in the container, including children that escaped with ``setsid``.

The runner forks no test process itself: the fork server does (``forkserver.py``, a lean
interpreter whose forks are cheap), or, for a Python program's ``assert`` and ``call`` tests, a
zygote forked by it that ran the program's top level once (``zygote.py``). The runner feeds and
reads each test process and enforces its limits (``supervise.py``), and judges it (``judge.py``).

Threat model of in-process tests: the harness guards against always-equal objects, early
exits and monkeypatched builtins, but code that deliberately reverse-engineers the harness
(ctypes, frame walking) shares the test's process. ``call`` and ``stdio`` tests do not.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import traceback

if __package__:  # sandbox.runner, imported on the host
    from .child import set_dumpable
    from .guard import compile_guarded_test
    from .harness import MESSAGE_LIMIT, _clip
    from .judge import judge
    from .languages import LANGUAGES
    from .supervise import FORKSERVER, kill_all, note_oom_baseline, spawn
    from .zygote import Zygote
else:  # inside the image: plain modules beside this file (-I leaves its folder off sys.path)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from child import set_dumpable  # type: ignore[import-not-found]
    from guard import compile_guarded_test  # type: ignore[import-not-found]
    from harness import MESSAGE_LIMIT, _clip  # type: ignore[import-not-found]
    from judge import judge  # type: ignore[import-not-found]
    from languages import LANGUAGES  # type: ignore[import-not-found]
    from supervise import FORKSERVER, kill_all, note_oom_baseline, spawn  # type: ignore[import-not-found]
    from zygote import Zygote  # type: ignore[import-not-found]

PROTOCOL = 1
JOB_ROOT = "/tmp/jobs"
SCRUB_DIRS = ("/tmp", "/dev/shm")
COMPILE_OUTPUT_LIMIT = 64 * 1024
CPU_GRACE_S = 0.1  # the tree limit sits just above the main process's own RLIMIT-based check


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _token(n_bytes: int) -> str:
    return os.urandom(n_bytes).hex()


def _child_limits(limits: dict, python: bool) -> dict:
    """rlimits of a test process. A Python child is forked and keeps the fork server's mappings,
    so the fork server adds its own size to ``memory_bytes``; an exec'd program starts empty."""
    memory = limits["memory_limit_mb"] * 1024 * 1024
    return {
        "cpu_s": limits["time_limit_s"],
        "memory_bytes" if python else "as_bytes": memory,
        "fsize_bytes": limits["file_size_limit_mb"] * 1024 * 1024,
    }


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


def _visible_test(test: dict) -> dict:
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
    """Each test's visible part (``_visible_test``; ``{}`` where it does not compile), and, by
    test index, why a test's code does not compile (the task's fault, same for every program)."""
    visible, broken = [], {}
    for i, test in enumerate(tests):
        try:
            visible.append(_visible_test(test))
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


def _scrub() -> None:
    """Remove everything a job left in the writable folders."""
    for root in SCRUB_DIRS:
        try:
            with os.scandir(root) as entries:
                paths = [e.path for e in entries]
        except OSError:
            continue
        for path in paths:
            _remove_tree(path)


def _compile(language, workdir: str, limits: dict) -> tuple[bool, str, float]:
    payload = {"mode": "exec", "argv": list(language.compile_command), "workdir": workdir, "nonce": _token(16),
               "limits": {"cpu_s": limits["compile_time_limit_s"], "as_bytes": 0,
                          "fsize_bytes": 512 * 1024 * 1024}}
    outcome = spawn(payload, b"", limits["compile_time_limit_s"] * 2 + 5, COMPILE_OUTPUT_LIMIT)
    text = (bytes(outcome.stdout) + bytes(outcome.stderr)).decode("utf-8", "replace")
    if outcome.killed_for == "timeout":
        return False, "compilation timed out\n" + text, outcome.wall_s
    if outcome.killed_for or outcome.signal is not None or outcome.exit_code != 0:
        return False, text or f"compiler failed (status {outcome.exit_code}, signal {outcome.signal})", outcome.wall_s
    return True, text, outcome.wall_s


def _run_tests(job: dict, language, program_code, workdir: str) -> list[dict]:
    """Run every test of a compiled job, each in a fresh process; return the per-test results."""
    limits = job["limits"]
    python = not language.run_command
    child_limits = _child_limits(limits, python)
    cpu_limit = limits["time_limit_s"] + CPU_GRACE_S
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
                payload = {"mode": "python" if python else "exec", "kind": kind, "test": visible, "nonce": nonce,
                           "code": program_code, "workdir": workdir, "limits": child_limits,
                           "argv": list(language.run_command or ())}
                stdin = test.get("stdin", "").encode("utf-8") if kind == "stdio" else b""
                outcome = spawn(payload, stdin, limits["wall_time_limit_s"], limits["output_limit_bytes"],
                                cpu_limit=cpu_limit)
            results.append(judge(test, outcome, limits, nonce, compare, tolerance))
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
    with open(os.path.join(workdir, language.source_file), "w", encoding="utf-8") as f:
        f.write(job["program"])
    verdict = {"id": job.get("id"), "ok": True, "tests": [], "compile_output": "", "compile_time_s": 0.0}
    started = time.monotonic()
    if language.compile_command:
        ok, output, seconds = _compile(language, workdir, limits)
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
        verdict["tests"] = _run_tests(job, language, program_code, workdir)
        failed = [t["status"] for t in verdict["tests"] if t["status"] != "passed"]
        verdict["status"] = failed[0] if failed else "passed"
    verdict["run_time_s"] = round(time.monotonic() - started, 6)
    _scrub()
    return verdict


class LineReader:
    """Newline-delimited messages from a file descriptor."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buf = bytearray()

    def readline(self) -> bytes | None:
        while True:
            i = self.buf.find(b"\n")
            if i >= 0:
                line = bytes(self.buf[:i])
                del self.buf[: i + 1]
                return line
            data = os.read(self.fd, 1 << 20)
            if not data:
                return None
            self.buf += data


def _reply(message: dict) -> None:
    _write_all(1, (json.dumps(message) + "\n").encode())


def serve(fd_in: int = 0) -> None:
    """Answer requests until stdin closes.

    Requests: ``{"op": "ping"}`` -> ``{"ok": true, "op": "pong", "protocol": 1}``;
    ``{"op": "run", "id", "language", "program", "tests", "limits", "compare", "float_tolerance"}``
    -> the verdict (see ``run_job``), or ``{"ok": false, "error": ...}`` if the runner failed.
    """
    reader = LineReader(fd_in)
    while True:
        line = reader.readline()
        if line is None:
            return
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            if request.get("op") == "ping":
                _reply({"ok": True, "op": "pong", "protocol": PROTOCOL, "id": request_id})
                continue
            reply = run_job(request)
        except Exception:  # noqa: BLE001 - a runner bug is reported, the host retries elsewhere
            kill_all()
            _scrub()
            reply = {"ok": False, "id": request_id, "error": traceback.format_exc()[-4000:]}
        try:  # between jobs the container holds the runner and the fork server, nothing else
            FORKSERVER.start()
        except OSError:  # the next job's request says it
            pass
        _reply(reply)


def main() -> None:
    # kill(-1) and the scrub of /tmp would hit the host's processes and files anywhere else.
    if os.getpid() != 1 or os.environ.get("GRPO_CODE_SANDBOX") != "1":
        sys.exit("runner.py runs only as PID 1 of a grpo-code sandbox container (see sandbox/executor.py)")
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as PID 1, default-disposition signals are dropped
    set_dumpable(0)  # no ptrace and no /proc/1/mem for programs of the same user
    os.makedirs(JOB_ROOT, exist_ok=True)
    note_oom_baseline()
    FORKSERVER.start()  # ready before the first job
    serve()


if __name__ == "__main__":
    main()
