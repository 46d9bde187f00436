"""grpo-code: GRPO training and pass@k evaluation of code models against a sandboxed verifier.

The front door for a script of your own: a suite in one line, an executor you start and stop,
completions scored from Python, pass@k, and the sandbox's verdict as TRL's reward or environment.
Each name is imported from its wing when first used, so ``import grpo_code`` loads no torch, TRL,
transformers, numpy or Docker SDK. Each has an example in its own docstring
(``help(grpo_code.PassRateReward)``); ``examples/`` holds whole scripts.

Example:
    >>> from grpo_code import load_suite, make_executor, pass_at_k, score_completions
    >>> task = load_suite("warmup-python").get("warmup-python/add")
    >>> with make_executor(concurrency=2) as executor:  # warm containers, all removed on leaving
    ...     scored = score_completions(executor, [(task, task.reference_solution), (task, "no code here")])
    >>> [s.verdict.status for s in scored]
    ['passed', 'no_code']
    >>> pass_at_k(n=2, c=1, k=1)
    0.5

The names, and where each lives:
    load_suite, TaskSuite, Task: suites by name, path or spec (``suites.registry``, ``suites.tasks``).
    make_executor: the sandbox's executor, ``docker`` or ``ray`` (``sandbox.make_executor``).
    score_completions, Scored: ``(task, completion)`` pairs to verdicts (``score.scoring``).
    pass_at_k, pass_hat_k: the unbiased estimators of one task (``analysis.passk``).
    RewardRules, PassRateReward, FormatReward: TRL reward functions (``rl.rules``, ``rl.rewards``).
    CodeEnvironmentFactory, CodeEnvironment, EnvironmentSettings: TRL's ``environment_factory``
        with a ``run_tests`` tool on the public tests (``rl.environment``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__all__ = [
    "CodeEnvironment",
    "CodeEnvironmentFactory",
    "EnvironmentSettings",
    "FormatReward",
    "PassRateReward",
    "RewardRules",
    "Scored",
    "Task",
    "TaskSuite",
    "load_suite",
    "make_executor",
    "pass_at_k",
    "pass_hat_k",
    "score_completions",
]

# each public name -> the module that owns it, imported on first use (PEP 562)
OWNERS = {
    "load_suite": "grpo_code.suites.registry",
    "TaskSuite": "grpo_code.suites.tasks",
    "Task": "grpo_code.suites.tasks",
    "make_executor": "sandbox",
    "score_completions": "grpo_code.score.scoring",
    "Scored": "grpo_code.score.scoring",
    "pass_at_k": "grpo_code.analysis.passk",
    "pass_hat_k": "grpo_code.analysis.passk",
    "RewardRules": "grpo_code.rl.rules",
    "PassRateReward": "grpo_code.rl.rewards",
    "FormatReward": "grpo_code.rl.rewards",
    "CodeEnvironmentFactory": "grpo_code.rl.environment",
    "CodeEnvironment": "grpo_code.rl.environment",
    "EnvironmentSettings": "grpo_code.rl.environment",
}

if TYPE_CHECKING:
    from grpo_code.analysis.passk import pass_at_k, pass_hat_k
    from grpo_code.rl.environment import CodeEnvironment, CodeEnvironmentFactory, EnvironmentSettings
    from grpo_code.rl.rewards import FormatReward, PassRateReward
    from grpo_code.rl.rules import RewardRules
    from grpo_code.score.scoring import Scored, score_completions
    from grpo_code.suites.registry import load_suite
    from grpo_code.suites.tasks import Task, TaskSuite
    from sandbox import make_executor


def __getattr__(name: str) -> Any:
    """A public name, imported from its owner on first use (and kept here)."""
    if name not in OWNERS:
        raise AttributeError(f"module 'grpo_code' has no attribute {name!r}")
    value = getattr(importlib.import_module(OWNERS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
