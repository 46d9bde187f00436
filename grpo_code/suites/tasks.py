"""Tasks and task suites: the data contract of docs/task-format.md, validated on load.

Every error names the file, the line and the field, and says what was expected.
"""

from __future__ import annotations

import ast
import difflib
import functools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from grpo_code.errors import TASK_FORMAT_DOC, TaskFormatError, UnknownTaskError
from grpo_code.suites.packages import available, first_missing, package_of
from grpo_code.suites.visibility import HIDDEN, PUBLIC, of_visibility, render_tests
from sandbox import LANGUAGES, Job, Limits, TestCase
from sandbox.image import check_pins

TASK_FIELDS = {
    "task_id", "prompt", "language", "entry_point", "tests", "reference_solution", "canonical_solution",
    "time_limit_s", "memory_limit_mb", "output_limit_bytes", "compare", "float_tolerance", "metadata", "prelude",
    "reference_solutions", "checker", "context", "allow_non_finite", "test_setup",
}
DEFAULTABLE_FIELDS = TASK_FIELDS - {"task_id", "prompt", "tests", "reference_solution", "canonical_solution",
                                    "reference_solutions", "context"}
DEFAULT_LIMITS = Limits()  # the sandbox owns the default limits; a task's are the same
LIMIT_FIELDS = ("time_limit_s", "memory_limit_mb", "output_limit_bytes")  # the task format's fields of Task.limits
DEFAULT_TEMPLATE = "{prompt}"  # a suite's prompt template when it gives none
TEMPLATE_FIELDS = ("prompt", "language", "public_tests")  # what a prompt template may name
_TEMPLATE_FIELD = re.compile(r"\{(" + "|".join(TEMPLATE_FIELDS) + r")\}")
CHECKER_FUNCTION = "check"
_JS_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")


@dataclass(frozen=True)
class Task:
    """One programming problem (docs/task-format.md).

    Attributes:
        task_id: unique in its suite.
        prompt: what the policy sees (before the suite's prompt template).
        tests: the test cases; each is one unit of reward.
        language: ``python``, ``c`` or ``cpp``.
        entry_point: the function under test, if there is one.
        reference_solution: a known-correct program.
        limits: per-test limits, as the sandbox takes them (``sandbox.Limits``); a suite file sets
            three of them (``LIMIT_FIELDS``: ``time_limit_s``, CPU seconds per test case;
            ``memory_limit_mb``, MiB per process; ``output_limit_bytes``, stdout + stderr per test
            case), the others are the sandbox's defaults.
        compare: stdio comparison (``tokens``, ``lines``, ``exact``).
        float_tolerance: abs/rel tolerance of float tokens under ``tokens``.
        metadata: provenance, difficulty, tags; never read by the verifier.
        prelude: code run before every program of this task, in the same file: the imports a
            benchmark's own harness provides, e.g. LiveCodeBench's
            ``from typing import *`` block, so that scores match the benchmark's.
        reference_solutions: known-correct programs in other languages, by language (an
            extension of docs/task-format.md, for problems whose data has solutions in several
            languages: ``for_language`` picks one).
        checker: Python code defining ``check(input: str, output: str, expected: str) -> bool | float``
            (docs/task-format.md), which judges each ``stdio`` test of a problem that accepts several right
            outputs: True or 1.0 accepts, a float in [0, 1] is partial credit. Parsed and validated
            here; the sandbox runs it in the judge (until then, stdio output is compared by
            ``compare``).
        context: text shown to the model after the prompt that is no part of the problem (an
            earlier attempt and its public-test report: ``grpo_code.curate.repair``); never used to run
            or judge a program.
        allow_non_finite: a ``call`` or ``assert`` test may pass a returned value holding NaN or
            an infinity (``sandbox.Job.allow_non_finite``); by default it fails, flagged
            ``non_finite``. ``grpo-code tasks validate`` says when a reference needs it.
        test_setup: Python code the judge runs before each ``assert`` test, in place of the
            default (``default_test_setup``: the prelude, then the helpers the prompt defines).
            The names it binds are the judge's own; every other name a test reads and does not
            bind is the program's. For a task whose tests must reach the program's copy of a
            helper its prelude gives both sides (LeetCodeDataset's ``list_node`` building an
            argument in the program's process) while the expected value is built in the judge.
    """

    task_id: str
    prompt: str
    tests: tuple[TestCase, ...]
    language: str = "python"
    entry_point: str | None = None
    reference_solution: str | None = None
    limits: Limits = DEFAULT_LIMITS
    compare: str = Job.compare  # the sandbox's defaults, like the limits
    float_tolerance: float = Job.float_tolerance
    metadata: Mapping[str, Any] = field(default_factory=dict)
    prelude: str | None = None
    reference_solutions: Mapping[str, str] = field(default_factory=dict)
    checker: str | None = None
    context: str | None = None
    allow_non_finite: bool = False
    test_setup: str | None = None

    @property
    def public_tests(self) -> tuple[TestCase, ...]:
        """The tests the model may be shown (``visibility: public``), in order."""
        return of_visibility(self.tests, PUBLIC)

    @property
    def hidden_tests(self) -> tuple[TestCase, ...]:
        """The tests never shown to the model (``visibility: hidden``, the default), in order."""
        return of_visibility(self.tests, HIDDEN)

    def with_limits(self, **limits: float) -> Task:
        """This task with some of its ``LIMIT_FIELDS`` changed (``time_limit_s=10.0``); the limits
        that follow from them (the wall clock) are derived anew, as for a task read from a file."""
        return replace(self, limits=Limits(**{**{name: getattr(self.limits, name) for name in LIMIT_FIELDS},
                                              **limits}))

    def job(self, program: str, tests: Iterable[TestCase] | None = None) -> Job:
        """The sandbox job that runs ``program`` (after the prelude) against this task's tests (or ``tests``)."""
        if self.prelude:
            program = self.prelude.rstrip("\n") + "\n" + program
        return Job(program=program, tests=tuple(tests or self.tests), language=self.language,
                   limits=self.limits, compare=self.compare, float_tolerance=self.float_tolerance,
                   test_setup=self.judge_setup(), checker=self.checker, job_id=self.task_id,
                   allow_non_finite=self.allow_non_finite,
                   entry_point=self.entry_point if self.language == "python" and self.entry_point
                   and self.entry_point.isidentifier() else None)

    def judge_setup(self) -> str | None:
        """What the judge runs before each of this task's ``assert`` tests: its ``test_setup``,
        else ``default_test_setup``; None for a task in another language than Python."""
        if self.language != "python":
            return None
        if self.test_setup is not None:
            return self.test_setup
        return default_test_setup(self.prompt, self.entry_point, self.prelude)

    def to_dict(self) -> dict:
        """The docs/task-format.md form of this task (one line of problems.jsonl)."""
        d: dict[str, Any] = {"task_id": self.task_id, "prompt": self.prompt, "language": self.language,
                             "tests": [t.to_dict() for t in self.tests]}
        for name in ("entry_point", "reference_solution"):
            if getattr(self, name) is not None:
                d[name] = getattr(self, name)
        d.update({name: getattr(self.limits, name) for name in LIMIT_FIELDS}, compare=self.compare,
                 float_tolerance=self.float_tolerance)
        if self.metadata:
            d["metadata"] = dict(self.metadata)
        if self.prelude:
            d["prelude"] = self.prelude
        if self.reference_solutions:
            d["reference_solutions"] = dict(self.reference_solutions)
        if self.checker:
            d["checker"] = self.checker
        if self.context:
            d["context"] = self.context
        if self.allow_non_finite:
            d["allow_non_finite"] = True
        if self.test_setup is not None:
            d["test_setup"] = self.test_setup
        return d

    def for_language(self, language: str) -> Task | None:
        """This task in ``language``: itself when that is its language; the same problem with the
        reference solution in ``language`` when ``reference_solutions`` has one (its stdio tests
        are the same in every language; a prelude is the task language's and is dropped); else None."""
        if language == self.language:
            return self
        if language not in self.reference_solutions:
            return None
        everyone: dict[str, str | None] = {**self.reference_solutions, self.language: self.reference_solution}
        others = {lang: code for lang, code in everyone.items() if lang != language and code is not None}
        return replace(self, language=language, reference_solution=self.reference_solutions[language],
                       reference_solutions=others, prelude=None)


# every field's default, by its name in the task format (the limits' by theirs)
TASK_DEFAULTS = {f.name: f.default for f in fields(Task)} | {name: getattr(DEFAULT_LIMITS, name)
                                                             for name in LIMIT_FIELDS}


def _is_stub(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    """A definition with nothing in it but a docstring, ``pass`` or ``...``: for the program to write."""
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    return all(isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                                              and stmt.value.value is Ellipsis) for stmt in body)


@functools.lru_cache(maxsize=4096)
def default_test_setup(prompt: str, entry_point: str | None, prelude: str | None) -> str | None:
    """What the judge runs before a Python task's ``assert`` tests unless the task gives its own
    ``test_setup``: the task's prelude, then what
    its prompt defines for the tests to use (imports, constants, and functions and classes with a
    body, such as HumanEval/38's ``encode_cyclic``), never the entry point nor a stub left for the
    program to write. None when there is nothing (a prompt in prose defines nothing).

    The tests then call these helpers as the task wrote them, never the program's copies.
    """
    parts = [prelude.rstrip("\n")] if prelude else []
    try:
        module = ast.parse(prompt)
    except (SyntaxError, ValueError, RecursionError):
        module = None
    if module is not None:
        lines = prompt.splitlines()
        for node in module.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if node.name == entry_point or _is_stub(node):
                    continue
            elif not isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign)):
                continue
            start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            parts.append("\n".join(lines[start - 1:node.end_lineno]))
    return "\n".join(parts) + "\n" if parts else None


def _check_type(value, types, name: str, expected: str, where: dict) -> None:
    if isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise TaskFormatError(f"expected {expected}, got {value!r}", field=name, **where)
    if not isinstance(value, types):
        raise TaskFormatError(f"expected {expected}, got {type(value).__name__} {value!r:.60}",
                              field=name, **where)


def parse_task(data: Any, defaults: Mapping[str, Any] | None = None, path: str | Path | None = None,
               line: int | None = None, packages: Sequence[str] | None = None) -> Task:
    """Validate one task object (a problems.jsonl line) and build a ``Task``.

    Args:
        data: the decoded JSON object.
        defaults: the suite's ``defaults`` (any task field but task_id, prompt, tests).
        path: the file the object came from, for error messages.
        line: its line in that file, for error messages.
        packages: the suite's packages (pins): what its code may import beside the standard
            library (``check_imports``, with the file and line); None: not checked here (a
            ``TaskSuite`` checks its tasks when it is made).

    Raises:
        TaskFormatError: naming file, line and field, and what was expected.
    """
    where: dict[str, Any] = {"path": path, "line": line}
    if not isinstance(data, dict):
        raise TaskFormatError(f"a task must be a JSON object, got {type(data).__name__}", **where)
    unknown = sorted(set(data) - TASK_FIELDS)
    if unknown:
        close = {u: difflib.get_close_matches(u, sorted(TASK_FIELDS), n=1) for u in unknown}
        hints = ", ".join(f"{u!r}" + (f" (did you mean {c[0]!r}?)" if c else "") for u, c in close.items())
        raise TaskFormatError(f"unknown field(s) {hints}; see {TASK_FORMAT_DOC} for the task fields", **where)
    merged = {**(defaults or {}), **data}
    for name in ("task_id", "prompt", "tests"):
        if name not in merged:
            raise TaskFormatError("this field is required", field=name, **where)
    _check_type(merged["task_id"], str, "task_id", "a non-empty string", where)
    if not merged["task_id"].strip():
        raise TaskFormatError("expected a non-empty string", field="task_id", **where)
    _check_type(merged["prompt"], str, "prompt", "a string", where)
    language = merged.get("language", "python")
    _check_type(language, str, "language", "a language name", where)
    if "reference_solution" in merged and "canonical_solution" in merged:
        raise TaskFormatError("give reference_solution or its alias canonical_solution, not both",
                              field="canonical_solution", **where)
    reference = merged.get("reference_solution", merged.get("canonical_solution"))
    if reference is not None:
        _check_type(reference, str, "reference_solution", "a string (a complete program)", where)
    entry_point = merged.get("entry_point")
    if entry_point is not None and not (isinstance(entry_point, str) and entry_point.isidentifier()):
        raise TaskFormatError(f"expected a function name, got {entry_point!r}", field="entry_point", **where)
    _check_type(merged["tests"], list, "tests", "a list of test cases", where)
    tests = []
    for i, raw in enumerate(merged["tests"]):
        try:
            tests.append(TestCase.from_dict(raw))
        except (ValueError, TypeError) as e:
            raise TaskFormatError(str(e), field=f"tests[{i}]", **where) from None
    numbers = {"time_limit_s": ((int, float), "a number of seconds"),
               "memory_limit_mb": (int, "a whole number of MiB"),
               "output_limit_bytes": (int, "a whole number of bytes"),
               "float_tolerance": ((int, float), "a number >= 0")}
    values = {}
    for name, (types, expected) in numbers.items():
        value = merged.get(name, TASK_DEFAULTS[name])
        _check_type(value, types, name, expected, where)
        values[name] = value
    metadata = merged.get("metadata", {})
    _check_type(metadata, dict, "metadata", "a JSON object", where)
    prelude = merged.get("prelude")
    if prelude is not None:
        _check_type(prelude, str, "prelude", "a string of code", where)
    references = merged.get("reference_solutions", {})
    _check_type(references, dict, "reference_solutions", "a JSON object of language -> program", where)
    for lang, code in references.items():
        if lang == language:
            raise TaskFormatError("the task's own language's reference is reference_solution",
                                  field=f"reference_solutions.{lang}", **where)
        _check_type(code, str, f"reference_solutions.{lang}", "a string (a complete program)", where)
    checker = merged.get("checker")
    if checker is not None:
        _check_checker(checker, where)
    context = merged.get("context")
    if context is not None:
        _check_type(context, str, "context", "a string of text", where)
    allow_non_finite = merged.get("allow_non_finite", False)
    _check_type(allow_non_finite, bool, "allow_non_finite", "true or false", where)
    setup = merged.get("test_setup")
    if setup is not None:
        _check_code(setup, "test_setup", "the test setup", where)
    try:
        limits = Limits(time_limit_s=float(values["time_limit_s"]), memory_limit_mb=values["memory_limit_mb"],
                        output_limit_bytes=values["output_limit_bytes"])
    except ValueError as e:
        raise _refused(e, None, where) from None
    task = Task(task_id=merged["task_id"], prompt=merged["prompt"], tests=tuple(tests), language=language,
                entry_point=entry_point, reference_solution=reference,
                compare=merged.get("compare", TASK_DEFAULTS["compare"]), limits=limits,
                float_tolerance=float(values["float_tolerance"]), metadata=metadata, prelude=prelude,
                reference_solutions=references, checker=checker, context=context,
                allow_non_finite=allow_non_finite, test_setup=setup)
    # The sandbox owns what it runs (languages, test kinds per language, limits, comparisons,
    # checkers, assert tests the judge can run): its refusal names the field, which is the task's.
    _sandbox_accepts(task, None, where)
    for i, test in enumerate(tests):
        if test.kind == "call" and language != "python" and not _JS_IDENTIFIER.match(test.fn_name or ""):
            raise TaskFormatError(f"expected a {language} function name (ASCII letters, digits, _ and $), "
                                  f"got {test.fn_name!r}", field=f"tests[{i}].fn_name", **where)
    for lang in references:  # the same problem in each of the other languages
        variant = task.for_language(lang)
        if variant is not None:  # always: lang is one of its reference_solutions
            _sandbox_accepts(variant, f"reference_solutions.{lang}", where)
    if packages is not None:
        check_imports(task, packages, path, line)
    return task


def check_imports(task: Task, packages: Sequence[str] = (), path: str | Path | None = None,
                  line: int | None = None, where: str = "suite.yaml (packages: [{pin}])") -> None:
    """Refuse a Python task whose code imports a module that neither the standard library nor the
    suite's ``packages`` (pins) provide (``grpo_code.suites.packages``: static imports only): its
    tests, reference solution, prelude, checker and what the judge runs before its tests
    (``Task.judge_setup``: the code its prompt gives them, or its ``test_setup``). ``where`` says
    where the suite names its packages, ``{pin}`` standing for the package to name
    (``NAME==VERSION``).

    Raises:
        TaskFormatError: naming the file and line (``path``, ``line``), the field, the module, its
            line in that code, and the package to name.
    """
    if task.language != "python":
        return
    modules = available(tuple(packages))
    codes = [(f"tests[{i}]", "the test", test.code, modules | file_modules(test)) for i, test in enumerate(task.tests)]
    codes += [("reference_solution", "the reference solution", task.reference_solution, modules),
              ("prelude", "the prelude", task.prelude, modules), ("checker", "the checker", task.checker, modules),
              ("prompt" if task.test_setup is None else "test_setup", "the code the judge runs before the tests",
               task.judge_setup(), modules)]
    for name, what, code, known in codes:
        missing = first_missing(code, known) if code else None
        if missing is not None:
            module, at = missing
            raise TaskFormatError(f"task {task.task_id!r}: {what} imports {module} (its line {at}), which neither the "
                                  "standard library nor the suite's packages provide: name its package, pinned, in "
                                  + where.format(pin=f"{package_of(module)}==VERSION"), path=path, line=line,
                                  field=name)


def file_modules(test: TestCase) -> frozenset[str]:
    """What a ``pytest`` or ``unittest`` test file may import beside the standard library and the
    suite's packages (lower case): the program, as its ``module`` and as ``main``, and ``pytest``,
    which the image holds to run such files; nothing for the other kinds."""
    if test.kind not in ("pytest", "unittest"):
        return frozenset()
    return frozenset({test.module.lower(), "main", "pytest", "_pytest"})


def _sandbox_accepts(task: Task, field: str | None, where: dict) -> None:
    """Raise the sandbox's refusal of ``task``'s job as a TaskFormatError, in ``field`` (default:
    the field the sandbox names, ``sandbox.types.FieldError``)."""
    try:
        task.job("")
    except ValueError as e:
        raise _refused(e, field, where) from None


def _refused(error: ValueError, field: str | None, where: dict) -> TaskFormatError:
    """The sandbox's refusal as a TaskFormatError, in ``field`` (default: the field it names)."""
    named = getattr(error, "field", None)
    message = str(error).removeprefix(f"{named}: ") if named else str(error)
    return TaskFormatError(message, field=field or named, **where)


def _check_code(code: Any, name: str, what: str, where: dict, expected: str = "a string of Python code") -> ast.Module:
    """``code`` (the task's field ``name``) parsed; raises TaskFormatError (with the code's own
    line) when it is not a string or does not compile."""
    _check_type(code, str, name, expected, where)
    try:
        return ast.parse(code, f"<{name}>")
    except (SyntaxError, ValueError) as e:
        lineno = getattr(e, "lineno", None)
        line = f" (line {lineno} of {what})" if lineno else ""
        raise TaskFormatError(f"{what} does not compile: {getattr(e, 'msg', e)}{line}", field=name,
                              **where) from None


def _check_checker(checker: Any, where: dict) -> None:
    """A checker is Python source defining ``check(input, output, expected)`` at top level; raises
    TaskFormatError (with the checker's own line) otherwise. That it has stdio tests to judge is
    the sandbox's rule (``Job``)."""
    tree = _check_code(checker, "checker", "the checker", where,
                       "a string of Python code defining check(input, output, expected)")
    functions = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and node.name == CHECKER_FUNCTION]
    if not functions:
        raise TaskFormatError(f"the checker must define {CHECKER_FUNCTION}(input, output, expected) at top level",
                              field="checker", **where)
    args = functions[-1].args
    positional = len(args.posonlyargs) + len(args.args)
    required_keywords = [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None]
    if isinstance(functions[-1], ast.AsyncFunctionDef) or required_keywords or \
            not (positional - len(args.defaults) <= 3 <= positional or (positional < 3 and args.vararg)):
        raise TaskFormatError(f"{CHECKER_FUNCTION} must take three arguments (input, output, expected: the test's "
                              "stdin, the program's stdout, the expected stdout) and return a bool or a float",
                              field="checker", **where)


def check_defaults(defaults: Mapping[str, Any], path: str | Path | None = None, line: int | None = None) -> None:
    """Validate a suite's ``defaults`` on their own, so that errors name suite.yaml, not a task.

    Raises:
        TaskFormatError: an unknown field (with the closest known one) or a bad value.
    """
    for name in sorted(set(defaults) - DEFAULTABLE_FIELDS):
        close = difflib.get_close_matches(name, sorted(DEFAULTABLE_FIELDS), n=1)
        raise TaskFormatError("not a field that defaults can set" + (f"; did you mean {close[0]!r}?" if close else
                              f"; known: {', '.join(sorted(DEFAULTABLE_FIELDS))}"),
                              path=path, line=line, field=f"defaults.{name}")
    probe = {"task_id": "defaults", "prompt": "", "tests": [{"kind": "stdio", "stdin": "", "expected_stdout": ""}]}
    try:
        parse_task(probe, defaults)
    except TaskFormatError as e:
        raise TaskFormatError(e.reason, path=path, line=line, field=f"defaults.{e.field}") from None


@dataclass(frozen=True)
class TaskSuite:
    """A named, versioned collection of tasks.

    Attributes:
        name: unique; what ``--suite`` takes.
        tasks: the tasks, in file order.
        version, description, license: from suite.yaml.
        prompt_template: turns a task's prompt into what the policy sees; ``{prompt}`` is the
            task's prompt (and its ``context``), ``{language}`` its language, ``{public_tests}``
            its public tests as examples.
        source: where the suite was read from (a path, an adapter, an entry point).
        packages: the third-party packages its programs and tests import, pinned
            (``name==version``, sorted: ``sandbox.image.check_pins``); they run in the image of
            these packages (``make_executor(packages=suite.packages)``), and a task whose code
            imports a module that neither they nor the standard library provide is refused
            (``check_imports``). Empty (default): the lean image, the standard library only.
    """

    name: str
    tasks: tuple[Task, ...]
    version: int | str = 1
    description: str = ""
    license: str = ""
    prompt_template: str = DEFAULT_TEMPLATE
    source: str = ""
    packages: tuple[str, ...] = ()
    _index: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "packages", check_pins(self.packages))
        except ValueError as e:
            raise TaskFormatError(str(e), path=self.source or self.name, field="packages") from None
        for task in self.tasks:
            check_imports(task, self.packages, self.source or self.name)
        index = {}
        for task in self.tasks:
            if task.task_id in index:
                raise TaskFormatError(f"task_id {task.task_id!r} appears twice", path=self.source or self.name,
                                      field="task_id")
            index[task.task_id] = task
        object.__setattr__(self, "tasks", tuple(self.tasks))
        object.__setattr__(self, "_index", index)

    def __len__(self) -> int:
        return len(self.tasks)

    def __iter__(self) -> Iterator[Task]:
        return iter(self.tasks)

    def __contains__(self, task_id: str) -> bool:
        return task_id in self._index

    def get(self, task_id: str) -> Task:
        """The task with this id; raises UnknownTaskError with close matches."""
        try:
            return self._index[task_id]
        except KeyError:
            raise UnknownTaskError(task_id, self.name, self._index) from None

    @property
    def languages(self) -> list[str]:
        """The languages of its tasks, sorted (not counting ``reference_solutions``)."""
        return sorted({t.language for t in self.tasks})

    def for_language(self, language: str) -> TaskSuite:
        """The suite's tasks in ``language`` (``--language``): the tasks of that language, and the
        problems whose data has a reference solution in it (``Task.for_language``). Its name is
        ``NAME-LANGUAGE`` (so that runs in two languages of the same problems never share a folder).

        Raises:
            ValueError: the sandbox does not run ``language``, or no task of the suite is in it.
        """
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r}; the sandbox runs {', '.join(LANGUAGES)}")
        tasks = tuple(t for t in (task.for_language(language) for task in self.tasks) if t is not None)
        if not tasks:
            available = sorted({t.language for t in self.tasks}
                               | {lang for t in self.tasks for lang in t.reference_solutions})
            raise ValueError(f"suite {self.name!r} has no task in {language}; its languages: {', '.join(available)}")
        return replace(self, name=f"{self.name}-{language}", tasks=tasks, _index={})

    def format_prompt(self, task: Task) -> str:
        """What the policy sees for ``task``: the prompt template with the task's prompt (then its
        ``context``, if any), its language and its public tests (``visibility.render_tests``)."""
        prompt = f"{task.prompt.rstrip()}\n\n{task.context}" if task.context else task.prompt
        values = {"prompt": lambda: prompt, "language": lambda: task.language,
                  "public_tests": lambda: render_tests(task.public_tests)}
        return _TEMPLATE_FIELD.sub(lambda m: values[m.group(1)](), self.prompt_template)

    def select(self, task_ids: Iterable[str]) -> TaskSuite:
        """A suite of the given tasks (same order as given)."""
        return replace(self, tasks=tuple(self.get(t) for t in task_ids), _index={})

    def to_dataset(self, chat: bool = True):
        """A ``datasets.Dataset`` for TRL: ``prompt`` (chat messages, or text) and ``task_id``.

        Args:
            chat: conversational prompts (``[{"role": "user", "content": ...}]``), which TRL
                renders with the tokenizer's chat template; else plain text.
        """
        from datasets import Dataset

        prompts = [self.format_prompt(t) for t in self.tasks]
        return Dataset.from_dict({
            "prompt": [[{"role": "user", "content": p}] for p in prompts] if chat else prompts,
            "task_id": [t.task_id for t in self.tasks],
        })
