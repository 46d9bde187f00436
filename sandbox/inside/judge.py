"""The judge: a trusted process that runs a job's ``assert`` tests; the program only answers calls.

Stdlib only. The fork server forks it (mode ``judge``) once per job that has ``assert`` tests
judged out of process; it never runs the program's code, never shares a process with it, and
stays non-dumpable (a program of the same user can neither ptrace it nor read its memory or its
``/proc`` files). It holds the test code and so the expected values; the program's process never
sees either.

Each test's code runs here with pristine builtins and standard library, in a fresh namespace:
the task's test setup (helpers the task's prompt defines, its prelude's imports; run once per
job), the standard modules the test names without importing, and, for each name the program
defines (the entry point, ``candidate``, ...), a ``Proxy``. Calling a proxy sends the call's
arguments (``marshal``: plain data only) over a pipe to the program's test process, which calls
the real function (``program_process.serve_calls``) and sends back the returned value and the
arguments' state after the call as tagged JSON, read strictly by ``values.decode_value``; the
arguments here are updated in place, so tests of in-place changes work. A returned value that
is not plain data fails the test, and so does a program whose process ends during a call, even
if the test catches exceptions.

It lives as long as the container's fork server: it judges job after job (a job's tests
replace the last job's), and a job whose test breaks a limit has it killed with everything else
(the runner starts a new one). Protocol: on its request socket (fd ``ctl_fd``) the runner sends
(``procs.send_message``: a 4-byte little-endian length, then ``marshal``) for each job
``("job", setup, tests, memory_bytes, checker)``: the task's test setup (source or None), the
job's tests (``[code, names, modules, source]`` each, compiled by the runner:
``guard.plan_assert``), the address space the judge may use, and the task's checker (source or
None); then per ``assert`` test ``("test", nonce, index)`` with the test's call and reply pipe
ends as SCM_RIGHTS, and per ``stdio`` test of a task with a checker ``("check", nonce, input,
output, expected)``, the program's output already read by the runner. For each it writes a
``verdict`` record (``records``) on its result channel (and closes a test's pipes: the program's
test process then exits). At end of file it exits.

A checker (``check(input, output, expected)``, the task's code) runs here too, never in the
program's process: True or 1 passes, False or 0 fails, a number in between is partial credit;
anything else, an exception or running out of time (the runner's limit) is ``checker_error``,
the task's fault.
"""

from __future__ import annotations

import _socket
import builtins
import marshal
import os
import resource
import sys

from .procs import JUDGE_UID, REPLY_LIMIT, recv_message, set_dumpable, setup_child
from .records import MESSAGE_LIMIT, PROGRAM_ENDED, VERDICT, clip, record_line, write_all
from .values import NotPlain, decode_value

_BUILTINS = vars(builtins)
_STOPPING = (SystemExit, KeyboardInterrupt, GeneratorExit)
_EXCEPTIONS = {name: value for name, value in vars(builtins).items()
               if isinstance(value, type) and issubclass(value, BaseException) and not issubclass(value, _STOPPING)}


class ProgramError(Exception):
    """An exception the program raised that is not a builtin one (its type name is in the message)."""


class _Stop(BaseException):
    """The test cannot go on: the program's process ended, or returned what cannot cross.

    A BaseException, so that a test's ``except Exception`` does not swallow it; and whatever a
    test catches, the outcome stays (``Channel.outcome``)."""


class CannotCross(TypeError):
    """The test passed an argument that is not plain data (the task's fault, the same for every program)."""


class Channel:
    """One test's pipes to the program's test process; ``outcome`` holds a failure that no test
    code can undo: ``(status, message)``."""

    def __init__(self, call_fd: int, reply_fd: int):
        self.call_fd, self.reply_fd = call_fd, reply_fd
        self.seq = 0
        self.calls = 0
        self.outcome: tuple[str, str] | None = None
        self.flags: set[str] = set()

    def call(self, name: str, args: tuple, kwargs: dict, method: str | None = None, margs: tuple = (),
             mkwargs: dict | None = None):
        """Call the program's ``name(*args, **kwargs)`` (then ``.method(*margs, **mkwargs)`` of what
        it returned) in its process; return the plain value it returned.

        Raises:
            CannotCross: an argument is not plain data.
            the builtin exception the program raised (or ``ProgramError``);
            _Stop: the program's process ended, or its value is not plain data.
        """
        if self.outcome is not None:
            raise _Stop()
        self.seq += 1
        self.calls += 1
        try:
            data = marshal.dumps((self.seq, name, marshal.dumps((args, kwargs), 2), method, margs, mkwargs or {}))
        except ValueError as e:
            raise CannotCross(f"the test passes {name}() a value that cannot cross to the program's process "
                              f"(only plain data does): {e}") from None
        try:
            write_all_or_raise(self.call_fd, len(data).to_bytes(4, "little") + data)
            reply = self._reply()
        except OSError:
            reply = None
        if reply is None:
            self.outcome = (PROGRAM_ENDED, f"the program's process ended during the call of {name}()")
            raise _Stop()
        try:
            decoded = decode_value(reply)
        except NotPlain as e:
            self.flags.add("not_plain_data")
            return self._stop("failed", f"{name}() answered with something that is not a plain value ({e})")
        if type(decoded) is not list or len(decoded) < 2 or decoded[0] != self.seq:
            return self._stop("failed", f"{name}() answered out of turn")
        kind = decoded[1]
        if kind == "ok" and len(decoded) == 5:
            _update(args, decoded[3])
            _update_kwargs(kwargs, decoded[4])
            return decoded[2]
        if kind == "raised" and len(decoded) == 4 and type(decoded[2]) is str and type(decoded[3]) is str:
            error = _EXCEPTIONS.get(decoded[2])
            if error is None or error is MemoryError:
                raise ProgramError(decoded[3])
            raise error(f"{decoded[3].removeprefix(decoded[2] + ': ')} (raised in {name}())")
        if kind == "not_plain" and len(decoded) == 3:
            self.flags.add("not_plain_data")
            return self._stop("failed", clip(str(decoded[2]), MESSAGE_LIMIT))
        if kind == "exit":
            self.flags.add("early_exit")
            return self._stop("runtime_error", f"the program raised SystemExit in {name}() before the test finished")
        if kind == "memory":
            return self._stop("memory_limit", f"MemoryError in {name}(): memory limit reached")
        return self._stop("failed", f"{name}() answered with a reply the judge does not know")

    def _stop(self, status: str, message: str):
        self.outcome = (status, message)
        raise _Stop()

    def _reply(self) -> str | None:
        header = _read_exact(self.reply_fd, 4)
        if header is None:
            return None
        size = int.from_bytes(header, "little")
        if size > REPLY_LIMIT:
            self.flags.add("not_plain_data")
            self._stop("failed", "the program returned a value larger than the judge reads")
        data = _read_exact(self.reply_fd, size)
        return None if data is None else data.decode("utf-8", "replace")


def write_all_or_raise(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]


def _read_exact(fd: int, n: int) -> bytes | None:
    parts, got = [], 0
    while got < n:
        data = os.read(fd, min(n - got, 1 << 20))
        if not data:
            return None
        parts.append(data)
        got += len(data)
    return b"".join(parts)


def _update(args: tuple, states) -> None:
    """Give each mutable argument the state the program's call left it in (in place)."""
    if type(states) is not list:
        return
    for arg, state in zip(args, states):
        _sync(arg, state)


def _update_kwargs(kwargs: dict, states) -> None:
    if type(states) is not list:
        return
    for item in states:
        if type(item) is list and len(item) == 2 and item[0] in kwargs:
            _sync(kwargs[item[0]], item[1])


def _sync(old, new) -> None:
    """Make the mutable container ``old`` hold what ``new`` holds, keeping the identity of nested
    containers of the same type where it can (a test may hold references into them)."""
    kind = type(old)
    if new is None or kind is not type(new):
        return
    if kind is list:
        for i in range(min(len(old), len(new))):
            if type(old[i]) in (list, dict, set, bytearray) and type(old[i]) is type(new[i]):
                _sync(old[i], new[i])
            else:
                old[i] = new[i]
        del old[len(new):]
        old.extend(new[len(old):])
    elif kind is dict:
        for key in [k for k in old if k not in new]:
            del old[key]
        for key, value in new.items():
            if key in old and type(old[key]) in (list, dict, set, bytearray) and type(old[key]) is type(value):
                _sync(old[key], value)
            else:
                old[key] = value
    elif kind is set:
        old.intersection_update(new)
        old.update(new)
    elif kind is bytearray:
        old[:] = new


class Proxy:
    """A name the program defines, as the test sees it: calling it calls the program's function."""

    __slots__ = ("_channel", "_name")

    def __init__(self, name: str, channel: Channel):
        self._name, self._channel = name, channel

    def __call__(self, *args, **kwargs):
        return self._channel.call(self._name, args, kwargs)

    def __repr__(self) -> str:
        return f"<the program's {self._name}>"


def _assert_message(exc: AssertionError, code: str, tb) -> str:
    text = str(exc)
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<test>":
            line = tb.tb_lineno
        tb = tb.tb_next
    source = ""
    lines = code.splitlines()
    if line is not None and 0 < line <= len(lines):
        source = lines[line - 1].strip()
    return clip(f"AssertionError: {text or source}", MESSAGE_LIMIT)


def _describe(exc: BaseException) -> str:
    text = str(exc)
    name = type(exc).__name__ if not isinstance(exc, ProgramError) else "the program raised"
    return clip(f"{name}: {text}" if text else name, MESSAGE_LIMIT)


def run_test(base: dict, test: list, call_fd: int, reply_fd: int, setup_error: str | None,
             pristine: dict) -> tuple[str, str, Channel]:
    """Run one test's code against the program (through ``call_fd``/``reply_fd``).

    Returns:
        ``(status, message, channel)``: ``passed``, ``failed`` (an assertion failed, or the
        program returned what cannot cross), ``runtime_error`` (the test raised: often an
        exception of the program's, passed on), ``memory_limit`` or ``program_ended``.
    """
    code, names, imports, source = test
    channel = Channel(call_fd, reply_fd)
    if setup_error is not None:
        return "runtime_error", setup_error, channel
    namespace = dict(base)
    for module in imports:
        try:
            namespace[module] = __import__(module)
        except ImportError:
            pass
    for name in names:
        namespace[name] = Proxy(name, channel)
    namespace["__grpo_method__"] = channel.call  # test code's Name(...).method(...) (guard.METHOD_CALL)
    status, message = "passed", ""
    try:
        exec(code, namespace)
    except _Stop:
        pass
    except AssertionError as e:
        status, message = "failed", _assert_message(e, source, e.__traceback__)
    except MemoryError:
        status, message = "memory_limit", "MemoryError: memory limit reached"
    except BaseException as e:  # noqa: BLE001 - any exception of the test is its outcome
        status, message = "runtime_error", _describe(e)
    finally:
        _restore(pristine)  # the test's own changes to builtins stop with it
    if channel.outcome is not None:
        status, message = channel.outcome
    return status, message, channel


def _restore(pristine: dict, _clear=_BUILTINS.clear, _update=_BUILTINS.update) -> None:
    _clear()
    _update(pristine)


def _start_job(setup: str | None, pristine: dict) -> tuple[dict, str | None]:
    """A job's base namespace (its test setup run once), and why the setup failed, if it did."""
    base = {"__builtins__": builtins, "__name__": "__test__"}
    if setup is None:
        return base, None
    try:
        exec(compile(setup, "<setup>", "exec", dont_inherit=True), base)
        return base, None
    except BaseException as e:  # noqa: BLE001 - the task's setup is broken: every test says so
        return base, f"the task's test setup failed: {_describe(e)}"
    finally:
        _restore(pristine)


def _load_checker(source: str | None, pristine: dict):
    """The task's ``check`` function, or why there is none usable (a string)."""
    if source is None:
        return None
    namespace = {"__builtins__": builtins, "__name__": "__checker__"}
    try:
        exec(compile(source, "<checker>", "exec", dont_inherit=True), namespace)
    except BaseException as e:  # noqa: BLE001 - the task's checker is broken: every check says so
        return f"the task's checker failed to load: {_describe(e)}"
    finally:
        _restore(pristine)
    check = namespace.get("check")
    return check if callable(check) else "the task's checker defines no check(input, output, expected)"


def run_check(check, stdin: str, output: str, expected: str, pristine: dict) -> tuple[str, str, str]:
    """Judge a ``stdio`` test's output with the task's checker (``_load_checker``).

    Returns:
        ``(status, message, score)``: ``passed``, ``failed`` (``score``, as text, is partial
        credit in (0, 1) when the checker gave one, else empty) or ``checker_error``.
    """
    if check is None or isinstance(check, str):
        return "checker_error", check or "the job has no checker", ""
    try:
        value = check(stdin, output, expected)
    except BaseException as e:  # noqa: BLE001 - the task's checker failed: the task's fault
        return "checker_error", clip(f"the task's checker raised {_describe(e)}", MESSAGE_LIMIT), ""
    finally:
        _restore(pristine)
    if type(value) is bool:
        return ("passed", "", "") if value else ("failed", "the task's checker rejected the output", "")
    if type(value) in (int, float) and 0 <= value <= 1:
        if value == 1:
            return "passed", "", ""
        if value == 0:
            return "failed", "the task's checker rejected the output", ""
        return "failed", f"the task's checker gave partial credit ({float(value):g})", repr(float(value))
    return "checker_error", clip(f"the task's checker returned {value!r:.60}, not a bool nor a number in [0, 1]",
                                 MESSAGE_LIMIT), ""


def judge_main(p: dict) -> None:
    """The judge process: forked by the fork server for ``p`` (mode ``judge``). Never returns."""
    try:
        result_fd = setup_child(p, JUDGE_UID)  # a user of its own: no process of the program's can reach it
        set_dumpable(0)
        sys.setrecursionlimit(4000)
        sock = _socket.socket(fileno=p["ctl_fd"])
        own_size = p["limits"].get("own_bytes", 0)
        pristine = dict(_BUILTINS)
        base, setup_error, tests, check = {}, None, [], None
        while True:
            message = recv_message(sock)
            if message is None:
                os._exit(0)
            data, fds = message
            request = marshal.loads(data)
            if request[0] == "job":
                _, setup, tests, memory_bytes, checker = request
                resource.setrlimit(resource.RLIMIT_AS, (own_size + memory_bytes, resource.RLIM_INFINITY))
                base, setup_error = _start_job(setup, pristine)
                check = _load_checker(checker, pristine)
                continue
            if request[0] == "check":
                _, nonce, stdin, output, expected = request
                status, text, score = run_check(check, stdin, output, expected, pristine)
                write_all(result_fd, record_line(VERDICT, nonce, {"status": status, "message": text, "score": score}))
                continue
            _, nonce, index = request
            call_fd, reply_fd = fds
            status, text, channel = run_test(base, tests[index], call_fd, reply_fd, setup_error, pristine)
            os.close(call_fd)  # the program's test process sees end of file and exits
            os.close(reply_fd)
            write_all(result_fd, record_line(VERDICT, nonce, {"status": status, "message": text,
                                                              "calls": channel.calls,
                                                              "flags": ",".join(sorted(channel.flags))}))
    except BaseException as e:  # noqa: BLE001 - a broken judge stops; the runner sees it go
        try:
            import traceback

            os.write(2, "".join(traceback.format_exception(e)).encode())
        finally:
            os._exit(70)
