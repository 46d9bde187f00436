"""``assert`` test code, compiled by the runner for the judge: which names are the program's,
and whether the test can be judged across the process boundary at all.

Stdlib only; runs in the runner (it needs ``ast``, which test processes do not load), and on the
host (``sandbox.types.Job`` refuses a test the judge cannot run, when a suite is loaded).
"""

from __future__ import annotations

import ast
import opcode
import sys
from types import CodeType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .messages import JudgedAssert, JudgedFile

_BUILTIN_NAMES = frozenset(dir(__import__("builtins")))
_STDLIB = frozenset(getattr(__import__("sys"), "stdlib_module_names", ()))
FILE_KINDS = ("pytest", "unittest")  # tests that are a test file, each test function or method a case
METHOD_CALL = "__grpo_method__"
ASYNC_RUN = "__grpo_async_run__"  # asyncio.run(...) in a test: the program's coroutine runs in its process
TYPE_OF = "__grpo_type__"  # type(x) in a test: the program's class where x is the program's object
VARS_OF = "__grpo_vars__"  # vars(x) in a test: the program's object's attributes
HARNESS_NAMES = frozenset({METHOD_CALL, ASYNC_RUN, TYPE_OF, VARS_OF})
_REWRITTEN_BUILTINS = {"type": TYPE_OF, "vars": VARS_OF}  # one-argument calls of these
# The opcodes that load and bind a global (``program_reads``); LOAD_GLOBAL's argument holds its name's
# index shifted left by one from Python 3.11 on.
_LOAD_GLOBAL, _LOAD_NAME, _EXTENDED_ARG = (opcode.opmap[n] for n in ("LOAD_GLOBAL", "LOAD_NAME", "EXTENDED_ARG"))
_BINDS_GLOBAL = frozenset(opcode.opmap[n] for n in ("STORE_GLOBAL", "DELETE_GLOBAL"))
_BINDS_NAME = frozenset(opcode.opmap[n] for n in ("STORE_NAME", "DELETE_NAME"))  # at the top level: a global
_GLOBAL_SHIFT = 1 if sys.version_info >= (3, 11) else 0
_CLASS_POSITIONS = {"isinstance": (1,), "issubclass": (0, 1), "raises": (0,), "assertRaises": (0,),
                    "assertRaisesRegex": (0,), "assertIsInstance": (1,), "assertNotIsInstance": (1,)}


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


class _Rewrites(ast.NodeTransformer):
    """What the judge does for a test in the program's process or with its own help:
    ``P(a).m(b)`` with ``P`` a program name -> ``__grpo_method__("P", (a,), {}, "m", (b,), {})`` (the
    object is built and its method called in the program's process: one call, whose arguments'
    changes all come back); ``asyncio.run(c)`` -> ``__grpo_async_run__(c)``; ``type(x)`` and
    ``vars(x)`` (the builtins, not a name the test binds) -> the judge's own, which ask the
    program's process where ``x`` is the program's object."""

    def __init__(self, program: set[str], bound: set[str]):
        self.program, self.bound = program, bound

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        func = node.func
        if (isinstance(func, ast.Name) and func.id in _REWRITTEN_BUILTINS and func.id not in self.bound
                and func.id not in self.program and len(node.args) == 1 and not node.keywords):
            return ast.copy_location(ast.Call(func=ast.Name(_REWRITTEN_BUILTINS[func.id], ast.Load()),
                                              args=node.args, keywords=[]), node)
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


def _class_names(node: ast.AST, program: set[str]) -> set[str]:
    """The program's names a test uses as classes to catch or check against: in an ``except``
    clause, as ``isinstance``'s and ``issubclass``'s classes, as what ``raises`` and
    ``assertRaises`` expect (exception classes of the program's the judge makes its own)."""
    names: set[str] = set()
    if isinstance(node, ast.ExceptHandler) and node.type:
        names.update(n.id for n in ast.walk(node.type) if isinstance(n, ast.Name) and n.id in program)
    elif isinstance(node, ast.Call):
        func = node.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        for position in _CLASS_POSITIONS.get(called or "", ()):
            if position < len(node.args):
                names.update(n.id for n in ast.walk(node.args[position])
                             if isinstance(n, ast.Name) and n.id in program)
    return names


def _free_names(tree: ast.AST, setup_names: frozenset[str], entry_point: str | None) -> tuple[set[str], set[str],
                                                                                              set[str]]:
    """``(bound, program, modules)`` of test code: the names it binds; the names it reads and never
    binds, that are not builtins nor the setup's, which are the program's (the ``entry_point``
    always, whatever its name) or standard modules it names without importing them."""
    bound, loads, not_attribute = _scan(tree)
    builtin_names = _BUILTIN_NAMES - {entry_point} if entry_point else _BUILTIN_NAMES
    free = loads - bound - builtin_names - setup_names - HARNESS_NAMES
    modules = {name for name in free if name in _STDLIB and name not in not_attribute and name != entry_point}
    return bound, free - modules, modules


def plan_assert(code: str, setup_names: frozenset[str], entry_point: str | None = None) -> JudgedAssert | str:
    """Decide, from an ``assert`` test's code alone, how the judge runs it, and compile it.

    The names the test reads and never binds, that are not builtins nor defined by the task's
    test setup (``setup_names``), are the program's (the entry point, ``candidate`` passed on, a
    class or helper the program defines) or standard modules the test uses without importing
    them; the task's ``entry_point`` is the program's whatever its name (a function named ``max``
    or ``pow``: as where the test runs in the program's namespace). In the judge each of the
    program's names is a remote reference (``judge.remote.Remote``): the test may call it, pass it
    on, keep what it returns and call its methods, read its attributes, iterate it, use it as a
    context manager, and hand the program callables and iterators of its own (they run in the
    judge). Some calls are compiled into what the judge does for them (``_Rewrites``).

    Returns:
        ``(code object, program names, module names, source, class names)`` for the judge
        (``judge.asserts.run_test``; the class names: the program's names the test catches or
        checks classes against, exception classes the judge makes its own), or a string saying
        why the judge cannot run the test (it subclasses a class of the program's): such a task is
        refused when its suite is loaded.

    Raises:
        SyntaxError, ValueError: the test code does not compile.
    """
    tree = ast.parse(code, filename="<test>")
    bound, program, modules = _free_names(tree, setup_names, entry_point)
    catches: set[str] = set()
    rewrites = False  # a call ``_Rewrites`` rewrites
    for node in ast.walk(tree):  # the first refusal in the order of ``ast.walk``
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                rewrites = rewrites or isinstance(func.value, ast.Call) or (
                    isinstance(func.value, ast.Name) and func.value.id == "asyncio")
            elif isinstance(func, ast.Name) and func.id in _REWRITTEN_BUILTINS and func.id not in bound:
                rewrites = True
        elif isinstance(node, ast.ClassDef) and any(isinstance(b, ast.Name) and b.id in program for b in node.bases):
            return f"the test subclasses a class of the program's ({node.name}): it lives in another process"
        catches |= _class_names(node, program)
    if rewrites:
        tree = _Rewrites(program, bound).visit(tree)
        ast.fix_missing_locations(tree)
        compiled = compile(tree, "<test>", "exec", dont_inherit=True)
    else:  # the same code object, without handing the tree back to the compiler
        compiled = compile(code, "<test>", "exec", dont_inherit=True)
    return compiled, tuple(sorted(program)), tuple(sorted(modules)), code, tuple(sorted(catches))


def _program_imports(tree: ast.AST, modules: tuple[str, ...]) -> dict[str, str]:
    """The names a test file binds from the program's module (``from solution import f as g``:
    ``{"g": "f"}``)."""
    return {alias.asname or alias.name: alias.name for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in modules
            for alias in node.names if alias.name != "*"}


class _DropImports(ast.NodeTransformer):
    """``from solution import Matrix`` without the names ``dropped`` (``pass`` where none is left):
    those are bound as the program's globals instead, as the same names read free are."""

    def __init__(self, modules: tuple[str, ...], dropped: set[str]):
        self.modules, self.dropped = modules, dropped

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST:
        if node.level or node.module not in self.modules:
            return node
        node.names = [alias for alias in node.names if alias.asname or alias.name not in self.dropped]
        return node if node.names else ast.copy_location(ast.Pass(), node)


def _classes_made(tree: ast.AST, imported: dict[str, str]) -> set[str]:
    """The names a test file imports from the program's module as they are and calls, spelled as a
    class (``Matrix(...)``): the objects it makes of them are its own, as of a class read free."""
    called = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    return {name for name, original in imported.items() if name == original and name[:1].isupper() and name in called}


def plan_file(kind: str, code: str, module: str, setup_names: frozenset[str],
              entry_point: str | None = None) -> JudgedFile | str:
    """Decide, from a ``pytest`` or ``unittest`` test file alone, how the judge runs it, and
    compile it: as ``plan_assert``, its free names are the program's (BigCodeBench's tests use
    ``task_func`` without importing it) or standard modules; the names it imports from the
    program's module (``module``, or ``main``) are the program's too (a class it imports and calls,
    ``from solution import Matrix``, is bound as the program's global as a free name is, so what the
    test makes of it has the program's operators), and those it catches or checks classes against
    are exception classes the judge makes its own.

    Returns:
        ``(kind, code object, program names, module names, source, class names, module)`` for the
        judge (``judge.files``), or a string saying why the judge cannot run the file.

    Raises:
        SyntaxError, ValueError: the test file does not compile.
    """
    tree = ast.parse(code, filename="<test>")
    bound, program, modules = _free_names(tree, setup_names, entry_point)
    imported = _program_imports(tree, (module, "main"))
    made = _classes_made(tree, imported)
    program |= made
    classes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(isinstance(b, ast.Name) and (b.id in program or b.id in imported)
                                                  for b in node.bases):
            return f"the test subclasses a class of the program's ({node.name}): it lives in another process"
        classes |= _class_names(node, program | set(imported))
    catches = {imported.get(name, name) for name in classes}
    tree = _Rewrites(program | {name for name, original in imported.items() if name == original}, bound).visit(tree)
    tree = _DropImports((module, "main"), made).visit(tree)
    ast.fix_missing_locations(tree)
    compiled = compile(tree, "<test>", "exec", dont_inherit=True)
    return kind, compiled, tuple(sorted(program)), tuple(sorted(modules)), code, tuple(sorted(catches)), module


def setup_names(setup: str) -> frozenset[str]:
    """The names the task's test setup binds at its top level (what its tests may use)."""
    return frozenset(bound_names(ast.parse(setup, filename="<setup>")))


def program_reads(program: CodeType) -> frozenset[str]:
    """The names a Python program's code reads as globals and does not bind at its top level
    (``ListNode`` in a program that uses the test's, the prompt's ``poly`` in one that calls it
    without writing it): the only names under which the test's definitions may reach the program's
    process (``judge.environment``). Only what the program's code spells: a name it reaches by a
    string (``globals()["check"]``, ``getattr``, ``eval``) is none.

    Read from ``program``, the code object the runner compiled the program to (every function,
    class body, lambda and comprehension in it: what loads a global, what binds one), not from its
    source: that costs a tenth of parsing it again.
    """
    reads: set[str] = set()
    binds: set[str] = set()
    codes = [(program, True)]
    while codes:
        code, top = codes.pop()
        names, raw, extended = code.co_names, code.co_code, 0
        for i in range(0, len(raw), 2):  # (opcode, argument) units; inline caches read as opcode 0
            op = raw[i]
            if op == _EXTENDED_ARG:
                extended = (extended | raw[i + 1]) << 8
                continue
            arg, extended = extended | raw[i + 1], 0
            if op == _LOAD_GLOBAL:
                reads.add(names[arg >> _GLOBAL_SHIFT])
            elif op == _LOAD_NAME:
                reads.add(names[arg])
            elif op in _BINDS_GLOBAL or (top and op in _BINDS_NAME):
                binds.add(names[arg])
        codes.extend((const, False) for const in code.co_consts if type(const) is CodeType)
    return frozenset(reads - binds)
