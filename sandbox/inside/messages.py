"""Every message that crosses a process boundary of the sandbox, as one typed definition shared
by its writer and its reader (mypy checks both sides against it: each is built as a literal of its
type, where it is written).

Stdlib only. Types only: no module imports it but for annotations (``if TYPE_CHECKING``), so it
is never loaded in the container, and a message costs nothing to build (a dict, a tuple).

Boundaries, and who may be believed:

- host -> runner (``Request``: ``RunRequest``, ``PingRequest``) and runner -> host (``Reply``:
  ``RunReply``, ``FaultReply``, ``PongReply``): one JSON line each way on the container's
  stdin/stdout. The host trusts the runner; the runner trusts the host.
- runner -> fork server (``ChildRequest``: ``ExecRequest``, ``PythonRequest``, ``JudgeRequest``,
  each built by ``children``): ``marshal`` with descriptors (``procs.send_message``); the fork
  server adds what ``Forked`` holds and forks; it answers each with the child's pid (4 bytes).
- runner -> zygote (``ZygoteTests``, then ``ZygoteFork`` per test): ``marshal`` on the zygote's
  request socket; the zygote says which pid it forked in a ``ForkedRecord``.
- runner -> judge: a job's judge is forked with the job's tests (``JudgeRequest``, its ``JudgeJob``),
  then takes ``JudgeTest`` and ``JudgeCheck`` as ``marshal`` on its request socket; judge -> runner:
  ``VerdictRecord`` on the judge's result channel.
- the program's processes -> runner: ``ProgramRecord`` lines on a result channel. **Evidence
  only**: a program can write any bytes there, so ``records.read_records`` parses each line
  strictly against these definitions, and nothing in them can say that a test passed: a
  ``call`` test's returned value is the program's answer (compared by the runner), the rest is
  synchronisation (``ready``, ``forked``) and the monitor's flags.
- judge <-> program (``CallFrame`` down; the program's replies up): length-prefixed frames on a
  pair of pipes per test (``judge.remote.Channel`` and ``program.calls``); replies are tagged JSON
  read strictly (``values.decode_value``).

Two kinds of limits, two names: ``LimitsWire`` (``limits`` of a ``RunRequest``) are a job's
per-test limits as the host states them (CPU seconds, MiB); ``ChildLimits`` (``rlimits`` of a
``ChildRequest``) are the rlimits one forked process gets (bytes, CPU seconds), which the runner
derives from them (``children.child_rlimits``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

if TYPE_CHECKING:
    from types import CodeType

# -- host <-> runner: one JSON object per line ------------------------------------------------------


class LimitsWire(TypedDict):
    """``sandbox.Limits.to_dict``: a job's per-test limits (the runtime's start-up added by the
    runner: ``children.language_limits``)."""

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
    """A ``call`` test: ``fn_name(*args, **kwargs)`` must return ``expected``; a float in it within
    ``atol + rtol * |expected|`` (each sent only when not 0: ``compare.json_equal``)."""

    kind: Literal["call"]
    fn_name: str
    args: list
    kwargs: dict
    expected: object
    atol: NotRequired[float]
    rtol: NotRequired[float]


class FileTestWire(TypedDict):
    """A ``pytest`` or ``unittest`` test: a test file the judge runs with the format's own runner,
    the program importable as ``module``; each test function or method a case of its own."""

    kind: Literal["pytest", "unittest"]
    code: str
    module: str


TestWire = AssertTestWire | StdioTestWire | CallTestWire | FileTestWire


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
    entry_point: NotRequired[str | None]


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
    cases: NotRequired[list[tuple[str, str, str]]]


class RunReply(TypedDict):
    """The runner's verdict on a ``RunRequest`` (``jobs.run_job``). ``residue``: what the job left
    that would not go (``clean.Baseline.restore``; the verdict is flagged ``residue``): the host
    replaces the container, which refuses every later job. ``recycle``: the container is clean but
    a job moved a counter that cannot be set back in place (``counters.Counters.moved``): the host
    replaces it too, and the verdict is not flagged."""

    id: str | None
    ok: Literal[True]
    tests: list[TestResultWire]
    compile_output: str
    compile_time_s: float
    status: str
    run_time_s: float
    residue: NotRequired[list[str]]
    recycle: NotRequired[str]
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

# -- runner -> fork server: marshal, with the child's descriptors ----------------------------------


class ChildLimits(TypedDict):
    """rlimits of a forked child (``procs.setup_child``): ``cpu_s`` CPU seconds (absent: none; the
    judge's), ``fsize_bytes`` the largest file it may write, ``as_bytes`` its address space (0 or
    absent: none). ``memory_bytes``: the address space a forked Python child may add to the fork
    server's own, which the fork server turns into ``as_bytes``; it notes its own size as
    ``own_bytes``. ``umask``: the file mode mask (absent: 0o077; 0 in a job with test files, whose
    folders the test and the program share: ``judge.files``)."""

    cpu_s: NotRequired[float]
    fsize_bytes: int
    as_bytes: NotRequired[int]
    memory_bytes: NotRequired[int]
    own_bytes: NotRequired[int]
    umask: NotRequired[int]


class Forked(TypedDict, total=False):
    """What the fork server adds to every request before it forks (``forkserver.serve``): the
    child's stdin, stdout, stderr and result ends, where its result channel goes, and, for a
    resident, its request channel (``ctl_fd``); ``extra_fds`` maps each further target descriptor
    to the one received (a resident's request channel, a serving process's call channels)."""

    fds: tuple[int, int, int, int]
    result_fd: int
    ctl_fd: int
    extra_fds: dict[int, int]


class ExecRequest(Forked):
    """Run a command (a compiler, a compiled program, a driver) in a child of the program's
    user (``program.child.child_main``); ``result_fd_env`` names the environment variable that
    tells a driver its result channel."""

    mode: Literal["exec"]
    argv: list[str]
    env: dict[str, str]
    workdir: str
    rlimits: ChildLimits
    result_fd_env: NotRequired[str]


class CallVisible(TypedDict):
    """What a process of the program's sees of a ``call`` test: never its expected value."""

    fn_name: str
    args: list
    kwargs: dict


class PythonRequest(Forked):
    """Run the program's ``code`` in a child of the program's user (``program.child.child_main``):
    ``python`` mode then one test of ``kind`` ``stdio``, ``call`` (``test``) or ``serve`` (the
    judge's calls); ``zygote`` mode (kind ``zygote``) then a test process per request."""

    mode: Literal["python", "zygote"]
    kind: Literal["stdio", "call", "serve", "zygote"]
    test: CallVisible | None
    nonce: str
    code: CodeType
    workdir: str
    rlimits: ChildLimits


class SpareRequest(Forked):
    """Make a Python child ready for the next job ahead of it (``program.child``): the program's
    user, in the next job's folder ``workdir``, its streams and monitor set up; it waits on its
    request channel for the ``PythonRequest`` of the job's first process (``forkclient.Spare``).
    ``rlimits``: what it holds until then (the job's own come with the request)."""

    mode: Literal["spare"]
    workdir: str
    rlimits: ChildLimits


class JudgeRequest(Forked):
    """Start a job's judge (``judge.main.judge_main``), a user of its own, in ``workdir``, with the
    job's tests (``job``): it judges that job and nothing else, and is gone at the job's end."""

    mode: Literal["judge"]
    workdir: str
    rlimits: ChildLimits
    job: JudgeJob


ChildRequest = ExecRequest | PythonRequest | SpareRequest | JudgeRequest

# -- runner -> zygote: marshal on its request socket -----------------------------------------------

ZygoteTests = list[tuple[Literal["call"], CallVisible]]
"""A zygote's first message: the job's ``call`` tests (``program.zygote.serve_tests``); a request
names one by its place."""
ZygoteFork = tuple[str, int]
"""``(nonce, index)``: fork a test process for ``call`` test ``index``; or, with ``index`` -1 and a
call and a reply channel as descriptors, one that serves the judge's calls."""

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
    cases: str


ProgramRecord = ReadyRecord | ForkedRecord | FlagRecord | ReturnedRecord | RaisedRecord | NotPlainRecord
Record = ProgramRecord | VerdictRecord

# -- runner -> judge: marshal on its request socket ------------------------------------------------

JudgedAssert = tuple["CodeType", tuple[str, ...], tuple[str, ...], str, tuple[str, ...]]
JudgedFile = tuple[str, "CodeType", tuple[str, ...], tuple[str, ...], str, tuple[str, ...], str]
JudgedTest = JudgedAssert | JudgedFile
"""A compiled ``assert`` test (``guard.plan_assert``): code object, the program's names, standard
modules to import, source, the program's names it catches or checks classes against; or a test
file (``guard.plan_file``): its kind (``pytest`` or ``unittest``), then as an ``assert`` test, then
the module name it imports the program as."""
JudgeJob = tuple[str | None, list[JudgedTest], int, str | None, bool, str | None, frozenset[str]]
"""A job's test setup (source), its judged tests, the judge's memory bytes, the task's checker,
whether the task allows answers that hold NaN (else they fail, flagged ``non_finite``), for a
job with test files its folder (the program's, shared with the test: ``judge.files``), and the
names the program loads as globals and never binds at its top level (``guard.program_reads``: the
only names under which a definition of the test's may reach it, ``judge.environment``): what a
job's judge is forked with (``JudgeRequest``)."""
JudgeTest = tuple[Literal["test"], str, int]
"""Run judged test ``index`` for ``nonce``, with the call and reply pipe ends as descriptors."""
JudgeCheck = tuple[Literal["check"], str, str, str, str]
"""Run the checker for ``nonce`` on ``(input, output, expected)``."""
JudgeMessage = JudgeTest | JudgeCheck

# -- judge <-> program: length-prefixed frames on a test's call and reply pipes --------------------

Crossing = tuple[bool, Any]
"""A value on its way to the program (``judge.send.Sender.crossing``): ``(marked, data)``; where
``marked``, what ``marshal`` cannot carry as itself inside ``data`` is marked (``procs.REF_MARK``)."""
CallFrame = (tuple[Literal["op"], int, str, tuple, Crossing, tuple[int, ...], Crossing | None, tuple | None]
             | tuple[Literal["ret", "item"], int, Crossing] | tuple[Literal["stop"], int]
             | tuple[Literal["raise"], int, Crossing])
"""Judge -> program, ``marshal`` (version 4): ``("op", seq, op, ref, payload, forgotten, updates,
env)`` has the program's process do ``op`` to its object ``ref``, after letting go of the handles
and shared containers the test no longer holds (``forgotten``: their objects may be freed, and
their ``__del__`` run, as in one process), making the containers it keeps hold what the test's hold
and its copies of the test's data objects hold what the test's code changed of them (``updates``),
and with what the test set for its process (``env``: ``judge.environment``);
``("ret", seq, value)`` and ``("raise", seq, exception)`` answer a callback or a request to an
object of the test's, ``("item", seq, value)``, ``("stop", seq)`` and ``("raise", ...)`` the next
item of an iterator of the test's (``program.calls``). The replies up are the program's: tagged JSON, read strictly
(``values.decode_value``), never typed here (``[0, "objects", [[number, attributes], ...]]``, before
a callback, says what the program changed of its copies of the test's data objects)."""
