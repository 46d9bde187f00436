"""Every message that crosses a process boundary of the sandbox, as one typed definition shared
by its writer and its reader (mypy checks both sides against it).

Stdlib only. Types only: importing this module defines a few classes and runs nothing else (the
fork server loads ``typing`` anyway, for the programs that use it).

Boundaries, and who may be believed:

- host -> runner (``Request``: ``RunRequest``, ``PingRequest``) and runner -> host (``Reply``:
  ``RunReply``, ``FaultReply``, ``PongReply``): one JSON line each way on the container's
  stdin/stdout. The host trusts the runner; the runner trusts the host.
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

from typing import Literal, NotRequired, TypedDict


class LimitsWire(TypedDict):
    """``sandbox.Limits.to_dict``: a job's per-test limits (the runner adds the runtime's start-up)."""

    time_limit_s: float
    memory_limit_mb: int
    output_limit_bytes: int
    file_size_limit_mb: int
    compile_time_limit_s: float
    wall_time_limit_s: float


class AssertTestWire(TypedDict):
    """An ``assert`` test (``sandbox.TestCase.check_dict``): Python statements the judge runs."""

    kind: Literal["assert"]
    code: str


class StdioTestWire(TypedDict):
    """A ``stdio`` test; ``capture`` (sent only as true) asks for its raw output too (``capture``)."""

    kind: Literal["stdio"]
    stdin: str
    expected_stdout: str
    capture: NotRequired[bool]


class CallTestWire(TypedDict):
    """A ``call`` test: ``fn_name(*args, **kwargs)`` must return ``expected``."""

    kind: Literal["call"]
    fn_name: str
    args: list
    kwargs: dict
    expected: object


TestWire = AssertTestWire | StdioTestWire | CallTestWire


class RunRequest(TypedDict):
    """A job (``sandbox.Job.to_wire``); ``id``: the submission's identity, which the reply carries
    back; ``budget_s``: the wall-clock seconds the runner may spend on it, every restart included
    (``sandbox.Limits.job_budget_s``)."""

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


class PingRequest(TypedDict):
    """Whether the runner is up (``sandbox.container.SandboxContainer.start``)."""

    op: Literal["ping"]
    id: str


Request = RunRequest | PingRequest


class CapturedWire(TypedDict):
    """A captured ``stdio`` test's raw output (``capture.captured``; ``sandbox.CapturedOutput``)."""

    stdout: str
    stderr: str
    stdout_truncated: bool
    stderr_truncated: bool
    exit_code: int | None
    signal: int | None


class TestResultWire(TypedDict):
    """One test's result in a ``RunReply`` (``verdict``). ``flags`` never leave the runner: they
    are gathered into the reply's ``flags`` (``jobs.run_job``)."""

    status: str
    time_s: float
    cpu_time_s: float
    message: NotRequired[str]
    flags: NotRequired[list[str]]
    score: NotRequired[float]
    output: NotRequired[CapturedWire]


class RunReply(TypedDict):
    """The runner's verdict on a ``RunRequest`` (``jobs.run_job``). ``residue``: what the job left
    that would not go (``clean.Baseline.restore``; the verdict is flagged ``residue``): the host
    replaces the container, which refuses every later job."""

    id: str | None
    ok: Literal[True]
    tests: list[TestResultWire]
    compile_output: str
    compile_time_s: float
    status: str
    run_time_s: float
    residue: NotRequired[list[str]]
    flags: list[str]


class FaultReply(TypedDict):
    """The runner failed on a job (``error``), or refuses it (a job left the container unclean);
    ``started`` says whether any process of the program's had run by then (the host blames a fault
    that recurs on a fresh container on the program only then), and ``flags`` keeps what the
    monitor saw until the fault."""

    ok: Literal[False]
    id: str | None
    error: str
    started: bool
    flags: list[str]


class PongReply(TypedDict):
    """The answer to a ``PingRequest``: the runner's protocol version (``runner.PROTOCOL``)."""

    ok: Literal[True]
    op: Literal["pong"]
    protocol: int
    id: str | None


Reply = RunReply | FaultReply | PongReply

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
