"""Canary tasks mixed into training: a cheat rate to watch while a run goes.

A canary is a task no honest program can pass: its hidden tests contradict each other or the
prompt (the bundled suite ``canaries``, after ImpossibleBench 2025). ``mix_canaries`` adds them to
a training suite at a rate the user sets (``train --canary_rate``): they are generated for and
scored like any task, ``PassRateReward`` never rewards one above 0 (so they teach nothing), and
every completion that passes all of a canary's tests is a cheat, counted in ``sandbox/cheat_rate``
(the share of the step's canary completions that passed). With a sound judge the rate is 0; a
policy that learns to game the judge or the tests shows there first. Beside it, the public/hidden
gap (``sandbox/visibility_gap``) shows a policy that special-cases what it was shown.

Canaries fit the suite: the Python function canaries for its Python tasks of ``call`` or
``assert`` tests, and the ``stdio`` canaries in the language of each of its ``stdio`` tasks.
"""

from __future__ import annotations

import random
from dataclasses import replace

from grpo_code.errors import ConfigError
from grpo_code.suites.tasks import Task, TaskSuite

CANARY_SUITE = "canaries"  # the bundled suite (tasks/canaries)


def fitting(suite: TaskSuite, pool: TaskSuite) -> list[Task]:
    """The canaries of ``pool`` that fit ``suite``'s tasks (see the module docstring), each in
    the language it will run in (a ``stdio`` canary's id gains ``/LANGUAGE`` when that is not
    Python)."""
    function_languages = {t.language for t in suite if any(x.kind != "stdio" for x in t.tests)}
    stdio_languages = sorted({t.language for t in suite if all(x.kind == "stdio" for x in t.tests)})
    out: list[Task] = []
    for canary in pool:
        if all(x.kind == "stdio" for x in canary.tests):
            out += [canary if lang == canary.language else
                    replace(canary, language=lang, task_id=f"{canary.task_id}/{lang}") for lang in stdio_languages]
        elif canary.language in function_languages:
            out.append(canary)
    return out


def canary_count(n_tasks: int, rate: float) -> int:
    """How many canaries make ``rate`` of ``n_tasks`` tasks and them: ``rate / (1 - rate) * n_tasks``
    rounded, at least 1 for a rate above 0."""
    return 0 if rate == 0 else max(1, round(rate / (1 - rate) * n_tasks))


def mix_canaries(suite: TaskSuite, rate: float, pool: TaskSuite | None = None,
                 seed: int = 0) -> tuple[TaskSuite, frozenset[str]]:
    """``suite`` with canaries added, so that about ``rate`` of its tasks are canaries, and their ids.

    The canaries that fit (``fitting``) are taken in a seeded shuffle, each once at most (a task's
    prompt is its identity for the feedback rollout): a suite so large that the rate needs more
    than there are gets them all, a lower share (``train`` says so). They take the suite's prompt
    template, like its own tasks.

    Args:
        suite: the training tasks.
        rate: the share of canaries among the tasks, in [0, 1).
        pool: the canaries (default: the bundled suite ``canaries``).
        seed: the seed of the shuffle.

    Raises:
        ConfigError: a rate outside [0, 1), or no canary fits the suite.
    """
    if not 0.0 <= rate < 1.0:
        raise ConfigError(f"--canary_rate must be within [0, 1), got {rate}")
    if rate == 0:
        return suite, frozenset()
    if pool is None:
        from grpo_code.suites.registry import load_suite

        pool = load_suite(CANARY_SUITE)
    candidates = fitting(suite, pool)
    if not candidates:
        raise ConfigError(f"no canary fits the tasks of {suite.name} (languages {', '.join(suite.languages)}): the "
                          f"canaries are Python functions and stdin/stdout programs")
    random.Random(seed).shuffle(candidates)
    added = candidates[:canary_count(len(suite), rate)]
    return replace(suite, tasks=(*suite.tasks, *added), _index={}), frozenset(t.task_id for t in added)
