"""The reference's answers on new inputs, as tests: what tells a mutant from the reference.

For each task, ``probe_job`` runs the reference solution on the new inputs of
``grpo_code.curate.inputs`` in the sandbox (a ``stdio`` job with ``capture_output``, one test per
input, so each input gets the task's own limits), and ``answered_tests`` turns what it answered
into tests of the task's own kind: a ``stdio`` test (the reference's output, judged by the task's
comparison or checker), a ``call`` test (its value as the harness serializes it), or an ``assert``
test that holds the value to the same type and value (``SAME``). An input on which the reference
fails (an exception, a non-zero exit status, a limit, a value that is not plain data) is dropped:
it is outside the task's domain.

A mutant that passes every test of the task and fails one of these is a survivor: its output
differs from the reference's on an input of the task's own kinds. The test it fails is what the
audit proposes for the task.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, replace

from grpo_code.curate.inputs import Call, callee, from_source, function_name, new_calls, stdin_variants, to_source
from grpo_code.suites.tasks import Task
from sandbox import Job, TestCase, Verdict

# The comparison of an ``assert`` test made here: the same type (True is not 1, 2.0 is not 2) and
# value, floats within 1e-9 (relative) or both NaN, containers element by element.
SAME = '''def _same(a, b):
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or (a != a and b != b) or abs(a - b) <= 1e-9 * max(abs(a), abs(b))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


'''

# Appended to the reference: reads one call (Python source) on stdin, calls the function with the
# program's own output silenced, writes the value (repr, or JSON for a call task) on stdout.
_DRIVER = '''

def _audit_probe():
    import contextlib, io, json, sys
    args, kwargs = eval(sys.stdin.read(), {{"__builtins__": {{}}, "float": float, "set": set,
                                           "frozenset": frozenset}})
    with contextlib.redirect_stdout(io.StringIO()):
        value = {name}(*args, **dict(kwargs))
    sys.stdout.write({encode})


_audit_probe()
'''


@dataclass(frozen=True)
class Probe:
    """A task's new inputs and the job that runs its reference on them.

    Attributes:
        task: the task.
        job: the sandbox job (``capture_output``): one ``stdio`` test per input.
        calls: the calls, for a function task (in the job's test order); else empty.
        stdins: the inputs, for a ``stdio`` task; else empty.
    """

    task: Task
    job: Job
    calls: tuple[Call, ...] = ()
    stdins: tuple[str, ...] = ()


def probe_job(task: Task, limit: int, seed: int) -> Probe | None:
    """The job that runs ``task``'s reference on up to ``limit`` new inputs (None: no reference,
    or no new input can be made from its tests)."""
    if task.reference_solution is None:
        return None
    kinds = {t.kind for t in task.tests}
    if kinds == {"stdio"}:
        stdins = stdin_variants(task, limit, seed)
        if not stdins:
            return None
        tests = [TestCase(kind="stdio", stdin=s, expected_stdout="") for s in stdins]
        return Probe(task, replace(task.job(task.reference_solution, tests), capture_output=True),
                     stdins=tuple(stdins))
    reach = callee(task)  # the function, or a method of a fresh object of the tests' class
    if reach is None or task.language != "python" or "stdio" in kinds:
        return None
    calls = new_calls(task, limit, seed)
    if not calls:
        return None
    encode = "json.dumps(value)" if kinds == {"call"} else "repr(value)"
    program = task.reference_solution.rstrip("\n") + "\n" + _DRIVER.format(name=reach, encode=encode)
    tests = [TestCase(kind="stdio", stdin=to_source((c.args, sorted(c.kwargs.items()))), expected_stdout="")
             for c in calls]
    job = replace(task.job(program, tests), capture_output=True, test_setup=None)
    return Probe(task, job, calls=tuple(calls))


def answered_tests(probe: Probe, verdict: Verdict) -> tuple[TestCase, ...]:
    """Tests of the task's own kind for each input the reference answered (see the module
    docstring), in input order."""
    out: list[TestCase] = []
    for i, result in enumerate(verdict.test_results):
        output = result.output
        if result.status not in ("passed", "failed") or output is None or output.exit_code != 0 \
                or output.stdout_truncated:
            continue
        if probe.stdins:
            out.append(TestCase(kind="stdio", stdin=probe.stdins[i], expected_stdout=output.stdout))
            continue
        test = _function_test(probe.task, probe.calls[i], output.stdout)
        if test is not None:
            out.append(test)
    return tuple(out)


def _function_test(task: Task, call: Call, answer: str) -> TestCase | None:
    name, reach = function_name(task), callee(task)
    if name is None or reach is None:
        return None
    if all(t.kind == "call" for t in task.tests):
        try:
            value = json.loads(answer)
        except ValueError:
            return None
        return TestCase(kind="call", fn_name=name, args=list(call.args), kwargs=dict(call.kwargs), expected=value)
    try:
        value = from_source(answer)
    except ValueError:
        return None  # not plain data (an object, a generator): no test can hold it to a value
    return TestCase(kind="assert", code=f"{SAME}assert _same({call.source(reach)}, {to_source(value)})")


def suggestion(test: TestCase) -> dict:
    """A test made here in the form an author writes in a tasks file (docs/task-format.md): an
    ``assert`` test as ``assert f(...) == value`` (without ``SAME``'s stricter comparison), the
    other kinds as they are."""
    if test.kind != "assert" or not (test.code or "").startswith(SAME):
        return test.to_dict()
    check = ast.parse((test.code or "").removeprefix(SAME)).body[-1]
    if not (isinstance(check, ast.Assert) and isinstance(check.test, ast.Call) and len(check.test.args) == 2):
        return test.to_dict()
    got, want = check.test.args
    return {"kind": "assert", "code": f"assert {ast.unparse(got)} == {ast.unparse(want)}"}
