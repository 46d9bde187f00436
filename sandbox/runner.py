"""The in-container runner: compile a program once, run each test case in a fresh process.

Stdlib only. It runs as PID 1 of a sandbox container (unprivileged user, no capabilities, no
network, read-only root) and talks to the host over the container's attached stdin/stdout:
one JSON object per line in each direction (``ping`` and ``run`` requests, see ``serve``).

Why PID 1: signals sent from inside a PID namespace to its init are dropped unless init
handles them, so a program cannot kill the runner, and ``kill(-1, SIGKILL)`` from the runner
ends every other process in the container, including children that escaped with ``setsid``.

Each test case runs in a child forked from the runner. The child first unwinds the runner's
stack (``_BecomeChild``), so the job (test sources, expected outputs) is no longer reachable
from the program; it gets only its own test's input. Limits per child: CPU time (RLIMIT_CPU,
plus a wall-clock deadline enforced here), address space, file size, open files; output is
capped here. Verdicts come from harness code and positive evidence: an ``assert`` test passes
only when the harness reports that the statements ran to their end, with a per-test nonce; a
``call`` test's value is serialized out of the child and compared here; ``stdio`` output is
compared here.

Threat model of in-process tests: the harness guards against always-equal objects, early
exits and monkeypatched builtins, but code that deliberately reverse-engineers the harness
(ctypes, frame walking) shares the test's process. ``call`` and ``stdio`` tests do not.
"""

from __future__ import annotations

import ctypes
import gc
import json
import math
import os
import select
import signal
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:  # inside the image: plain modules beside this file
    from harness import (  # type: ignore[import-not-found]
        MESSAGE_LIMIT, NotPlainData, _clip, _encode_str, _plain, _restore_builtins, compare_output,
        compile_guarded_test, json_equal, to_json)
    from languages import LANGUAGES  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - imported as sandbox.runner on the host
    from sandbox.harness import (
        MESSAGE_LIMIT, NotPlainData, _clip, _encode_str, _plain, _restore_builtins, compare_output,
        compile_guarded_test, json_equal, to_json)
    from sandbox.languages import LANGUAGES

PROTOCOL = 1
JOB_ROOT = "/tmp/jobs"
SCRUB_DIRS = ("/tmp", "/dev/shm")
COMPILE_OUTPUT_LIMIT = 64 * 1024
STDERR_TAIL = 2048
RESULT_LIMIT = 8 * 1024 * 1024  # bytes a child may send on its result channel
PIPE_CHUNK = 65536


# --------------------------------------------------------------------------------------
# The child side: becomes the test process.
# --------------------------------------------------------------------------------------


class _BecomeChild(BaseException):
    """Raised in a forked child to unwind the runner's stack, leaving only ``payload``."""

    def __init__(self, payload):
        super().__init__()
        self.payload = payload


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


try:  # looked up once: a dlopen per test process would cost milliseconds
    _PRCTL = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):  # pragma: no cover - no libc symbol
    _PRCTL = None


def _set_dumpable(flag: int) -> None:
    if _PRCTL is not None:
        _PRCTL(4, flag, 0, 0, 0)  # PR_SET_DUMPABLE


def _child_setup(p) -> int:
    """Signals, file descriptors, limits and folder of a test process; returns the result fd."""
    # Signal dispositions are the runner's: all default but SIGPIPE (ignored, as Python does).
    _set_dumpable(1)
    try:  # be the OOM killer's first choice, never the runner
        fd = os.open("/proc/self/oom_score_adj", os.O_WRONLY)
        os.write(fd, b"1000")
        os.close(fd)
    except OSError:
        pass
    stdin_r, stdout_w, stderr_w, result_w = p["fds"]
    result_fd = p["result_fd"]
    os.dup2(stdin_r, 0)
    os.dup2(stdout_w, 1)
    os.dup2(stderr_w, 2)
    os.dup2(result_w, result_fd)
    os.closerange(3, result_fd)
    os.closerange(result_fd + 1, 65536)
    os.chdir(p["workdir"])
    os.umask(0o077)
    limits = p["limits"]
    cpu = max(1, math.ceil(limits["cpu_s"]))
    resource_limits = [
        ("RLIMIT_CPU", cpu, cpu + 1),
        ("RLIMIT_FSIZE", limits["fsize_bytes"], limits["fsize_bytes"]),
        ("RLIMIT_CORE", 0, 0),
        ("RLIMIT_NOFILE", 256, 256),
    ]
    if limits.get("as_bytes"):
        resource_limits.append(("RLIMIT_AS", limits["as_bytes"], limits["as_bytes"]))
    import resource

    for name, soft, hard in resource_limits:
        resource.setrlimit(getattr(resource, name), (soft, hard))
    return result_fd


def _child_main(p) -> None:
    """Run one test (or one compile) as the current, forked process. Never returns."""
    try:
        result_fd = _child_setup(p)
    except BaseException:  # noqa: BLE001 - report any setup failure, then die
        os.write(2, traceback.format_exc().encode()[-2000:])
        os._exit(121)
    if p["mode"] == "exec":
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": p["workdir"], "TMPDIR": "/tmp"}
        try:
            os.execve(_which(p["argv"][0], env["PATH"]), p["argv"], env)
        except OSError as e:
            os.write(2, f"cannot run {p['argv'][0]}: {e}\n".encode())
            os._exit(127)
    _python_child(p, result_fd)


def _which(program: str, path: str) -> str:
    if "/" in program:
        return program
    for folder in path.split(":"):
        candidate = os.path.join(folder, program)
        if os.access(candidate, os.X_OK):
            return candidate
    return program


def _token(n_bytes: int) -> str:
    return os.urandom(n_bytes).hex()


def _exception_message(exc: BaseException, filenames=("main.py", "<test>")) -> str:
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename in filenames:
            where = f" ({frame.filename}, line {frame.lineno})"
            break
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return _clip(text + where, MESSAGE_LIMIT)


def _assert_message(exc: AssertionError, test_code: str) -> str:
    text = str(exc)
    lineno = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == "<test>":
            lineno = frame.lineno
    source = ""
    if lineno is not None:
        lines = test_code.splitlines()
        if 0 < lineno <= len(lines):
            source = lines[lineno - 1].strip()
    return _clip(f"AssertionError: {text or source}", MESSAGE_LIMIT)


def _python_child(p, result_fd: int) -> None:
    import builtins

    kind, nonce, test, code = p["kind"], p["nonce"], p["test"], p["code"]
    # The runner's own sys.stdin/stdout/stderr (never used by it, so their buffers are empty)
    # now read and write the test's pipes, which sit on fds 0, 1 and 2.
    stdout, stderr = sys.__stdout__, sys.__stderr__
    sys.argv = ["main.py"]
    sys.path[0] = p["workdir"]
    p = None  # noqa: F841 - drop the payload before the program runs

    def report(event: str, _type=type, _str=str, _repr=int.__repr__, _enc=_encode_str, _join="".join,
               _write=os.write, _encode=str.encode, _items=dict.items, **fields) -> None:
        """Write a result record with pristine references only (no builtins lookups), so a
        program's monkeypatching cannot break or forge the report."""
        fields["event"], fields["nonce"] = event, nonce
        parts = ["{"]
        for k, v in _items(fields):
            parts += [_enc(k), ": ", _enc(v) if _type(v) is _str else _repr(v), ", "]
        parts[-1] = "}\n"
        data = _encode(_join(parts))
        try:
            while data:
                data = data[_write(result_fd, data):]
        except OSError:
            pass

    def flush() -> None:
        for stream in (stdout, stderr):
            try:
                stream.flush()
            except BaseException:  # noqa: BLE001 - a closed or broken stream is the program's doing
                pass

    def describe(exc: BaseException) -> str:
        _restore_builtins()
        try:
            return _exception_message(exc)
        except BaseException:  # noqa: BLE001 - a program can make str(exc) raise
            return "the program raised an exception that cannot be shown"

    guarded = test.get("guarded")  # compiled by the runner, before the program could patch anything
    namespace = {"__name__": "__main__" if kind == "stdio" else "__program__",
                 "__builtins__": builtins, "__file__": "main.py", "__doc__": None}
    exit_code = 0
    try:
        exec(code, namespace)
        if kind == "assert":
            exec(guarded, namespace)
            run_test = dict.pop(namespace, "__grpo_test__")
            run_test(_plain)
            flush()
            report("passed")
        elif kind == "call":
            fn = dict.get(namespace, test["fn_name"])
            if fn is None:
                raise NameError(f"name {test['fn_name']!r} is not defined")
            value = fn(*test["args"], **test["kwargs"])
            flush()
            report("returned", value=to_json(value))
        else:
            flush()
            report("exit", code=0)
    except SystemExit as e:
        _restore_builtins()
        code_value = e.code
        if code_value is None or code_value is True or code_value == 0:
            exit_code = 0 if code_value is not True else 1
        elif type(code_value) is int:
            exit_code = code_value & 0xFF
        else:
            try:
                print(code_value, file=stderr)
            except BaseException:  # noqa: BLE001
                pass
            exit_code = 1
        flush()
        if kind == "stdio":
            report("exit", code=exit_code)
        else:
            report("runtime_error", message="the program raised SystemExit before the test finished")
    except NotPlainData as e:
        _restore_builtins()
        report("failed", message=_clip(BaseException.__str__(e), MESSAGE_LIMIT))
    except AssertionError as e:
        _restore_builtins()
        try:
            message = _assert_message(e, test.get("code", ""))
        except BaseException:  # noqa: BLE001
            message = "AssertionError"
        report("failed", message=message)
    except MemoryError:
        _restore_builtins()
        report("memory_limit", message="MemoryError: memory limit reached")
    except BaseException as e:  # noqa: BLE001 - any exception of the program is a verdict
        report("runtime_error", message=describe(e))
        try:
            traceback.print_exception(e, file=stderr)
        except BaseException:  # noqa: BLE001
            pass
        exit_code = 1
    flush()
    os._exit(exit_code)


# --------------------------------------------------------------------------------------
# The runner side: spawn, supervise, kill everything, judge.
# --------------------------------------------------------------------------------------


def kill_all() -> None:
    """SIGKILL every process in the container but this one, and reap them all."""
    while True:
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                break
        time.sleep(0.0005)


_OOM_SEEN = [-1]  # the container's OOM-kill count when last read


def _oom_kills() -> int:
    """OOM kills recorded for this container's memory cgroup (v1 or v2); -1 if unknown."""
    for path in ("/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control"):
        try:
            with open(path) as f:
                for line in f:
                    if line.startswith("oom_kill "):
                        return int(line.split()[1])
        except OSError:
            continue
    return -1


_CPU_USAGE_FILES = ("/sys/fs/cgroup/cpu.stat", "/sys/fs/cgroup/cpuacct/cpuacct.usage",
                    "/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage")
CPU_POLL_S = 0.05
CPU_GRACE_S = 0.1  # the tree limit sits just above the main process's own RLIMIT-based check


_CPU_FILE: list = []  # [(fd, cgroup version)] once found


def container_cpu_s() -> float | None:
    """CPU seconds used by every process of this container so far (cgroup v2 or v1); None if unknown.

    The CPU limit of a test applies to its whole process tree: a fork bomb's processes share
    it, instead of each getting its own RLIMIT_CPU while the main process starves.
    """
    if not _CPU_FILE:
        for path in _CPU_USAGE_FILES:
            try:
                _CPU_FILE.append((os.open(path, os.O_RDONLY), 2 if path.endswith("cpu.stat") else 1))
                break
            except OSError:
                continue
        else:
            _CPU_FILE.append((-1, 0))
    fd, version = _CPU_FILE[0]
    if fd < 0:
        return None
    text = os.pread(fd, 4096, 0)
    if version == 1:
        return int(text) / 1e9
    for line in text.splitlines():
        if line.startswith(b"usage_usec "):
            return int(line.split()[1]) / 1e6
    return None


class Outcome:
    """What one child did: exit status, usage, captured output, result records."""

    __slots__ = ("exit_code", "signal", "wall_s", "cpu_s", "stdout", "stderr", "records", "killed_for", "oom")

    def __init__(self):
        self.exit_code = None
        self.signal = None
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.records = bytearray()
        self.killed_for = None
        self.oom = False


def spawn(payload: dict, stdin_data: bytes, wall_s: float, output_limit: int,
          cpu_limit: float | None = None) -> Outcome:
    """Fork a child that runs ``payload``, feed it ``stdin_data``, supervise it, clean up.

    Stops it at ``wall_s`` seconds, when its output passes ``output_limit`` bytes, or when the
    container's processes together have used ``cpu_limit`` CPU seconds (checked every 50 ms).

    In the child this raises ``_BecomeChild`` (caught by ``main``); it never returns there.
    """
    stdin_r, stdin_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    res_r, res_w = os.pipe()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        for fd in (stdin_w, out_r, err_r, res_r):
            os.close(fd)
        payload["fds"] = (stdin_r, out_w, err_w, res_w)
        payload["result_fd"] = 100 + int.from_bytes(os.urandom(2), "little") % 900
        raise _BecomeChild(payload)
    for fd in (stdin_r, out_w, err_w, res_w):
        os.close(fd)
    outcome = Outcome()
    pidfd = os.pidfd_open(pid)
    poller = select.epoll()
    readers = {out_r: outcome.stdout, err_r: outcome.stderr, res_r: outcome.records}
    for fd in readers:
        os.set_blocking(fd, False)
        poller.register(fd, select.EPOLLIN)
    poller.register(pidfd, select.EPOLLIN)
    open_readers = set(readers)
    pending = memoryview(stdin_data)
    if pending:
        os.set_blocking(stdin_w, False)
        poller.register(stdin_w, select.EPOLLOUT)
    else:
        os.close(stdin_w)
        stdin_w = -1
    deadline = started + wall_s
    printed = 0
    exited = False

    def read_ready(fd: int) -> bool:
        nonlocal printed
        try:
            data = os.read(fd, PIPE_CHUNK)
        except BlockingIOError:
            return True
        if not data:
            poller.unregister(fd)
            open_readers.discard(fd)
            return False
        buf = readers[fd]
        if fd == res_r:
            if len(buf) + len(data) > RESULT_LIMIT:
                outcome.killed_for = "output_limit"
            else:
                buf += data
            return True
        printed += len(data)
        if printed > output_limit:
            outcome.killed_for = "output_limit"
        elif fd == out_r:
            buf += data
        else:
            buf += data
            del buf[:-STDERR_TAIL]
        return True

    cpu_start = container_cpu_s() if cpu_limit is not None else None
    next_cpu_check = started + CPU_POLL_S if cpu_start is not None else float("inf")
    while not exited and outcome.killed_for is None:
        now = time.monotonic()
        if now >= deadline:
            outcome.killed_for = "timeout"
            break
        if now >= next_cpu_check:
            used = container_cpu_s()
            if used is not None and used - cpu_start > cpu_limit:
                outcome.killed_for = "timeout"
                break
            next_cpu_check = now + CPU_POLL_S
        for fd, _ in poller.poll(min(deadline, next_cpu_check) - now):
            if fd == pidfd:
                exited = True
            elif fd == stdin_w:
                try:
                    pending = pending[os.write(stdin_w, pending[:PIPE_CHUNK]):]
                except BlockingIOError:
                    continue
                except OSError:  # the program closed its stdin: fine
                    pending = pending[:0]
                if not pending:
                    poller.unregister(stdin_w)
                    os.close(stdin_w)
                    stdin_w = -1
            else:
                read_ready(fd)
    if not exited:
        os.kill(pid, signal.SIGKILL)
    _, status, usage = os.wait4(pid, 0)
    outcome.wall_s = time.monotonic() - started
    outcome.cpu_s = usage.ru_utime + usage.ru_stime
    if os.WIFSIGNALED(status):
        outcome.signal = os.WTERMSIG(status)
    else:
        outcome.exit_code = os.WEXITSTATUS(status)
    kill_all()
    for fd in readers:  # every writer is gone: drain to EOF
        while fd in open_readers and outcome.killed_for is None and read_ready(fd):
            pass
        os.close(fd)
    poller.close()
    os.close(pidfd)
    if stdin_w >= 0:
        os.close(stdin_w)
    if outcome.signal is not None:  # was it the cgroup's OOM killer?
        now_ooms = _oom_kills()
        outcome.oom = _OOM_SEEN[0] >= 0 and now_ooms > _OOM_SEEN[0]
        _OOM_SEEN[0] = now_ooms
    return outcome


def _records(outcome: Outcome, nonce: str) -> list[dict]:
    out = []
    for line in bytes(outcome.records).splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and rec.get("nonce") == nonce:
            out.append(rec)
    return out


def _signal_name(sig: int) -> str:
    try:
        return signal.Signals(sig).name
    except ValueError:
        return f"signal {sig}"


def _stderr_hint(outcome: Outcome) -> str:
    tail = bytes(outcome.stderr).decode("utf-8", "replace").strip().splitlines()
    return f": {_clip(tail[-1], 300)}" if tail else ""


def judge(test: dict, outcome: Outcome, limits: dict, nonce: str, compare: str, tolerance: float) -> dict:
    """Turn a child's outcome into a per-test result ``{status, time_s, cpu_time_s, message}``."""
    result = {"status": "passed", "time_s": round(outcome.wall_s, 6), "cpu_time_s": round(outcome.cpu_s, 6)}

    def verdict(status: str, message: str = "") -> dict:
        result["status"] = status
        if message:
            result["message"] = _clip(message, MESSAGE_LIMIT)
        return result

    time_limit = limits["time_limit_s"]
    if outcome.killed_for == "output_limit":
        return verdict("output_limit", f"output exceeded {limits['output_limit_bytes']} bytes")
    if (outcome.killed_for == "timeout" or outcome.cpu_s > time_limit
            or outcome.signal == signal.SIGXCPU):
        return verdict("timeout", f"time limit exceeded ({time_limit:g} s CPU, "
                                  f"{limits['wall_time_limit_s']:g} s wall)")
    records = _records(outcome, nonce)
    last = records[-1] if records else None
    stderr_text = bytes(outcome.stderr).decode("utf-8", "replace")
    if last is not None and last["event"] == "memory_limit":
        return verdict("memory_limit", f"memory limit of {limits['memory_limit_mb']} MB reached")
    if outcome.signal is not None:
        if outcome.oom or (outcome.signal == signal.SIGABRT and "bad_alloc" in stderr_text):
            return verdict("memory_limit", f"memory limit of {limits['memory_limit_mb']} MB reached")
        if outcome.signal == signal.SIGXFSZ:
            return verdict("runtime_error", "file size limit exceeded")
        return verdict("runtime_error", f"killed by {_signal_name(outcome.signal)}{_stderr_hint(outcome)}")
    if last is not None and last["event"] in ("failed", "runtime_error"):
        return verdict(last["event"], last.get("message", ""))
    kind = test["kind"]
    if kind == "assert":
        if last is not None and last["event"] == "passed":
            return result
        return verdict("runtime_error", "the process ended before the test finished "
                                        f"(exit status {outcome.exit_code}); no pass was recorded")
    if kind == "call":
        if last is None or last["event"] != "returned":
            return verdict("runtime_error", "the process ended before the call returned "
                                            f"(exit status {outcome.exit_code})")
        got = json.loads(last["value"])
        if json_equal(got, test["expected"]):
            return result
        return verdict("failed", f"expected {_clip(json.dumps(test['expected']), 200)}, "
                                 f"got {_clip(last['value'], 200)}")
    # stdio
    if outcome.exit_code != 0:
        return verdict("runtime_error", f"exit status {outcome.exit_code}{_stderr_hint(outcome)}")
    got = bytes(outcome.stdout).decode("utf-8", "replace")
    problem = compare_output(got, test["expected_stdout"], compare, tolerance)
    return verdict("failed", problem) if problem else result


def _address_space_in_use() -> int:
    """Bytes of address space this process maps (a forked Python child starts with them)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 64 * 1024 * 1024


def _child_limits(limits: dict, forked_python: bool) -> dict:
    """rlimits of a test process; a forked Python child gets the runner's own mappings on top."""
    memory = limits["memory_limit_mb"] * 1024 * 1024
    return {
        "cpu_s": limits["time_limit_s"],
        "as_bytes": memory + (_address_space_in_use() if forked_python else 0),
        "fsize_bytes": limits["file_size_limit_mb"] * 1024 * 1024,
    }


def _visible_test(test: dict) -> dict:
    """The part of a test the program's process may see: never expected values.

    Raises:
        SyntaxError: the test code of an assert test does not compile.
    """
    if test["kind"] == "assert":
        return {"code": test["code"], "guarded": compile_guarded_test(test["code"])}
    if test["kind"] == "call":
        return {"fn_name": test["fn_name"], "args": test.get("args", []), "kwargs": test.get("kwargs", {})}
    return {}


def _remove_tree(path: str) -> None:
    """Remove a file or a folder with everything in it; errors are ignored."""
    if os.path.isdir(path) and not os.path.islink(path):
        for root, dirs, files in os.walk(path, topdown=False):
            for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
                try:
                    os.unlink(os.path.join(root, name))
                except OSError:
                    pass
            for name in dirs:
                try:
                    os.rmdir(os.path.join(root, name))
                except OSError:
                    pass
        try:
            os.rmdir(path)
        except OSError:
            pass
    else:
        try:
            os.unlink(path)
        except OSError:
            pass


def _scrub() -> None:
    for root in SCRUB_DIRS:
        try:
            entries = os.listdir(root)
        except OSError:
            continue
        for name in entries:
            path = os.path.join(root, name)
            _remove_tree(path)


def _compile(language, workdir: str, limits: dict) -> tuple[bool, str, float]:
    payload = {"mode": "exec", "argv": list(language.compile_command), "workdir": workdir,
               "limits": {"cpu_s": limits["compile_time_limit_s"], "as_bytes": 0,
                          "fsize_bytes": 512 * 1024 * 1024}}
    outcome = spawn(payload, b"", limits["compile_time_limit_s"] * 2 + 5, COMPILE_OUTPUT_LIMIT)
    text = (bytes(outcome.stdout) + bytes(outcome.stderr)).decode("utf-8", "replace")
    if outcome.killed_for == "timeout":
        return False, "compilation timed out\n" + text, outcome.wall_s
    if outcome.killed_for or outcome.signal is not None or outcome.exit_code != 0:
        return False, text or f"compiler failed (status {outcome.exit_code}, signal {outcome.signal})", outcome.wall_s
    return True, text, outcome.wall_s


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
        mode = "exec" if language.run_command else "python"
        child_limits = _child_limits(limits, mode == "python")
        for test in job["tests"]:
            nonce = _token(16)
            try:
                visible = _visible_test(test)
            except (SyntaxError, ValueError, RecursionError) as e:  # the task's fault, same for every program
                verdict["tests"].append({"status": "runtime_error", "time_s": 0.0, "cpu_time_s": 0.0,
                                         "message": _clip(f"the test code does not compile: {e}", MESSAGE_LIMIT)})
                continue
            payload = {"mode": mode, "kind": test["kind"], "test": visible, "nonce": nonce, "code": program_code,
                       "workdir": workdir, "limits": child_limits,
                       "argv": list(language.run_command or ())}
            stdin = test.get("stdin", "").encode("utf-8") if test["kind"] == "stdio" else b""
            outcome = spawn(payload, stdin, limits["wall_time_limit_s"], limits["output_limit_bytes"],
                            cpu_limit=limits["time_limit_s"] + CPU_GRACE_S)
            result = judge(test, outcome, limits, nonce, job.get("compare", "tokens"),
                           job.get("float_tolerance", 1e-6))
            verdict["tests"].append(result)
    if "status" not in verdict:
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
        _reply(reply)


def main() -> None:
    # kill(-1) and the scrub of /tmp would hit the host's processes and files anywhere else.
    if os.getpid() != 1 or os.environ.get("GRPO_CODE_SANDBOX") != "1":
        sys.exit("runner.py runs only as PID 1 of a grpo-code sandbox container (see sandbox/executor.py)")
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as PID 1, default-disposition signals are dropped
    _set_dumpable(0)  # no ptrace and no /proc/1/mem for programs of the same user
    os.makedirs(JOB_ROOT, exist_ok=True)
    _OOM_SEEN[0] = _oom_kills()
    gc.freeze()  # the runner's own objects: never traversed (and copied) by a test process's GC
    try:
        serve()
    except _BecomeChild as become:
        payload = become.payload
    else:
        os._exit(0)
    # The runner's frames went with the exception's traceback; they held no reference cycles,
    # so the job's data is freed already (no gc.collect: on a forked heap it costs ~5 ms).
    _child_main(payload)


if __name__ == "__main__":
    main()
