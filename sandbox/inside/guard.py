"""``assert`` test code, compiled by the runner: for the judge, or guarded for the program's process.

Stdlib only; runs in the runner (it needs ``ast``, which test processes do not load).
``plan_assert`` decides from the test's code alone whether the judge (``judge``) can run it out of
the program's process, and compiles it for the judge. A test that cannot cross (it uses the
program's objects by its own design) runs in the program's process, compiled by
``compile_guarded_test`` so that every compared value is checked by ``program_process._plain``.
"""

from __future__ import annotations

import ast

_GUARD_NAME = "__grpo_plain__"
_TESTED = (ast.Assert, ast.If, ast.While, ast.IfExp)


def _located(node, like):
    node.lineno, node.col_offset = like.lineno, like.col_offset
    node.end_lineno, node.end_col_offset = like.end_lineno, like.end_col_offset
    return node


def _wrap(expr):
    return _located(ast.Call(_located(ast.Name(_GUARD_NAME, ast.Load()), expr), [expr], []), expr)


def _guard(node) -> None:
    """Route every compared or truth-tested value under ``node`` through ``__grpo_plain__``."""
    for field in node._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            for item in value:
                if isinstance(item, ast.AST):
                    _guard(item)
        elif isinstance(value, ast.AST):
            _guard(value)
    kind = type(node)
    if kind is ast.Compare:
        node.left = _wrap(node.left)
        node.comparators = [_wrap(c) for c in node.comparators]
    elif kind is ast.BoolOp:
        node.values = [_wrap(v) for v in node.values]
    elif kind is ast.UnaryOp and type(node.op) is ast.Not:
        node.operand = _wrap(node.operand)
    elif kind in _TESTED:
        node.test = _wrap(node.test)


def compile_guarded_test(code: str):
    """Compile test statements into the body of ``def __grpo_test__(__grpo_plain__): <code>``.

    Returns:
        The function's code object: ``FunctionType(code, namespace)(_plain)`` runs the test
        with the program's globals ``namespace``.

    Every compared or truth-tested value passes through the guard (``_plain``), so a value
    whose ``__eq__`` or ``__bool__`` is the program's code fails the test. The guard arrives
    as an argument (a local, or a closure cell in nested functions), so the program cannot
    replace it through the shared globals.

    Raises:
        SyntaxError: the test code does not compile.
    """
    module = ast.parse(code, filename="<test>")
    for stmt in module.body:
        _guard(stmt)
    top = module.body[0] if module.body else _located(ast.Pass(), ast.Pass(lineno=1, col_offset=0,
                                                                             end_lineno=1, end_col_offset=0))
    arg = _located(ast.arg(_GUARD_NAME), top)
    fn = _located(ast.FunctionDef(
        name="__grpo_test__",
        args=ast.arguments(posonlyargs=[], args=[arg], vararg=None, kwonlyargs=[], kw_defaults=[],
                           kwarg=None, defaults=[]),
        body=module.body or [top], decorator_list=[], returns=None), top)
    module_code = compile(ast.Module(body=[fn], type_ignores=[]), "<test>", "exec", dont_inherit=True)
    return next(const for const in module_code.co_consts if isinstance(const, type(module_code)))


# --------------------------------------------------------------------------------------
# Tests the judge runs: which names are the program's, and whether the test can cross
# --------------------------------------------------------------------------------------

_BUILTIN_NAMES = frozenset(dir(__import__("builtins")))
_STDLIB = frozenset(getattr(__import__("sys"), "stdlib_module_names", ()))
METHOD_CALL = "__grpo_method__"


def bound_names(tree: ast.AST) -> set[str]:
    """Every name that ``tree`` binds anywhere (assignments, definitions, arguments, imports,
    loop and comprehension targets, ``except ... as``, ``global``): conservatively, the test's own."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
    return names


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _call_parts(call: ast.Call) -> tuple[ast.Tuple, ast.Dict]:
    """A call's arguments as a tuple expression and a dict expression (``*a``, ``**k`` kept)."""
    args = ast.Tuple(elts=list(call.args), ctx=ast.Load())
    keys = [ast.Constant(k.arg) if k.arg is not None else None for k in call.keywords]
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
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call)
                and isinstance(func.value.func, ast.Name) and func.value.func.id in self.program):
            inner = func.value
            args, kwargs = _call_parts(inner)
            margs, mkwargs = _call_parts(node)
            return ast.copy_location(ast.Call(
                func=ast.Name(METHOD_CALL, ast.Load()),
                args=[ast.Constant(inner.func.id), args, kwargs, ast.Constant(func.attr), margs, mkwargs],
                keywords=[]), node)
        return node


def plan_assert(code: str, setup_names: frozenset[str]) -> tuple | str:
    """Decide, from an ``assert`` test's code alone, how the judge runs it, and compile it.

    The names the test reads and never binds, that are not builtins nor defined by the task's
    test setup (``setup_names``), are the program's (the entry point, ``candidate`` passed on, a
    helper the program defines) or standard modules the test uses without importing them. The
    test can be judged out of process when it only calls the program's names or passes them on
    as arguments, and passes them no callback; ``P(...).method(...)`` is compiled into one call
    made in the program's process (``_MethodCalls``).

    Returns:
        ``(code object, program names, module names, source)`` for the judge (``judge.run_test``),
        or a string saying why the test must be judged in the program's process (it uses a
        name of the program's as a value, calls methods of an object of the program's that it
        keeps, or passes a callback).

    Raises:
        SyntaxError, ValueError: the test code does not compile.
    """
    tree = ast.parse(code, filename="<test>")
    bound = bound_names(tree)
    loads = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    free = loads - bound - _BUILTIN_NAMES - setup_names - {METHOD_CALL}
    parents = _parents(tree)
    modules, program = set(), set()
    for name in free:
        uses = [parents.get(id(n)) for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name]
        as_module = all(isinstance(p, ast.Attribute) for p in uses)
        (modules if name in _STDLIB and as_module else program).add(name)
    defined = {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                         ast.ClassDef))}
    objects = set()  # names the test binds to what a class-like program name builds
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in program:
            parent = parents.get(id(node))
            if isinstance(parent, ast.Call) and parent.func is node:
                for arg in [*parent.args, *(k.value for k in parent.keywords)]:
                    inner = arg.value if isinstance(arg, ast.Starred) else arg
                    if isinstance(inner, (ast.Lambda, ast.GeneratorExp)) or (
                            isinstance(inner, ast.Name) and inner.id in defined):
                        return f"the test passes a callback to the program's {node.id}()"
                holder = parents.get(id(parent))
                if isinstance(holder, ast.Attribute) and not isinstance(parents.get(id(holder)), ast.Call):
                    return f"the test reads an attribute of what the program's {node.id}() returns"
                if isinstance(holder, ast.Assign) and node.id[:1].isupper():
                    objects.update(t.id for t in holder.targets if isinstance(t, ast.Name))
            elif isinstance(parent, ast.Call) and (node in parent.args
                                                   or any(k.value is node for k in parent.keywords)):
                continue  # passed on, e.g. check(candidate): the receiver calls it
            elif not isinstance(parent, (ast.keyword, ast.Starred)):
                return f"the test uses the program's {node.id} other than by calling it"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in objects:
            return f"the test calls methods of an object of the program's that it keeps ({node.value.id})"
    tree = _MethodCalls(program).visit(tree)
    ast.fix_missing_locations(tree)
    compiled = compile(tree, "<test>", "exec", dont_inherit=True)
    return compiled, tuple(sorted(program)), tuple(sorted(modules)), code


def setup_names(setup: str) -> frozenset[str]:
    """The names the task's test setup binds at its top level (what its tests may use)."""
    return frozenset(bound_names(ast.parse(setup, filename="<setup>")))
