"""The code that runs inside the program's process: everything of ours that shares a process
with untrusted code, and nothing else (but ``program_process.js``, its twin for JavaScript and
TypeScript ``call`` tests).

Stdlib only, and light (no ``ast``, ``json`` or ``re``): it is loaded by the fork server, and
everything loaded there is copied into every test process. It is imported before any program
runs, so the references bound here (builtins, the C JSON string encoder) are pristine. It never
holds an expected value of a ``call`` or ``stdio`` test, and what it writes on the result channel
(``records``) is evidence for the runner to check, never a verdict.

The fork server forks, and the new process calls ``child_main`` with its request only (a
program, one test's visible part, limits). Three kinds of child:

- ``exec``: set up, then ``execve`` a command (compilers, compiled programs, interpreters, and
  the driver of JavaScript ``call`` tests, ``program_process.js``).
- ``python``: run the program's code object, then one test (``assert``, ``call``) or the
  program as a whole with its stdin (``stdio``); report on the result channel.
- ``zygote`` (``assert`` and ``call`` tests): run the program's code object once, report
  ``ready``, then serve test requests from the runner: fork one process per test from the
  loaded program (``serve_tests``), wait for it, report its exit status and CPU time. Each test
  still runs in a fresh process; only the program's top level is shared, as a snapshot.

Also here: the plain-data guard (``_plain``), the serializer of returned values (``to_json``) and
the restoring of builtins (``_restore_builtins``): harness code that looks at exact builtin types
only, so that none of the program's code runs in it.
"""

from __future__ import annotations

from _json import encode_basestring_ascii as _encode_str  # C code: untouched by a program's monkeypatching

import marshal
import math
import os
import resource
import signal
import sys

from .procs import set_dumpable
from .records import MESSAGE_LIMIT, ended_record
from .records import clip as _clip

_FUNCTION = type(lambda: None)


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
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": p["workdir"], "TMPDIR": "/tmp",
               **p.get("env", {})}
        if p.get("result_fd_env"):  # a driver in the program's process (program_process.js) reports there
            env[p["result_fd_env"]] = str(result_fd)
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


# ------------------------------------------------------------------------------------------
# The plain-data guard and the serializer
# ------------------------------------------------------------------------------------------


class NotPlainData(Exception):
    """A test compared a value that is not plain data (its __eq__ is the program's code)."""


_PLAIN_SCALARS = frozenset(
    {int, float, bool, str, bytes, complex, type(None), type(Ellipsis), range, slice}
)
_PLAIN_CONTAINERS = frozenset({list, tuple, set, frozenset, dict})


def _plain(value, _type=type, _id=id, _scalars=_PLAIN_SCALARS, _containers=_PLAIN_CONTAINERS,
           _dict=dict, _list=list, _set=set, _NotPlain=NotPlainData):
    """Return ``value`` if it is built only from builtin data types (exact types), else raise."""
    stack = [value]
    seen = _set()
    while stack:
        v = stack.pop()
        t = _type(v)
        if t in _scalars:
            continue
        if t is type:  # a class object (plain metaclass) compares by identity
            continue
        if t not in _containers:
            raise _NotPlain(f"test compared a value of type {getattr(t, '__qualname__', t)!s}, "
                            "which is not plain data")
        if _id(v) in seen:
            continue
        seen.add(_id(v))
        if t is _dict:
            stack.extend(_dict.keys(v))
            stack.extend(_dict.values(v))
        else:
            stack.extend(_list(v) if t is not _list else v)
    return value


_INF = float("inf")
_PRISTINE_BUILTINS = dict(vars(__import__("builtins")))


def to_json(value, _type=type, _repr_int=int.__repr__, _repr_float=float.__repr__, _str=_encode_str,
            _join=", ".join, _append=list.append, _keys=dict.keys, _getitem=dict.__getitem__):
    """Serialize a returned value to JSON text with harness code only.

    Only exact builtin types (so no program code runs here); tuples become lists; dict keys
    must be str, int, float, bool or None (non-str keys are written as JSON text, as json does).

    Raises:
        NotPlainData: the value holds anything else, or nests deeper than 200 levels.
    """

    def scalar(v, t):
        if t is str:
            return _str(v)
        if t is bool:
            return "true" if v else "false"
        if t is int:
            return _repr_int(v)
        if t is float:
            if v != v:
                return "NaN"
            if v == _INF or v == -_INF:
                return "Infinity" if v > 0 else "-Infinity"
            return _repr_float(v)
        if v is None:
            return "null"
        return None

    def walk(v, depth):
        t = _type(v)
        if depth > 200:
            raise NotPlainData("returned value is nested too deeply")
        text = scalar(v, t)
        if text is not None:
            return text
        if t is list or t is tuple:
            parts = []
            for x in v:
                _append(parts, walk(x, depth + 1))
            return "[" + _join(parts) + "]"
        if t is dict:
            parts = []
            for k in _keys(v):
                kt = _type(k)
                if kt not in (str, int, float, bool, type(None)):
                    raise NotPlainData(f"returned dict has a key of type {kt.__qualname__}")
                key = _str(k) if kt is str else _str(scalar(k, kt))
                _append(parts, key + ": " + walk(_getitem(v, k), depth + 1))
            return "{" + _join(parts) + "}"
        raise NotPlainData(f"returned a value of type {getattr(t, '__qualname__', t)!s}, "
                           "which is not plain data")

    return walk(value, 0)


def _restore_builtins(_vars=vars(__import__("builtins")), _pristine=_PRISTINE_BUILTINS,
                      _clear=dict.clear, _update=dict.update) -> None:
    """Undo a program's changes to builtins before harness code runs again."""
    _clear(_vars)
    _update(_vars, _pristine)
