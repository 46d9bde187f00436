"""The sandbox's data types: test cases, limits, jobs, verdicts, and its errors.

Formats follow docs/task-format.md (the project's public data contract). Program failures are
data (a ``Verdict``); infrastructure failures are errors (``SandboxError``), turned into a
``sandbox_error`` verdict for the one job only after retries.
"""

from __future__ import annotations

import difflib
import functools
import math
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from sandbox.inside.guard import FILE_KINDS
from sandbox.inside.languages import LANGUAGES
from sandbox.inside.passrate import credit, pass_rate
from sandbox.inside.records import FLAGS

if TYPE_CHECKING:
    from sandbox.inside.messages import CallTestWire, LimitsWire, RunReply, RunRequest, TestWire

TEST_KINDS = ("assert", "stdio", "call", "pytest", "unittest")
_RESERVED_MODULES = frozenset(sys.stdlib_module_names) | {"pytest", "_pytest", "pluggy", "main"}  # not a program
REPLY_SLACK_S = 30.0  # seconds a runner may take past a job's budget: a checker's time, killing and cleaning up
COMPARE_MODES = ("tokens", "lines", "exact")
# Who may see a test: ``public`` tests may be shown to the model (in its prompt, or as feedback on its
# program); ``hidden`` ones (the default) never are. A host-side label: it never reaches the runner.
VISIBILITIES = ("public", "hidden")
# ``checker_error``: the task's checker raised or ran out of time on a test (the task's fault, never the
# program's): the verdict has no pass rate, as for ``sandbox_error``. Checkers run in the judge.
TEST_STATUSES = ("passed", "failed", "runtime_error", "timeout", "memory_limit", "output_limit", "checker_error")
PROGRAM_STATUSES = ("compile_error", "no_code", "sandbox_error")
STATUSES = TEST_STATUSES + PROGRAM_STATUSES


class SandboxError(Exception):
    """The sandbox infrastructure failed (never the program's fault)."""


class DockerUnavailable(SandboxError):
    """The Docker daemon cannot be reached."""


class ImageMissing(SandboxError):
    """The sandbox image for this version of the runner is not built."""


class SandboxFault(SandboxError):
    """One container failed while running a job (it died, hung, or answered garbage); retried.

    Attributes:
        started: whether the job's program had started when it happened (a reply from the runner
            says so; a container that died or hung while the job was its oldest in flight was
            running it). A fault that recurs on fresh containers every time after the program
            started is the program's (``sandbox.executor``).
        flags: what the monitor saw until the fault (the runner's report).
    """

    def __init__(self, message: str, started: bool = False, flags: tuple[str, ...] = ()):
        super().__init__(message)
        self.started, self.flags = started, flags


@functools.lru_cache(maxsize=8192)
def unjudgeable(code: str, test_setup: str | None = None, entry_point: str | None = None, kind: str = "assert",
                module: str = "solution") -> str | None:
    """Why the judge cannot run an ``assert`` test whose code is ``code`` (after ``test_setup``),
    or a ``pytest`` or ``unittest`` test file, or None if it can: the code does not compile, or it
    needs what cannot cross to the program's process (``sandbox.inside.guard.plan_assert``,
    ``plan_file``). No test is ever judged in the program's process."""
    from sandbox.inside.guard import plan_assert, plan_file, setup_names

    try:
        names = setup_names(test_setup) if test_setup else frozenset()
    except (SyntaxError, ValueError, RecursionError):
        names = frozenset()  # a broken setup fails every test when it runs (``tasks validate`` says so)
    try:
        planned = plan_assert(code, names, entry_point) if kind == "assert" else \
            plan_file(kind, code, module, names, entry_point)
    except (SyntaxError, ValueError, RecursionError) as e:
        return f"the test code does not compile: {e}"
    return planned if isinstance(planned, str) else None


class FieldError(ValueError):
    """A value the sandbox refuses, with the field it is in.

    Attributes:
        field: ``language``, ``compare``, ``tests[2].kind``, ``time_limit_s``, ...; None when no
            one field is at fault. A caller that read the value from its own file (a task suite)
            names that field in its own message.
    """

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def _require(condition: bool, message: str, field: str | None = None) -> None:
    if not condition:
        raise FieldError(message, field)


class _NoValue:
    """The ``expected`` of a test that states none (a ``call`` test must state one)."""

    def __repr__(self) -> str:
        return "NO_EXPECTED"


NO_EXPECTED: Any = _NoValue()


@dataclass(frozen=True)
class TestCase:
    """One check of a program; each test case is one unit of reward.

    Kinds (docs/task-format.md):
        ``assert``: ``code`` holds Python statements run after the program in a fresh process;
            passes only when they ran to their end.
        ``stdio``: the program reads ``stdin``; its stdout is compared with ``expected_stdout``.
        ``call``: the harness calls ``fn_name(*args, **kwargs)``; the value, serialized out of
            the program's process, must have the same JSON type and value as ``expected``
            (required: ``None`` is a value a function returns, never "no value"); a float in it
            may differ from ``expected``'s by ``atol + rtol * |expected|`` (default 0: exact).
        ``pytest``, ``unittest``: ``code`` is a test file (KodCode's pytest files, BigCodeBench's
            ``unittest.TestCase`` classes) that imports the program as ``module`` (default
            ``solution``) or uses its names directly; the judge runs it with the format's own
            runner against one process of the program's, and each test function or method is a
            case of its own: the test's credit is the share of its cases that passed
            (``TestResult.cases``).

    ``visibility`` (``public`` or ``hidden``, the default) says whether the test may be shown to the
    model; it changes nothing in how the test runs and is not sent to the runner (``Job.to_wire``).
    """

    __test__ = False  # not a pytest class

    kind: str
    code: str | None = None
    stdin: str = ""
    expected_stdout: str | None = None
    fn_name: str | None = None
    args: list = field(default_factory=list)
    kwargs: dict = field(default_factory=dict)
    expected: Any = NO_EXPECTED
    visibility: str = "hidden"
    atol: float = 0.0
    rtol: float = 0.0
    module: str = "solution"

    def __post_init__(self) -> None:
        _require(self.kind in TEST_KINDS, f"kind must be one of {', '.join(TEST_KINDS)}, got {self.kind!r}")
        _require(self.visibility in VISIBILITIES,
                 f"visibility must be one of {', '.join(VISIBILITIES)}, got {self.visibility!r}")
        if self.kind == "assert":
            _require(isinstance(self.code, str) and self.code.strip() != "",
                     "an assert test needs 'code': Python statements, e.g. \"assert add(1, 2) == 3\"")
        elif self.kind in FILE_KINDS:
            _require(isinstance(self.code, str) and self.code.strip() != "",
                     f"a {self.kind} test needs 'code': the test file's text")
            _require(isinstance(self.module, str) and self.module.isidentifier()
                     and self.module not in _RESERVED_MODULES,
                     f"'module' must be the name the test file imports the program as (one identifier, not a "
                     f"standard module's nor pytest's), got {self.module!r}")
        elif self.kind == "stdio":
            _require(isinstance(self.stdin, str), "'stdin' must be a string")
            _require(isinstance(self.expected_stdout, str), "a stdio test needs 'expected_stdout' (a string)")
        else:
            _require(isinstance(self.fn_name, str) and self.fn_name.isidentifier(),
                     "a call test needs 'fn_name': the name of the function to call")
            _require(isinstance(self.args, list), "'args' must be a JSON list")
            _require(isinstance(self.kwargs, dict), "'kwargs' must be a JSON object")
            _require(self.expected is not NO_EXPECTED,
                     "a call test needs 'expected': the value the call must return (write null where None is "
                     "the right answer; a test that states none would pay a function that does nothing)")
        for name in ("atol", "rtol"):
            value = getattr(self, name)
            _require(type(value) in (int, float) and math.isfinite(value) and value >= 0,
                     f"'{name}' must be a number >= 0, got {value!r}")
            _require(value == 0 or self.kind == "call",
                     f"'{name}' is a call test's tolerance of floats; {self.kind} tests take none")
            object.__setattr__(self, name, float(value))
        if self.expected is NO_EXPECTED:  # assert and stdio tests state no value here
            object.__setattr__(self, "expected", None)

    @classmethod
    def from_dict(cls, data: dict) -> TestCase:
        """Build from the docs/task-format.md form; raises ValueError naming the bad field."""
        _require(isinstance(data, dict), f"a test case must be a JSON object, got {type(data).__name__}")
        known = {"kind", "code", "stdin", "expected_stdout", "fn_name", "args", "kwargs", "expected", "visibility",
                 "atol", "rtol", "module"}
        for name in sorted(set(data) - known):
            close = difflib.get_close_matches(name, sorted(known), n=1)
            raise ValueError(f"unknown test case field {name!r}" + (f" (did you mean {close[0]!r}?)" if close else
                             f"; known: {', '.join(sorted(known))}"))
        _require("kind" in data, f"a test case needs 'kind' ({', '.join(TEST_KINDS)})")
        return cls(**data)

    def to_dict(self) -> dict:
        """The docs/task-format.md form (only the fields of this kind; ``visibility`` when public)."""
        d: dict[str, Any] = {**self.check_dict()}
        if self.visibility != "hidden":
            d["visibility"] = self.visibility
        return d

    def check_dict(self) -> TestWire:
        """What the test checks, without its visibility: the fields of its kind (the runner's form;
        ``__post_init__`` made sure each is there)."""
        if self.kind == "assert":
            return {"kind": "assert", "code": cast(str, self.code)}
        if self.kind in FILE_KINDS:
            return {"kind": cast(Literal["pytest", "unittest"], self.kind), "code": cast(str, self.code),
                    "module": self.module}
        if self.kind == "stdio":
            return {"kind": "stdio", "stdin": self.stdin, "expected_stdout": cast(str, self.expected_stdout)}
        call: CallTestWire = {"kind": "call", "fn_name": cast(str, self.fn_name), "args": self.args,
                              "kwargs": self.kwargs, "expected": self.expected}
        if self.atol:
            call["atol"] = self.atol
        if self.rtol:
            call["rtol"] = self.rtol
        return call


@dataclass(frozen=True)
class Limits:
    """Resource limits of one program's test processes.

    Attributes:
        time_limit_s: CPU seconds per test case.
        memory_limit_mb: MiB per process: its address space (C, C++, Rust; on top of the runner's
            own mappings for forked Python tests), or, for runtimes that reserve far more address
            space than they use (Java, Go, JavaScript, TypeScript), its heap (``-Xmx``,
            ``--max-old-space-size``, ``GOMEMLIMIT``) and the resident memory of the test's
            processes, which may exceed it by the runtime's own footprint
            (``sandbox.inside.languages``).
        output_limit_bytes: stdout + stderr per test case.
        file_size_limit_mb: largest file a test process may write, MiB.
        compile_time_limit_s: CPU seconds for compiling (every language but Python), the
            compiler's processes together.
        wall_time_limit_s: wall-clock seconds per test case; by default ``3 * time_limit_s + 1``,
            a floor generous enough that a busy host never turns a correct program into a timeout.
    """

    time_limit_s: float = 2.0
    memory_limit_mb: int = 256
    output_limit_bytes: int = 1 << 20
    file_size_limit_mb: int = 16
    compile_time_limit_s: float = 20.0
    wall_time_limit_s: float | None = None

    def __post_init__(self) -> None:
        _require(self.time_limit_s > 0 and math.isfinite(self.time_limit_s), "time_limit_s must be > 0", "time_limit_s")
        _require(self.memory_limit_mb >= 16, "memory_limit_mb must be at least 16", "memory_limit_mb")
        _require(self.output_limit_bytes >= 1024, "output_limit_bytes must be at least 1024", "output_limit_bytes")
        _require(self.file_size_limit_mb >= 1, "file_size_limit_mb must be at least 1", "file_size_limit_mb")
        if self.wall_time_limit_s is None:
            object.__setattr__(self, "wall_time_limit_s", 3 * self.time_limit_s + 1)
        _require(cast(float, self.wall_time_limit_s) >= self.time_limit_s, "wall_time_limit_s must be >= time_limit_s",
                 "wall_time_limit_s")

    def to_dict(self) -> LimitsWire:
        """The per-test limits as JSON-ready data, as the runner takes them (no whole-job budget)."""
        return {
            "time_limit_s": self.time_limit_s,
            "memory_limit_mb": self.memory_limit_mb,
            "output_limit_bytes": self.output_limit_bytes,
            "file_size_limit_mb": self.file_size_limit_mb,
            "compile_time_limit_s": self.compile_time_limit_s,
            "wall_time_limit_s": cast(float, self.wall_time_limit_s),  # set in __post_init__
        }

    def job_budget_s(self, n_tests: int) -> float:
        """The wall-clock seconds the runner may spend on one job, every restart of a resident
        included: it stops running tests when they are spent (the rest are ``timeout``). In any
        language: a runtime's start-up adds up to ``3 * startup_s`` per test."""
        wall = cast(float, self.wall_time_limit_s)  # set in __post_init__
        startup_s = max(language.startup_s for language in LANGUAGES.values())
        return self.compile_time_limit_s * 2 + 5 + n_tests * (wall + 3 * startup_s + 1)

    def worst_case_s(self, n_tests: int) -> float:
        """How long the host waits for a job's verdict: the runner's budget, one more test's wall
        time and a task checker's (a test started just before the budget ran out), and the clean-up
        after it (``REPLY_SLACK_S``). Past it, the container is at fault."""
        return self.job_budget_s(n_tests) + 2 * cast(float, self.wall_time_limit_s) + REPLY_SLACK_S


@dataclass(frozen=True)
class Job:
    """A program and its tests, to run in the sandbox.

    Attributes:
        program: full source code.
        tests: the test cases; each runs in a fresh process.
        language: a key of ``sandbox.inside.languages.LANGUAGES``.
        limits: resource limits.
        compare: stdio comparison: ``tokens``, ``lines`` or ``exact``.
        float_tolerance: abs/rel tolerance of float tokens under ``tokens``.
        test_setup: Python code the judge runs once before the job's ``assert`` tests, such as the
            helpers the task's prompt defines and the imports of its prelude; it never reaches
            the program's process, and the tests may use what it defines.
        checker: Python code defining ``check(input, output, expected) -> bool | float``: the
            judge calls it on each ``stdio`` test's input, the program's output and the expected
            output, instead of comparing them (a problem with several right answers). True or 1
            passes, False or 0 fails, a float in between is partial credit (the test's ``score``);
            a checker that raises, runs out of time or answers anything else is the task's fault
            (``checker_error``). It never reaches the program's process.
        job_id: free text for logs (often the task id, which the completions of a group share);
            never used to match a reply to its job (each submission gets its own identity).
        capture_output: also return each ``stdio`` test's raw output (``TestResult.output``:
            stdout whole up to the output limit, the tail of stderr, the exit status, each cut
            flagged), for a caller that judges the output itself (the SandboxFusion-compatible
            ``/run_code`` of ``grpo-code serve``). An option of the request, not of the task
            format; the test's status is decided as without it.
        allow_non_finite: a ``call`` or ``assert`` test passes a returned value that holds NaN
            (anywhere: a float, a complex's part, a set's member, a dict's key); by default such a
            value fails the test, flagged ``non_finite`` (a NaN passes a tolerance written as
            ``not abs(got - want) > eps``). An infinity is a number like any other.
        entry_point: the function the task is about (a Python identifier), where there is one:
            an ``assert`` test's use of that name is the program's even where it is a builtin's
            (a function named ``max`` or ``pow``, ``check(pow)``), as where the test runs in the
            program's namespace.
    """

    program: str
    tests: tuple[TestCase, ...]
    language: str = "python"
    limits: Limits = field(default_factory=Limits)
    compare: str = "tokens"
    float_tolerance: float = 1e-6
    test_setup: str | None = None
    checker: str | None = None
    job_id: str = ""
    capture_output: bool = False
    allow_non_finite: bool = False
    entry_point: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "tests", tuple(self.tests))
        _require(self.entry_point is None or (isinstance(self.entry_point, str) and self.entry_point.isidentifier()),
                 f"entry_point must be a Python identifier, got {self.entry_point!r}", "entry_point")
        _require(self.language in LANGUAGES,
                 f"unknown language {self.language!r}; the sandbox runs {', '.join(LANGUAGES)}", "language")
        supported = LANGUAGES[self.language].test_kinds
        for i, test in enumerate(self.tests):
            _require(test.kind in supported,
                     f"{self.language} programs take {', '.join(supported)} tests, not {test.kind!r}",
                     f"tests[{i}].kind")
            _require(test.kind != "call" or self.language == "python" or not test.kwargs,
                     f"{self.language} functions take positional arguments only: put them in 'args', not 'kwargs'",
                     f"tests[{i}].kwargs")
        _require(self.compare in COMPARE_MODES,
                 f"compare must be one of {', '.join(COMPARE_MODES)}, got {self.compare!r}", "compare")
        _require(self.float_tolerance >= 0, f"float_tolerance must be >= 0, got {self.float_tolerance}",
                 "float_tolerance")
        _require(len(self.tests) > 0, "at least one test case is needed", "tests")
        _require(self.checker is None or any(t.kind == "stdio" for t in self.tests),
                 "a checker judges stdio tests, and there are none", "checker")
        for i, test in enumerate(self.tests):
            why = unjudgeable(cast(str, test.code), self.test_setup, self.entry_point, test.kind, test.module) \
                if test.kind == "assert" or test.kind in FILE_KINDS else None
            _require(why is None, f"tests[{i}]: the judge cannot run this {test.kind} test: {why}", f"tests[{i}]")

    @classmethod
    def from_dict(cls, data: dict) -> Job:
        """Build from JSON: ``program``, ``tests`` (docs/task-format.md test cases), and optionally
        ``language``, ``limits`` (``Limits`` fields), ``compare``, ``float_tolerance``,
        ``test_setup``, ``checker``, ``job_id``, ``capture_output``, ``allow_non_finite``,
        ``entry_point``. Raises
        ValueError naming the
        bad field (``tests[2]: ...``, ``limits: ...``)."""
        _require(isinstance(data, dict), f"a job must be a JSON object, got {type(data).__name__}")
        known = {"program", "tests", "language", "limits", "compare", "float_tolerance", "test_setup", "checker",
                 "job_id", "capture_output", "allow_non_finite", "entry_point"}
        for name in sorted(set(data) - known):
            close = difflib.get_close_matches(name, sorted(known), n=1)
            raise ValueError(f"unknown job field {name!r}" + (f" (did you mean {close[0]!r}?)" if close else
                             f"; known: {', '.join(sorted(known))}"))
        _require(isinstance(data.get("program"), str), "'program' must be a string (the program's source)")
        tests = data.get("tests")
        if not isinstance(tests, list):
            raise ValueError("'tests' must be a JSON list of test cases")
        parsed = []
        for i, test in enumerate(tests):
            try:
                parsed.append(TestCase.from_dict(test))
            except (TypeError, ValueError) as e:
                raise ValueError(f"tests[{i}]: {e}") from None
        limits = data.get("limits", {})
        _require(isinstance(limits, dict), "'limits' must be a JSON object of Limits fields")
        unknown = sorted(set(limits) - set(Limits.__dataclass_fields__))
        _require(not unknown, f"limits: unknown field {unknown[0] if unknown else ''!r}; known: "
                              f"{', '.join(Limits.__dataclass_fields__)}")
        for name, value in limits.items():
            _require(type(value) in (int, float) or (value is None and name == "wall_time_limit_s"),
                     f"limits: {name!r} must be a number")
        try:
            parsed_limits = Limits(**limits)
        except (TypeError, ValueError) as e:
            raise ValueError(f"limits: {e}") from None
        for name, kind in (("language", str), ("compare", str), ("job_id", str), ("capture_output", bool),
                           ("allow_non_finite", bool)):
            _require(name not in data or type(data[name]) is kind, f"{name!r} must be a {kind.__name__}")
        for name in ("test_setup", "checker", "entry_point"):
            _require(data.get(name) is None or isinstance(data[name], str), f"{name!r} must be a string or null")
        _require(type(data.get("float_tolerance", 0.0)) in (int, float), "'float_tolerance' must be a number")
        return cls(program=data["program"], tests=tuple(parsed), language=data.get("language", "python"),
                   limits=parsed_limits, compare=data.get("compare", "tokens"),
                   float_tolerance=float(data.get("float_tolerance", 1e-6)), test_setup=data.get("test_setup"),
                   checker=data.get("checker"), job_id=data.get("job_id", ""),
                   capture_output=data.get("capture_output", False),
                   allow_non_finite=data.get("allow_non_finite", False), entry_point=data.get("entry_point"))

    def to_wire(self, submission_id: str) -> RunRequest:
        """The request the in-container runner reads (see ``sandbox.inside.runner.serve``); its ``id`` is
        ``submission_id``, unique to this submission, which the runner's reply carries back."""
        tests = []
        for t in self.tests:
            d = t.check_dict()
            if d["kind"] == "stdio" and self.capture_output:
                d["capture"] = True
            tests.append(d)
        return {"op": "run", "id": submission_id, "language": self.language, "program": self.program,
                "tests": tests, "limits": self.limits.to_dict(), "compare": self.compare,
                "float_tolerance": self.float_tolerance, "test_setup": self.test_setup, "checker": self.checker,
                "allow_non_finite": self.allow_non_finite, "budget_s": self.limits.job_budget_s(len(tests)),
                "entry_point": self.entry_point}


def _text(value: str) -> str:
    r"""``value`` as text every UTF-8 encoder takes (a tokenizer, a results file): a lone surrogate,
    which a program can put in what it prints or raises (``"\udcff"``) and JSON carries escaped,
    as its ``\udcff`` escape."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    return value


@dataclass(frozen=True)
class CapturedOutput:
    """What a ``stdio`` test's program wrote, for a job with ``capture_output`` (never silently cut).

    Attributes:
        stdout: its stdout (UTF-8, undecodable bytes replaced), whole up to the test's output limit.
        stderr: the last 2 KiB of its stderr.
        stdout_truncated: stdout stopped at the output limit (the test's status is ``output_limit``).
        stderr_truncated: it wrote more stderr than ``stderr`` holds.
        exit_code: its exit status; None when it died by a signal or the sandbox stopped it.
        signal: the signal that ended it; None when it exited or the sandbox stopped it (a limit:
            the test's status says which).
    """

    stdout: str = ""
    stderr: str = ""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    exit_code: int | None = None
    signal: int | None = None

    @classmethod
    def from_wire(cls, data: object) -> CapturedOutput | None:
        """Read the runner's ``output`` of a test strictly: None unless every field has its type."""
        if not isinstance(data, dict):
            return None
        stdout, stderr = data.get("stdout"), data.get("stderr")
        stdout_cut, stderr_cut = data.get("stdout_truncated"), data.get("stderr_truncated")
        exit_code, signal = data.get("exit_code"), data.get("signal")
        if not (type(stdout) is str and type(stderr) is str and type(stdout_cut) is bool
                and type(stderr_cut) is bool and all(c is None or type(c) is int for c in (exit_code, signal))):
            return None
        return cls(_text(stdout), _text(stderr), stdout_cut, stderr_cut, exit_code, signal)

    def to_dict(self) -> dict:
        """The captured output as JSON-ready data (the keys of the results files)."""
        return {"stdout": self.stdout, "stderr": self.stderr, "stdout_truncated": self.stdout_truncated,
                "stderr_truncated": self.stderr_truncated, "exit_code": self.exit_code, "signal": self.signal}


@dataclass(frozen=True)
class TestResult:
    """The verdict of one test case.

    Attributes:
        status: one of ``TEST_STATUSES``.
        time_s: wall-clock seconds of the test process.
        cpu_time_s: CPU seconds of the test process.
        message: what went wrong, short (empty when passed).
        score: partial credit in (0, 1) of a ``failed`` test: what a task's checker gave, or the
            share of a test file's cases that passed (None: none).
        output: the program's raw output, for a ``stdio`` test of a job with ``capture_output``.
        cases: a ``pytest`` or ``unittest`` test's cases, one per test function or method (a
            parametrized function's each parameter set): ``(name, status, message)`` each.
    """

    __test__ = False  # not a pytest class

    status: str
    time_s: float = 0.0
    cpu_time_s: float = 0.0
    message: str = ""
    score: float | None = None
    output: CapturedOutput | None = None
    cases: tuple[tuple[str, str, str], ...] = ()

    @property
    def credit(self) -> float:
        """What the test adds to the pass rate: 1.0 passed, else a checker's partial ``score`` or 0.0."""
        return 1.0 if self.status == "passed" else credit(self.score) or 0.0  # the rule of ``pass_rate``

    def to_dict(self) -> dict:
        """The test's result as JSON-ready data; empty and missing fields are left out."""
        d = {"status": self.status, "time_s": self.time_s}
        if self.message:
            d["message"] = self.message
        if self.score is not None:
            d["score"] = self.score
        if self.output is not None:
            d["output"] = self.output.to_dict()
        if self.cases:
            d["cases"] = [{"name": name, "status": status, **({"message": message} if message else {})}
                          for name, status, message in self.cases]
        return d


@dataclass(frozen=True)
class Verdict:
    """The result of running one program against its tests.

    Attributes:
        status: ``passed`` when every test passed; else the status of the first test that did
            not pass, or a program-level status (``compile_error``, ``no_code``, ``sandbox_error``)
            standing in place of all tests.
        test_results: per-test results, in the job's order (empty for program-level statuses;
            the key ``tests`` of a results line).
        n_tests: how many test cases the job had.
        compile_output: compiler output (or the Python SyntaxError).
        compile_time_s: seconds spent compiling.
        run_time_s: seconds the runner spent on the job, compile included.
        message: why, for program-level statuses.
        attempts: how many containers the job was tried on.
        flags: what the program attempted against the harness (names of ``FLAGS``), sorted: the
            reward-hacking monitor. Flags never change a verdict by themselves.
    """

    status: str
    test_results: tuple[TestResult, ...] = ()
    n_tests: int = 0
    compile_output: str = ""
    compile_time_s: float = 0.0
    run_time_s: float = 0.0
    message: str = ""
    attempts: int = 1
    flags: tuple[str, ...] = ()

    @property
    def pass_rate(self) -> float | None:
        """Passed tests / tests, in [0, 1], a test a checker gave partial credit counting its
        ``score``; None for ``sandbox_error`` and when a test is ``checker_error`` (neither is the
        program's fault: never a 0 in training)."""
        return pass_rate(self.status, ((t.status, t.score) for t in self.test_results), self.n_tests)

    @property
    def passed(self) -> bool:
        """Whether every test passed (the status ``passed``)."""
        return self.status == "passed"

    @classmethod
    def from_wire(cls, reply: RunReply, n_tests: int, attempts: int = 1) -> Verdict:
        """The verdict of a runner's reply (already checked to answer its submission) to a job of
        ``n_tests`` tests, after ``attempts`` attempts."""
        tests = tuple(TestResult(status=t["status"], time_s=t.get("time_s", 0.0),
                                 cpu_time_s=t.get("cpu_time_s", 0.0), message=_text(t.get("message", "")),
                                 score=credit(t.get("score")), output=CapturedOutput.from_wire(t.get("output")),
                                 cases=tuple((_text(c[0]), c[1], _text(c[2])) for c in t.get("cases", ())))
                      for t in reply.get("tests", ()))
        return cls(status=reply["status"], test_results=tests, n_tests=n_tests,
                   compile_output=_text(reply.get("compile_output", "")),
                   compile_time_s=reply.get("compile_time_s", 0.0),
                   run_time_s=reply.get("run_time_s", 0.0), attempts=attempts,
                   flags=tuple(f for f in reply.get("flags", ()) if f in FLAGS))

    @classmethod
    def program_level(cls, status: str, n_tests: int, message: str, attempts: int = 0,
                      flags: tuple[str, ...] = ()) -> Verdict:
        """A verdict with no test results (``no_code``, ``sandbox_error``, or a program that broke
        its sandbox: ``runtime_error`` flagged ``sandbox_tamper``); ``flags`` kept from the runner."""
        return cls(status=status, n_tests=n_tests, message=message, attempts=attempts,
                   flags=tuple(sorted({f for f in flags if f in FLAGS})))

    def to_dict(self) -> dict:
        """The per-sample fields of a results line (docs/task-format.md)."""
        d = {"status": self.status, "pass_rate": self.pass_rate, "tests": [t.to_dict() for t in self.test_results],
             "flags": list(self.flags)}
        if self.compile_output and self.status == "compile_error":
            d["compile_output"] = self.compile_output
        if self.message:
            d["message"] = self.message
        return d
