"""A job's ``assert`` tests as the judge holds them, and running one against the program.

Each test's code runs with pristine builtins and standard library, in a fresh namespace
(``JobTests.namespace``): the task's test setup, run anew for every test; the standard modules the
test names without importing; and a ``Remote`` for each name of the program's. It passes only if
it runs to its end; the program's process ending during a call, or answering what cannot be read,
fails it whatever the test catches (``remote.Channel.outcome``). A callable of the test's handed to
the program stays here, and runs here when the program calls it, only where ``may_call_back``
allows it.

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import builtins
import types
from typing import TYPE_CHECKING, Any

from ..records import MESSAGE_LIMIT, clip
from .channel import Channel, Stop
from .checker import load_checker
from .classes import used_as_classes
from .exceptions import ExceptionClasses
from .files import TEST_MODULE, Cases, run_pytest, run_unittest, share_temporary_files
from .files import outcome as file_outcome
from .module import bind
from .remote import REMOTE_KINDS, arun, type_of, vars_of
from .taskcode import assert_message, describe, restore

if TYPE_CHECKING:
    from ..messages import JudgedTest

METHOD_CALL = "__grpo_method__"  # guard.METHOD_CALL (``guard`` imports ``ast``: not loaded here)
ASYNC_RUN = "__grpo_async_run__"  # guard.ASYNC_RUN
TYPE_OF = "__grpo_type__"  # guard.TYPE_OF
VARS_OF = "__grpo_vars__"  # guard.VARS_OF


# Callables of the judge's a program may call back: the test's own (its code runs with what the
# program passes, as the test wrote it) and builtins that only compute. Never what runs code the
# program gives (eval, exec, compile, __import__), reaches the judge's files or frames (open,
# globals, vars, breakpoint), or reads and changes any object by name (getattr, setattr, ...).
_SAFE_BUILTINS = frozenset({
    "abs", "all", "any", "ascii", "bin", "bool", "bytes", "callable", "chr", "complex", "dict", "divmod",
    "enumerate", "filter", "float", "format", "frozenset", "hash", "hex", "int", "isinstance", "issubclass",
    "iter", "len", "list", "map", "max", "min", "next", "oct", "ord", "pow", "range", "repr", "reversed",
    "round", "set", "slice", "sorted", "str", "sum", "tuple", "zip"})
_SAFE_MODULES = frozenset({"math", "cmath", "operator", "_operator", "string", "statistics", "fractions",
                           "decimal", "_decimal", "_pydecimal", "heapq", "_heapq", "bisect", "_bisect"})
_TEST_FILES = frozenset({"<test>", "<setup>"})
PROGRAM_MODULES = ("main",)  # what the test imports the program as (a fresh interpreter's name for it)


_PLAIN_OWNERS = (list, dict, set, bytearray, str, bytes, int, float, tuple, frozenset)


def may_call_back(fn) -> bool:
    """Whether the program may call ``fn``, a callable of the judge's that a test hands it."""
    method = getattr(fn, "__func__", None)
    if method is not None:  # a bound method of Python code: as its function
        return may_call_back(method)
    code = getattr(fn, "__code__", None)
    if code is not None:  # a function or lambda: the test's own, or a module's pure Python function
        module = getattr(fn, "__module__", None)
        return code.co_filename in _TEST_FILES or module == "__test__" or module in _SAFE_MODULES
    if isinstance(fn, type):  # a class: the test's own, or a builtin type
        return fn.__module__ == "__test__" or fn.__module__ in _SAFE_MODULES or (
            fn.__module__ == "builtins" and fn.__name__ in _SAFE_BUILTINS)
    owner = getattr(fn, "__self__", None)
    if owner is not None and not isinstance(owner, type(builtins)):  # a builtin method: of plain data only
        return type(owner) in _PLAIN_OWNERS
    module = getattr(fn, "__module__", None)
    return getattr(fn, "__name__", "") in _SAFE_BUILTINS if module == "builtins" else module in _SAFE_MODULES


def _map(function, iterable, *iterables):
    """``map`` as the test's code has it: a generator, so a ``StopIteration`` the program's function
    raises cannot end it early (PEP 479: ``RuntimeError``), as the test's own generators."""
    for args in zip(iterable, *iterables, strict=False):
        yield function(*args)


def _filter(function, iterable):
    """``filter`` as the test's code has it (``_map``)."""
    for item in iterable:
        if (function(item) if function is not None else item):
            yield item


def _said(say, *args) -> str:
    """A failure's message, ``say(*args)``; empty where writing it needed the program's process and
    it ended (the channel's outcome then says what happened); where writing it raised (a message
    that is the program's object, whose ``__str__`` raises), what it raised."""
    try:
        return say(*args)
    except Stop:
        return ""
    except Exception as e:  # noqa: BLE001 - the message is the program's; the test's outcome stands
        return clip(f"(the message could not be written: {type(e).__name__})", MESSAGE_LIMIT)


class JobTests:
    """A job's tests as the judge holds them: its test setup (compiled once, run anew per test),
    its judged tests, its checker."""

    def __init__(self, setup: str | None, tests: list[JudgedTest], checker: str | None,
                 allow_non_finite: bool = False, folder: str = ".", shared: str | None = None,
                 program_reads: frozenset[str] = frozenset()):
        self.tests, self.allow_non_finite = tests, allow_non_finite
        self.program_reads = program_reads  # the names of the test's definitions that may reach the program
        self.folder = folder  # the judge's own (where a pytest file is written)
        self.shared = shared  # the job's folder, the program's and a test file's (``files.share_temporary_files``)
        if shared is not None:
            share_temporary_files(shared)
        self.classes = ExceptionClasses()  # the program's exception classes, as the judge made them
        self.setup = setup
        self._used_as_classes: frozenset[str] | None = None
        self.setup_code, self.setup_error = None, None
        if setup is not None:
            try:
                self.setup_code = compile(setup, "<setup>", "exec", dont_inherit=True)
            except BaseException as e:  # noqa: BLE001 - the task's setup is broken: every test says so
                self.setup_error = f"the task's test setup failed: {describe(e)}"
        self.check = load_checker(checker)

    def used_as_classes(self) -> frozenset[str]:
        """The program's names the job's tests use as classes (``judge.classes``), read once."""
        if self._used_as_classes is None:
            sources: list[tuple[Any, Any, Any]] = [(self.setup, (), PROGRAM_MODULES)] if self.setup else []
            for test in self.tests:
                if type(test[0]) is str:  # a test file: (kind, code, names, modules, source, catches, module)
                    sources.append((test[4], test[2], (*PROGRAM_MODULES, test[6])))
                else:  # (code, names, modules, source, catches)
                    sources.append((test[3], test[1], PROGRAM_MODULES))
            self._used_as_classes = used_as_classes(sources)
        return self._used_as_classes

    def namespace(self) -> dict:
        """A fresh namespace with the task's test setup run in it.

        Raises:
            _SetupFailed: the setup raised (the task's fault: every test says so).
        """
        namespace = {"__builtins__": builtins, "__name__": "__test__"}
        if self.setup_error is not None:
            raise _SetupFailed(self.setup_error)
        if self.setup_code is not None:
            try:
                exec(self.setup_code, namespace)
            except BaseException as e:  # noqa: BLE001 - the task's setup is broken
                raise _SetupFailed(f"the task's test setup failed: {describe(e)}") from None
            finally:
                restore()
        return namespace


class _SetupFailed(Exception):
    """The task's test setup failed (its message says how)."""


def run_test(job: JobTests, test: JudgedTest, call_fd: int, reply_fd: int) -> tuple[str, str, Channel, str, list]:
    """Run one judged test against the program (through ``call_fd``/``reply_fd``): an ``assert``
    test's code, or a test file (``judge.files``).

    Returns:
        ``(status, message, channel, score, cases)``: ``passed``, ``failed`` (an assertion failed,
        or the program answered what cannot be read), ``runtime_error`` (the test raised: often an
        exception of the program's, passed on), ``memory_limit`` or ``program_ended``; for a test
        file, the share of its cases that passed (text, empty when all did) and its cases.
    """
    channel = Channel(call_fd, reply_fd, may_call_back, REMOTE_KINDS, job.allow_non_finite, job.classes,
                      job.program_reads)
    channel.used_as_classes = job.used_as_classes
    if type(test[0]) is str:  # a pytest or unittest file (``guard.plan_file``)
        return _run_file(job, test, channel)
    bind(PROGRAM_MODULES, channel)
    status, message = _run_assert(job, test, channel)
    return status, message, channel, "", []


def _namespace(job: JobTests, channel: Channel, names, imports=()) -> dict:
    """A test's namespace: the task's setup run in it, the standard modules it names without
    importing them, each of the program's names a ``Remote``, the judge's own helpers.

    Raises:
        _SetupFailed: the setup raised (the task's fault: every test says so).
    """
    namespace = job.namespace()
    for module in imports:
        try:
            namespace[module] = __import__(module)
        except ImportError:
            pass
    for name in names:
        namespace[name] = channel.global_remote(name)
    channel.environment.namespace = namespace

    def method_call(name, args, kwargs, method, margs, mkwargs):
        return channel.op("method", ("g", name), (args, kwargs, method, margs, mkwargs), name)

    namespace[METHOD_CALL] = method_call  # test code's Name(...).method(...) (guard.METHOD_CALL)
    namespace[ASYNC_RUN] = arun  # test code's asyncio.run(...) (guard.ASYNC_RUN)
    namespace[TYPE_OF] = type_of  # test code's type(x) (guard.TYPE_OF)
    namespace[VARS_OF] = vars_of  # test code's vars(x) (guard.VARS_OF)
    namespace.setdefault("map", _map)  # (a name of the setup's own stays)
    namespace.setdefault("filter", _filter)
    return namespace


def _classes(job: JobTests, channel: Channel, names) -> dict:
    """The exception classes of the program's that a test catches or checks classes against by
    ``names``, as the judge makes them (an ``except`` clause needs a class of the judge's own)."""
    classes = {}
    for name in names:
        error = job.classes.of(channel.op("lineage", ("g", name), (), name))
        if error is not None and issubclass(AssertionError, error):  # it would catch the test's own
            error = type(name, (error,), {"__module__": "main"})  # failed assertions: a class of its own
        if error is not None:
            classes[name] = error
    return classes


def _run_file(job: JobTests, test, channel: Channel) -> tuple[str, str, Channel, str, list]:
    """A ``pytest`` or ``unittest`` test file, executed as a module in a fresh namespace
    (``_namespace``), its cases recorded as its runner reports them."""
    kind, code, names, imports, source, catches, module_name = test
    cases = Cases(source)
    try:
        namespace = _namespace(job, channel, names, imports)
    except _SetupFailed as e:
        return "runtime_error", str(e), channel, "", []
    module = types.ModuleType(TEST_MODULE)
    try:
        classes = _classes(job, channel, catches)
        bind((*PROGRAM_MODULES, module_name), channel, classes)
        namespace.update({name: error for name, error in classes.items() if name in names})
        module.__dict__.update(namespace)
        channel.environment.namespace = module.__dict__
        try:
            exec(code, module.__dict__)
        except (Stop, MemoryError):
            raise
        except BaseException as e:  # noqa: BLE001 - the file does not load: no case runs
            cases.error = clip(f"the test file does not load: {describe(e)}", MESSAGE_LIMIT)
        else:
            if kind == "pytest":
                run_pytest(module, source, job.folder, cases, channel, job.shared or job.folder)
            else:
                run_unittest(module, cases, channel)
    except Stop:
        pass
    except MemoryError:
        cases.error = "MemoryError: memory limit reached"
    except BaseException as e:  # noqa: BLE001 - the runner itself failed on this file: no case passed
        cases.error = clip(describe(e), MESSAGE_LIMIT)
    finally:
        restore()
    channel.hello()
    status, message, score, listed = file_outcome(cases, channel)
    return status, message, channel, score, listed


def _run_assert(job: JobTests, test, channel: Channel) -> tuple[str, str]:
    """An ``assert`` test's code, run in a fresh namespace; its ``(status, message)``."""
    code, names, imports, source, catches = test
    try:
        namespace = _namespace(job, channel, names, imports)
    except _SetupFailed as e:
        return "runtime_error", str(e)
    status, message = "passed", ""
    try:  # the first request goes without waiting for the program's ``ready`` (``Channel.op`` reads it)
        namespace.update(_classes(job, channel, catches))  # exception classes of the program's the test catches
        exec(code, namespace)
    except Stop:
        pass
    except AssertionError as e:
        status, message = "failed", _said(assert_message, e, source)
    except MemoryError:
        status, message = "memory_limit", "MemoryError: memory limit reached"
    except BaseException as e:  # noqa: BLE001 - any exception of the test is its outcome
        status, message = "runtime_error", _said(describe, e)
    finally:
        restore()  # the test's own changes to builtins stop with it
    channel.hello()  # read already if the test asked the program anything: a top level that did not finish
    if channel.outcome is not None:  # decides the test, whatever the test's code did
        status, message = channel.outcome
    return status, message
