"""Every message that crosses a process boundary of the sandbox, as one typed definition shared
by its writer and its reader (mypy checks both sides against it).

Stdlib only. Types only: importing this module defines a few classes and runs nothing else (the
fork server loads ``typing`` anyway, for the programs that use it).

Boundaries, and who may be believed:

- host -> runner (``RunRequest``) and runner -> host (``RunReply``): one JSON line each way on
  the container's stdin/stdout. The host trusts the runner; the runner trusts the host.
- runner -> fork server (``ChildRequest``): ``marshal`` with descriptors (``procs.send_message``);
  the fork server answers each with the child's pid (4 bytes).
- runner -> judge (``JudgeJob``, ``JudgeTest``, ``JudgeCheck``): ``marshal`` on the judge's
  request socket; judge -> runner: ``VerdictRecord`` on the judge's result channel.
- the program's processes -> runner: ``ProgramRecord`` lines on a result channel. **Evidence
  only**: a program can write any bytes there, so ``records.read_records`` parses each line
  strictly against these definitions, and nothing in them can say that a test passed: a
  ``call`` test's returned value is the program's answer (compared by the runner), the rest is
  synchronisation (``ready``, ``forked``) and the monitor's flags.
- judge <-> program (``CallFrame`` and ``ReplyFrame``): length-prefixed frames on a pair of pipes
  per test (``judge.remote.Channel`` and ``program.calls``); replies are tagged JSON read strictly
  (``values.decode_value``).
"""

from __future__ import annotations

from typing import Literal, TypedDict


class LimitsWire(TypedDict):
    """``sandbox.Limits.to_dict``: per-test limits of a job."""

    time_limit_s: float
    memory_limit_mb: int
    output_limit_bytes: int
    file_size_limit_mb: int
    compile_time_limit_s: float
    wall_time_limit_s: float


class TestWire(TypedDict, total=False):
    """``sandbox.TestCase.to_dict`` (and ``stdin`` for every ``stdio`` test)."""

    kind: str
    code: str
    stdin: str
    expected_stdout: str
    fn_name: str
    args: list
    kwargs: dict
    expected: object


class RunRequest(TypedDict):
    """A job (``sandbox.Job.to_wire``); ``budget_s``: the wall-clock seconds the runner may spend
    on it, every restart included (``sandbox.Limits.job_budget_s``)."""

    op: Literal["run"]
    id: str
    language: str
    program: str
    tests: list[TestWire]
    limits: LimitsWire
    compare: str
    float_tolerance: float
    test_setup: str | None
    checker: str | None
    allow_non_finite: bool
    budget_s: float


class TestResultWire(TypedDict, total=False):
    """One test's result in a ``RunReply``."""

    status: str
    time_s: float
    cpu_time_s: float
    message: str
    flags: list[str]
    score: float


class RunReply(TypedDict, total=False):
    """The runner's answer to a ``RunRequest`` (or to a ping: ``op``/``protocol``).

    ``ok`` false: the runner failed on this job (``error``); ``started`` says whether any process
    of the program's had run by then (the host blames a fault that recurs on a fresh container on
    the program only then), and ``flags`` keeps what the monitor saw until the fault. ``residue``:
    what the job left that would not go (``clean.Baseline.restore``; the verdict is flagged
    ``residue``): the host replaces the container, which refuses every later job.
    """

    id: str | None
    ok: bool
    op: str
    protocol: int
    status: str
    tests: list[TestResultWire]
    compile_output: str
    compile_time_s: float
    run_time_s: float
    flags: list[str]
    residue: list[str]
    error: str
    started: bool


class ChildLimits(TypedDict, total=False):
    """rlimits of a forked child (``procs.setup_child``)."""

    cpu_s: float | None
    as_bytes: int
    memory_bytes: int
    fsize_bytes: int
    own_bytes: int


class ChildRequest(TypedDict, total=False):
    """What the fork server forks a child for (``program.child.child_main``, ``judge.main.judge_main``).

    ``mode``: ``exec`` (``argv``, ``env``), ``python`` (the program's ``code`` object, then one
    test of ``kind`` ``stdio``, ``call`` or ``serve``), ``zygote`` (the program's top level once,
    then a test process per request) or ``judge``. The fork server adds ``fds``, ``result_fd``
    and, for residents, ``ctl_fd`` and ``extra_fds``.
    """

    mode: str
    kind: str
    nonce: str
    workdir: str
    limits: ChildLimits
    code: object
    test: dict
    argv: list[str]
    env: dict[str, str]
    result_fd_env: str
    fds: tuple[int, int, int, int]
    result_fd: int
    ctl_fd: int
    extra_fds: dict[int, int]


# -- records on a result channel: one JSON object per line, ``event`` and ``nonce`` first ------------

class ReadyRecord(TypedDict):
    """A process of the program's ran the program's top level (a zygote, or a process that serves
    the judge's calls). Synchronisation only."""

    event: Literal["ready"]
    nonce: str


class ForkedRecord(TypedDict):
    """A zygote forked the test process ``pid`` for the test of ``nonce``. The runner believes it
    only if ``pid`` turns out to be its own child (``resident.Zygote``)."""

    event: Literal["forked"]
    nonce: str
    pid: int


class FlagRecord(TypedDict):
    """The monitor saw the program attempt ``name`` (one of ``records.FLAGS``)."""

    event: Literal["flag"]
    nonce: str
    name: str


class ReturnedRecord(TypedDict):
    """A ``call`` test's function returned ``value`` (tagged JSON for Python, JSON for JavaScript)."""

    event: Literal["returned"]
    nonce: str
    value: str


class RaisedRecord(TypedDict):
    """A ``call`` test's function raised ``kind`` (a builtin exception's name, ``SystemExit``,
    ``MemoryError``, or ``Exception`` for the program's own) with ``message``."""

    event: Literal["raised"]
    nonce: str
    kind: str
    message: str


class NotPlainRecord(TypedDict):
    """A ``call`` test's function returned what is not plain data (``message`` says what)."""

    event: Literal["not_plain"]
    nonce: str
    message: str


class VerdictRecord(TypedDict):
    """The judge's outcome of one ``assert`` test, or of a checker on a ``stdio`` test's output:
    ``status`` (``passed``, ``failed``, ``runtime_error``, ``memory_limit``, ``program_ended``),
    ``message``, ``calls`` (calls of the program's names), ``flags`` (comma-separated), ``score``
    (a checker's partial credit, as text, or empty)."""

    event: Literal["verdict"]
    nonce: str
    status: str
    message: str
    calls: int
    flags: str
    score: str


ProgramRecord = ReadyRecord | ForkedRecord | FlagRecord | ReturnedRecord | RaisedRecord | NotPlainRecord
Record = ProgramRecord | VerdictRecord

# -- runner -> judge (marshal tuples) ---------------------------------------------------------------

JudgedTest = tuple[object, tuple[str, ...], tuple[str, ...], str, tuple[str, ...]]
"""A compiled ``assert`` test (``guard.plan_assert``): code object, the program's names, standard
modules to import, source, the program's names it catches in an ``except`` clause."""
JudgeJob = tuple[Literal["job"], str | None, list[JudgedTest], int, str | None, bool]
"""A job's test setup (source), its judged tests, the judge's memory bytes, the task's checker,
whether the task allows answers that hold NaN or an infinity (else they fail, flagged ``non_finite``)."""
JudgeTest = tuple[Literal["test"], str, int]
"""Run judged test ``index`` for ``nonce``, with the call and reply pipe ends as descriptors."""
JudgeCheck = tuple[Literal["check"], str, str, str, str]
"""Run the checker for ``nonce`` on ``(input, output, expected)``."""
