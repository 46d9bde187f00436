"""A ``pytest`` or ``unittest`` test file, run by its format's own runner in the judge against one
process of the program's: each test function or method (each parameter set of a parametrized one)
is a case of its own.

The rule: the file runs as it runs where its data set's harness runs it (``pytest`` in one
process, ``unittest`` loading its ``TestCase`` classes), with the program importable under the
task's module name (``from solution import f``: ``judge.module``) and its names usable directly
(BigCodeBench's ``task_func``), each a ``Remote``; what a test sets for the program's process (a
mock patched in, ``monkeypatch``, ``capsys``, a redirected stdout, the environment, the working
folder: ``judge.environment``) reaches it. A case passes only on the judge's
own evidence that it ran to its end: the runner's report of it, made in this process, which no
process of the program's can reach; never an exit status, nor anything the program writes. The
temporary folders a test makes, and its working folder, are the program's too (``shared``).

Stdlib only, and what the image holds (``pytest``, imported only for a ``pytest`` test); the
fork server loads this module, never ``pytest``.
"""

from __future__ import annotations

import os
import sys
import types
from _json import encode_basestring_ascii as _encode_str

from ..records import MESSAGE_LIMIT, clip
from .channel import Channel, Stop
from .environment import WATCHING
from .taskcode import assert_message, describe

CASE_MESSAGE_LIMIT = 300
CASES_LIMIT = 500  # cases listed per test file (a verdict record stays small); the score counts them all
TEST_MODULE = "__test__"  # what the test's classes and functions are the module of (``judge.objects``)


def share_temporary_files(folder: str) -> None:
    """Make the files and temporary folders the test makes the program's too: its working folder and
    ``TMPDIR`` are ``folder`` (the job's own, the program's working folder), and what it makes is
    readable and writable by every user (a folder ``mkdtemp`` makes is its maker's alone otherwise:
    ``share_tempfile``, now or when a test first imports ``tempfile``, ``judge.applied``)."""
    os.umask(0)
    os.chdir(folder)
    os.environ["TMPDIR"] = folder
    SHARED.append(folder)
    # (``tempfile`` is not imported here: the fork server loads this module, and tempfile imports
    # random, whose at-fork hook would then reseed every process forked after it)
    module = sys.modules.get("tempfile")
    if module is not None:
        share_tempfile(module)


SHARED: list[str] = []  # the job's folder, where the judge shares it (``share_temporary_files``)


def share_tempfile(tempfile) -> None:
    """``tempfile``'s folders and files made in the shared folder, for every user."""
    if not SHARED:
        return
    tempfile.tempdir = SHARED[0]
    mkdtemp, mkstemp_inner = tempfile.mkdtemp, tempfile._mkstemp_inner

    def shared_mkdtemp(*args, **kwargs):
        path = mkdtemp(*args, **kwargs)
        os.chmod(path, 0o777)
        return path

    def shared_mkstemp_inner(*args, **kwargs):  # (``mkstemp``'s, ``NamedTemporaryFile``'s, ``TemporaryFile``'s)
        fd, path = mkstemp_inner(*args, **kwargs)
        os.fchmod(fd, 0o666)
        return fd, path

    tempfile.mkdtemp, tempfile._mkstemp_inner = shared_mkdtemp, shared_mkstemp_inner


NOT_RUN = "not_run"  # a case collected that has not run to its end (yet)
SKIPPED = "skipped"  # a case the test file itself skipped (a mark, ``pytest.skip``, ``skipTest``)


class Cases:
    """The cases of one file as its runner reports them: ``name -> [status, message]``, in the
    order collected. Every case collected is named before any runs (``expect``): one the run never
    finished (it stopped: ``KeyboardInterrupt``) fails."""

    def __init__(self, source: str = ""):
        self.source = source  # the file's text (a failed assertion's message names its line)
        self.cases: dict[str, list[str]] = {}
        self.error = ""  # what stopped the file before any case ran (a collection error)

    def expect(self, name: str) -> None:
        """Case ``name`` was collected: it fails unless it runs to its end."""
        self.cases.setdefault(name, [NOT_RUN, ""])

    def record(self, name: str, status: str, message: str = "") -> None:
        """A part of case ``name`` (its setup, call or teardown) ended with ``status``: the first
        part that did not pass decides the case."""
        case = self.cases.setdefault(name, [NOT_RUN, ""])
        if case[0] in (NOT_RUN, "passed"):
            case[:] = [status, clip(message, CASE_MESSAGE_LIMIT)]


def _status(error: BaseException | None, channel: Channel, source: str = "") -> tuple[str, str]:
    """A case's status from what ended it: an assertion (``failed``), any other exception
    (``runtime_error``), the program's process ended or answered nonsense (the channel's outcome,
    which decides every case from then on)."""
    if channel.outcome is not None:
        return channel.outcome
    if error is None:
        return "passed", ""
    if isinstance(error, AssertionError):
        try:
            return "failed", assert_message(error, source)
        except (Exception, Stop):  # noqa: BLE001 - a message of the program's that cannot be written
            return "failed", "AssertionError"
    if isinstance(error, MemoryError):
        return "memory_limit", "MemoryError: memory limit reached"
    return "runtime_error", describe(error)


class _PytestRecorder:
    """The plugin that records each case's outcome as pytest reports it (the judge's own
    evidence: a skip or an expected failure only where pytest's own classes say so, which no
    exception of the program's is: ``judge.exceptions``)."""

    failed_type: type = AssertionError  # pytest's own ``Failed`` (``run_pytest`` sets it): the test's failure

    def __init__(self, cases: Cases, channel: Channel):
        self.cases, self.channel = cases, channel

    @staticmethod
    def _name(nodeid: str) -> str:
        return nodeid.split("::", 1)[-1]

    def pytest_collectreport(self, report) -> None:
        if report.failed:
            self.cases.error = clip(f"the test file does not load: {report.longreprtext.strip().splitlines()[-1:]}",
                                    MESSAGE_LIMIT)

    def pytest_collection_finish(self, session) -> None:
        for item in session.items:
            self.cases.expect(self._name(item.nodeid))

    def pytest_runtest_logstart(self, nodeid, location) -> None:
        WATCHING[0] = True  # a case's setup, call and teardown: the test's own code

    def pytest_runtest_logfinish(self, nodeid, location) -> None:
        WATCHING[0] = False

    def reported(self, item, call, report) -> None:
        """Record what pytest made of one part of a case (``report``, of ``call``)."""
        name = self._name(item.nodeid)
        if report.failed:
            error = call.excinfo.value if call.excinfo is not None else None
            status, message = _status(error, self.channel, self.cases.source)
            if status == "passed":  # failed with no exception: a strict expected failure that passed
                status, message = "failed", "an expected failure (xfail, strict) passed"
            elif status == "runtime_error" and type(error) is self.failed_type and self.channel.outcome is None:
                status = "failed"  # the test's own ``pytest.fail``, ``pytest.raises``' DID NOT RAISE
            self.cases.record(name, status, message)
        elif report.skipped:
            self.cases.record(name, SKIPPED, clip(str(getattr(report, "wasxfail", "") or "skipped"), 200))
        elif report.when == "call":  # (a setup that passed leaves the case not run yet)
            self.cases.record(name, *_status(None, self.channel))


def run_pytest(module: types.ModuleType, source: str, folder: str, cases: Cases, channel: Channel,
               shared: str) -> None:
    """Run the test file ``module`` (executed already from ``source``: ``asserts.run_test``) with
    pytest, from ``folder`` (the judge's own, where ``source`` is written for pytest to find as
    the module's file), recording its cases in ``cases``; ``tmp_path`` is made in ``shared``."""
    import pathlib
    import tempfile

    import pytest

    path = os.path.join(folder, TEST_MODULE + ".py")
    with open(path, "w") as f:
        f.write(source)
    module.__file__ = path  # pytest imports the module from sys.modules: this one, checked by its file
    sys.modules[TEST_MODULE] = module

    class Plugin(_PytestRecorder):
        failed_type = pytest.fail.Exception  # (a program's exception is never pytest's class: ``judge.exceptions``)

        @pytest.fixture
        def tmp_path(self):
            return pathlib.Path(tempfile.mkdtemp(dir=shared))  # (shared: ``share_temporary_files``)

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(self, item, call):
            made = yield
            self.reported(item, call, made.get_result())

    with open(os.devnull, "w") as quiet:
        out, err = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = quiet  # (pytest's own printing; the test's goes to the program: capsys)
        channel.environment.stdout = channel.environment.stderr = quiet  # (not the test's redirection)
        WATCHING[0] = False  # pytest's own set-up
        try:
            pytest.main([path, "-q", "-s", "--assert=plain", "-p", "no:cacheprovider", "-p", "no:stepwise",
                         "--rootdir", folder, "-o", "python_files=*.py", "-o", "addopts=",
                         "-W", "ignore::pytest.PytestWarning"], plugins=[Plugin(cases, channel)])
        finally:
            WATCHING[0] = True
            sys.stdout, sys.stderr = out, err
            sys.modules.pop(TEST_MODULE, None)


class _UnittestRecorder:
    """A ``unittest.TestResult`` in all but name: what the runner reports of each test method (the
    judge's own evidence); a method's subtests are its one case (all must pass)."""

    def __init__(self, cases: Cases, channel: Channel):
        self.cases, self.channel = cases, channel
        self.shouldStop = False
        self.failfast = False
        self.buffer = False
        self.tb_locals = False
        self.testsRun = 0

    @staticmethod
    def name(test) -> str:
        name = test.id()
        return name.split(".", 1)[1] if name.startswith(TEST_MODULE + ".") else name

    def startTest(self, test) -> None:
        self.testsRun += 1

    def stopTest(self, test) -> None:
        pass

    def startTestRun(self) -> None:
        pass

    def stopTestRun(self) -> None:
        pass

    def addSuccess(self, test) -> None:  # (the run reached the method's end and its tearDown's)
        self.cases.record(self.name(test), *_status(None, self.channel))

    def addFailure(self, test, err) -> None:
        self.cases.record(self.name(test), *_status(err[1], self.channel, self.cases.source))

    def addError(self, test, err) -> None:
        self.cases.record(self.name(test), *_status(err[1], self.channel, self.cases.source))

    def addSubTest(self, test, subtest, err) -> None:
        if err is not None:
            self.cases.record(self.name(test), *_status(err[1], self.channel, self.cases.source))

    def addSkip(self, test, reason) -> None:
        self.cases.record(self.name(test), SKIPPED, clip(str(reason), 200))

    def addExpectedFailure(self, test, err) -> None:
        self.cases.record(self.name(test), SKIPPED, "an expected failure")

    def addUnexpectedSuccess(self, test) -> None:
        self.cases.record(self.name(test), "failed", "an expected failure passed")

    def addDuration(self, test, elapsed) -> None:
        pass

    def wasSuccessful(self) -> bool:
        return all(case[0] == "passed" for case in self.cases.cases.values())

    def stop(self) -> None:
        self.shouldStop = True


def _each_test(suite):
    """The test methods of a ``unittest`` suite, in the order they run."""
    for test in suite:
        if hasattr(test, "_tests"):
            yield from _each_test(test)
        else:
            yield test


def run_unittest(module: types.ModuleType, cases: Cases, channel: Channel) -> None:
    """Run the ``unittest.TestCase`` classes of the test file ``module`` (executed already:
    ``asserts.run_test``), recording its cases."""
    import unittest

    sys.modules[TEST_MODULE] = module
    try:
        suite = unittest.defaultTestLoader.loadTestsFromModule(module)
        for test in _each_test(suite):
            cases.expect(_UnittestRecorder.name(test))
        suite.run(_UnittestRecorder(cases, channel))  # type: ignore[arg-type]  # (a TestResult by what it does)
    finally:
        sys.modules.pop(TEST_MODULE, None)


def outcome(cases: Cases, channel: Channel) -> tuple[str, str, str, list[list[str]]]:
    """``(status, message, score, cases)`` of the file: passed when every case that was not
    skipped passed (and there is one); else the first case's that did not, and the share that
    passed as its score. A case the run never finished fails."""
    listed = [[name, status, message] if status != NOT_RUN else [name, "failed", "it did not run to its end"]
              for name, (status, message) in cases.cases.items()]
    counted = [case for case in listed if case[1] != SKIPPED]
    if not counted:
        if channel.outcome is not None:
            return channel.outcome[0], channel.outcome[1], "", listed
        if listed:
            return "failed", "every case of the test file was skipped", "", listed
        return "runtime_error", cases.error or "the test file has no test", "", []
    passed = sum(status == "passed" for _, status, _ in counted)
    if passed == len(counted):
        return "passed", "", "", listed
    first = next(case for case in counted if case[1] != "passed")
    return first[1], clip(f"{first[0]}: {first[2]}", MESSAGE_LIMIT), repr(passed / len(counted)), listed


def cases_text(listed: list[list[str]]) -> str:
    """The cases of a file as the ``cases`` field of its verdict record: a JSON array of
    ``[name, status, message]``, the first ``CASES_LIMIT``."""
    return "[" + ", ".join("[" + ", ".join(_encode_str(part) for part in case) + "]"
                           for case in listed[:CASES_LIMIT]) + "]" if listed else ""
