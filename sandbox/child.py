"""The child side: what a process forked by the fork server does to become a test process or a zygote.

Stdlib only, and light: it is loaded by the fork server (``forkserver.py``), and everything
loaded there is copied into every test process. The fork server forks, and the new process
calls ``child_main`` with its request only (a program, one test's visible part, limits).

Three kinds of child:
- ``exec``: set up, then ``execve`` a command (compilers, compiled programs, interpreters).
- ``python``: run the program's code object, then one test (``assert``, ``call``) or the
  program as a whole with its stdin (``stdio``); report on the result channel.
- ``zygote`` (``assert`` and ``call`` tests): run the program's code object once, report
  ``ready``, then serve test requests from the runner: fork one process per test from the
  loaded program (``serve_tests``), wait for it, report its exit status and CPU time. Each test
  still runs in a fresh process; only the program's top level is shared, as a snapshot.
"""

from __future__ import annotations

import ctypes
import marshal
import math
import os
import resource
import signal
import sys

if __package__:  # sandbox.child, imported on the host
    from .harness import MESSAGE_LIMIT, NotPlainData, _clip, _encode_str, _plain, _restore_builtins, to_json
else:  # inside the image, beside runner.py
    from harness import MESSAGE_LIMIT, NotPlainData, _clip, _encode_str, _plain, _restore_builtins, to_json


try:  # looked up once: a dlopen per test process would cost milliseconds
    _PRCTL = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):  # pragma: no cover - no libc symbol
    _PRCTL = None


_FUNCTION = type(lambda: None)


def set_dumpable(flag: int) -> None:
    """prctl(PR_SET_DUMPABLE): 0 forbids ptrace and /proc/PID/mem by same-user processes."""
    if _PRCTL is not None:
        _PRCTL(4, flag, 0, 0, 0)


def reap_exited() -> bool:
    """Reap every child that has exited, without waiting; True if a child is still running."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True


def cpu_limit_s(limits: dict) -> int:
    """A test process's RLIMIT_CPU soft limit: whole seconds, at least 1 (the hard one is 1 more)."""
    return max(1, math.ceil(limits["cpu_s"]))


def _child_setup(p) -> int:
    """Signals, file descriptors, limits and folder of a child; returns the result fd."""
    # Signal dispositions are the fork server's: all default but SIGPIPE (ignored, as Python
    # does); its OOM score (the OOM killer's first choice, never the runner) is inherited.
    set_dumpable(1)
    stdin_r, stdout_w, stderr_w, result_w = p["fds"]
    result_fd = p["result_fd"]
    os.dup2(stdin_r, 0)
    os.dup2(stdout_w, 1)
    os.dup2(stderr_w, 2)
    os.dup2(result_w, result_fd)
    keep = {result_fd}
    for target, source in p.get("extra_fds", {}).items():  # a zygote's request channel
        os.dup2(source, target)
        keep.add(target)
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 65536)
    os.chdir(p["workdir"])
    os.umask(0o077)
    limits = p["limits"]
    cpu = cpu_limit_s(limits)
    # A zygote's own CPU time only bounds the program's top level (the soft limit, lifted once
    # it is ready); each test process gets the hard limit back (``serve_tests``).
    cpu_hard = resource.RLIM_INFINITY if p["mode"] == "zygote" else cpu + 1
    resource_limits = [
        (resource.RLIMIT_CPU, cpu, cpu_hard),
        (resource.RLIMIT_FSIZE, limits["fsize_bytes"], limits["fsize_bytes"]),
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_NOFILE, 256, 256),
    ]
    if limits.get("as_bytes"):
        resource_limits.append((resource.RLIMIT_AS, limits["as_bytes"], limits["as_bytes"]))
    for which, soft, hard in resource_limits:
        resource.setrlimit(which, (soft, hard))
    return result_fd


def child_main(p) -> None:
    """Run one test, one compile, or a zygote as the current, forked process. Never returns."""
    try:
        result_fd = _child_setup(p)
    except BaseException as e:  # noqa: BLE001 - report any setup failure, then die
        os.write(2, f"sandbox: test process set-up failed: {_exception_only(e)}\n".encode())
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


def _frames(exc: BaseException) -> list[tuple[str, int, str]]:
    """(file name, line, function) of each frame of ``exc``'s traceback, outermost first.

    Written here rather than taken from ``traceback``: that module and what it imports (``re``,
    ``tokenize``, ``linecache``) would be copied into every test process with the fork server.
    """
    frames, tb = [], exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        frames.append((code.co_filename, tb.tb_lineno, code.co_name))
        tb = tb.tb_next
    return frames


def _exception_only(exc: BaseException) -> str:
    """``Type: message``, as the interpreter prints the last line of a traceback."""
    kind = type(exc)
    name = kind.__qualname__
    if kind.__module__ not in ("builtins", "__main__", "__program__"):
        name = f"{kind.__module__}.{name}"
    text = str(exc)
    if isinstance(exc, SyntaxError) and exc.lineno is not None:
        text = f"{exc.msg} ({exc.filename or '<string>'}, line {exc.lineno})"
    return f"{name}: {text}" if text else name


def _exception_message(exc: BaseException, filenames=("main.py", "<test>")) -> str:
    where = ""
    for filename, lineno, _ in reversed(_frames(exc)):
        if filename in filenames:
            where = f" ({filename}, line {lineno})"
            break
    return _clip(_exception_only(exc) + where, MESSAGE_LIMIT)


def _print_exception(exc: BaseException, stream) -> None:
    """A traceback on ``stream`` (the program's stderr), without source lines."""
    lines = ["Traceback (most recent call last):\n"]
    lines += [f'  File "{filename}", line {lineno}, in {name}\n' for filename, lineno, name in _frames(exc)]
    stream.write("".join(lines) + _exception_only(exc) + "\n")


def _assert_message(exc: AssertionError, test_code: str) -> str:
    text = str(exc)
    lineno = None
    for filename, line, _ in _frames(exc):
        if filename == "<test>":
            lineno = line
    source = ""
    if lineno is not None:
        lines = test_code.splitlines()
        if 0 < lineno <= len(lines):
            source = lines[lineno - 1].strip()
    return _clip(f"AssertionError: {text or source}", MESSAGE_LIMIT)


def _read_exact(fd: int, n: int, _read=os.read, _join=b"".join, _append=list.append, _len=len) -> bytes | None:
    """``n`` bytes from ``fd``, or None at end of file."""
    parts, got = [], 0
    while got < n:
        data = _read(fd, n - got)
        if not data:
            return None
        _append(parts, data)
        got += _len(data)
    return _join(parts)


def ended_record(nonce: str, status: int, usage, _int=int, _encode=str.encode,
                 _format=b'{"event": "ended", "nonce": "%s", "status": %d, "cpu_us": %d}\n'.__mod__) -> bytes:
    """The record a forker writes when a test process has ended: ``{"event": "ended", "nonce"
    (a hex token), "status" (wait status), "cpu_us"}``, built with pristine references only and
    few allocations (each object allocated after a fork can cost a page copy)."""
    return _format((_encode(nonce), status, _int((usage.ru_utime + usage.ru_stime) * 1e6)))


def serve_tests(ctl_fd: int, result_fd: int, cpu_s: int, _fork=os.fork, _wait4=os.wait4, _close=os.close,
                _exit=os._exit, _write=os.write, _loads=marshal.loads, _from_bytes=int.from_bytes,
                _setrlimit=resource.setrlimit, _rlimit_cpu=resource.RLIMIT_CPU, _getrlimit=resource.getrlimit,
                _tuple=tuple, _read_exact=_read_exact, _ended_record=ended_record):
    """The zygote's loop: fork one process per test request; that process returns the test.

    Messages on ``ctl_fd``: a 4-byte little-endian length, then ``marshal`` data. The first holds
    the job's in-process tests, ``[kind, test]`` each, loaded once (each object a test process
    touches or allocates after the fork can cost it a page copy). Each next one is a request,
    ``(nonce, index)``: the zygote forks; the new process gets the per-test CPU limit back and
    returns ``(nonce, kind, test, tests)`` (``kind`` and ``test`` of ``tests[index]``) to run it;
    the zygote waits for it and writes ``{"event": "ended", "nonce", "status" (wait status),
    "cpu_us"}`` on the result channel. At end of file (the runner is done with the job) the
    zygote exits. Only pristine references are used, so the program's top level cannot change
    what this loop does.
    """
    try:
        _, hard = _getrlimit(_rlimit_cpu)
        _setrlimit(_rlimit_cpu, (hard, hard))  # the program's top level is done: lift the soft limit
        tests = None
        while True:
            header = _read_exact(ctl_fd, 4)
            if header is None:
                _exit(0)
            message = _read_exact(ctl_fd, _from_bytes(header, "little"))
            if message is None:
                _exit(0)
            if tests is None:
                tests = _loads(message)
                continue
            nonce, index = _loads(message)
            pid = _fork()
            if pid == 0:
                _close(ctl_fd)
                _setrlimit(_rlimit_cpu, (cpu_s, cpu_s + 1))
                kind, test = tests[index]
                return _tuple((nonce, kind, test, tests))
            _, status, usage = _wait4(pid, 0)
            record = _ended_record(nonce, status, usage)
            while record:
                record = record[_write(result_fd, record):]
    except BaseException:  # noqa: BLE001 - a broken zygote stops; the runner sees it go
        _exit(70)


def _python_child(p, result_fd: int) -> None:
    import builtins

    kind, nonce, test, code = p["kind"], p["nonce"], p["test"], p["code"]
    zygote_fd = p.get("ctl_fd")
    cpu_s = cpu_limit_s(p["limits"])
    # The runner's own sys.stdin/stdout/stderr (never used by it, so their buffers are empty)
    # now read and write the test's pipes, which sit on fds 0, 1 and 2.
    stdout, stderr = sys.__stdout__, sys.__stderr__
    sys.argv = ["main.py"]
    sys.path[0] = p["workdir"]
    p = None  # noqa: F841 - drop the payload before the program runs

    def report(event: str, _type=type, _str=str, _repr=int.__repr__, _enc=_encode_str, _join="".join,
               _write=os.write, _encode=str.encode, _items=dict.items, _append=list.append, **fields) -> None:
        """Write a result record with pristine references only (no builtins lookups), so a
        program's monkeypatching cannot break or forge the report. ``event`` and the nonce (a
        hex token) need no escaping."""
        parts = ['{"event": "', event, '", "nonce": "', nonce, '"']
        for k, v in _items(fields):
            parts += (", ", _enc(k), ": ", _enc(v) if _type(v) is _str else _repr(v))
        _append(parts, "}\n")
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

    namespace = {"__name__": "__main__" if kind == "stdio" else "__program__",
                 "__builtins__": builtins, "__file__": "main.py", "__doc__": None}
    exit_code = 0
    try:
        exec(code, namespace)
        if zygote_fd is not None:
            flush()  # nothing the top level printed may be inherited by every test process
            report("ready")
            # Returns in a test process; ``_tests`` stays referenced: freeing it would write to (and
            # so copy) every page that holds a test.
            nonce, kind, test, _tests = serve_tests(zygote_fd, result_fd, cpu_s)
        if kind == "assert":
            # The test function, compiled by the runner (outside the program's reach), with the
            # program's globals.
            _FUNCTION(dict.get(test, "guarded"), namespace)(_plain)
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
            _print_exception(e, stderr)
        except BaseException:  # noqa: BLE001
            pass
        exit_code = 1
    flush()
    os._exit(exit_code)
