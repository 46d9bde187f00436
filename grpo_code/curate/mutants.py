"""Mutants of a reference solution: small semantic changes that a task's tests should catch.

A mutant is the reference with one change of a kind that mutation-testing tools make (mutmut and
cosmic-ray for Python, PIT for Java, Stryker for JavaScript): an operator swapped, a constant moved
by one, a statement or a branch removed, a condition negated, two arguments swapped, a return made
early. The audit (``grpo_code.curate.audit``) runs each against the task's tests: one they all
pass is a gap in them, unless no input tells it apart from the reference (an equivalent mutant).

Python (``python_mutants``): on the syntax tree (``ast``). Each change is spliced into the source
at the changed node's position, so the rest of the program keeps its text and the mutant reads
as the reference with one edit. Operators (``OPERATORS``):

- ``arithmetic``: ``+ -`` swapped, ``* /`` and ``// %`` to their neighbour, ``**`` to ``*``,
  ``<< >>`` and ``& | ^`` swapped, in expressions and augmented assignments; a unary minus dropped;
- ``comparison``: ``< <=``, ``> >=``, ``== !=``, ``is``/``is not``, ``in``/``not in`` swapped;
- ``boolean``: ``and``/``or`` swapped, a ``not`` dropped;
- ``constant``: ``True``/``False`` swapped, a string emptied (or an empty one filled), a float
  moved by 1;
- ``off_by_one``: an integer constant moved by 1 either way, and ``range``'s stop too;
- ``remove_statement``: a statement replaced by ``pass`` (not a definition, import or docstring);
- ``remove_branch``: an ``if``'s body or ``else`` replaced by ``pass``; a conditional expression
  replaced by one of its two values;
- ``negate_condition``: the test of an ``if``, ``while`` or conditional expression negated;
- ``swap_arguments``: a call's first two positional arguments swapped;
- ``early_return``: the function's final ``return`` copied after an earlier statement of its
  body or of a loop at its top level (a loop that stops after its first round).

Docstrings, annotations, f-strings and ``__name__ == "__main__"`` are left alone. Every mutant
compiles and parses to another tree than the reference's.

Other languages (``token_mutants``: C, C++, Java, Rust, Go, JavaScript, TypeScript): the same
operator, constant and boolean swaps, on the token stream. The lexer skips comments, string,
character and template literals, C/C++ preprocessor lines and JavaScript/TypeScript imports; a
binary operator is changed only when it stands between spaces (``a < b``, never ``vector<int>``,
``*p`` or ``-1``), and an integer literal only when it is plain decimal digits. Nothing checks
that such a mutant compiles: one that does not is ``compile_error`` in the sandbox, and the audit
counts it as stillborn, in no score (as PIT and Stryker do). Statement removal, negation and swaps need a parser of each
language and are not made there.

``mutants`` enumerates every candidate, keeps distinct programs, and picks at most ``limit`` of
them deterministically (``seed``): operators in turn, each operator's candidates in a seeded
shuffle, so a small budget still covers every kind of change.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

OPERATORS = ("arithmetic", "comparison", "boolean", "constant", "off_by_one", "remove_statement", "remove_branch",
             "negate_condition", "swap_arguments", "early_return")
TOKEN_LANGUAGES = ("c", "cpp", "java", "rust", "go", "javascript", "typescript")


@dataclass(frozen=True)
class Mutant:
    """One mutant of a program.

    Attributes:
        operator: which change (one of ``OPERATORS``).
        line: the changed line of the original program (1-based).
        before: the original text that changed (one line at most, shortened).
        after: what it became.
        program: the whole mutated program.
    """

    operator: str
    line: int
    before: str
    after: str
    program: str

    @property
    def description(self) -> str:
        """``line N: `before` -> `after``` (the change as a person reads it)."""
        return f"line {self.line}: `{self.before}` -> `{self.after}` ({self.operator.replace('_', ' ')})"

    def to_dict(self) -> dict:
        """The mutant as JSON-ready data (``audit.json``)."""
        return {"operator": self.operator, "line": self.line, "before": self.before, "after": self.after,
                "program": self.program}


def mutants(program: str, language: str, limit: int, seed: int = 0) -> list[Mutant]:
    """At most ``limit`` distinct mutants of ``program``, picked deterministically by ``seed``.

    Args:
        program: the reference solution (its source).
        language: its language (``python`` on the syntax tree, the others on tokens).
        limit: the most mutants to return (at least 0).
        seed: the seed of the choice when there are more candidates than ``limit``.

    Raises:
        ValueError: a language neither method covers, or a negative limit.
    """
    if limit < 0:
        raise ValueError(f"the mutant limit must be >= 0, got {limit}")
    if language == "python":
        candidates = python_mutants(program)
    elif language in TOKEN_LANGUAGES:
        candidates = token_mutants(program, language)
    else:
        raise ValueError(f"no mutation method for {language!r}; known: python, {', '.join(TOKEN_LANGUAGES)}")
    return pick(candidates, limit, seed)


def pick(candidates: list[Mutant], limit: int, seed: int) -> list[Mutant]:
    """Distinct programs among ``candidates``, at most ``limit``: the operators in turn (in
    ``OPERATORS`` order), each operator's candidates in an order shuffled by ``seed``."""
    seen: set[str] = set()
    groups: dict[str, list[Mutant]] = {op: [] for op in OPERATORS}
    for m in candidates:
        if m.program not in seen:
            seen.add(m.program)
            groups[m.operator].append(m)
    rng = random.Random(seed)
    for op in OPERATORS:
        rng.shuffle(groups[op])
    picked: list[Mutant] = []
    while len(picked) < limit and any(groups.values()):
        for op in OPERATORS:
            if groups[op] and len(picked) < limit:
                picked.append(groups[op].pop(0))
    return picked


def _short(text: str, width: int = 60) -> str:
    line = " ".join(text.strip().split())
    return line if len(line) <= width else line[: width - 3] + "..."


# -- Python: the syntax tree ------------------------------------------------------------------

_BINOPS: dict[type[ast.operator], tuple[type[ast.operator], ...]] = {
    ast.Add: (ast.Sub,), ast.Sub: (ast.Add,), ast.Mult: (ast.Div,), ast.Div: (ast.Mult,),
    ast.FloorDiv: (ast.Div, ast.Mod), ast.Mod: (ast.FloorDiv,), ast.Pow: (ast.Mult,),
    ast.LShift: (ast.RShift,), ast.RShift: (ast.LShift,), ast.BitAnd: (ast.BitOr,), ast.BitOr: (ast.BitAnd,),
    ast.BitXor: (ast.BitAnd,),
}
_BINOP_TEXT = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
               ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
               ast.MatMult: "@"}
_CMPOPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In,
}
_CMP_TEXT = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is",
             ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
# how each comparison reads in source (``not  in`` is one operator whatever the spaces)
_CMP_PATTERN = {ast.Lt: r"<(?!=)", ast.LtE: r"<=", ast.Gt: r">(?!=)", ast.GtE: r">=", ast.Eq: r"==", ast.NotEq: r"!=",
                ast.Is: r"\bis\b(?!\s+not\b)", ast.IsNot: r"\bis\s+not\b", ast.In: r"(?<!not )\bin\b",
                ast.NotIn: r"\bnot\s+in\b"}
_SIMPLE = (ast.Name, ast.Constant, ast.Call, ast.Attribute, ast.Subscript)


class _Source:
    """A program's text as UTF-8 bytes, addressed by the ``(line, column)`` positions of ``ast``
    (columns are byte offsets)."""

    def __init__(self, text: str):
        self.data = text.encode("utf-8")
        self.starts = [0]
        for i, byte in enumerate(self.data):
            if byte == 0x0A:
                self.starts.append(i + 1)

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def start(self, node: ast.AST) -> int:
        return self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]

    def end(self, node: ast.AST) -> int:
        return self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]

    def text(self, a: int, b: int) -> str:
        return self.data[a:b].decode("utf-8", "replace")

    def segment(self, node: ast.AST) -> str:
        return self.text(self.start(node), self.end(node))

    def indentation(self, node: ast.stmt) -> str | None:
        """The whitespace before ``node`` on its line, when nothing else comes before it."""
        before = self.text(self.starts[node.lineno - 1], self.start(node))
        return before if before.strip() == "" else None


@dataclass(frozen=True)
class _Edit:
    operator: str
    node: ast.AST
    edits: tuple[tuple[int, int, str], ...]  # (start, end, replacement), byte offsets
    before: str
    after: str


def _skipped(tree: ast.Module) -> set[int]:
    """The ids of nodes never mutated: docstrings, annotations, f-strings (their inner positions
    are not reliable before Python 3.12) and ``__name__ == "__main__"`` tests, with their subtrees."""
    roots: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                roots.append(first)
        if isinstance(node, ast.JoinedStr):
            roots.append(node)
        if isinstance(node, ast.arg) and node.annotation is not None:
            roots.append(node.annotation)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            roots.append(node.returns)
        if isinstance(node, ast.AnnAssign):
            roots.append(node.annotation)
        if isinstance(node, ast.Compare) and any(isinstance(n, ast.Name) and n.id == "__name__"
                                                 for n in [node.left, *node.comparators]):
            roots.append(node)
    return {id(n) for root in roots for n in ast.walk(root)}


def _gap_edit(src: _Source, a: int, b: int, pattern: str, replacement: str) -> tuple[int, int, str] | None:
    """The edit that replaces the operator matching ``pattern`` between offsets ``a`` and ``b``
    (the text between two operands: the operator, spaces, parentheses); None when it is not
    found there or the gap holds a comment."""
    gap = src.text(a, b)
    if "#" in gap:
        return None
    m = re.search(pattern, gap)
    if m is None:
        return None
    start = a + len(gap[: m.start()].encode("utf-8"))
    return start, start + len(m.group(0).encode("utf-8")), replacement


def _python_edits(tree: ast.Module, src: _Source) -> Iterator[_Edit]:
    skip = _skipped(tree)
    # a negative literal changes as one constant (its UnaryOp), never its positive part alone
    negated = {id(n.operand) for n in ast.walk(tree)
               if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub) and isinstance(n.operand, ast.Constant)}
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for node in ast.walk(tree):
        if id(node) in skip or id(node) in negated:
            continue
        yield from _expression_edits(node, src)
        yield from _statement_edits(node, src, skip)
    for function in functions:
        if id(function) not in skip:
            yield from _early_returns(function, src)


def _expression_edits(node: ast.AST, src: _Source) -> Iterator[_Edit]:
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        old = _BINOP_TEXT[type(node.op)]
        for new_op in _BINOPS[type(node.op)]:
            new = _BINOP_TEXT[new_op]
            edit = _gap_edit(src, src.end(node.left), src.start(node.right), re.escape(old), new)
            if edit:
                yield _Edit("arithmetic", node, (edit,), old, new)
    elif isinstance(node, ast.AugAssign) and type(node.op) in _BINOPS:
        old = _BINOP_TEXT[type(node.op)] + "="
        new = _BINOP_TEXT[_BINOPS[type(node.op)][0]] + "="
        edit = _gap_edit(src, src.end(node.target), src.start(node.value), re.escape(old), new)
        if edit:
            yield _Edit("arithmetic", node, (edit,), old, new)
    elif isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        for i, op in enumerate(node.ops):
            new = _CMP_TEXT[_CMPOPS[type(op)]]
            edit = _gap_edit(src, src.end(operands[i]), src.start(operands[i + 1]), _CMP_PATTERN[type(op)],
                             new)
            if edit:
                yield _Edit("comparison", node, (edit,), _CMP_TEXT[type(op)], new)
    elif isinstance(node, ast.BoolOp):
        old, new = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
        edits = [_gap_edit(src, src.end(a), src.start(b), rf"\b{old}\b", new)
                 for a, b in zip(node.values, node.values[1:], strict=False)]
        if all(edits):
            yield _Edit("boolean", node, tuple(e for e in edits if e), old, new)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            value = node.operand.value
            if isinstance(value, (int, float)):  # a negative literal (bool too: -True is -1)
                yield from _constant_edits(node, -value, src)
            return
        edit = (src.start(node), src.start(node.operand), "")
        yield _Edit("boolean" if isinstance(node.op, ast.Not) else "arithmetic", node, (edit,),
                    _short(src.segment(node)), _short(src.segment(node.operand)))
    elif isinstance(node, ast.Constant):
        yield from _constant_edits(node, node.value, src)
    elif isinstance(node, ast.Call):
        yield from _call_edits(node, src)
    elif isinstance(node, ast.IfExp):
        for kept in (node.body, node.orelse):
            edit = (src.start(node), src.end(node), f"({src.segment(kept)})")
            yield _Edit("remove_branch", node, (edit,), _short(src.segment(node)), _short(src.segment(kept)))
        yield _negated(node.test, node, src)


def _constant_edits(node: ast.AST, value, src: _Source) -> Iterator[_Edit]:
    if isinstance(value, bool):
        yield _replace(node, "constant", repr(not value), src)
    elif isinstance(value, int):
        for new in (value + 1, value - 1):
            yield _replace(node, "off_by_one", f"({new})" if new < 0 else str(new), src)
    elif isinstance(value, float):
        new_float = value + 1.0
        yield _replace(node, "constant", f"({new_float!r})" if new_float < 0 else repr(new_float), src)
    elif isinstance(value, str):
        yield _replace(node, "constant", '"XX"' if value == "" else '""', src)


def _replace(node: ast.AST, operator: str, text: str, src: _Source) -> _Edit:
    return _Edit(operator, node, ((src.start(node), src.end(node), text),), _short(src.segment(node)), text)


def _call_edits(node: ast.Call, src: _Source) -> Iterator[_Edit]:
    positional = node.args
    if len(positional) >= 2 and not any(isinstance(a, ast.Starred) for a in positional[:2]):
        a, b = positional[0], positional[1]
        edits = ((src.start(a), src.end(a), src.segment(b)), (src.start(b), src.end(b), src.segment(a)))
        yield _Edit("swap_arguments", node, edits, _short(f"{src.segment(a)}, {src.segment(b)}"),
                    _short(f"{src.segment(b)}, {src.segment(a)}"))
    if isinstance(node.func, ast.Name) and node.func.id == "range" and 1 <= len(positional) <= 3 \
            and not any(isinstance(a, ast.Starred) for a in positional):
        stop = positional[0] if len(positional) == 1 else positional[1]
        text = src.segment(stop)
        operand = text if isinstance(stop, _SIMPLE) else f"({text})"
        for sign in ("+", "-"):
            yield _Edit("off_by_one", node, ((src.start(stop), src.end(stop), f"{operand} {sign} 1"),),
                        _short(text), f"{operand} {sign} 1")


def _negated(test: ast.expr, node: ast.AST, src: _Source) -> _Edit:
    text = src.segment(test)
    return _Edit("negate_condition", node, ((src.start(test), src.end(test), f"not ({text})"),), _short(text),
                 f"not ({_short(text)})")


def _statement_edits(node: ast.AST, src: _Source, skip: set[int]) -> Iterator[_Edit]:
    if isinstance(node, (ast.If, ast.While)) and id(node.test) not in skip:
        yield _negated(node.test, node, src)
    if isinstance(node, ast.If) and id(node.test) not in skip:
        for body in (node.body, node.orelse):
            if body and not (len(body) == 1 and isinstance(body[0], ast.Pass)):
                edit = (src.start(body[0]), src.end(body[-1]), "pass")
                yield _Edit("remove_branch", body[0], (edit,), _short(src.segment(body[0])), "pass")
    for body in _bodies(node):
        if isinstance(node, ast.If) and len(body) == 1:
            continue  # removing its one statement is removing the branch
        for stmt in body:
            if isinstance(stmt, ast.If) and id(stmt.test) in skip:
                continue  # the __main__ guard
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom,
                                 ast.Global, ast.Nonlocal, ast.Pass)):
                continue
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # a docstring or a bare literal: nothing to remove
            yield _Edit("remove_statement", stmt, ((src.start(stmt), src.end(stmt), "pass"),),
                        _short(src.segment(stmt)), "pass")


def _bodies(node: ast.AST) -> list[list[ast.stmt]]:
    """The statement lists directly under ``node`` (an ``if``'s body and else, a loop's, ...)."""
    out = []
    for name in ("body", "orelse", "finalbody"):
        body = getattr(node, name, None)
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            out.append(body)
    for handler in getattr(node, "handlers", ()):
        out.append(handler.body)
    return out


def _early_returns(function: ast.FunctionDef | ast.AsyncFunctionDef, src: _Source) -> Iterator[_Edit]:
    last = function.body[-1]
    if isinstance(last, ast.Return):
        returned = "return" if last.value is None else f"return {src.segment(last.value)}"
    else:
        returned = "return"
    if "\n" in returned:
        return
    points: list[ast.stmt] = list(function.body[:-1])
    for stmt in function.body:
        if isinstance(stmt, (ast.For, ast.While, ast.AsyncFor)):
            points.extend(stmt.body)
    for stmt in points:
        if isinstance(stmt, (ast.Return, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        indent = src.indentation(stmt)
        if indent is None:
            continue
        at = src.end(stmt)
        yield _Edit("early_return", stmt, ((at, at, f"\n{indent}{returned}"),), _short(src.segment(stmt)),
                    f"{_short(src.segment(stmt), 30)}; {returned}")


def _apply(src: _Source, edits: tuple[tuple[int, int, str], ...]) -> str:
    data = src.data
    for start, end, text in sorted(edits, reverse=True):
        data = data[:start] + text.encode("utf-8") + data[end:]
    return data.decode("utf-8")


def python_mutants(program: str) -> list[Mutant]:
    """Every mutant the syntax-tree operators make of a Python ``program``, in source order; []
    when it does not parse. Each compiles and parses to another tree than ``program``."""
    try:
        tree = ast.parse(program)
    except (SyntaxError, ValueError, RecursionError):
        return []
    src = _Source(program)
    original = ast.dump(tree)
    out: list[Mutant] = []
    for edit in _python_edits(tree, src):
        text = _apply(src, edit.edits)
        try:
            mutated = ast.parse(text)
            compile(mutated, "<mutant>", "exec")
        except (SyntaxError, ValueError, RecursionError):
            continue
        if ast.dump(mutated) == original:
            continue
        out.append(Mutant(edit.operator, getattr(edit.node, "lineno", 1), edit.before, edit.after, text))
    out.sort(key=lambda m: m.line)
    return out


# -- other languages: the token stream ---------------------------------------------------------

# What the lexer skips (comments, literals, preprocessor lines) and what it may change. Alternation
# order matters: the longest operators first.
_SKIP = {
    "c": [r"^[ \t]*#[^\n]*"],
    "cpp": [r"^[ \t]*#[^\n]*", r'R"(?P<delim>[^(\s]*)\([\s\S]*?\)(?P=delim)"'],
    "rust": [r'r(?P<hashes>#*)"[\s\S]*?"(?P=hashes)', r"b?'(?:\\.|[^'\\])'"],
    "go": [r"`[^`]*`"],
    "javascript": [r"`(?:\\.|[^`\\])*`", r"^[ \t]*import\b[^\n]*"],
    "typescript": [r"`(?:\\.|[^`\\])*`", r"^[ \t]*import\b[^\n]*"],
    "java": [r'"""[\s\S]*?"""'],
}
_COMMON_SKIP = [r"//[^\n]*", r"/\*[\s\S]*?\*/", r'"(?:\\.|[^"\\\n])*"']
_CHAR = r"'(?:\\.|[^'\\\n])'"  # C, C++, Java, Go runes, Rust chars (never a Rust lifetime: no closing quote)
_TOKEN_SWAPS = {
    "<": ("<=", "comparison"), "<=": ("<", "comparison"), ">": (">=", "comparison"), ">=": (">", "comparison"),
    "==": ("!=", "comparison"), "!=": ("==", "comparison"), "===": ("!==", "comparison"),
    "!==": ("===", "comparison"), "&&": ("||", "boolean"), "||": ("&&", "boolean"),
    "+": ("-", "arithmetic"), "-": ("+", "arithmetic"), "*": ("/", "arithmetic"), "/": ("*", "arithmetic"),
    "%": ("/", "arithmetic"), "+=": ("-=", "arithmetic"), "-=": ("+=", "arithmetic"),
    "*=": ("/=", "arithmetic"), "/=": ("*=", "arithmetic"),
}
_OPERATOR = r"===|!==|==|!=|<=|>=|&&|\|\||\+=|-=|\*=|/=|<<=|>>=|<<|>>|->|=>|::|\+\+|--|[-+*/%<>=!&|^~?:]"
_WORD = r"[A-Za-z_$][A-Za-z0-9_$]*|\d[\w.]*"


def _lexer(language: str) -> re.Pattern:
    skip = _SKIP.get(language, []) + _COMMON_SKIP + ([] if language in ("javascript", "typescript") else [_CHAR])
    if language in ("javascript", "typescript"):
        skip.append(r"'(?:\\.|[^'\\\n])*'")
    return re.compile("|".join([f"(?P<skip>{'|'.join(skip)})", f"(?P<op>{_OPERATOR})", f"(?P<word>{_WORD})"]),
                      re.M)


def token_mutants(program: str, language: str) -> list[Mutant]:
    """Every mutant the token-level operators make of ``program`` in ``language`` (one of
    ``TOKEN_LANGUAGES``), in source order: a spaced binary operator swapped (``_TOKEN_SWAPS``), a
    decimal integer literal moved by 1 either way, ``true``/``false`` swapped."""
    out: list[Mutant] = []
    for m in _lexer(language).finditer(program):
        start, end, token = m.start(), m.end(), m.group(0)
        line = program.count("\n", 0, start) + 1
        replacements: list[tuple[str, str]] = []
        if m.lastgroup == "op" and token in _TOKEN_SWAPS:
            spaced = program[start - 1:start] in (" ", "\t") and program[end:end + 1] in (" ", "\t", "\n")
            if spaced:
                replacements.append((_TOKEN_SWAPS[token][0], _TOKEN_SWAPS[token][1]))
        elif m.lastgroup == "word":
            if token.isdigit():
                value = int(token)
                replacements += [(str(value + 1), "off_by_one")]
                if value > 0:
                    replacements += [(str(value - 1), "off_by_one")]
            elif token in ("true", "false"):
                replacements.append(("false" if token == "true" else "true", "constant"))
        for new, operator in replacements:
            out.append(Mutant(operator, line, token, new, program[:start] + new + program[end:]))
    return out
