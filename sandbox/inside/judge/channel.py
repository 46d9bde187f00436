"""One test's channel to the program's process: requests down, answers up, and the outcome no
test code can undo.

What the test does with an object of the program's (``judge.remote.Remote``) becomes an ``op``
frame (``program.calls`` documents the protocol); the answer comes back as tagged JSON, read
strictly (``values.decode_value``). Each kind of what crosses has its owner: values down
(``judge.send``), values up (``values``), exceptions (``judge.exceptions``), argument states and
shared containers (``judge.states``). While an op waits for its answer, the program may call back a
callable of the test's or take an item of an iterator of the test's: the judge runs it here and
answers. The program's process first says ``ready`` (its top level ran) with the interpreter
settings the judge follows for its values (the recursion limit, the most digits ``str`` of an int
writes), though it reads every answer within a nesting its own stack can take (``READ_DEPTH``); a
channel whose program ended, or answered what cannot be read, has an ``outcome`` that decides the
test whatever the test catches. So has a failed assertion of the test's own code that the program
called back (HumanEval's ``check``, a callback's ``assert``): it is the test's failure, never the
program's to catch or read (its message, or whether it was raised, would tell the program the
expected values).

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import fcntl
import json
import marshal
import math
import os
import re
import sys
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from ..arrays import build
from ..procs import REPLY_LIMIT
from ..records import MESSAGE_LIMIT, PROGRAM_ENDED, clip
from ..values import NotPlain, decode_value, non_finite
from .environment import Environment
from .exceptions import ExceptionClasses, parts_ok, raised_by_program
from .objects import serve, settable
from .send import CannotCross, Sender, Uncollected
from .states import Shared, by_value, sync, update
from .taskcode import give_test_builtins, take_test_builtins

if TYPE_CHECKING:
    from ..messages import CallFrame

# Calls inside callbacks inside calls, at most: each level holds a few frames of C in both
# processes; the interpreter's own recursion limit (the program's, followed here) bounds them first.
MAX_NESTING = 1000
HARNESS_FRAMES = 6  # frames of the judge's between two frames of the test's, a nesting level apart
RECURSION_BASE = 50  # the judge's own frames below the test's code
# Levels of recursion the judge reads an answer with at most, from where it reads it, whatever
# recursion limit the program set (``_follow``): its C stack (8 MiB) takes JSON nested ~57,000 deep
# from the top, so the program cannot overflow it with a deep answer. What the harness writes nests
# a few levels per level of a value, at most ``procs.MAX_VALUE_DEPTH`` of them.
READ_DEPTH = 10_000
WALK_LIMIT = 4096  # objects whose attributes one answer may send ahead (``program.prefetch``)
NOT_KEPT = object()  # what ``Channel.kept`` gives for an attribute it does not hold
_NAME_ERROR = "name {!r} is not defined"
PIPE_BYTES = 1 << 20  # each of a test's pipes holds this much (Linux's most for a process without privileges)



class Stop(BaseException):
    """The test cannot go on: the program's process ended, or answered what cannot be read, or the
    test passed what cannot cross. A BaseException, so that a test's ``except Exception`` does not
    swallow it; and whatever a test catches, the outcome stays (``Channel.outcome``)."""


class Channel:
    """One test's pipes to the program's test process; ``outcome`` holds a failure that no test
    code can undo: ``(status, message)``."""

    def __init__(self, call_fd: int, reply_fd: int, may_call_back: Callable[[object], bool],
                 remote_kinds: dict[str, Any], allow_non_finite: bool = False,
                 classes: ExceptionClasses | None = None, program_reads: frozenset[str] = frozenset()):
        self.call_fd, self.reply_fd = call_fd, reply_fd
        for fd in (call_fd, reply_fd):  # (a large value crosses in a few writes, not a wake-up per 64 KiB)
            try:
                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
            except (OSError, ValueError):  # (not a pipe, none; or the user's pipe buffers are spent: the default size)
                pass
        self.allow_non_finite = allow_non_finite
        self.classes = ExceptionClasses() if classes is None else classes
        self.shared = Shared()
        self.remote_type = remote_kinds[""]  # what every handle is an instance of
        self.global_type = remote_kinds["global"]  # a global's handle
        self.remote_class = remote_kinds["class"]  # a handle's class, by its type's name and special methods
        self.hybrid = remote_kinds["plain"]  # what makes a plain type's subclass's object (``judge.remote.hybrid``)
        self.sender = Sender(may_call_back, self.shared, self.remote_type)
        self.environment = Environment(program_reads)
        self.ready: bool | None = None  # whether the program's process said its top level ran (``hello``)
        self.seq = 0
        self.calls = 0
        self.depth = 0
        self.outcome: tuple[str, str] | None = None
        self.flags: set[str] = set()
        self.remotes: weakref.WeakValueDictionary = weakref.WeakValueDictionary()  # the Remote of each handle
        self.forgotten: list[int] = []  # handles whose Remote the test let go of (sent with the next op)
        # Attributes the program's process sent ahead (``program.prefetch``), as they are until the next op:
        # ``ref -> {name: value}``, the refs of the objects they hold, and how many objects the next
        # ``getattr`` asks for (doubling while the test walks from one object it sent to the next).
        self.states: dict[tuple, dict] = {}
        self.states_seq = 0  # the op whose answer they came with
        self.reached: set[tuple] = set()
        self.walk = 1
        # The program's names the job's tests use as classes (``judge.classes``: the job sets it).
        self.used_as_classes: Callable[[], frozenset[str]] = frozenset
        self.making = False  # the op in flight is one of an object the test made: what it gives stays made
        self.test_builtins: list[dict | None] = []  # each op in flight's test's builtins, taken aside

    # -- requests ---------------------------------------------------------------------------

    def op(self, op: str, ref: tuple, payload: tuple, name: str, made: bool = False):
        """Have the program's process do ``op`` to ``ref`` (``program.calls``) and return its value;
        ``made``: ``ref`` is an object the test made (``judge.remote``), else what the answer holds
        is a value the program returned, and an object of it the test made is made no longer.

        Raises:
            the exception the program raised, as the judge's (``judge.exceptions``);
            Stop: the program's process ended, or answered what cannot be read, or the test passed
                what cannot cross (the outcome says which).
        """
        if self.outcome is not None:
            raise Stop()
        if self.depth >= MAX_NESTING:
            raise RecursionError("calls and callbacks nest too deeply")
        self.test_builtins.append(take_test_builtins())  # the judge's code runs on the pristine builtins
        try:
            return self._op(op, ref, payload, name, made)
        finally:
            give_test_builtins(self.test_builtins.pop())

    def _op(self, op: str, ref: tuple, payload: tuple, name: str, made: bool):
        if self.states:  # the program's code runs again: what it sent ahead is stale (its handles let go of now)
            self._drop_states()
        self.seq += 1
        seq = self.seq
        self.calls += 1
        try:  # (in the order the program's process takes them: an object crosses whole the first time)
            updates, gone = self.shared.outgoing(lambda obj: obj) if self.shared.objects else ((), [])
            # the shared containers the test changed, and the test's data objects it changed
            synced = self.sender.crossing(updates, name, resync=True) if updates or self.sender.synced else None
            env = self.environment.outgoing(self.sender, name, self.test_builtins[-1])
            crossing = self.sender.crossing(payload, name)
        except CannotCross as e:
            self._stop("runtime_error", str(e))
        frame: CallFrame = ("op", seq, op, ref, crossing, (*self.forgotten, *gone),
                            synced if synced is not None and synced[0] else None, env)
        self.forgotten.clear()
        self._send(marshal.dumps(frame, 4))
        if self.ready is None:  # the first request went before the program's ``ready``: read that first
            self.hello()
            if self.outcome is not None:
                raise Stop()
        self.depth += 1
        making, self.making = self.making, made
        try:
            while True:
                reply = self._reply()
                if type(reply) is list and len(reply) == 3 and reply[1] == "objects":
                    self._objects_changed(reply[2])  # the program's changes, before it calls back
                    continue
                if type(reply) is list and len(reply) >= 3 and reply[1] in ("callback", "next", "obj"):
                    self._serve(reply)
                    continue
                if type(reply) is list and len(reply) == 3 and reply[:2] == [seq, "states"]:
                    self._keep(reply[2], seq)
                    continue
                return self._answer(reply, seq, op, ref, payload, name)
        finally:
            self.depth -= 1
            self.making = making
            if self.states and self.states_seq != seq:  # sent during a callback: the program's code ran on since
                self._drop_states()

    def _answer(self, reply, seq: int, op: str, ref: tuple, payload: tuple, name: str):
        if type(reply) is not list or len(reply) != 4 or reply[0] != seq:
            return self._stop("failed", f"{name}() answered out of turn")
        kind, body, sync = reply[1], reply[2], reply[3]
        if kind == "ok" and not self.allow_non_finite and non_finite(body):
            self.flags.add("non_finite")
            return self._stop("failed", f"{name}() returned NaN, which the task does not allow")
        if sync is not None:  # the arguments' states: on every path, a call that raised too
            given = self._sync(sync, op, payload, name, body if kind == "ok" else None)
            body = given if kind == "ok" else body
        if kind == "ok":
            return body
        if kind == "raised" and parts_ok(body):
            if ref[0] == "g" and body[0] == ["NameError"] and body[3] == [_NAME_ERROR.format(ref[1])]:
                raise NameError(_NAME_ERROR.format(ref[1]))  # a name the program does not define: as in one process
            raise self.classes.build(body, f"(raised in {name}())")
        if kind == "unreadable" and type(body) is str:
            return self._stop("failed", f"{name}() answered with what the judge cannot read: "
                                        f"{clip(body, MESSAGE_LIMIT)}")
        if kind == "memory":
            return self._stop("memory_limit", f"MemoryError in {name}(): memory limit reached")
        return self._stop("failed", f"{name}() answered with a reply the judge does not know")

    def _sync(self, sync, op: str, payload: tuple, name: str, value):
        """An answer's ``sync`` (``program.calls``): arguments' states, arguments kept, shared
        containers changed, settings, and what the call returned where it is no copy; gives back
        ``value`` as the test gets it (``judge.states.Shared.returned``)."""
        if type(sync) is not list or len(sync) != 7:
            self._stop("failed", f"{name}() answered with a reply the judge does not know")
        states, kept, changed, settings, returned, io, objects = sync
        if io is not None:
            self.environment.incoming(io)
        self._objects_changed(objects)
        if not self.allow_non_finite and (non_finite(states) or non_finite(changed)):
            self.flags.add("non_finite")
            self._stop("failed", f"{name}() left NaN in an argument, which the task does not allow")
        calls = []
        if op in ("call", "method"):
            calls.append((payload[0], payload[1]))
            if op == "method":
                calls.append((payload[3], payload[4]))
        update(calls, states)
        if returned is not None:  # (shared before the arguments kept: the program numbered them so)
            value = self.shared.returned(value, calls, returned)
        self.shared.kept(calls, kept)
        self.shared.changed(changed)
        if settings is not None:
            self._follow(settings)
        return value

    def _objects_changed(self, objects) -> None:
        """The program changed its copies of the test's objects (``[number, attributes]`` each):
        the test's objects hold that now (their attributes: values, the test's own objects, and
        the program's objects the program put there, as ``Remote`` handles), as far as the program
        may set them (``objects.settable``: no dunder; the test's own stay)."""
        if type(objects) is not list:
            return
        with Uncollected():
            self._apply_objects(objects)

    def _apply_objects(self, objects: list) -> None:
        callbacks = self.sender.callbacks
        for item in objects:
            if type(item) is list and len(item) == 2 and type(item[0]) is int and type(item[1]) is dict \
                    and 0 <= item[0] < len(callbacks) and self.sender.copyable(callbacks[item[0]]):
                target = callbacks[item[0]]
                held = vars(target)
                attributes = {k: v for k, v in item[1].items() if type(k) is str and settable(target, k)}
                attributes.update({k: v for k, v in held.items() if not settable(target, k)})  # (the test's own stay)
                for key, value in attributes.items():  # (a list it holds stays that list, as the test may hold it)
                    old = held.get(key)
                    if old is not value and type(old) is type(value) and by_value(old):
                        sync(old, value)
                        attributes[key] = old
                self.sender.objects_changed(item[0], attributes)

    def _keep(self, text, seq: int) -> None:
        """Keep the attributes the program's process sent ahead of its answer (JSON text: ``[[number,
        [name, value, ...]], ...]``, ``program.prefetch``): scalars, and objects of the program's as
        ``[number, type name, kind]``, made handles when the test reads them (``kept``)."""
        if type(text) is not str or (sys.getrecursionlimit() > SAFE_RECURSION and _STATES.fullmatch(
                _STRINGS.sub('""', text)) is None):
            return  # (nested deeper than the limit the program set, the C scanner could overflow the judge's stack)
        try:
            states = json.loads(text)
        except (ValueError, RecursionError):
            return
        if type(states) is not list:
            return
        kept: dict[tuple, dict] = {}
        reached: set[tuple] = set()
        for entry in states[:WALK_LIMIT]:
            if type(entry) is not list or len(entry) != 2 or type(entry[0]) is not int or type(entry[1]) is not list:
                continue
            pairs = entry[1]
            attributes = {}
            for i in range(0, len(pairs) - 1, 2):
                name, value = pairs[i], pairs[i + 1]
                if type(name) is str:
                    attributes[name] = value
                    if type(value) is list and len(value) == 3 and type(value[0]) is int:
                        reached.add(("h", value[0]))
            kept["h", entry[0]] = attributes
        self.states, self.reached, self.states_seq = kept, reached, seq

    def _drop_states(self) -> None:
        """The program's code runs again: what it sent ahead is stale. The handles it sent that the
        test never took are let go of with the next op (as those the test let go of)."""
        for ref in self.reached:
            if ref not in self.remotes:
                self.forgotten.append(ref[1])
        self.states, self.reached = {}, set()

    def kept(self, ref: tuple, name: str):
        """Attribute ``name`` of ``ref``'s object as the program's process sent it ahead with its
        last answer (no op since: no code of the program's ran), or ``NOT_KEPT``."""
        attributes = self.states.get(ref)
        if attributes is None:
            return NOT_KEPT
        value = attributes.get(name, NOT_KEPT)
        kind = type(value)
        if kind is list:  # an object of the program's: its handle, from now on
            try:
                value = attributes[name] = self.refs("h", value)
            except NotPlain:
                return NOT_KEPT
        elif kind is float and not self.allow_non_finite and not math.isfinite(value):
            return NOT_KEPT  # (a request reads it: the test fails there, flagged)
        elif kind not in _KEPT and not isinstance(value, self.remote_type):
            return NOT_KEPT
        return value

    def budget(self, ref: tuple) -> int:
        """How many objects' attributes a ``getattr`` of ``ref``'s object asks the program to send
        ahead: one (its own: a point's ``x`` then its ``y``), doubling while the test walks on from
        an object whose attributes came ahead (``node = node.next``) to one whose did not."""
        self.walk = min(2 * self.walk, WALK_LIMIT) if ref in self.reached else 1
        return self.walk

    def _serve(self, request: list) -> None:
        """Run a callable of the test's that the program called, or take the next item of an
        iterator of the test's it iterates, and answer it."""
        seq, kind, number = request[0], request[1], request[2]
        valid = type(number) is int and 0 <= number < len(self.sender.callbacks) and (
            (kind == "next" and len(request) == 3)
            or (kind == "obj" and len(request) == 5 and type(request[3]) is str and type(request[4]) is list
                and self.sender.is_proxied(self.sender.callbacks[number]))
            or (kind == "callback" and len(request) == 5 and type(request[3]) is list and type(request[4]) is dict
                and all(type(k) is str for k in request[4])))
        if not valid:
            self._stop("failed", "the program called back with a request the judge does not know")
        target = self.sender.callback(number)
        answer: CallFrame
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(limit + HARNESS_FRAMES)  # this nesting's frames of the judge's are not the test's
        # what the test's code changed of the data objects the program holds goes down with the
        # answer: none after a method of their class that changes nothing (``objects.READ_ONLY``),
        # those it was handed after a class of the test's made an object (``Node(prev=p)``)
        resync: bool | list = True
        if kind == "callback" and number in self.sender.read_only:
            resync = False
        elif kind == "callback" and number in self.sender.makers:
            resync = [*request[3], *request[4].values()]
        try:
            if kind == "next":
                try:
                    answer = ("item", seq, self.sender.crossing(self._test_code(next, target), "the test's iterator",
                                                                resync))
                except StopIteration:
                    answer = ("stop", seq)
            elif kind == "obj":
                answer = ("ret", seq, self.sender.crossing(self._test_code(serve, target, request[3], request[4]),
                                                           "the test's object", resync))
            else:
                value = self._test_code(target, *request[3], **request[4])
                answer = ("ret", seq, self.sender.crossing(value, "the test's callback", resync))
        except Stop:
            raise
        except CannotCross as e:
            self._stop("runtime_error", str(e))
        except AssertionError as e:  # the test's own check failed: the test did (unless the program raised it)
            if not raised_by_program(e):
                self._stop("failed", _failed_assertion(e))
            answer = ("raise", seq, self.sender.exception(e))
        except BaseException as e:  # noqa: BLE001 - the test's callable raised: the program sees it
            answer = ("raise", seq, self.sender.exception(e, resync))
        finally:
            try:
                sys.setrecursionlimit(max(sys.getrecursionlimit() - HARNESS_FRAMES, 100))
            except RecursionError:
                pass
        self._send(marshal.dumps(answer, 4))

    def _test_code(self, function, *args, **kwargs):
        """``function(*args, **kwargs)``, code of the test's that the program called back, run with the
        test's builtins (``taskcode.take_test_builtins``); the judge's own are in place again after."""
        give_test_builtins(self.test_builtins[-1])
        try:
            return function(*args, **kwargs)
        finally:
            self.test_builtins[-1] = take_test_builtins()

    def _stop(self, status: str, message: str) -> NoReturn:
        self.outcome = (status, message)
        raise Stop()

    def hello(self) -> None:
        """Wait for the program's process to say it ran its top level (``[0, "ready", settings]``);
        if it ends first, the test cannot pass whatever it does (``outcome``). Its first frame up,
        read once: the test's first request may already wait in the pipe (``op``), and a test that
        makes none reads it when it ends (``asserts.run_test``)."""
        if self.ready is not None:
            return
        self.ready = False
        try:
            reply = self._reply()
        except Stop:
            if self.outcome is None or self.outcome[0] == PROGRAM_ENDED:
                self.outcome = (PROGRAM_ENDED, "the program's process ended before its top level finished")
            return
        if type(reply) is not list or len(reply) != 3 or reply[:2] != [0, "ready"]:
            self.outcome = ("failed", "the program's process did not start serving the test")
        else:
            self.ready = True
            self._follow(reply[2])

    def _follow(self, settings) -> None:
        """Follow the program's interpreter settings for its values: the recursion limit (the test's
        code and the program's share one in one process) and the most digits ``str`` of an int writes."""
        if type(settings) is not list or len(settings) != 2 or not all(type(x) is int for x in settings):
            return
        limit, digits = settings
        if 0 < limit < 1 << 24:
            try:
                sys.setrecursionlimit(limit + RECURSION_BASE + self.depth * HARNESS_FRAMES)
            except RecursionError:
                pass
        if digits == 0 or 640 <= digits < 1 << 31:
            sys.set_int_max_str_digits(digits)

    # -- frames -----------------------------------------------------------------------------

    def _send(self, data: bytes) -> None:
        try:
            _write_all(self.call_fd, len(data).to_bytes(4, "little") + data)
        except OSError:
            self.hello()  # gone before it said ``ready``: its top level did not finish (the outcome says so)
            self._ended()

    def _reply(self):
        header = _read_exact(self.reply_fd, 4)
        if header is None:
            self._ended()
        size = int.from_bytes(header, "little")
        if size > REPLY_LIMIT:
            self.flags.add("not_plain_data")
            self._stop("failed", "the program answered with a value larger than the judge reads")
        data = _read_exact(self.reply_fd, size)
        if data is None:
            self._ended()
        try:
            with Uncollected():
                return self._decode(data.decode("utf-8", "replace"))
        except NotPlain as e:
            self.flags.add("not_plain_data")
            return self._stop("failed", f"the program answered with something that is not a plain value ({e})")

    def _decode(self, text: str):
        """``text`` read as a value (``values.decode_value``) with at most ``READ_DEPTH`` levels of
        recursion left, whatever limit the program's settings raised the judge's to: an answer
        nested deeper is refused, and the judge's C stack never overflows reading one.

        Raises:
            NotPlain: ``text`` is no plain value, or nests deeper than that.
        """
        limit = sys.getrecursionlimit()
        if limit <= READ_DEPTH:
            return decode_value(text, self.refs)
        depth, frame = 0, sys._getframe()  # the frames below: the depth where it reads, near enough
        while frame is not None:
            depth, frame = depth + 1, frame.f_back  # type: ignore[assignment]  # None ends the walk
        try:
            sys.setrecursionlimit(min(limit, depth + READ_DEPTH))
        except RecursionError:  # C calls between those frames: deeper already than the judge reads from
            raise NotPlain("an answer the judge cannot read this deep in the test's recursion") from None
        try:
            return decode_value(text, self.refs)
        finally:
            sys.setrecursionlimit(limit)

    def refs(self, tag: str, body):
        """The object a handle in a reply stands for (``values.decode_value``): one ``Remote`` per
        object of the program's, so ``is`` is the program's identity; a callable or an iterator of
        the test's handed back is itself."""
        if tag == "h" and type(body) is list and len(body) == 3 and type(body[0]) is int and type(body[1]) is str \
                and type(body[2]) is int and body[2] >= 0:
            ref = ("h", body[0])
            remote = self.remotes.get(ref)
            cls = self.remote_class(clip(body[1], 60), body[2])  # its type's name and special methods
            if remote is None:  # one Remote per object: ``is`` is the program's identity
                remote = self.remotes[ref] = cls(self, ref, clip(body[1], 60))
            else:
                if type(remote) is not cls:  # its class changed since (a method added, ``__class__`` set)
                    remote.__class__ = cls
                if remote._made and not self.making:  # returned by the program: a value it returned now
                    object.__setattr__(remote, "_made", False)
            return remote
        if tag in ("k", "K", "j") and type(body) is int and 0 <= body < len(self.sender.callbacks):
            return self.sender.callback(body)
        if tag == "S" and type(body) is int and body in self.shared.objects:
            return self.shared.objects[body][0]
        if tag == "V" and type(body) is list and len(body) == 2 and type(body[0]) is int:
            self.shared.share(body[1], body[0])  # a container the program keeps: from now on the test's own
            return body[1]
        if tag == "G" and type(body) is str:
            return self.global_remote(body)
        if tag == "X" and parts_ok(body):  # an exception of the program's as a value: the judge's copy
            return self.classes.build(body)
        if tag == "A" and type(body) is list and body:  # a numpy or pandas value: the judge's own library's
            try:
                return build(body)
            except Exception as e:  # noqa: BLE001 - no value the library makes: the program's nonsense
                raise NotPlain(f"a malformed array ({type(e).__name__})") from None
        if tag == "P" and type(body) is list and len(body) == 3 and type(body[1]) is str:
            remote = self.refs("h", body[2])  # a plain type's subclass's object: its value, and it behind
            return self.hybrid(body[0], body[1], remote)
        raise NotPlain(f"a malformed reference {tag!r}")

    def global_remote(self, name: str):
        """The ``Remote`` of the program's global ``name`` (one per object: ``type(x) is Cls``)."""
        ref = ("g", name)
        remote = self.remotes.get(ref)
        if remote is None:
            remote = self.remotes[ref] = self.global_type(self, ref, clip(name, 60))
        return remote

    def _ended(self) -> NoReturn:
        if self.outcome is None:
            self.outcome = (PROGRAM_ENDED, "the program's process ended during a call")
        raise Stop()


def _failed_assertion(error: AssertionError) -> str:
    """A failed assertion of the test's own code that the program called back, as the verdict says
    it: its message where it is text, and the line of the test's code that raised it."""
    args = error.args
    text = args[0] if len(args) == 1 and type(args[0]) is str else ""
    line, tb = None, error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename in ("<test>", "<setup>"):
            line = f"line {tb.tb_lineno} of the {'test' if tb.tb_frame.f_code.co_filename == '<test>' else 'setup'}"
        tb = tb.tb_next
    where = f" ({line}, called back by the program)" if line else " (in the test's code the program called back)"
    return clip(f"AssertionError: {text}{where}" if text else f"AssertionError{where}", MESSAGE_LIMIT)


_KEPT = frozenset({type(None), bool, int, float, str})  # what an attribute sent ahead may be, but a handle
# The form of the attributes sent ahead (``program.prefetch``), its strings emptied first: a form
# that nests no deeper than it, checked without recursion where the judge follows a recursion limit
# of the program's so high that the C scanner's own check would come after the judge's stack ends.
SAFE_RECURSION = 10000
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_VALUE = r'(?:null|true|false|-?(?:\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|Infinity)|NaN|""|\[\d+, "", \d+\])'
_ENTRY = r'\[\d+, \[(?:"", ' + _VALUE + r'(?:, "", ' + _VALUE + r')*)?\]\]'
_STATES = re.compile(r'\[(?:' + _ENTRY + r'(?:, ' + _ENTRY + r')*)?\]')


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]


def _read_exact(fd: int, n: int) -> bytes | None:
    parts, got = [], 0
    while got < n:
        try:
            data = os.read(fd, min(n - got, 1 << 20))
        except OSError:
            return None
        if not data:
            return None
        parts.append(data)
        got += len(data)
    return b"".join(parts)
