"""The front door: ``grpo_code`` exports its public API lazily, each name with an example that
runs (the ones that need the sandbox on the real one), and importing it costs nothing heavy."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys

import pytest

import grpo_code

HEAVY = ("torch", "trl", "transformers", "datasets", "accelerate", "matplotlib", "docker", "ray", "openai")


def heavy_after(code: str) -> list[str]:
    """The heavy libraries a fresh interpreter holds after running ``code``."""
    probe = f"import sys\n{code}\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return [m for m in proc.stdout.strip().split(",") if m]


def test_importing_grpo_code_or_any_of_its_names_loads_no_heavy_library():
    assert heavy_after("import grpo_code; assert 'grpo_code.rl' not in sys.modules") == []
    assert heavy_after(f"from grpo_code import {', '.join(grpo_code.__all__)}") == []
    assert heavy_after("import trl") != []  # and sees what it was asked to


def test_every_public_name_is_its_owner_s_own():
    assert sorted(grpo_code.__all__) == sorted(grpo_code.OWNERS)
    for name in grpo_code.__all__:
        assert getattr(grpo_code, name) is getattr(importlib.import_module(grpo_code.OWNERS[name]), name)
    assert set(grpo_code.__all__) <= set(dir(grpo_code))
    with pytest.raises(AttributeError, match="no attribute 'PassRate'"):
        grpo_code.PassRate  # noqa: B018


def examples() -> dict[str, doctest.DocTest]:
    """The docstring examples of the package and of each public name of ours, by name."""
    finder = doctest.DocTestFinder(recurse=False)
    found = {"grpo_code": finder.find(grpo_code, "grpo_code")[0]}
    for name in grpo_code.__all__:
        if grpo_code.OWNERS[name].startswith("grpo_code"):
            own = finder.find(getattr(grpo_code, name), name)  # its own docstring only (no recursion)
            if own and own[0].examples:
                found[name] = own[0]
    return found


# the names whose example starts the sandbox (the rest need no Docker), and the types that have none
SANDBOX_EXAMPLES = {"grpo_code", "score_completions", "PassRateReward", "CodeEnvironment"}
WITHOUT_EXAMPLE = {"Task", "TaskSuite", "Scored", "CodeEnvironmentFactory", "EnvironmentSettings"}


def run_examples(names: set[str]) -> None:
    found = examples()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for name in sorted(names):
        runner.run(found[name])
    assert runner.summarize(verbose=False).failed == 0


def test_each_function_and_reward_of_the_front_door_has_an_example():
    ours = {name for name in grpo_code.__all__ if grpo_code.OWNERS[name].startswith("grpo_code")}
    assert set(examples()) == (ours - WITHOUT_EXAMPLE) | {"grpo_code"}
    assert set(examples()) >= SANDBOX_EXAMPLES


def test_the_examples_that_need_no_sandbox():
    run_examples(set(examples()) - SANDBOX_EXAMPLES)


@pytest.mark.docker
def test_the_examples_that_run_the_sandbox():
    run_examples(SANDBOX_EXAMPLES)
