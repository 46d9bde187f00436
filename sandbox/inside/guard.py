"""Test code for in-process ``assert`` tests: compiled so that every compared value is checked.

Stdlib only; runs in the runner (it needs ``ast``, which test processes do not load). The check
itself, ``program_process._plain``, runs in the test process.
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
