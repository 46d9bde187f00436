"""The sandbox's data types: test cases, limits, jobs, verdicts, and its errors.

Formats follow docs/task-format.md (the project's public data contract). Program failures are
data (a ``Verdict``); infrastructure failures are errors (``SandboxError``), turned into a
``sandbox_error`` verdict for the one job only after retries.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from typing import Any, cast

from sandbox.inside.languages import LANGUAGES
from sandbox.inside.records import FLAGS

TEST_KINDS = ("assert", "stdio", "call")
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
    """One container failed while running a job (it died, hung, or answered garbage); retried."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


@dataclass(frozen=True)
class TestCase:
    """One check of a program; each test case is one unit of reward.

    Kinds (docs/task-format.md):
        ``assert``: ``code`` holds Python statements run after the program in a fresh process;
            passes only when they ran to their end.
        ``stdio``: the program reads ``stdin``; its stdout is compared with ``expected_stdout``.
        ``call``: the harness calls ``fn_name(*args, **kwargs)``; the value, serialized out of
            the program's process, must have the same JSON type and value as ``expected``.

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
    expected: Any = None
    visibility: str = "hidden"

    def __post_init__(self) -> None:
        _require(self.kind in TEST_KINDS, f"kind must be one of {', '.join(TEST_KINDS)}, got {self.kind!r}")
        _require(self.visibility in VISIBILITIES,
                 f"visibility must be one of {', '.join(VISIBILITIES)}, got {self.visibility!r}")
        if self.kind == "assert":
            _require(isinstance(self.code, str) and self.code.strip() != "",
                     "an assert test needs 'code': Python statements, e.g. \"assert add(1, 2) == 3\"")
        elif self.kind == "stdio":
            _require(isinstance(self.stdin, str), "'stdin' must be a string")
            _require(isinstance(self.expected_stdout, str), "a stdio test needs 'expected_stdout' (a string)")
        else:
            _require(isinstance(self.fn_name, str) and self.fn_name.isidentifier(),
                     "a call test needs 'fn_name': the name of the function to call")
            _require(isinstance(self.args, list), "'args' must be a JSON list")
            _require(isinstance(self.kwargs, dict), "'kwargs' must be a JSON object")

    @classmethod
    def from_dict(cls, data: dict) -> TestCase:
        """Build from the docs/task-format.md form; raises ValueError naming the bad field."""
        _require(isinstance(data, dict), f"a test case must be a JSON object, got {type(data).__name__}")
        known = {"kind", "code", "stdin", "expected_stdout", "fn_name", "args", "kwargs", "expected", "visibility"}
        for name in sorted(set(data) - known):
            close = difflib.get_close_matches(name, sorted(known), n=1)
            raise ValueError(f"unknown test case field {name!r}" + (f" (did you mean {close[0]!r}?)" if close else
                             f"; known: {', '.join(sorted(known))}"))
        _require("kind" in data, "a test case needs 'kind' (assert, stdio or call)")
        return cls(**data)

    def to_dict(self) -> dict:
        """The docs/task-format.md form (only the fields of this kind; ``visibility`` when public)."""
        d = self.check_dict()
        if self.visibility != "hidden":
            d["visibility"] = self.visibility
        return d

    def check_dict(self) -> dict:
        """What the test checks, without its visibility: the fields of its kind (the runner's form)."""
        if self.kind == "assert":
            return {"kind": "assert", "code": self.code}
        if self.kind == "stdio":
            return {"kind": "stdio", "stdin": self.stdin, "expected_stdout": self.expected_stdout}
        return {"kind": "call", "fn_name": self.fn_name, "args": self.args, "kwargs": self.kwargs,
                "expected": self.expected}


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
        _require(self.time_limit_s > 0 and math.isfinite(self.time_limit_s), "time_limit_s must be > 0")
        _require(self.memory_limit_mb >= 16, "memory_limit_mb must be at least 16")
        _require(self.output_limit_bytes >= 1024, "output_limit_bytes must be at least 1024")
        _require(self.file_size_limit_mb >= 1, "file_size_limit_mb must be at least 1")
        if self.wall_time_limit_s is None:
            object.__setattr__(self, "wall_time_limit_s", 3 * self.time_limit_s + 1)
        _require(cast(float, self.wall_time_limit_s) >= self.time_limit_s, "wall_time_limit_s must be >= time_limit_s")

    def to_dict(self) -> dict:
        return {
            "time_limit_s": self.time_limit_s,
            "memory_limit_mb": self.memory_limit_mb,
            "output_limit_bytes": self.output_limit_bytes,
            "file_size_limit_mb": self.file_size_limit_mb,
            "compile_time_limit_s": self.compile_time_limit_s,
            "wall_time_limit_s": self.wall_time_limit_s,
        }

    def worst_case_s(self, n_tests: int) -> float:
        """Upper bound of the wall-clock seconds one job may take in the container (in any language:
        a runtime's start-up adds up to ``3 * startup_s`` per test)."""
        wall = cast(float, self.wall_time_limit_s)  # set in __post_init__
        startup_s = max(language.startup_s for language in LANGUAGES.values())
        return self.compile_time_limit_s * 2 + 5 + n_tests * (wall + 3 * startup_s + 1)


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

    def __post_init__(self) -> None:
        object.__setattr__(self, "tests", tuple(self.tests))
        _require(self.language in LANGUAGES,
                 f"unknown language {self.language!r}; the sandbox runs {', '.join(LANGUAGES)}")
        supported = LANGUAGES[self.language].test_kinds
        for test in self.tests:
            _require(test.kind in supported,
                     f"{self.language} programs take {', '.join(supported)} tests, not {test.kind!r}")
            _require(test.kind != "call" or self.language == "python" or not test.kwargs,
                     f"{self.language} functions take positional arguments only: a call test's 'kwargs' must be empty")
        _require(self.compare in COMPARE_MODES, f"compare must be one of {', '.join(COMPARE_MODES)}")
        _require(self.float_tolerance >= 0, "float_tolerance must be >= 0")
        _require(len(self.tests) > 0, "a job needs at least one test case")
        _require(self.checker is None or any(t.kind == "stdio" for t in self.tests),
                 "a checker judges stdio tests, and this job has none")

    def to_wire(self, submission_id: str) -> dict:
        """The request the in-container runner reads (see ``sandbox.inside.runner.serve``); its ``id`` is
        ``submission_id``, unique to this submission, which the runner's reply carries back."""
        tests = []
        for t in self.tests:
            d = t.check_dict()
            if t.kind == "stdio":
                d["stdin"] = t.stdin
            tests.append(d)
        return {"op": "run", "id": submission_id, "language": self.language, "program": self.program,
                "tests": tests, "limits": self.limits.to_dict(), "compare": self.compare,
                "float_tolerance": self.float_tolerance, "test_setup": self.test_setup, "checker": self.checker}


@dataclass(frozen=True)
class TestResult:
    """The verdict of one test case.

    Attributes:
        status: one of ``TEST_STATUSES``.
        time_s: wall-clock seconds of the test process.
        cpu_time_s: CPU seconds of the test process.
        message: what went wrong, short (empty when passed).
        judged_in_process: an ``assert`` test that the judge could not run out of the program's
            process, by the test's own design (it passes a callback, or keeps an object of the
            program's): the weaker, in-process harness judged it.
        score: partial credit in (0, 1) that a task's checker gave a ``failed`` test (None: none).
    """

    __test__ = False  # not a pytest class

    status: str
    time_s: float = 0.0
    cpu_time_s: float = 0.0
    message: str = ""
    judged_in_process: bool = False
    score: float | None = None

    @property
    def credit(self) -> float:
        """What the test adds to the pass rate: 1.0 passed, else a checker's partial ``score`` or 0.0."""
        return 1.0 if self.status == "passed" else self.score or 0.0

    def to_dict(self) -> dict:
        d = {"status": self.status, "time_s": self.time_s}
        if self.message:
            d["message"] = self.message
        if self.judged_in_process:
            d["judged_in_process"] = True
        if self.score is not None:
            d["score"] = self.score
        return d


def _score(value) -> float | None:
    """A test's partial credit as the runner reported it: a number in (0, 1), else None."""
    return float(value) if type(value) in (int, float) and 0 < value < 1 else None


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
        if self.status == "sandbox_error" or any(t.status == "checker_error" for t in self.test_results):
            return None
        if not self.n_tests:
            return 0.0
        return sum(t.credit for t in self.test_results) / self.n_tests

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    @classmethod
    def from_wire(cls, reply: dict, n_tests: int, attempts: int = 1) -> Verdict:
        tests = tuple(TestResult(status=t["status"], time_s=t.get("time_s", 0.0),
                                 cpu_time_s=t.get("cpu_time_s", 0.0), message=t.get("message", ""),
                                 judged_in_process=bool(t.get("judged_in_process", False)),
                                 score=_score(t.get("score")))
                      for t in reply.get("tests", ()))
        return cls(status=reply["status"], test_results=tests, n_tests=n_tests,
                   compile_output=reply.get("compile_output", ""),
                   compile_time_s=reply.get("compile_time_s", 0.0),
                   run_time_s=reply.get("run_time_s", 0.0), attempts=attempts,
                   flags=tuple(f for f in reply.get("flags", ()) if f in FLAGS))

    @classmethod
    def program_level(cls, status: str, n_tests: int, message: str, attempts: int = 0) -> Verdict:
        """A verdict with no test results (``no_code``, ``sandbox_error``)."""
        return cls(status=status, n_tests=n_tests, message=message, attempts=attempts)

    def to_dict(self) -> dict:
        """The per-sample fields of a results line (docs/task-format.md)."""
        d = {"status": self.status, "pass_rate": self.pass_rate, "tests": [t.to_dict() for t in self.test_results],
             "flags": list(self.flags)}
        if self.compile_output and self.status == "compile_error":
            d["compile_output"] = self.compile_output
        if self.message:
            d["message"] = self.message
        return d
