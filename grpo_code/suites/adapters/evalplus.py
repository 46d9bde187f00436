"""HumanEval+ and MBPP+ (Liu et al. 2023, EvalPlus): the base and plus inputs of each task.

Record schema (evalplus's release files, ``HumanEvalPlus.jsonl`` and ``MbppPlus.jsonl``):
``task_id`` (``HumanEval/0``, ``Mbpp/2``), ``prompt``, ``entry_point``, ``canonical_solution``
(HumanEval+: the body the prompt continues; MBPP+: a whole program; MBPP+ rows may give it as
``code``), ``base_input`` and ``plus_input`` (lists of argument lists, JSON), ``atol``,
``contract``; MBPP+ rows also ``test_list`` and ``test_imports``. Rows of the Hub's
``evalplus/mbppplus`` and ``evalplus/humanevalplus`` (no ``base_input``: the inputs are a literal
``inputs = [...]`` in ``test``, and MBPP+'s ``task_id`` is a number) read the same.

Rules, as evalplus judges (``evalplus/evaluate.py``, ``evalplus/data/mbpp.py``):
- one test per base and plus input, in that order; a test is ``visibility: public`` when its call
  is one the prompt shows (a ``>>>`` example, MBPP+'s ``assert`` line), else hidden;
- MBPP+ inputs get back the types JSON lost (tuples, sets, complex numbers), by evalplus's own
  table of tasks (``mbpp_deserialize_inputs``), for the release file's JSON inputs;
- the expected value of each input is the reference's answer on it (``prompt + canonical_solution``,
  as evalplus computes it), computed **in the sandbox**, never on the host: one batch for every
  task not in the cache, each input in a fresh interpreter's call; cached by content (the
  reference, the inputs, the image's tag) under ``GRPO_CODE_CACHE`` (default ``~/.cache/grpo-code``)
  ``/evalplus``, so it runs once. No Docker: a one-line error saying so. An input on which the
  reference fails (an exception, a limit, a value that is not plain data) has no test, counted in
  ``metadata.dropped_inputs`` and logged; a task whose reference fails on every input is refused;
- the comparison (evalplus's ``unsafe_execute``): equal (Python's ``==``), or, with a tolerance,
  floats of the same type within ``atol + 1e-7 * |expected|`` (numpy's ``allclose``, rtol 1e-7;
  ``atol`` from the record, 1e-6 where it is 0 and the expected value is a float or a list or tuple
  of floats). A ``call`` test where the arguments and the expected value are JSON data (its
  ``atol`` and ``rtol`` hold the tolerance: docs/task-format.md); an ``assert`` test, judged the
  same way in the judge, where either holds what JSON cannot (a tuple, a set, a complex number,
  bytes, a dict with keys other than strings, NaN or an infinity). A ``call`` test reads a returned
  tuple as a list (its contract): where the reference returns a list, the same items as a tuple
  pass here and fail evalplus's ``==``;
- evalplus's special oracles: HumanEval/32 (``find_zero``: a root within ``atol``), MBPP+'s
  ``are_equivalent`` (any value), ``sum_div`` (the reference's value or 0) and ``check_str``,
  ``text_match_three``, ``text_starta_endb`` (None or not, as the reference's);
- limits: per test, ``max(4 s, 4 x the reference's slowest call)``, at most 60 s (evalplus's
  per-input rule); 1024 MiB.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import json
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from grpo_code.suites.adapters.common import required_field
from grpo_code.suites.adapters.mbpp import entry_point_of
from grpo_code.suites.tasks import Task
from sandbox import DockerUnavailable, ImageMissing, Job, Limits, TestCase

log = logging.getLogger(__name__)

PROMPT_TEMPLATE = ("{prompt}\n"
                   "Answer with the complete {language} program, the function and its imports, in one "
                   "```{language} code block.")

RTOL = 1e-7  # evalplus's rtol (np.allclose's default, set explicitly there)
FLOAT_ATOL = 1e-6  # evalplus's atol for a float answer of a task whose atol is 0
MIN_TIME_S, TIME_FACTOR, MAX_TIME_S = 4.0, 4.0, 60.0  # evalplus: max(4 s, 4 x the reference's time), at most 60 s
MEMORY_MB = 1024
CHUNK = 16  # inputs per test process when the reference's answers are computed
OUTPUT_NOT_NONE = ("check_str", "text_match_three", "text_starta_endb")  # evalplus's MBPP_OUTPUT_NOT_NONE_TASKS

# evalplus's mbpp_deserialize_inputs, as a table: task number -> how its JSON inputs get their types back
_TUPLES = {2, 116, 132, 143, 222, 261, 273, 394, 399, 421, 424, 429, 470, 560, 579, 596, 616, 630, 726, 740, 744,
           809}
_NESTED_TUPLES = {63, 64, 70, 94, 120, 237, 272, 299, 400, 409, 417, 438, 473, 614, 780}
_FIRST_TUPLES = {75, 413, 444, 753}
_FIRST_TUPLE = {250, 405, 446, 617, 720, 763, 808}
_NESTED_THEN_TUPLE = {259, 401, 445}
_ALL_TUPLES = {580, 615, 791}


def _deep_tuple(value):
    return tuple(_deep_tuple(v) for v in value) if isinstance(value, list) else value


def mbpp_inputs(number: int, inputs: list) -> list:
    """MBPP+ task ``number``'s JSON inputs with the types evalplus gives them back
    (evalplus's ``mbpp_deserialize_inputs``, in its ``data/mbpp.py``)."""
    if number in _TUPLES:
        return [[tuple(x) for x in inp] for inp in inputs]
    if number in _NESTED_TUPLES | _NESTED_THEN_TUPLE:
        out = [[[tuple(x) for x in xs] for xs in inp] for inp in inputs]
        return [[tuple(x) for x in inp] for inp in out] if number in _NESTED_THEN_TUPLE else out
    if number in _FIRST_TUPLES:
        return [[[tuple(x) for x in inp[0]], *inp[1:]] for inp in inputs]
    if number in (106, 750):
        return [[inp[0], tuple(inp[1])] for inp in inputs]
    if number == 115:
        return [[[set(x) if isinstance(x, list) and x else {} for x in inp[0]]] for inp in inputs]
    if number == 124:
        return [[float(inp[0]), complex(inp[1])] for inp in inputs]
    if number in _FIRST_TUPLE:
        return [[tuple(inp[0]), *inp[1:]] for inp in inputs]
    if number == 278:
        return [[tuple(tuple(x) if isinstance(x, list) else x for x in inp[0])] for inp in inputs]
    if number == 307:
        return [[tuple(inp[0]), *inp[1:]] for inp in inputs]
    if number == 722:
        return [[{k: tuple(v) for k, v in inp[0].items()}, *inp[1:]] for inp in inputs]
    if number == 252:
        return [[complex(inp[0])] for inp in inputs]
    if number in _ALL_TUPLES:
        return [list(_deep_tuple(inp)) for inp in inputs]
    return inputs


# -- values between the host and the reference's process: tagged JSON, every type kept -------------


def encode_value(value):
    """``value`` (plain data) as JSON that keeps its types: a tuple, set, frozenset, dict, complex,
    bytes or non-finite float becomes ``{"<type>": ...}`` (a dict always does, so the tags are never
    ambiguous). Raises TypeError for anything else. Runs in the reference's process too (the
    driver carries its source)."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return value if math.isfinite(value) else {"float": repr(value)}
    if kind is list:
        return [encode_value(v) for v in value]
    if kind in (tuple, set, frozenset):
        return {kind.__name__: [encode_value(v) for v in value]}
    if kind is dict:
        return {"dict": [[encode_value(k), encode_value(v)] for k, v in value.items()]}
    if kind is complex:
        return {"complex": [encode_value(value.real), encode_value(value.imag)]}
    if kind is bytes:
        return {"bytes": value.hex()}
    raise TypeError(f"not plain data: {kind.__name__}")


def decode_value(data):
    """The value ``encode_value`` wrote (the inverse); raises ValueError for a malformed one."""
    if isinstance(data, list):
        return [decode_value(v) for v in data]
    if not isinstance(data, dict):
        return data
    if len(data) != 1:
        raise ValueError(f"a malformed value: {str(data)[:80]}")
    (tag, body), = data.items()
    if tag == "float":
        return float(body)
    if tag in ("tuple", "set", "frozenset"):
        return {"tuple": tuple, "set": set, "frozenset": frozenset}[tag](decode_value(v) for v in body)
    if tag == "dict":
        return {decode_value(k): decode_value(v) for k, v in body}
    if tag == "complex":
        return complex(decode_value(body[0]), decode_value(body[1]))
    if tag == "bytes":
        return bytes.fromhex(body)
    raise ValueError(f"an unknown tag {tag!r}")


# The reference, then this: reads a chunk of argument lists (tagged JSON) on stdin, calls the
# function on each with its output swallowed (evalplus's swallow_io), writes one line per input.
_DRIVER = '''

import math

{encode}
{decode}

def _evalplus_answers():
    import contextlib, io, json, sys, time
    calls = decode_value(json.loads(sys.stdin.read()))
    for args in calls:
        start = time.process_time()
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                value = {entry}(*args)
            line = {{"value": encode_value({answer}), "cpu_s": time.process_time() - start}}
        except Exception as e:
            line = {{"raised": f"{{type(e).__name__}}: {{str(e)[:200]}}"}}
        sys.stdout.write(json.dumps(line) + "\\n")


_evalplus_answers()
'''


# -- a record, read --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """What one record says, read.

    Attributes:
        task_id: ``HumanEval/N`` or ``Mbpp/N``.
        dataset: ``humaneval`` or ``mbpp`` (their special oracles differ).
        prompt: the record's prompt.
        entry_point: the function under test.
        reference: the whole reference program.
        inputs: argument lists, base then plus, with their Python types.
        n_base: how many of ``inputs`` are base inputs.
        atol: the record's absolute tolerance.
    """

    task_id: str
    dataset: str
    prompt: str
    entry_point: str
    reference: str
    inputs: tuple
    n_base: int
    atol: float

    @property
    def key(self) -> str:
        """The content the reference's answers depend on, hashed (the cache key adds the image's tag)."""
        data = {"driver": _DRIVER + inspect.getsource(encode_value) + inspect.getsource(decode_value),
                "code": self.reference, "entry": self.entry_point,
                "not_none": self.dataset == "mbpp" and self.entry_point in OUTPUT_NOT_NONE,
                "inputs": encode_value(list(self.inputs))}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def _literal_inputs(test: str) -> list | None:
    """The ``inputs = [...]`` literal of a Hub row's ``test`` (``nan`` and ``inf`` read as floats)."""
    try:
        tree = ast.parse(test)
    except (SyntaxError, ValueError, RecursionError):
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["inputs"]:
            return _literal(node.value)
    return None


def _literal(node: ast.expr):
    """A literal expression's value; ``inf``, ``nan`` and ``float("inf")`` are floats."""
    class Floats(ast.NodeTransformer):
        def visit_Name(self, n: ast.Name) -> ast.AST:
            return ast.Constant(float(n.id)) if n.id in ("inf", "nan") else n

        def visit_Call(self, n: ast.Call) -> ast.AST:
            if ast.unparse(n.func) == "float" and len(n.args) == 1 and isinstance(n.args[0], ast.Constant) \
                    and isinstance(n.args[0].value, str):
                return ast.Constant(float(n.args[0].value))
            return self.generic_visit(n)

    try:
        return ast.literal_eval(Floats().visit(node))
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return None


def read_problem(record: dict) -> Problem:
    """A record, read (see the module docstring).

    Raises:
        ValueError: the record does not fit the schema (the message names the field).
    """
    raw_id = required_field(record, "task_id")
    mbpp = isinstance(raw_id, int) or str(raw_id).startswith("Mbpp/") or bool(record.get("code"))
    task_id = f"Mbpp/{raw_id}" if isinstance(raw_id, int) else str(raw_id)
    prompt = required_field(record, "prompt")
    code = record.get("canonical_solution") or record.get("code")
    if not isinstance(code, str) or not code.strip():
        raise ValueError("the record has no 'canonical_solution' (nor 'code'): the expected values are its answers")
    entry_point = record.get("entry_point")
    if entry_point is None and isinstance(record.get("test_list"), list) and record["test_list"]:
        entry_point = entry_point_of(record["test_list"][0], code)
    if not (isinstance(entry_point, str) and entry_point.isidentifier()):
        raise ValueError(f"'entry_point' must be a function name, got {entry_point!r}")
    if record.get("base_input") is not None or record.get("plus_input") is not None:
        base, plus = record.get("base_input") or [], record.get("plus_input") or []
        if not (isinstance(base, list) and isinstance(plus, list)):
            raise ValueError("'base_input' and 'plus_input' must be lists of argument lists")
        if mbpp and task_id.partition("/")[2].isdigit():
            number = int(task_id.partition("/")[2])
            base, plus = mbpp_inputs(number, base), mbpp_inputs(number, plus)
    else:
        found = _literal_inputs(record["test"]) if isinstance(record.get("test"), str) else None
        if found is None:
            raise ValueError("the record has no 'base_input' (nor a 'test' holding a literal 'inputs = [...]')")
        base, plus = found, []
    inputs = [*base, *plus]
    if not inputs or any(not isinstance(a, (list, tuple)) for a in inputs):
        raise ValueError("'base_input' and 'plus_input' must hold at least one argument list")
    atol = record.get("atol") or 0
    if type(atol) not in (int, float) or not math.isfinite(atol) or atol < 0:
        raise ValueError(f"'atol' must be a number >= 0, got {atol!r}")
    reference = code if _defines(code, entry_point) else prompt + code
    return Problem(task_id, "mbpp" if mbpp else "humaneval", prompt, entry_point, reference,
                   tuple(list(a) for a in inputs), len(base), float(atol))


def _defines(code: str, name: str) -> bool:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return False
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name for n in tree.body)


# -- the reference's answers, computed in the sandbox and cached ------------------------------------


def cache_dir() -> Path:
    """Where the reference's answers are kept (``sandbox.image.default_cache_dir``/evalplus)."""
    from sandbox.image import default_cache_dir

    return default_cache_dir() / "evalplus"


_answers: dict[str, list[dict]] = {}  # this process's copy of the cache, by key


def _image_key(problem: Problem, image: str) -> str:
    return hashlib.sha256(f"{image}\n{problem.key}".encode()).hexdigest()


def _cached(key: str) -> list[dict] | None:
    if key not in _answers:
        path = cache_dir() / f"{key}.json"
        try:
            _answers[key] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
    return _answers[key]


def _store(key: str, answers: list[dict]) -> None:
    _answers[key] = answers
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f"{key}.json.part"
        partial.write_text(json.dumps(answers), encoding="utf-8")
        partial.replace(folder / f"{key}.json")
    except OSError as e:  # a read-only home: answers are computed again next time
        log.warning("evalplus: cannot cache the reference's answers in %s: %s", folder, e)


def _driver(problem: Problem) -> str:
    answer = "value is not None" if problem.dataset == "mbpp" and problem.entry_point in OUTPUT_NOT_NONE else "value"
    return problem.reference.rstrip("\n") + "\n" + _DRIVER.format(
        encode=inspect.getsource(encode_value), decode=inspect.getsource(decode_value), entry=problem.entry_point,
        answer=answer)


def _probe(problem: Problem, groups: list[list[int]], time_s: float) -> Job:
    tests = [TestCase(kind="stdio", stdin=json.dumps(encode_value([problem.inputs[i] for i in group])),
                      expected_stdout="") for group in groups]
    return Job(program=_driver(problem), tests=tuple(tests), capture_output=True, job_id=problem.task_id,
               limits=Limits(time_limit_s=time_s, memory_limit_mb=MEMORY_MB, output_limit_bytes=64 << 20))


def _lines(result) -> list[dict] | None:
    """A probe test's answers, one per input; None when the process did not answer them all."""
    output = result.output
    if output is None or output.exit_code != 0 or output.stdout_truncated:
        return None
    try:
        return [json.loads(line) for line in output.stdout.splitlines()]
    except ValueError:
        return None


def compute_answers(problems: Sequence[Problem]) -> None:
    """Run each problem's reference on its inputs in the sandbox, one batch, and cache the answers
    (``{"value": tagged, "cpu_s": s}`` or ``{"raised": why}`` per input). Inputs go CHUNK to a
    process; a chunk that does not answer whole (a limit, a crash) is run again one input each.

    Raises:
        DockerUnavailable, ImageMissing: no Docker, or no image (the message says it was this
            adapter's step, and how to fix it).
    """
    from sandbox import DockerExecutor
    from sandbox.image import image_tag

    if not problems:
        return
    image = image_tag()
    n_inputs = sum(len(p.inputs) for p in problems)
    log.info("evalplus: computing the reference's answers on %d inputs of %d task(s) in the sandbox (cached in %s)",
             n_inputs, len(problems), cache_dir())
    try:
        with DockerExecutor() as executor:
            chunks = [[list(range(i, min(i + CHUNK, len(p.inputs)))) for i in range(0, len(p.inputs), CHUNK)]
                      for p in problems]
            verdicts = executor.run([_probe(p, groups, 60.0) for p, groups in zip(problems, chunks, strict=True)])
            answers: list[list[dict | None]] = [[None] * len(p.inputs) for p in problems]
            again: list[tuple[int, int]] = []
            for n, (groups, verdict) in enumerate(zip(chunks, verdicts, strict=True)):
                results = list(verdict.test_results) + [None] * (len(groups) - len(verdict.test_results))
                for group, result in zip(groups, results, strict=True):
                    lines = _lines(result) if result is not None else None
                    if lines is None or len(lines) != len(group):
                        again += [(n, i) for i in group]
                        continue
                    for i, line in zip(group, lines, strict=True):
                        answers[n][i] = line
            if again:
                singles = executor.run([_probe(problems[n], [[i]], MAX_TIME_S) for n, i in again])
                for (n, i), verdict in zip(again, singles, strict=True):
                    lines = _lines(verdict.test_results[0]) if verdict.test_results else None
                    answers[n][i] = lines[0] if lines and len(lines) == 1 else {
                        "raised": verdict.message or (verdict.test_results[0].message if verdict.test_results
                                                      else verdict.status) or verdict.status}
    except (DockerUnavailable, ImageMissing) as e:
        raise type(e)(f"the evalplus adapter computes each task's expected values by running its reference in the "
                      f"sandbox (once: they are cached in {cache_dir()}), and cannot: {e}") from None
    for problem, found in zip(problems, answers, strict=True):
        _store(_image_key(problem, image), [a if a is not None else {"raised": "no answer"} for a in found])


def prepare(records: Sequence[dict]) -> None:
    """Compute, in one sandbox batch, the answers of every record whose answers are not cached:
    ``task_from_record`` then reads them. Records that do not fit the schema are left to
    ``task_from_record``, which names them."""
    from sandbox.image import image_tag

    image = image_tag()
    missing: dict[str, Problem] = {}
    for record in records:
        try:
            problem = read_problem(record)
        except (ValueError, TypeError, KeyError):
            continue
        key = _image_key(problem, image)
        if _cached(key) is None:
            missing.setdefault(key, problem)
    if missing:
        compute_answers(list(missing.values()))


def answers_of(problem: Problem) -> list[dict]:
    """The reference's answer on each of the problem's inputs: cached, else computed now."""
    from sandbox.image import image_tag

    key = _image_key(problem, image_tag())
    found = _cached(key)
    if found is None:
        compute_answers([problem])
        found = _cached(key)
    if found is None or len(found) != len(problem.inputs):
        raise ValueError("the reference's answers could not be computed")
    return found


# -- tests ----------------------------------------------------------------------------------------


def is_floats(value) -> bool:
    """Whether evalplus holds ``value`` to a tolerance (its ``is_floats``): a float, or a list or
    tuple of floats."""
    return isinstance(value, float) or (isinstance(value, (list, tuple)) and all(isinstance(v, float) for v in value))


def json_data(value) -> bool:
    """Whether ``value`` is JSON data a ``call`` test carries exactly: None, bool, int, finite
    float, str, and lists and str-keyed dicts of them."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return True
    if kind is float:
        return math.isfinite(value)
    if kind is list:
        return all(json_data(v) for v in value)
    if kind is dict:
        return all(type(k) is str and json_data(v) for k, v in value.items())
    return False


def source(value) -> str:
    """``value`` (plain data) as Python source that makes it again, exact types kept."""
    kind = type(value)
    if kind is float and not math.isfinite(value):
        return f'float("{value!r}")'
    if kind is complex:
        return f"complex({source(value.real)}, {source(value.imag)})"
    if kind is list:
        return "[" + ", ".join(map(source, value)) + "]"
    if kind is tuple:
        inner = ", ".join(map(source, value))
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if kind is dict:
        return "{" + ", ".join(f"{source(k)}: {source(v)}" for k, v in value.items()) + "}"
    if kind in (set, frozenset):
        inner = ", ".join(sorted(map(source, value)))
        return f"{kind.__name__}({{{inner}}})" if inner else f"{kind.__name__}()"
    return repr(value)


# evalplus's comparison, for the assert tests (it runs in the judge, on the plain data returned)
EQUAL = '''def _evalplus_equal(out, exp, atol):
    if out == exp:
        return True
    floats = isinstance(exp, (list, tuple)) and all(isinstance(x, float) for x in exp)
    if atol == 0 and (isinstance(exp, float) or floats):
        atol = 1e-6
    if atol == 0 or type(out) is not type(exp) or (isinstance(exp, (list, tuple)) and len(out) != len(exp)):
        return False

    def flat(x):
        return [z for y in x for z in flat(y)] if isinstance(x, (list, tuple)) else [x]

    got, want = flat(out), flat(exp)
    numbers = (int, float)
    return len(got) == len(want) and all(isinstance(a, numbers) and isinstance(b, numbers)
                                         and abs(a - b) <= atol + 1e-07 * abs(b) for a, b in zip(got, want))


'''
POLY = '''import math


def _poly(xs, x):
    return sum(coeff * math.pow(x, i) for i, coeff in enumerate(xs))


'''


def _oracle_test(problem: Problem, args: list, expected, call: str) -> str | None:
    """An evalplus special oracle's assert test for this input, or None for a plain comparison."""
    name = problem.entry_point
    if problem.dataset == "humaneval" and name == "find_zero":
        return f"{POLY}assert abs(_poly(*{source(args)}, {call})) <= {problem.atol!r}"
    if problem.dataset != "mbpp":
        return None
    if name == "are_equivalent":  # evalplus accepts any value (Mbpp/164)
        return call
    if name == "sum_div":  # the reference's value, or 0 (Mbpp/295)
        return f"{EQUAL}_out = {call}\nassert _out == 0 or _evalplus_equal(_out, {source(expected)}, {problem.atol!r})"
    if name in OUTPUT_NOT_NONE:  # None or not, as the reference's answer
        return f"assert ({call} is not None) == {source(expected)}"
    return None


def test_of(problem: Problem, args: list, expected, visibility: str) -> TestCase:
    """The test of one input (see the module docstring)."""
    call = f"{problem.entry_point}({', '.join(source(a) for a in args)})"
    oracle = _oracle_test(problem, args, expected, call)
    if oracle is not None:
        return TestCase(kind="assert", code=oracle, visibility=visibility)
    if json_data(list(args)) and json_data(expected):
        atol = problem.atol or (FLOAT_ATOL if is_floats(expected) else 0.0)
        return TestCase(kind="call", fn_name=problem.entry_point, args=list(args), expected=expected,
                        atol=atol, rtol=RTOL if atol else 0.0, visibility=visibility)
    return TestCase(kind="assert", code=f"{EQUAL}assert _evalplus_equal({call}, {source(expected)}, {problem.atol!r})",
                    visibility=visibility)


def shown_calls(prompt: str, entry_point: str) -> set[str]:
    """The calls of ``entry_point`` the prompt shows (``>>> f(...)`` examples, ``assert`` lines),
    each as ``ast.unparse`` writes it."""
    calls = set()
    for line in prompt.splitlines():
        text = line.strip().removeprefix(">>>").strip().removeprefix("assert").strip()
        try:
            tree = ast.parse(text, mode="eval")
        except (SyntaxError, ValueError, RecursionError):
            continue
        calls |= {ast.unparse(node) for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == entry_point}
    return calls


def task_from_record(record: dict, index: int) -> Task:
    """The ``Task`` of one record of the data set (``index``: its place, for errors); its expected
    values are the reference's answers (``prepare`` computes those of a whole data set at once).

    Raises:
        ValueError: the record does not fit the schema, or its reference fails on every input.
        DockerUnavailable, ImageMissing: the answers are not cached and the sandbox cannot run.
    """
    problem = read_problem(record)
    answers = answers_of(problem)
    shown = shown_calls(problem.prompt, problem.entry_point)
    tests, dropped, slowest = [], 0, 0.0
    for args, answer in zip(problem.inputs, answers, strict=True):
        try:
            expected = decode_value(answer["value"])
        except (KeyError, ValueError, TypeError):
            dropped += 1
            continue
        slowest = max(slowest, float(answer.get("cpu_s") or 0.0))
        call = f"{problem.entry_point}({', '.join(source(a) for a in args)})"
        try:
            visibility = "public" if ast.unparse(ast.parse(call, mode="eval")) in shown else "hidden"
        except (SyntaxError, ValueError, RecursionError):
            visibility = "hidden"
        tests.append(test_of(problem, args, expected, visibility))
    if not tests:
        raise ValueError(f"the reference fails on every input ({answers[0].get('raised', 'no answer')})")
    if dropped:
        log.warning("evalplus: %s: the reference fails on %d of %d inputs; they have no test", problem.task_id,
                    dropped, len(problem.inputs))
    time_s = min(MAX_TIME_S, max(MIN_TIME_S, TIME_FACTOR * slowest))
    return Task(task_id=problem.task_id, prompt=problem.prompt, tests=tuple(tests), language="python",
                entry_point=problem.entry_point, reference_solution=problem.reference,
                limits=Limits(time_limit_s=time_s, memory_limit_mb=MEMORY_MB),
                metadata={"source": "evalplus", "dataset": problem.dataset, "index": index,
                          "base_inputs": problem.n_base, "plus_inputs": len(problem.inputs) - problem.n_base,
                          "atol": problem.atol, "dropped_inputs": dropped})
