"""Which of the program's names a job's tests use as classes: read from the tests' own code.

An object the test made from a class of the program's (``Frac(4, 2)``) has the program's own
operators and comparisons (``judge.remote``): the test asked for the class's behaviour. But the
program decides whether a name is a class: a task whose entry point is a function spelled
``CapWords`` (MBPP's ``Split``) could be answered by a class of that name whose ``__eq__`` says
True to anything. So a name counts as the test's class only where the tests themselves use it as
one, which no program can change: they read an attribute of it or of an object made from it
(an enum's member, ``Stack().push(1)``, ``s = Stack(); s.items``), check against it
(``isinstance(x, Frac)``, ``except ParseError``, ``type(x) is Point``), combine two objects made
from it (``Vector(1, 2) + Vector(3, 4)``, ``Money(1) == Money(1)``, ``sorted([Money(3),
Money(1)])``), change one in place (``b = Bag(); b += 3``), or hand one to another name of the
program's (``area(Rect(2, 3))``). A test that
only compares what it called with plain data (``assert Split([1, 2]) == [2]``) uses no class.

Stdlib only, light: the fork server loads it (``judge``); ``ast`` is imported on first use.
"""

from __future__ import annotations

from collections.abc import Iterable


def used_as_classes(sources: Iterable[tuple[str, Iterable[str], Iterable[str]]]) -> frozenset[str]:
    """The program's names that the code of ``sources`` uses as classes (the module docstring):
    each ``(source, the program's names it uses, the modules it imports the program as)`` (the
    task's test setup, each test); a source that does not parse uses none."""
    import ast

    used: set[str] = set()
    for source, names, imported_as in sources:
        modules = set(imported_as)
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        program = set(names) | {alias.asname or alias.name for node in ast.walk(tree)
                                if isinstance(node, ast.ImportFrom) and node.module in modules for alias in node.names}
        used |= _Reader(frozenset(program)).read(tree)
    return frozenset(used)


class _Reader:
    """One source's uses of the program's names as classes."""

    def __init__(self, program: frozenset[str]):
        self.program = program
        self.bound: dict[str, str] = {}  # a variable -> the program's name whose object it holds
        self.used: set[str] = set()

    def read(self, tree) -> set[str]:
        import ast

        nodes = list(ast.walk(tree))
        for _ in range(3):  # names bound to objects made from a class, then through them (a, b = a, b...)
            for node in nodes:
                self._bind(node, ast)
        for node in nodes:
            self._use(node, ast)
        return self.used

    def made_from(self, node, ast) -> str | None:
        """The program's name an expression's value was made from (``N(...)``, a variable bound to
        one, a display or a builtin's value holding one), or None."""
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in self.program:
                return node.func.id
            for argument in (*node.args, *(k.value for k in node.keywords)):
                found = self.made_from(argument, ast)
                if found is not None:
                    return found
            return None
        if isinstance(node, ast.Name):
            return self.bound.get(node.id)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            for element in node.elts:
                found = self.made_from(element, ast)
                if found is not None:
                    return found
        if isinstance(node, ast.Starred):
            return self.made_from(node.value, ast)
        return None

    def _bind(self, node, ast) -> None:
        targets: list = []
        value = None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
            targets, value = [node.target], node.value
        elif isinstance(node, (ast.For, ast.comprehension)):
            targets, value = [node.target], node.iter
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            targets, value = [node.optional_vars], node.context_expr
        if value is None:
            return
        made = self.made_from(value, ast)
        if made is None:
            return
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    self.bound[name.id] = made

    def _use(self, node, ast) -> None:
        if isinstance(node, ast.Attribute):  # ``N.attr``, ``N(...).attr``, ``x.attr``
            if isinstance(node.value, ast.Name) and node.value.id in self.program:
                self.used.add(node.value.id)
            made = self.made_from(node.value, ast)
            if made is not None:
                self.used.add(made)
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else None
            if called in ("isinstance", "issubclass") and len(node.args) == 2:
                self.used.update(n.id for n in ast.walk(node.args[1])
                                 if isinstance(n, ast.Name) and n.id in self.program)
            elif called in self.program:  # an object made from a class handed to another name of the program's
                for argument in (*node.args, *(k.value for k in node.keywords)):
                    made = self.made_from(argument, ast)
                    if made is not None and made != called:
                        self.used.add(made)
            if called is not None and called not in self.program:  # ``sorted([Money(3), Money(1)])``
                self._together(node.args, ast)
        elif isinstance(node, ast.ExceptHandler) and node.type is not None:
            self.used.update(n.id for n in ast.walk(node.type) if isinstance(n, ast.Name) and n.id in self.program)
        elif isinstance(node, ast.BinOp):
            self._together([node.left, node.right], ast)
        elif isinstance(node, ast.AugAssign):  # ``b += 3`` on an object made from it: an in-place operator of the class
            made = self.made_from(node.target, ast)
            if made is not None:
                self.used.add(made)
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            self._together(operands, ast)
            for operand in operands:  # ``type(x) is Point``
                if isinstance(operand, ast.Name) and operand.id in self.program and any(
                        isinstance(other, ast.Call) and isinstance(other.func, ast.Name) and other.func.id == "type"
                        for other in operands):
                    self.used.add(operand.id)

    def _together(self, operands, ast) -> None:
        """Two objects made from one class of the program's, or a display of them, combined."""
        made = [found for found in (self.made_from(operand, ast) for operand in operands) if found is not None]
        if len(made) >= 2 or any(
                isinstance(operand, (ast.List, ast.Tuple, ast.Set)) and sum(
                    self.made_from(element, ast) is not None for element in operand.elts) >= 2
                for operand in operands):
            self.used.update(made)
