"""The mutation operators of the test-strength audit (grpo_code.curate.mutants): pure, no Docker."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_code.curate.mutants import OPERATORS, Mutant, mutants, pick, python_mutants, token_mutants
from grpo_code.suites.registry import load_suite

PROGRAM = '''"""A module docstring < stays."""


def clamp(x: int, lo: int = 0, hi: int = 10) -> int:
    """Between lo and hi."""
    if x < lo and not hi:
        return lo
    elif x >= hi:
        return hi
    total = 0
    for i in range(x):
        total += i * 2
    return max(total, -1) if total else x


if __name__ == "__main__":
    print(clamp(3))
'''


def changes(found: list[Mutant]) -> set[tuple[str, int, str, str]]:
    return {(m.operator, m.line, m.before, m.after) for m in found}


def test_each_python_operator_makes_the_change_it_names_and_nothing_else():
    found = changes(python_mutants(PROGRAM))
    expected = {
        ("off_by_one", 4, "0", "1"), ("off_by_one", 4, "0", "(-1)"), ("off_by_one", 4, "10", "11"),
        ("off_by_one", 4, "10", "9"),  # defaults are values; their annotations are not
        ("comparison", 6, "<", "<="), ("boolean", 6, "and", "or"), ("boolean", 6, "not hi", "hi"),
        ("negate_condition", 6, "x < lo and not hi", "not (x < lo and not hi)"),
        ("remove_statement", 6, "if x < lo and not hi: return lo elif x >= hi: return hi", "pass"),
        ("early_return", 6, "if x < lo and not hi: return lo elif x >= hi: return hi",
         "if x < lo and not hi: retur...; return max(total, -1) if total else x"),
        ("remove_branch", 7, "return lo", "pass"),
        ("comparison", 8, ">=", ">"), ("negate_condition", 8, "x >= hi", "not (x >= hi)"),
        ("remove_branch", 8, "elif x >= hi: return hi", "pass"), ("remove_branch", 9, "return hi", "pass"),
        ("off_by_one", 10, "0", "1"), ("off_by_one", 10, "0", "(-1)"), ("remove_statement", 10, "total = 0", "pass"),
        ("early_return", 10, "total = 0", "total = 0; return max(total, -1) if total else x"),
        ("off_by_one", 11, "x", "x + 1"), ("off_by_one", 11, "x", "x - 1"),
        ("remove_statement", 11, "for i in range(x): total += i * 2", "pass"),
        ("early_return", 11, "for i in range(x): total += i * 2",
         "for i in range(x): total +=...; return max(total, -1) if total else x"),
        ("arithmetic", 12, "+=", "-="), ("arithmetic", 12, "*", "/"),
        ("off_by_one", 12, "2", "3"), ("off_by_one", 12, "2", "1"), ("remove_statement", 12, "total += i * 2", "pass"),
        ("early_return", 12, "total += i * 2", "total += i * 2; return max(total, -1) if total else x"),
        ("swap_arguments", 13, "total, -1", "-1, total"),
        ("off_by_one", 13, "-1", "0"), ("off_by_one", 13, "-1", "(-2)"),
        ("remove_branch", 13, "max(total, -1) if total else x", "max(total, -1)"),
        ("remove_branch", 13, "max(total, -1) if total else x", "x"),
        ("negate_condition", 13, "total", "not (total)"),
        ("remove_statement", 13, "return max(total, -1) if total else x", "pass"),
        ("off_by_one", 17, "3", "4"), ("off_by_one", 17, "3", "2"),
    }
    assert found == expected  # docstrings, annotations and the __name__ == "__main__" guard untouched


def test_a_python_mutant_is_the_program_with_one_edit_spliced_in():
    (swap,) = [m for m in python_mutants(PROGRAM) if m.operator == "arithmetic" and m.before == "+="]
    assert swap.program == PROGRAM.replace("total += i * 2", "total -= i * 2")
    (early,) = [m for m in python_mutants(PROGRAM) if m.operator == "early_return" and m.line == 10]
    assert "    total = 0\n    return max(total, -1) if total else x\n    for i" in early.program


def test_a_program_that_does_not_parse_has_no_mutants():
    assert python_mutants("def f(:\n") == []


def test_token_mutants_skip_comments_strings_preprocessor_and_unspaced_operators():
    program = ('#include <stdio.h>\n'
               'int main(void) {\n'
               '    long long *p = 0; // a < b\n'
               '    int a = 3, b = -1;\n'
               '    if (a < b && b != 7) printf("a < b %d\\n", a + b);\n'
               '    return a<b ? 10LL : 0x1F;\n'
               '}\n')
    found = changes(token_mutants(program, "c"))
    assert found == {
        ("off_by_one", 3, "0", "1"), ("off_by_one", 4, "3", "4"), ("off_by_one", 4, "3", "2"),
        ("off_by_one", 4, "1", "2"), ("off_by_one", 4, "1", "0"),
        ("comparison", 5, "<", "<="), ("boolean", 5, "&&", "||"), ("comparison", 5, "!=", "=="),
        ("off_by_one", 5, "7", "8"), ("off_by_one", 5, "7", "6"), ("arithmetic", 5, "+", "-"),
    }


def test_token_mutants_leave_generics_lambdas_and_template_literals_alone():
    ts = "import * as fs from 'fs';\nconst xs: Array<number> = [];\nconst f = (s) => `${s < 1}`;\nlet y = x >= 2;\n"
    assert changes(token_mutants(ts, "typescript")) == {("comparison", 4, ">=", ">"), ("off_by_one", 4, "2", "3"),
                                                       ("off_by_one", 4, "2", "1")}
    rust = "fn f<'a>(x: &'a str) -> Vec<i64> { let c = 'x'; if x.len() > 0 { vec![1] } else { vec![] } }\n"
    assert changes(token_mutants(rust, "rust")) == {("comparison", 1, ">", ">="), ("off_by_one", 1, "0", "1"),
                                                    ("off_by_one", 1, "1", "2"), ("off_by_one", 1, "1", "0")}


def test_pick_covers_every_operator_before_repeating_one_and_is_deterministic():
    found = python_mutants(PROGRAM)
    present = [op for op in OPERATORS if any(m.operator == op for m in found)]
    assert len(present) == len(OPERATORS) - 1  # all but constant (no string, bool or float in it)
    first = pick(found, 12, seed=0)
    assert [m.operator for m in first] == [*present, *present[:3]]
    assert first == pick(found, 12, seed=0) != pick(found, 12, seed=1)
    assert len(pick(found, 1000, seed=0)) == len({m.program for m in found})
    assert pick(found, 0, seed=0) == []


def test_mutants_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="no mutation method for 'cobol'"):
        mutants("x", "cobol", 5)
    with pytest.raises(ValueError, match=">= 0"):
        mutants("x = 1", "python", -1)


@pytest.mark.parametrize("spec", ["warmup-python", "humaneval", "stdio-basics?language=python"])
def test_every_mutant_of_every_bundled_python_reference_parses_and_differs(spec):
    for task in load_suite(spec):
        assert task.reference_solution is not None
        original = ast.dump(ast.parse(task.reference_solution))
        for m in python_mutants(task.reference_solution):
            assert ast.dump(ast.parse(m.program)) != original, (task.task_id, m.description)


# -- properties over generated programs ----------------------------------------------------------

NAMES = st.sampled_from(["a", "b", "xs[0]", "len(xs)", "n"])
ATOMS = st.one_of(NAMES, st.integers(-3, 12).map(str), st.sampled_from(["True", "False", "''", "'ab'", "1.5"]))
BINARY = st.sampled_from(["+", "-", "*", "//", "%", "<", "<=", "==", "!=", ">", " and ", " or ", " in "])


def _expression(depth: int):
    if depth == 0:
        return ATOMS
    sub = _expression(depth - 1)
    return st.one_of(sub, st.tuples(sub, BINARY, sub).map(lambda t: f"({t[0]}{t[1]}{t[2]})"),
                     sub.map(lambda e: f"(not {e})"), st.tuples(sub, sub, sub).map(lambda t: f"({t[0]} if {t[1]} else "
                                                                                           f"{t[2]})"))


@st.composite
def programs(draw) -> str:
    body = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["assign", "if", "for", "while"]))
        e = draw(_expression(2))
        if kind == "assign":
            body.append(f"    n = {e}")
        elif kind == "if":
            body.append(f"    if {e}:\n        n = {draw(_expression(1))}\n    else:\n        n = max(a, b)")
        elif kind == "for":
            body.append(f"    for i in range({draw(_expression(1))}):\n        n += i")
        else:
            body.append(f"    while n < {draw(_expression(1))}:\n        n += 1\n        break")
    return "def f(a, b, xs):\n    n = 0\n" + "\n".join(body) + f"\n    return {draw(_expression(2))}\n"


@settings(max_examples=60, deadline=None)
@given(programs())
def test_every_mutant_parses_and_differs_from_the_original(program):
    original = ast.dump(ast.parse(program))
    found = python_mutants(program)
    assert found, program  # every such program has something to change
    for m in found:
        assert m.operator in OPERATORS
        assert ast.dump(ast.parse(m.program)) != original
        compile(m.program, "<mutant>", "exec")
    assert python_mutants(program) == found  # deterministic


@settings(max_examples=60, deadline=None)
@given(programs(), st.integers(0, 30), st.integers(0, 5))
def test_the_chosen_mutants_are_distinct_and_within_the_limit(program, limit, seed):
    chosen = mutants(program, "python", limit, seed)
    assert len(chosen) == min(limit, len({m.program for m in python_mutants(program)}))
    assert len({m.program for m in chosen}) == len(chosen)
