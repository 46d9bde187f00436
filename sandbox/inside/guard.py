"""``assert`` test code, compiled by the runner for the judge: which names are the program's,
and whether the test can be judged across the process boundary at all.

Stdlib only; runs in the runner (it needs ``ast``, which test processes do not load), and on the
host (``sandbox.types.Job`` refuses a test the judge cannot run, when a suite is loaded).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .messages import JudgedTest

_BUILTIN_NAMES = frozenset(dir(__import__("builtins")))
_STDLIB = frozenset(getattr(__import__("sys"), "stdlib_module_names", ()))
METHOD_CALL = "__grpo_method__"
ASYNC_RUN = "__grpo_async_run__"  # asyncio.run(...) in a test: the program's coroutine runs in its process


def bound_names(tree: ast.AST) -> set[str]:
    """Every name that ``tree`` binds anywhere (assignments, definitions, arguments, imports,
    loop and comprehension targets, ``except ... as``, ``global``): conservatively, the test's own."""
    return _scan(tree)[0]


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)  # bind ``name``
_IMPORTS = (ast.Import, ast.ImportFrom)  # bind each alias's first part
_DECLARATIONS = (ast.Global, ast.Nonlocal)  # bind ``names``
_PATTERN_NAMES = (ast.MatchAs, ast.MatchStar, ast.ExceptHandler)  # bind ``name`` where set


def _scan(tree: ast.AST) -> tuple[set[str], set[str], set[str]]:
    """One walk over ``tree``: the names it binds (``bound_names``), the names it reads, and the
    names read somewhere other than as the object of an attribute (``x`` of ``f(x)``, not ``x``
    before a dot: a standard module the test names without importing is only ever read there)."""
    bound: set[str] = set()
    loads: set[str] = set()
    not_attribute: set[str] = set()
    name, load, attribute, arg, mapping = ast.Name, ast.Load, ast.Attribute, ast.arg, ast.MatchMapping
    node: Any  # told apart by its exact type (a parsed tree's nodes are of ast's own classes)
    for node in ast.walk(tree):
        kind = type(node)
        if kind is name:
            (loads if type(node.ctx) is load else bound).add(node.id)
            continue
        if kind is not attribute:
            for child in ast.iter_child_nodes(node):
                if type(child) is name:
                    not_attribute.add(child.id)
        if kind is arg:
            bound.add(node.arg)
        elif kind in _DEFINITIONS:
            bound.add(node.name)
        elif kind in _IMPORTS:
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif kind in _DECLARATIONS:
            bound.update(node.names)
        elif kind in _PATTERN_NAMES:
            if node.name:
                bound.add(node.name)
        elif kind is mapping and node.rest:
            bound.add(node.rest)
    return bound, loads, not_attribute


def _call_parts(call: ast.Call) -> tuple[ast.Tuple, ast.Dict]:
    """A call's arguments as a tuple expression and a dict expression (``*a``, ``**k`` kept)."""
    args = ast.Tuple(elts=list(call.args), ctx=ast.Load())
    keys: list[ast.expr | None] = [ast.Constant(k.arg) if k.arg is not None else None for k in call.keywords]
    return args, ast.Dict(keys=keys, values=[k.value for k in call.keywords])


class _MethodCalls(ast.NodeTransformer):
    """``P(a).m(b)`` with ``P`` a program name -> ``__grpo_method__("P", (a,), {}, "m", (b,), {})``:
    the object is built and its method called in the program's process; only the plain result
    crosses."""

    def __init__(self, program: set[str]):
        self.program = program

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        func = node.func
        if (isinstance(func, ast.Attribute) and func.attr == "run" and isinstance(func.value, ast.Name)
                and func.value.id == "asyncio" and len(node.args) == 1 and not node.keywords):
            return ast.copy_location(ast.Call(func=ast.Name(ASYNC_RUN, ast.Load()), args=node.args, keywords=[]),
                                     node)
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call)
                and isinstance(func.value.func, ast.Name) and func.value.func.id in self.program):
            inner = func.value
            assert isinstance(inner.func, ast.Name)  # checked just above (for mypy)
            args, kwargs = _call_parts(inner)
            margs, mkwargs = _call_parts(node)
            return ast.copy_location(ast.Call(
                func=ast.Name(METHOD_CALL, ast.Load()),
                args=[ast.Constant(inner.func.id), args, kwargs, ast.Constant(func.attr), margs, mkwargs],
                keywords=[]), node)
        return node




def plan_assert(code: str, setup_names: frozenset[str]) -> JudgedTest | str:
    """Decide, from an ``assert`` test's code alone, how the judge runs it, and compile it.

    The names the test reads and never binds, that are not builtins nor defined by the task's
    test setup (``setup_names``), are the program's (the entry point, ``candidate`` passed on, a
    class or helper the program defines) or standard modules the test uses without importing
    them. In the judge each of the program's names is a remote reference (``judge.remote.Remote``): the
    test may call it, pass it on, keep what it returns and call its methods, read its attributes,
    iterate it, and hand the program callables of its own (they run in the judge).
    ``P(...).method(...)`` is compiled into one call made in the program's process
    (``_MethodCalls``).

    Returns:
        ``(code object, program names, module names, source, caught names)`` for the judge
        (``judge.asserts.run_test``; the caught names: the program's names the test catches in an
        ``except`` clause, exception classes the judge makes its own), or a string saying why
        the judge cannot
        run the test (it gives the program a generator, subclasses a class of the program's, or
        uses one as a context manager): such a task is refused when its suite is loaded.

    Raises:
        SyntaxError, ValueError: the test code does not compile.
    """
    tree = ast.parse(code, filename="<test>")
    bound, loads, not_attribute = _scan(tree)
    free = loads - bound - _BUILTIN_NAMES - setup_names - {METHOD_CALL, ASYNC_RUN}
    modules = {name for name in free if name in _STDLIB and name not in not_attribute}
    program = free - modules
    catches: set[str] = set()
    rewrites = False  # a call ``_MethodCalls`` rewrites: ``P(...).m(...)`` or ``asyncio.run(...)``
    for node in ast.walk(tree):  # the first refusal in the order of ``ast.walk``
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in program:
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    inner = arg.value if isinstance(arg, ast.Starred) else arg
                    if isinstance(inner, ast.GeneratorExp):
                        return (f"the test passes a generator to the program's {func.id}(): only plain data and "
                                "callables cross to the program's process (pass a list)")
            elif isinstance(func, ast.Attribute):
                rewrites = rewrites or isinstance(func.value, ast.Call) or (
                    isinstance(func.value, ast.Name) and func.value.id == "asyncio")
        elif isinstance(node, ast.ClassDef) and any(isinstance(b, ast.Name) and b.id in program for b in node.bases):
            return f"the test subclasses a class of the program's ({node.name}): it lives in another process"
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if any(isinstance(n, ast.Name) and n.id in program for n in ast.walk(item.context_expr)):
                    return "the test uses an object of the program's as a context manager (`with`)"
        elif isinstance(node, ast.ExceptHandler) and node.type:
            catches.update(n.id for n in ast.walk(node.type) if isinstance(n, ast.Name) and n.id in program)
    if rewrites:
        tree = _MethodCalls(program).visit(tree)
        ast.fix_missing_locations(tree)
        compiled = compile(tree, "<test>", "exec", dont_inherit=True)
    else:  # the same code object, without handing the tree back to the compiler
        compiled = compile(code, "<test>", "exec", dont_inherit=True)
    return compiled, tuple(sorted(program)), tuple(sorted(modules)), code, tuple(sorted(catches))


def setup_names(setup: str) -> frozenset[str]:
    """The names the task's test setup binds at its top level (what its tests may use)."""
    return frozenset(bound_names(ast.parse(setup, filename="<setup>")))
