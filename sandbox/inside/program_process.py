"""The code that runs inside the program's process: everything of ours that shares a process
with untrusted code, and nothing else (but ``program_process.js``, its twin for JavaScript and
TypeScript ``call`` tests).

Stdlib only, and light (no ``ast``, ``json`` or ``re``): it is loaded by the fork server, and
everything loaded there is copied into every test process. It is imported before any program
runs, so the references bound here (builtins, the C JSON string encoder) are pristine. It never
holds a test's code or expected values, except for an ``assert`` test judged in process (a test
the runner could not judge out of process, see ``guard``), and what it writes on the result
channel (``records``) is evidence for the runner to check, never a verdict.

The fork server forks, and the new process calls ``child_main`` with its request only. Kinds
of child:

- ``exec``: set up, then ``execve`` a command (compilers, compiled programs, interpreters, and
  the driver of JavaScript ``call`` tests, ``program_process.js``).
- ``python``: run the program's code object, then one test: ``serve`` (answer the judge's calls
  of the program's functions for one ``assert`` test, ``serve_calls``), ``call`` (call a
  function, write its value), ``assert`` (a test judged in process: run its guarded code) or
  ``stdio`` (the program as a whole, with its stdin).
- ``zygote``: run the program's code object once, report ``ready``, then fork one fresh process
  per test from the loaded program (``serve_tests``), wait for it, report its exit status and
  CPU time. Only the program's top level is shared, as a snapshot.

Also here: the monitor (``_install_monitor``: an audit hook that refuses introspection of harness
code and flags what the program attempted, and the checks for patched builtins and modules), the
plain-data guard (``_plain``), the writer of values (``encode_value``, read by ``values``) and
the restoring of builtins (``_restore_builtins``): harness code that looks at exact builtin types
only, so that none of the program's code runs in it.
"""

from __future__ import annotations

import _socket
import marshal
import os
import resource
import signal
import sys
from _json import encode_basestring_ascii as _encode_str  # C code: untouched by a program's monkeypatching

from .procs import CALL_FD_OFFSET, MAX_VALUE_DEPTH, REPLY_LIMIT, cpu_limit_s, recv_message, set_dumpable, setup_child
from .records import FLAG, MESSAGE_LIMIT, PLANTED_SUFFIXES, ended_record, record_line, write_all
from .records import clip as _clip

_FUNCTION = type(lambda: None)
HARNESS_DIR = os.path.dirname(os.path.abspath(__file__))


def child_main(p) -> None:
    """Run one test, one compile, or a zygote as the current, forked process. Never returns."""
    try:
        set_dumpable(1)  # a test process's /proc files are its own user's (the runner reads them)
        # A zygote's own CPU time only bounds the program's top level (the soft limit, lifted
        # once it is ready); each test process gets the hard limit back (``serve_tests``).
        result_fd = setup_child(p, cpu_hard=resource.RLIM_INFINITY if p["mode"] == "zygote" else None)
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


def serve_tests(ctl_fd: int, result_fd: int, cpu_s: int, _fork=os.fork, _wait4=os.wait4, _close=os.close,
                _dup2=os.dup2, _exit=os._exit, _loads=marshal.loads, _socket_of=_socket.socket,
                _setrlimit=resource.setrlimit, _rlimit_cpu=resource.RLIMIT_CPU, _getrlimit=resource.getrlimit,
                _tuple=tuple, _recv_message=recv_message, _ended_record=ended_record, _write_all=write_all):
    """The zygote's loop: fork one process per test request; that process returns the test.

    Messages on the Unix socket ``ctl_fd`` (``procs.recv_message``), ``marshal`` data. The first holds
    the job's in-process tests (``call`` tests and ``assert`` tests judged in process), ``[kind,
    test]`` each, loaded once (each object a test process touches or allocates after the fork can
    cost it a page copy). Each next one is a request, ``(nonce, index)`` for one of them, or
    ``(nonce, -1)`` with two descriptors, a call channel and its reply channel, for a process that
    serves the judge's calls (``serve_calls``). The zygote forks; the new process gets the
    per-test CPU limit back and returns ``(nonce, kind, test, kept)`` to run it (``kept``: what
    the loop holds, for the test process to keep referenced: each object freed after the fork
    would write to, and so copy, the page that holds it); the zygote waits
    for it and writes an ``ended`` record on the result channel. At end of file (the runner is done
    with the job) the zygote exits. Only pristine references are used, so the program's top
    level cannot change what this loop does.
    """
    try:
        _, hard = _getrlimit(_rlimit_cpu)
        _setrlimit(_rlimit_cpu, (hard, hard))  # the program's top level is done: lift the soft limit
        sock = _socket_of(fileno=ctl_fd)
        tests = None
        while True:
            message = _recv_message(sock)
            if message is None:
                _exit(0)
            data, fds = message
            if tests is None:
                tests = _loads(data)
                continue
            nonce, index = _loads(data)
            pid = _fork()
            if pid == 0:
                _close(ctl_fd)
                _setrlimit(_rlimit_cpu, (cpu_s, cpu_s + 1))
                if index < 0:
                    _dup2(fds[0], result_fd + CALL_FD_OFFSET)
                    _dup2(fds[1], result_fd + CALL_FD_OFFSET + 1)
                    for fd in fds:
                        _close(fd)
                    return _tuple((nonce, "serve", None, (tests, sock, message, data, fds)))
                kind, test = tests[index]
                return _tuple((nonce, kind, test, (tests, sock, message, data, fds)))
            for fd in fds:
                _close(fd)
            _, status, usage = _wait4(pid, 0)
            _write_all(result_fd, _ended_record(nonce, status, usage))
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
    p = None
    channel = [nonce, result_fd]  # where records go; the nonce changes in each zygote test process

    def report(event: str, _write_all=write_all, _line=record_line, **fields) -> None:
        """Write a result record with pristine references only (``records.record_line``)."""
        _write_all(channel[1], _line(event, channel[0], fields))

    monitor = _install_monitor(report, strict=kind == "assert" and zygote_fd is None)
    checked = [False]  # a zygote's test processes leave the checks to the zygote (``Monitor.check``)

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
            monitor.check(namespace)
            report("ready")
            # Returns in a test process; ``_kept`` stays referenced: freeing it would write to (and
            # so copy) every page that holds a test.
            channel[0], kind, test, _kept = serve_tests(zygote_fd, result_fd, cpu_s)
            monitor.strict(kind == "assert")
            checked[0] = True
        elif kind == "serve":
            report("ready")  # the program's top level has run: what the judge's pass requires
        if kind == "serve":
            serve_calls(result_fd + CALL_FD_OFFSET, result_fd + CALL_FD_OFFSET + 1, namespace, monitor, flush,
                        checked[0])
        elif kind == "assert":
            # The test function, compiled by the runner (outside the program's reach), with the
            # program's globals: a test that cannot be judged out of process (``guard``).
            _FUNCTION(dict.get(test, "guarded"), namespace)(_plain)
            flush()
            monitor.check(namespace, checked[0])
            report("passed")
        elif kind == "call":
            fn = dict.get(namespace, test["fn_name"])
            if fn is None:
                raise NameError(f"name {test['fn_name']!r} is not defined")
            value = fn(*test["args"], **test["kwargs"])
            flush()
            monitor.check(namespace, checked[0])
            report("returned", value=encode_value(value))
        else:
            flush()
            monitor.check(namespace, checked[0])
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
        monitor.check(namespace, checked[0])
        if kind == "stdio":
            report("exit", code=exit_code)
        else:
            monitor.flag("early_exit")
            report("runtime_error", message="the program raised SystemExit before the test finished")
    except NotPlainData as e:
        _restore_builtins()
        monitor.flag("not_plain_data")
        report("failed", message=_clip(BaseException.__str__(e), MESSAGE_LIMIT))
    except AssertionError as e:
        _restore_builtins()
        if kind == "stdio":  # a script's own assert: an uncaught exception like any other (below)
            exit_code = _crashed(e, report, describe, stderr)
        else:
            try:
                message = _assert_message(e, test.get("code", "") if type(test) is dict else "")
            except BaseException:  # noqa: BLE001
                message = "AssertionError"
            report("failed", message=message)
    except MemoryError:
        _restore_builtins()
        report("memory_limit", message="MemoryError: memory limit reached")
        exit_code = 1 if kind == "stdio" else 0  # as a script that ran out of memory exits
    except BaseException as e:  # noqa: BLE001 - any exception of the program is a verdict
        exit_code = _crashed(e, report, describe, stderr)
    flush()
    os._exit(exit_code)


def _crashed(e: BaseException, report, describe, stderr) -> int:
    """An exception the program did not catch: its ``runtime_error`` record and its traceback on
    stderr, as a script's; returns the exit status, 1."""
    report("runtime_error", message=describe(e))
    try:
        _print_exception(e, stderr)
    except BaseException:  # noqa: BLE001
        pass
    return 1


# ------------------------------------------------------------------------------------------
# Serving the judge's calls
# ------------------------------------------------------------------------------------------

_MUTABLE = frozenset({list, dict, set, bytearray})
_BUILTIN_EXCEPTIONS = frozenset(name for name, value in vars(__import__("builtins")).items()
                                if isinstance(value, type) and issubclass(value, BaseException))


def _states(values, _type=type, _mutable=_MUTABLE, _join=", ".join, _append=list.append) -> str:
    """Tagged JSON of each argument after a call: its value if mutable (the judge updates its
    own copy in place), else null."""
    parts = []
    for v in values:
        _append(parts, encode_value(v) if _type(v) in _mutable else "null")
    return "[" + _join(parts) + "]"


def serve_calls(call_fd: int, reply_fd: int, namespace: dict, monitor, flush, checked: bool, _read=os.read,
                _loads=marshal.loads, _dumps=marshal.dumps, _from_bytes=int.from_bytes, _to_bytes=int.to_bytes,
                _type=type,
                _get=dict.get, _getattr=getattr, _encode=str.encode, _join="".join, _items=dict.items,
                _repr=int.__repr__, _str=_encode_str, _exceptions=_BUILTIN_EXCEPTIONS, _write_all=write_all,
                _len=len, _exit=os._exit, _states=_states) -> None:
    """Answer the judge's calls of the program's functions for one ``assert`` test, then exit.

    Requests on ``call_fd`` (from the judge, trusted): a 4-byte little-endian length, then
    ``marshal`` of ``(seq, name, arguments, method, method_args, method_kwargs)``, ``arguments``
    being ``marshal`` (version 2: no shared references, so equal values give equal bytes) of
    ``(args, kwargs)``: call the program's global ``name`` with them (and, if ``method`` is set,
    the method ``method`` of what it returned). Replies on ``reply_fd``: the same framing around
    tagged JSON (``encode_value``) of ``[seq, "ok", value, arg_states, kwarg_states]`` (if the
    call changed its arguments, each argument after the call if it is mutable, else null, so that
    in-place changes reach the judge; else both null), ``[seq, "raised", exception type name,
    message]``, ``[seq, "not_plain", message]``, ``[seq, "exit"]`` or ``[seq, "memory"]``. At end
    of file (the test is over) the process exits.
    What the program printed is flushed then (its output counts towards the test's limit).
    Nothing this loop allocates is freed before the process exits (``serve_tests``).
    """
    kept = []
    buffer = b""
    while True:
        while _len(buffer) < 4 or _len(buffer) < 4 + _from_bytes(buffer[:4], "little"):
            more = _read(call_fd, 1 << 16)
            if not more:
                flush()
                monitor.check(namespace, checked)
                _exit(0)
            buffer += more
        size = _from_bytes(buffer[:4], "little")
        request, buffer = buffer[4:4 + size], buffer[4 + size:]
        seq, name, arguments, method, margs, mkwargs = call = _loads(request)
        args, kwargs = _loads(arguments)
        kept.append((call, args, kwargs))
        head = "[" + _repr(seq) + ", "
        try:
            fn = _get(namespace, name)
            if fn is None:
                raise NameError(f"name {name!r} is not defined")
            value = fn(*args, **kwargs)
            if method is not None:
                value = _getattr(value, method)(*margs, **mkwargs)
            try:
                changed = _dumps((args, kwargs), 2) != arguments
            except ValueError:  # it holds what cannot cross now: its states say so
                changed = True
            if changed:
                kw_states = ", ".join("[" + _str(k) + ", " + _states((v,))[1:-1] + "]" for k, v in _items(kwargs))
                reply = _join((head, '"ok", ', encode_value(value), ", ", _states(args), ", [", kw_states, "]]"))
            else:
                reply = _join((head, '"ok", ', encode_value(value), ", null, null]"))
            kept.append(value)
        except SystemExit:
            _restore_builtins()
            flush()
            monitor.flag("early_exit")
            data = _encode(head + '"exit"]')
            _write_all(reply_fd, _to_bytes(_len(data), 4, "little") + data)
            _exit(0)
        except NotPlainData as e:
            _restore_builtins()
            monitor.flag("not_plain_data")
            reply = head + '"not_plain", ' + _str(_clip(BaseException.__str__(e), MESSAGE_LIMIT)) + "]"
        except MemoryError:
            _restore_builtins()
            reply = head + '"memory"]'
        except BaseException as e:  # noqa: BLE001 - the program's exception is the call's answer
            _restore_builtins()
            kind = _type(e).__name__ if _type(e).__module__ == "builtins" and _type(e).__name__ in _exceptions \
                else "Exception"
            try:
                message = _exception_message(e)
            except BaseException:  # noqa: BLE001 - a program can make str(e) raise
                message = kind
            reply = _join((head, '"raised", ', _str(kind), ", ", _str(message), "]"))
        if _len(reply) > REPLY_LIMIT:
            reply = head + '"not_plain", "the returned value is larger than the judge reads"]'
        data = _encode(reply)
        _write_all(reply_fd, _to_bytes(_len(data), 4, "little") + data)


# ------------------------------------------------------------------------------------------
# The monitor: an audit hook, and checks of builtins and standard modules
# ------------------------------------------------------------------------------------------

_PROGRAM_MODULES = frozenset({"__program__", "__main__"})  # the ``__name__`` of a program's globals
# The standard modules whose patching is flagged: tests call these. Those the fork server loads
# itself (``typing`` and what it imports) only when the program imported them too: looking at them
# costs every job; the others are loaded by the program or not at all.
_MONITORED_MODULES = ("math", "random", "string", "itertools", "copy", "heapq", "bisect", "statistics",
                      "fractions", "decimal", "json", "cmath")
_PRELOADED_MONITORED = ("re", "operator", "functools", "collections")
_FRAME_ATTRS = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
_CODE_ATTRS = frozenset({"__code__", "gi_code", "cr_code", "ag_code"})
_WATCHED = frozenset({"sys._getframe", "sys._current_frames", "object.__getattr__", "object.__setattr__",
                      "sys.settrace", "sys.setprofile", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
                      "os.kill", "os.killpg", "signal.pthread_kill", "open", "import", "ctypes.dlopen",
                      "ctypes.dlsym", "ctypes.cdata", "ctypes.string_at", "ctypes.wstring_at", "ctypes.addressof",
                      "ctypes.call_function", "ctypes.set_errno", "ctypes.get_errno"})


class Monitor:
    """The program's process's view of its monitor (``_install_monitor``): ``flag(name)`` writes a
    ``flag`` record once per name; ``check()`` flags patched builtins and standard modules;
    ``strict(on)`` refuses every frame the program reaches for (a test judged in process)."""

    __slots__ = ("check", "flag", "strict")

    def __init__(self, flag, check, strict):
        self.flag, self.check, self.strict = flag, check, strict


def _install_monitor(report, strict: bool, _addaudithook=sys.addaudithook, _getframe=sys._getframe,
                     _getpid=os.getpid, _getppid=os.getppid, _type=type, _str=str, _bytes=bytes,
                     _getattr=getattr, _modules=sys.modules, _vars=vars, _len=len, _any=any, _map=map,
                     _is_not=__import__("operator").is_not, _function=_FUNCTION,
                     _builtins=vars(__import__("builtins"))) -> Monitor:
    """Install the audit hook of this process (it can never be removed) and return its ``Monitor``.

    The hook refuses (raises ``RuntimeError`` in the program) what hands the program harness code
    or another process's state: a frame of harness code (``sys._getframe``, a traceback's or a
    generator's frame), every thread's frames (``sys._current_frames``), trace and profile
    functions (they see every frame), the garbage collector's object lists, harness code objects,
    and changes to harness functions. With ``strict`` (a test judged in process, whose harness
    frames hold what would forge its result) it refuses every frame. It flags (``records.FLAGS``)
    each refusal, signals to other processes, reads of other processes' ``/proc`` files, modules
    written or imported from the working folder or /tmp, and ctypes. Requests made by harness
    code itself go through. Audit hooks: PEP 578.
    """
    seen, busy, mode, imported = set(), [False], [strict], set()
    pristine_keys, pristine_values = tuple(_builtins), tuple(_builtins.values())

    def flag(name: str) -> None:
        if name not in seen:
            seen.add(name)
            report(FLAG, name=name)

    def is_harness(frame) -> bool:
        return frame is not None and frame.f_code.co_filename.startswith(HARNESS_DIR)

    def refuse(name: str, what: str):
        flag(name)
        return f"{what} is refused in the sandbox"

    def decide(event: str, args, requester) -> str | None:
        by_harness = is_harness(requester)  # the frame that made the audited request
        if event == "sys._getframe":
            if (mode[0] or is_harness(args[0])) and not by_harness:
                return refuse("frame_inspection", "reaching a frame of the harness")
        elif event == "object.__getattr__":
            obj, name = args[0], args[1]
            if name in _FRAME_ATTRS:
                if not by_harness and (mode[0] or is_harness(_getattr(obj, name))):
                    return refuse("frame_inspection", "reaching a frame of the harness")
            elif name == "f_code":
                if is_harness(obj) and not by_harness:
                    flag("frame_inspection")
            elif name in _CODE_ATTRS:
                code = _getattr(obj, name)
                if code is not None and code.co_filename.startswith(HARNESS_DIR) and not by_harness:
                    return refuse("test_tampering", "reading the harness's code objects")
        elif event == "object.__setattr__":
            if _type(args[0]) is _function and args[0].__code__.co_filename.startswith(HARNESS_DIR):
                return refuse("test_tampering", "changing a harness function")
        elif event in ("sys._current_frames", "sys.settrace", "sys.setprofile"):
            return refuse("frame_inspection", event)
        elif event.startswith("gc."):
            return refuse("gc_walk", event)
        elif event.startswith("ctypes."):
            flag("ctypes")
        elif event == "open":
            path = args[0]
            if _type(path) is _bytes:
                path = path.decode("utf-8", "replace")
            if _type(path) is _str:
                if path.startswith("/proc/") and not path.startswith(("/proc/self/", "/proc/thread-self/",
                                                                      f"/proc/{_getpid()}/")):
                    flag("test_tampering")
                writing = (_type(args[1]) is _str and any(c in args[1] for c in "wax+")) or \
                    (_type(args[2]) is int and args[2] & (os.O_WRONLY | os.O_RDWR))
                if writing and path.endswith(PLANTED_SUFFIXES):
                    flag("module_planted")
        elif event == "import":
            imported.add(args[0])
            where = args[1]
            if _type(where) is _str and not where.startswith(("/usr/", "/opt/sandbox/")):
                flag("module_planted")
        else:  # os.kill, os.killpg, signal.pthread_kill
            target = args[0]
            if event == "signal.pthread_kill" or target == _getppid() or target <= 1 or not _is_descendant(target):
                flag("parent_killed")
        return None

    def hook(event, args, _watched=_WATCHED) -> None:
        if event not in _watched or busy[0]:
            return
        busy[0] = True
        try:
            refusal = decide(event, args, _getframe(1))
        except BaseException:  # noqa: BLE001 - the hook itself never breaks the program's request
            refusal = None
        finally:
            busy[0] = False
        if refusal is not None:
            raise RuntimeError(refusal)

    def check(namespace: dict, done: bool = False) -> None:
        """Flag builtins the program changed or shadowed in its globals (``namespace``) with
        functions of its own, and the standard modules it imported and patched (call before
        restoring builtins). After the program's top level in a zygote, and in a process of its
        own; not in a zygote's test processes (``done``): every object a check touches would
        cost such a process a page copy (its reference count is written)."""
        if done:
            return
        if _len(_builtins) != _len(pristine_keys) or _any(_map(_is_not, _map(_builtins.get, pristine_keys),
                                                                  pristine_values)):
            flag("builtins_patched")
        for name in namespace.keys() & _builtins.keys():
            if not name.startswith("__") and _getattr(namespace[name], "__module__", None) in _PROGRAM_MODULES:
                flag("builtins_patched")
        for name in (*_MONITORED_MODULES, *(m for m in _PRELOADED_MONITORED if m in imported)):
            module = _modules.get(name)
            if module is None:
                continue
            for value in _vars(module).values():
                kind = _type(value)
                owner = _getattr(value, "__module__", None) if kind is _function or kind is type \
                    else _getattr(kind, "__module__", None)
                if owner in _PROGRAM_MODULES:
                    flag("module_patched")
                    return

    def set_strict(on: bool) -> None:
        mode[0] = on

    def unraisable(info, _default=sys.unraisablehook) -> None:
        """An exception a destructor raised (it cannot propagate): ``SystemExit`` there is an
        attempt to end the process."""
        if isinstance(info.exc_value, SystemExit):
            flag("early_exit")
        _default(info)

    sys.unraisablehook = unraisable
    _addaudithook(hook)
    return Monitor(flag, check, set_strict)


def _is_descendant(pid: int) -> bool:
    """Whether process ``pid`` descends from this one (``/proc/PID/stat``)."""
    me = os.getpid()
    for _ in range(64):
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                pid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
        if pid == me:
            return True
        if pid <= 1:
            return False
    return False


# ------------------------------------------------------------------------------------------
# Plain data: the guard of in-process tests, the writer of values, the restoring of builtins
# ------------------------------------------------------------------------------------------


class NotPlainData(Exception):
    """A value that is not plain data: a test compared it, or the program returned it."""


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
_DECIMAL_BITS = 13000  # ints longer than this are written in hex (decimal text is capped at 4300 digits)


def encode_value(value, _type=type, _str=_encode_str, _repr_int=int.__repr__, _bit_length=int.bit_length) -> str:
    """Write a value as tagged JSON (the form ``values.decode_value`` reads) with harness code only.

    Exact builtin types only, so no code of the program's runs here: None, bool, int, float
    (NaN and infinities as JSON's extensions), str, list as JSON; tuple, set, frozenset, dict,
    bytes, bytearray, complex, range, Ellipsis and very long ints as one-key objects (see
    ``values``).

    Raises:
        NotPlainData: the value holds anything else (a subclass, an object of the program's
            own, a function), or nests deeper than ``MAX_VALUE_DEPTH`` levels.
    """
    t = _type(value)  # the common answers first, without a call
    if t is str:
        return _str(value)
    if t is int and _bit_length(value) <= _DECIMAL_BITS:
        return _repr_int(value)
    if t is bool:
        return "true" if value else "false"
    return _encode_walk(value, 0)


def _encode_walk(v, depth, _type=type, _repr_int=int.__repr__, _repr_float=float.__repr__, _str=_encode_str,
                 _hex=bytes.hex, _hex_array=bytearray.hex, _format=int.__format__, _bit_length=int.bit_length,
                 _join=", ".join, _append=list.append, _items=dict.items) -> str:
    t = _type(v)
    if t is str:
        return _str(v)
    if t is int:
        if _bit_length(v) > _DECIMAL_BITS:
            return '{"i": "' + ("-" if v < 0 else "") + _format(-v if v < 0 else v, "x") + '"}'
        return _repr_int(v)
    if t is bool:
        return "true" if v else "false"
    if t is float:
        if v != v:
            return "NaN"
        if v == _INF or v == -_INF:
            return "Infinity" if v > 0 else "-Infinity"
        return _repr_float(v)
    if v is None:
        return "null"
    if depth > MAX_VALUE_DEPTH:
        raise NotPlainData(f"the value nests deeper than {MAX_VALUE_DEPTH} levels")
    if t is list or t is tuple or t is set or t is frozenset:
        parts = []
        for x in v:
            _append(parts, _encode_walk(x, depth + 1))
        body = "[" + _join(parts) + "]"
        return body if t is list else '{"' + ("t" if t is tuple else "s" if t is set else "f") + '": ' + body + "}"
    if t is dict:
        parts = []
        for k, x in _items(v):
            _append(parts, "[" + _encode_walk(k, depth + 1) + ", " + _encode_walk(x, depth + 1) + "]")
        return '{"d": [' + _join(parts) + "]}"
    if t is bytes or t is bytearray:
        return '{"' + ("b" if t is bytes else "y") + '": "' + (_hex(v) if t is bytes else _hex_array(v)) + '"}'
    if t is complex:
        return '{"c": [' + _encode_walk(v.real, depth + 1) + ", " + _encode_walk(v.imag, depth + 1) + "]}"
    if t is range:
        return '{"r": [' + _repr_int(v.start) + ", " + _repr_int(v.stop) + ", " + _repr_int(v.step) + "]}"
    if v is ...:
        return '{"e": 0}'
    raise NotPlainData(f"returned a value of type {getattr(t, '__qualname__', t)!s}, which is not plain data")


def _restore_builtins(_vars=vars(__import__("builtins")), _pristine=_PRISTINE_BUILTINS,
                      _clear=dict.clear, _update=dict.update) -> None:
    """Undo a program's changes to builtins before harness code runs again."""
    _clear(_vars)
    _update(_vars, _pristine)
