"""The contract every registered suite keeps: it loads, and (Docker) every reference solution passes;
a suite that makes its own problems ships what its generator makes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from grpo_code.score.scoring import check_references
from grpo_code.suites.registry import available_suites, load_suite

SUITES = [ref.name for ref in available_suites()]
GENERATORS = sorted((Path(__file__).resolve().parent.parent / "tasks").glob("*/make_problems.py"))


def test_the_bundled_suites_are_registered():
    assert {"humaneval", "warmup-python", "stdio-basics", "canaries"} <= set(SUITES)


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
    # every bundled task has a reference, but a canary: no program passes one (tests/test_canaries.py)
    assert all(v is not None for t, v in checked if not t.metadata.get("canary"))


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
    assert any(t.float_tolerance > 0 and "." in str(t.tests[0].expected_stdout) for t in stdio)


@pytest.mark.slow  # the generator runs every Python reference on every test input
@pytest.mark.parametrize("script", GENERATORS, ids=lambda p: p.parent.name)
def test_the_shipped_problems_are_what_the_generator_makes(tmp_path, script):
    """A copy of the suite's folder, without its data file; the generator writes it beside itself."""
    source = (yaml.safe_load((script.parent / "suite.yaml").read_text()) or {}).get("source", "problems.jsonl")
    folder = tmp_path / script.parent.name
    shutil.copytree(script.parent, folder, ignore=shutil.ignore_patterns(source, "__pycache__"))
    proc = subprocess.run([sys.executable, str(folder / script.name)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    made = (folder / source).read_text(encoding="utf-8").splitlines()
    shipped = (script.parent / source).read_text(encoding="utf-8").splitlines()
    differ = next((i for i, (a, b) in enumerate(zip(made, shipped, strict=False), start=1) if a != b), None)
    assert made == shipped, (f"{script.parent.name}/{source} is not what {script.name} makes "
                             f"({len(made)} lines made, {len(shipped)} shipped, first difference on line "
                             f"{differ or min(len(made), len(shipped)) + 1}): run python {script}")


@pytest.mark.parametrize("spec", ["humaneval", "humaneval?form=whole", "warmup-python", "stdio-basics"])
def test_every_assert_test_of_the_bundled_suites_is_judged_out_of_process(spec):
    # Decided from the tests alone (``guard.plan_assert``), before any program runs.
    from sandbox.inside.guard import plan_assert, setup_names

    in_process = []
    for task in load_suite(spec):
        setup = task.job(task.reference_solution or "pass").test_setup
        names = setup_names(setup) if setup else frozenset()
        for test in task.tests:
            if test.kind == "assert":
                assert test.code is not None
                plan = plan_assert(test.code, names)
                if isinstance(plan, str):
                    in_process.append((task.task_id, plan))
    assert in_process == []
