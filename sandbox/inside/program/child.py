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

import _socket
import atexit  # loaded here, in the fork server: an import in each child runs the import machinery
import marshal
import os
import resource
import signal
import sys
from typing import TYPE_CHECKING, Any, NoReturn

from ..procs import (
    CALL_FD_OFFSET,
    PROGRAM_UID,
    cpu_limit_s,
    recv_message,
    set_dumpable,
    set_limits,
    setup_child,
    with_own_size,
)
from ..records import MESSAGE_LIMIT, NOT_PLAIN, RAISED, READY, RETURNED, clip, record_line, write_all
from .calls import Server, serve_calls
from .encode import NotPlainData, encode_value
from .errors import exception_message, exception_only, print_exception
from .lineage import BUILTIN_EXCEPTIONS
from .monitor import builtins_untouched, install, restore_builtins
from .zygote import serve_tests

if TYPE_CHECKING:
    from ..messages import ExecRequest, PythonRequest, SpareRequest


def child_main(p: ExecRequest | PythonRequest | SpareRequest) -> NoReturn:
    """Run one test, one compile, or a zygote as the current, forked process (``p``, built by
    ``children``), or make ready a spare that will (``_take_job``). Never returns."""
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
        env = {**program_env(p["workdir"]), **p["env"]}
        if p.get("result_fd_env"):  # a driver in the program's process (driver.js) reports there
            env[p["result_fd_env"]] = str(result_fd)
        try:
            os.execve(_which(p["argv"][0], env["PATH"]), p["argv"], env)
        except OSError as e:
            os.write(2, f"cannot run {p['argv'][0]}: {e}\n".encode())
            os._exit(127)
    _python_child(p, result_fd)


def _take_job(spare: SpareRequest, result_fd: int) -> PythonRequest:
    """A spare's job: wait for its ``PythonRequest`` on the request channel (the runner closes
    the channel to let a spare go: it exits), take on the job's limits (lowering its own: no
    privilege needed), and leave its descriptors as a child forked for that request has them:
    a zygote keeps the request channel, any other child gives it up and takes the call channels
    sent with the request (a process serving the judge's calls)."""
    ctl_fd = spare["ctl_fd"]
    sock = _socket.socket(fileno=ctl_fd)
    message = recv_message(sock)
    sock.detach()  # the descriptor stays open: a zygote reads its test requests from it
    if message is None:
        os._exit(0)
    job: PythonRequest = marshal.loads(message[0])
    fds = message[1]
    set_limits(with_own_size(job["rlimits"], spare["rlimits"]["own_bytes"]),
               resource.RLIM_INFINITY if job["mode"] == "zygote" else None)
    if job["mode"] == "zygote":
        job["ctl_fd"] = ctl_fd
    else:
        os.close(ctl_fd)
        for target, fd in zip((result_fd + CALL_FD_OFFSET, result_fd + CALL_FD_OFFSET + 1), fds, strict=False):
            os.dup2(fd, target)
        for fd in fds:
            os.close(fd)
    return job


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


def program_env(workdir: str) -> dict[str, str]:
    """The environment every program runs with, in every language: what a fresh process of the
    image gets for it (a Python program's ``os.environ`` too)."""
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": workdir, "TMPDIR": "/tmp"}


def _python_child(p: PythonRequest | SpareRequest, result_fd: int) -> NoReturn:
    """Run the program's code object, then its test (``child_main``), as a fresh interpreter
    would: the program's own ``sys.stdin``/``stdout``/``stderr`` on the test's pipes, its globals a
    real module in ``sys.modules``, its environment, and at the end what the interpreter does when
    a program ends (``_finish``). A zygote's test processes get the module's state exactly as the
    top level left it; a top level whose state a fork would not carry over (``_ForkHooks.unforkable``)
    makes the zygote leave, and each test runs in a fresh process of its own. A spare does what
    needs no job first, then waits for its job (``_take_job``)."""
    workdir = p["workdir"]
    stdio = _Stdio()
    os.environ["HOME"] = workdir  # the rest of ``program_env`` is the fork server's own environment
    sys.argv = ["main.py"]
    sys.path[0] = workdir
    channel = ["", result_fd]  # where records go; the nonce changes in each zygote test process

    def report(event: str, _write_all=write_all, _line=record_line, **fields) -> None:
        """Write a record with pristine references only (``records.record_line``)."""
        _write_all(channel[1], _line(event, channel[0], fields))

    monitor = install(report)
    job = _take_job(p, result_fd) if p["mode"] == "spare" else p
    del p
    kind, nonce, test, code = job["kind"], job["nonce"], job["test"], job["code"]
    channel[0] = nonce
    zygote_fd = job.get("ctl_fd", -1)
    cpu_s = cpu_limit_s(job["rlimits"])
    del job
    # ``main``: what a fresh interpreter importing the program calls it (``import main``), so that a
    # spawned ``multiprocessing`` child finds its functions where the program's file is
    namespace = _module("__main__" if kind == "stdio" else "main", os.path.join(workdir, "main.py"))
    checked = [False]  # a zygote's test processes leave the checks to the zygote (``Monitor.check``)

    def check() -> None:
        if not checked[0]:
            monitor.check(namespace, shadows=kind != "stdio")  # a stdio program's own ``input`` is its business

    def put_back() -> None:
        """Before harness code runs again: where the program changed the builtins, flag it, then
        undo it (its shadowed names and patched modules stay: the check at the end sees them)."""
        if not builtins_untouched():
            check()
            restore_builtins()

    hooks = _ForkHooks() if zygote_fd >= 0 else None
    serving = _Serving(result_fd, namespace, monitor, put_back)
    exit_code = 0
    try:
        exec(code, namespace)
        if hooks is not None:
            hooks.stop()
            _flush_std()  # nothing the top level printed may be inherited by every test process
            monitor.check(namespace)
            if hooks.unforkable():  # the runner sees no ``ready``: a fresh process per test
                os._exit(0)
            restore = hooks.restore_random()
            report(READY)
            # Returns in a test process; ``_kept`` stays referenced: freeing it would write to (and
            # so copy) every page that holds a test.
            channel[0], kind, test, _kept = serve_tests(zygote_fd, result_fd, cpu_s, serving.make)
            restore()
            checked[0] = True
        if kind == "serve":
            serve_calls(serving.server or serving.make())
        elif kind == "call" and test is not None:
            fn = dict.get(namespace, test["fn_name"])
            if fn is None:
                raise NameError(f"name {test['fn_name']!r} is not defined")
            value = fn(*test["args"], **test["kwargs"])
            put_back()
            try:
                report(RETURNED, value=encode_value(value))
            except NotPlainData as e:
                monitor.flag("not_plain_data")
                report(NOT_PLAIN, message=clip(BaseException.__str__(e), MESSAGE_LIMIT))
    except SystemExit as e:
        put_back()
        exit_code, printed = _exit_code(e.code)
        if printed:
            try:
                print(e.code, file=sys.stderr)
            except BaseException:  # noqa: BLE001
                pass
        if kind != "stdio":
            monitor.flag("early_exit")
            report(RAISED, kind="SystemExit", message="the program raised SystemExit before the test finished")
    except BaseException as e:  # noqa: BLE001 - any exception of the program is its outcome
        put_back()
        if kind == "call":
            name = BUILTIN_EXCEPTIONS.get(id(type(e)), "Exception")
            report(RAISED, kind=name, message=exception_message(e))
        print_exception(e, stdio.stderr)
        exit_code = 1
    exit_code = _finish(exit_code, stdio, monitor, namespace, kind == "stdio")
    check()
    os._exit(exit_code)


class _Serving:
    """The server of the judge's calls (``calls.Server``): a zygote makes it before forking its
    first test that serves them (``zygote.serve_tests``), so that each such test's process finds it
    made (``calls.serve_calls``); a test's own process makes its own."""

    def __init__(self, result_fd: int, namespace: dict, monitor, put_back):
        self.args = (result_fd + CALL_FD_OFFSET, result_fd + CALL_FD_OFFSET + 1, namespace, monitor, put_back)
        self.server: Server | None = None

    def make(self) -> Server:
        self.server = Server(*self.args)
        return self.server


class _Stdio:
    """The program's ``sys.stdin``, ``sys.stdout`` and ``sys.stderr``: the interpreter's own, made
    when the fork server started, on pipes as a test's are (``forkclient.Forkserver.start``), so
    that what they say of themselves (not seekable, not a tty, stderr line-buffered) is what
    ``python3 main.py`` says with the test's pipes; never written to before, so their buffers are
    empty. ``stderr`` is where the harness writes a traceback, whatever the program makes of
    ``sys.stderr``."""

    __slots__ = ("base_refs", "stderr", "stdout_buffer")

    def __init__(self):
        self.stderr = sys.__stderr__
        self.stdout_buffer = sys.__stdout__.buffer  # type: ignore[union-attr]  # (never None: made at start)
        self.base_refs = sys.getrefcount(self.stdout_buffer)

    def shared(self) -> bool:
        """Whether something besides ``sys.__stdout__`` holds its buffer (a wrapper the program
        made of ``sys.stdout.buffer``, whose pending text the interpreter flushes as it frees it)."""
        return sys.getrefcount(self.stdout_buffer) > self.base_refs


def _module(name: str, path: str) -> dict:
    """The globals of the program: those of a module ``name`` in ``sys.modules`` (so ``pickle`` and
    ``multiprocessing`` find its functions and classes), from the file ``path``. Their
    ``__builtins__`` is what the interpreter gives: the module ``builtins`` to ``__main__`` (a
    script), its dict to a module it imports."""
    import builtins

    module = type(sys)(name)
    namespace = vars(module)
    namespace.update(__file__=path, __builtins__=builtins if name == "__main__" else vars(builtins), __cached__=None)
    sys.modules[name] = module
    return namespace


def _flush_std() -> bool:
    """Flush ``sys.stdout`` and ``sys.stderr`` as they are now (the program may have replaced them),
    then the interpreter's own (``sys.__stdout__``, where output printed before a replacement
    waits), as the interpreter does at exit; False if either of the first would not flush (exit
    status 120)."""
    ok = True
    for name in ("stdout", "stderr", "__stdout__", "__stderr__"):
        stream = getattr(sys, name, None)
        if stream is None:
            continue
        try:
            closed = getattr(stream, "closed", False)
        except BaseException:  # noqa: BLE001 - a program's object (the interpreter takes it as open)
            closed = False
        if closed is True:
            continue
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001 - a broken stream, or a program's object without flush
            ok = ok and name.startswith("__")
    return ok


def _finish(exit_code: int, stdio: _Stdio, monitor, namespace: dict, finalize: bool) -> int:
    """What the interpreter does when the program ends (``Py_FinalizeEx``, as far as a program can
    see): wait for its non-daemon threads, run its ``atexit`` handlers, flush ``sys.stdout`` and
    ``sys.stderr`` (exit status 120 if either fails), with ``finalize`` do what the module teardown
    does to the program's globals (``_finalize_globals``), and flush every other writer still open
    (a program's ``open(1, "w")``, a wrapper of ``sys.stdout.buffer``: the interpreter flushes them
    as it frees them). Returns the exit status."""
    threading = sys.modules.get("threading")
    if threading is not None:
        try:
            threading._shutdown()
        except BaseException:  # noqa: BLE001 - as the interpreter: the exit goes on
            pass
    try:
        atexit._run_exitfuncs()
    except BaseException:  # noqa: BLE001
        pass
    if not _flush_std():
        exit_code = 120
    if finalize:
        _finalize_globals(namespace)
        _flush_std()
    if stdio.shared() or monitor.opened_std():
        _flush_writers()
    return exit_code


def _finalize_globals(namespace: dict) -> None:
    """What the interpreter's module teardown does to the objects the program's globals hold, as
    far as a program can see: each object's ``__del__`` runs once, however many names hold it (a
    writer that prints what it collected as it is freed), while the globals are all still there
    (the teardown's collection finalizes them so); a file object is flushed, not closed (an alias
    of ``sys.stdout.buffer`` stays open under ``sys.stdout`` and the wrappers of it, as ``sys``
    keeps it). Objects held only inside containers are not reached (``docs/architecture.md``)."""
    import io

    seen: set[int] = set()
    for value in list(namespace.values()):
        if id(value) in seen:
            continue
        seen.add(id(value))
        try:
            if isinstance(value, io.IOBase):
                if not value.closed:
                    value.flush()
                continue
            finalizer = getattr(type(value), "__del__", None)
            if finalizer is not None:
                finalizer(value)
        except BaseException:  # noqa: BLE001 - "Exception ignored in __del__", as the interpreter says
            pass


def _shared_mappings() -> int:
    """Memory mappings of this process that are shared and writable (``/proc/self/maps``: each
    line's permissions stand between spaces; a file whose name holds `` rw-s `` counts too, which
    only ever sends a zygote away)."""
    with open("/proc/self/maps", "rb") as f:
        return f.read().count(b" rw-s ")


def _flush_writers() -> None:
    """Flush every open writer of the program's (text ones first, into their buffers)."""
    import gc
    import io

    objects = gc.get_objects()  # the program's: the fork server's own are frozen (``gc.freeze``)
    for kinds in ((io.TextIOWrapper,), (io.BufferedWriter, io.BufferedRandom)):
        for obj in objects:
            try:
                if isinstance(obj, kinds) and not obj.closed:
                    obj.flush()
            except BaseException:  # noqa: BLE001 - a broken writer: the interpreter goes on too
                pass


class _ForkHooks:
    """While a zygote runs the program's top level, the functions registered to run around a fork
    (``os.register_at_fork``): a fork runs them, a fresh interpreter never does."""

    # The standard library's own: ``threading`` and ``logging`` re-create their locks (neutral once
    # no other thread runs), ``concurrent.futures`` a lock's methods; ``random`` reseeds its
    # shared generator, which each test process puts back (``restore_random``).
    NEUTRAL = frozenset({"random", "threading", "logging"})

    # Exit handlers that each test process may run for itself: the standard library's flushing of
    # its own (``logging``'s handlers, ``multiprocessing``'s children), as each fresh interpreter does.
    NEUTRAL_AT_EXIT = frozenset({"logging", "multiprocessing.util"})

    __slots__ = ("at_exit", "fds", "hooks", "real", "real_at_exit", "shared")

    def __init__(self):
        import posix

        self.real = posix.register_at_fork  # (``os`` takes it from ``posix``)
        self.real_at_exit = atexit.register
        self.hooks: list = []
        self.at_exit: list = []
        self.fds = sorted(os.listdir("/proc/self/fd"))
        self.shared = _shared_mappings()
        os.register_at_fork = posix.register_at_fork = self.register
        atexit.register = self.register_at_exit  # type: ignore[assignment]  # (the same call, noted)

    def register(self, **hooks) -> None:
        """``os.register_at_fork`` as the program calls it (keyword arguments only), noted."""
        self.real(**hooks)
        self.hooks += hooks.values()

    def register_at_exit(self, function, *args, **kwargs):
        """``atexit.register`` as the program calls it, noted."""
        self.at_exit.append(function)
        return self.real_at_exit(function, *args, **kwargs)

    def stop(self) -> None:
        import posix

        os.register_at_fork = posix.register_at_fork = self.real
        atexit.register = self.real_at_exit

    def unforkable(self) -> bool:
        """Whether a process forked now would not hold the state the top level left: a thread
        still runs (threads do not survive a fork), a child process, a file or pipe held open (test
        processes would share its offset), shared memory mapped (they would write to one), a timer
        set (not inherited), an exit handler registered that is not the standard library's own
        flushing (one test's exit would run it for them all: a ``TemporaryDirectory`` removed), or
        a fork hook that is not the standard library's neutral one."""
        if len(os.listdir("/proc/self/task")) > 1 or sorted(os.listdir("/proc/self/fd")) != self.fds \
                or _shared_mappings() != self.shared \
                or not all(getattr(f, "__module__", None) in self.NEUTRAL_AT_EXIT for f in self.at_exit):
            return True
        try:
            os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            return True  # a child, running or not yet waited for
        except ChildProcessError:
            pass
        if any(signal.getitimer(timer) != (0.0, 0.0)
               for timer in (signal.ITIMER_REAL, signal.ITIMER_VIRTUAL, signal.ITIMER_PROF)):
            return True
        return not all(self._neutral(hook) for hook in self.hooks)

    def _neutral(self, hook) -> bool:
        owner = getattr(hook, "__self__", None)
        if owner is not None and type(owner).__module__ == "_thread":
            return True
        return getattr(getattr(hook, "__func__", hook), "__module__", None) in self.NEUTRAL

    def restore_random(self):
        """A function that gives back, in a test process, the state that ``random``'s reseed at
        the fork replaced (a program seeded at import keeps its numbers in every test)."""
        generators: list[Any] = [getattr(hook, "__self__", None) for hook in self.hooks
                                 if getattr(getattr(hook, "__func__", None), "__module__", None) == "random"]
        states = []
        for generator in generators:
            try:
                states.append((generator, generator.getstate()))
            except BaseException:  # noqa: BLE001 - a program's own object: nothing to restore
                pass

        def restore() -> None:
            for generator, state in states:
                try:
                    generator.setstate(state)
                except BaseException:  # noqa: BLE001
                    pass

        return restore


