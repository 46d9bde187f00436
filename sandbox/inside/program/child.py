"""What a process the fork server forks for a program runs: ``child_main``.

Kinds of child (``messages.ChildRequest``):

- ``exec``: set up, then ``execve`` a command (compilers, compiled programs, interpreters, and
  the driver of JavaScript ``call`` tests, ``driver.js``).
- ``python``: run the program's code object, then one test: ``stdio`` (the program as a whole,
  with its stdin; its exit status is its outcome), ``call`` (call a function, write its value or
  exception as the program's answer) or ``serve`` (answer the judge's calls for one ``assert``
  test, ``calls``).
- ``zygote``: run the program's code object once, say ``ready``, then fork one fresh process per
  test from the loaded program (``zygote``).

Every child first becomes the program's user (``procs.setup_child``), so nothing it runs can
reach a trusted process; and it is a child of the runner (``procs.fork_to_parent``), which reads
its exit status and CPU time from the kernel.
"""

from __future__ import annotations

import os
import resource
import signal
import sys
from typing import Any

from ..procs import CALL_FD_OFFSET, PROGRAM_UID, cpu_limit_s, set_dumpable, setup_child
from ..records import MESSAGE_LIMIT, NOT_PLAIN, RAISED, READY, RETURNED, clip, record_line, write_all
from .calls import BUILTIN_EXCEPTIONS, serve_calls
from .encode import NotPlainData, encode_value
from .errors import exception_message, exception_only, print_exception
from .monitor import install
from .zygote import serve_tests


def child_main(p) -> None:
    """Run one test, one compile, or a zygote as the current, forked process. Never returns."""
    try:
        # A zygote's own CPU time only bounds the program's top level (the soft limit, lifted
        # once it is ready); each test process gets the hard limit back (``zygote.serve_tests``).
        result_fd = setup_child(p, PROGRAM_UID, cpu_hard=resource.RLIM_INFINITY if p["mode"] == "zygote" else None)
        set_dumpable(1)  # (after: a change of user resets it) the program's own /proc files are its own
    except BaseException as e:  # noqa: BLE001 - report any setup failure, then die
        os.write(2, f"sandbox: test process set-up failed: {exception_only(e)}\n".encode())
        os._exit(121)
    if p["mode"] == "exec":
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": p["workdir"], "TMPDIR": "/tmp",
               **p.get("env", {})}
        if p.get("result_fd_env"):  # a driver in the program's process (driver.js) reports there
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


def _exit_code(code) -> tuple[int, bool]:
    """The exit status a ``SystemExit(code)`` means, and whether its code is printed (as Python does)."""
    if code is None or code is False or code == 0:
        return 0, False
    if code is True:
        return 1, False
    if type(code) is int:
        return code & 0xFF, False
    return 1, True


def _python_child(p, result_fd: int) -> None:
    import builtins

    kind, nonce, test, code = p["kind"], p["nonce"], p["test"], p["code"]
    zygote_fd = p.get("ctl_fd")
    cpu_s = cpu_limit_s(p["limits"])
    # The fork server's own sys.stdin/stdout/stderr (never used by it, so their buffers are empty)
    # now read and write the test's pipes, which sit on fds 0, 1 and 2.
    stdout, stderr = sys.__stdout__, sys.__stderr__
    sys.argv = ["main.py"]
    sys.path[0] = p["workdir"]
    p = None
    channel = [nonce, result_fd]  # where records go; the nonce changes in each zygote test process

    def report(event: str, _write_all=write_all, _line=record_line, **fields) -> None:
        """Write a record with pristine references only (``records.record_line``)."""
        _write_all(channel[1], _line(event, channel[0], fields))

    monitor = install(report)
    checked = [False]  # a zygote's test processes leave the checks to the zygote (``Monitor.check``)

    def flush() -> None:
        for stream in (stdout, stderr):
            try:
                stream.flush()  # type: ignore[union-attr]  # (never None: the fork server has them)
            except BaseException:  # noqa: BLE001 - a closed or broken stream is the program's doing
                pass

    def check() -> None:
        if not checked[0]:
            monitor.check(namespace)

    namespace: dict[str, Any] = {"__name__": "__main__" if kind == "stdio" else "__program__",
                 "__builtins__": builtins, "__file__": "main.py", "__doc__": None}
    exit_code = 0
    try:
        exec(code, namespace)
        if zygote_fd is not None:
            flush()  # nothing the top level printed may be inherited by every test process
            monitor.check(namespace)
            report(READY)
            # Returns in a test process; ``_kept`` stays referenced: freeing it would write to (and
            # so copy) every page that holds a test.
            channel[0], kind, test, _kept = serve_tests(zygote_fd, result_fd, cpu_s)
            checked[0] = True
        if kind == "serve":
            serve_calls(result_fd + CALL_FD_OFFSET, result_fd + CALL_FD_OFFSET + 1, namespace, monitor,
                        _restore_builtins)
        elif kind == "call":
            fn = dict.get(namespace, test["fn_name"])
            if fn is None:
                raise NameError(f"name {test['fn_name']!r} is not defined")
            value = fn(*test["args"], **test["kwargs"])
            _restore_builtins()
            try:
                report(RETURNED, value=encode_value(value))
            except NotPlainData as e:
                monitor.flag("not_plain_data")
                report(NOT_PLAIN, message=clip(BaseException.__str__(e), MESSAGE_LIMIT))
    except SystemExit as e:
        _restore_builtins()
        exit_code, printed = _exit_code(e.code)
        if printed:
            try:
                print(e.code, file=stderr)
            except BaseException:  # noqa: BLE001
                pass
        if kind != "stdio":
            monitor.flag("early_exit")
            report(RAISED, kind="SystemExit", message="the program raised SystemExit before the test finished")
    except BaseException as e:  # noqa: BLE001 - any exception of the program is its outcome
        _restore_builtins()
        if kind == "call":
            name = type(e).__name__ if type(e).__module__ == "builtins" and type(e).__name__ in BUILTIN_EXCEPTIONS \
                else "Exception"
            report(RAISED, kind=name, message=exception_message(e))
        print_exception(e, stderr)
        exit_code = 1
    flush()
    check()
    os._exit(exit_code)


_PRISTINE_BUILTINS = dict(vars(__import__("builtins")))


def _restore_builtins(_vars=vars(__import__("builtins")), _pristine=_PRISTINE_BUILTINS,
                      _clear=dict.clear, _update=dict.update) -> None:
    """Undo a program's changes to builtins before harness code runs again."""
    _clear(_vars)
    _update(_vars, _pristine)

