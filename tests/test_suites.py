"""The contract every registered suite keeps: it loads, and (Docker) every reference solution passes."""

from __future__ import annotations

import pytest

from grpo_code.registry import available_suites, load_suite
from grpo_code.scoring import check_references

SUITES = [ref.name for ref in available_suites()]


def test_the_bundled_suites_are_registered():
    assert {"humaneval", "warmup-python", "stdio-basics"} <= set(SUITES)


@pytest.mark.parametrize("name", SUITES)
def test_suite_loads(name):
    suite = load_suite(name)
    assert len(suite) > 0 and suite.name == name
    for task in suite:
        assert task.tests and task.prompt.strip()
        assert "{prompt}" not in suite.format_prompt(task)


@pytest.mark.docker
@pytest.mark.parametrize("name", SUITES)
def test_every_reference_solution_passes(executor, name):
    checked = check_references(executor, list(load_suite(name)))
    failing = [(t.task_id, v.status) for t, v in checked if v is not None and not v.passed]
    assert failing == []
    assert all(v is not None for _, v in checked)  # every bundled task has a reference


def test_bundled_suites_meet_their_brief():
    warmup = load_suite("warmup-python")
    assert len(warmup) >= 60 and all(len(t.tests) >= 3 and t.reference_solution for t in warmup)
    assert {t.metadata["split"] for t in warmup} == {"train", "heldout"}
    stdio = load_suite("stdio-basics")
    problems = {t.metadata["problem"] for t in stdio}
    every = ["c", "cpp", "go", "java", "javascript", "python", "rust", "typescript"]
    assert len(problems) >= 30 and stdio.languages == every
    for problem in problems:
        assert sorted(t.language for t in stdio if t.metadata["problem"] == problem) == every
    modes = {t.compare for t in stdio}
    assert modes == {"tokens", "lines", "exact"}
    assert any(t.float_tolerance > 0 and "." in t.tests[0].expected_stdout for t in stdio)
