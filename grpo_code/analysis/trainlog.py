"""A training run's own logs, as ``grpo-code train`` (through TRL) writes them.

The files read::

    <run>/trainer_state.json            transformers' TrainerState; ``log_history`` holds one dict
                                        per logged step (TRL's metrics and ours: ``reward``,
                                        ``rewards/pass_rate/mean``, ``sandbox/<status>`` shares,
                                        ``sandbox/pass_rate``, ``sandbox/seconds``,
                                        ``sandbox/zero_std_groups``, with canaries
                                        ``sandbox/canaries`` and ``sandbox/cheat_rate``,
                                        ``step_time``)
    <run>/checkpoint-N/trainer_state.json  the same, as of step N (a run still going, or killed)
    <run>/completions/completions_NNNNN.parquet  TRL's completions log of step N: ``prompt``,
                                        ``completion``, one column per reward function, ``advantage``,
                                        and our ``status``, ``tests_passed``, ``task_id``
    <run>/summary.json                  the run's figures (``grpo_code.rl.train.summarize_run``)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from grpo_code.errors import ConfigError
from sandbox.types import STATUSES

# The names a training run logs: the one owner that every writer (rewards, environment, rollout)
# and every reader (train's summary, the report, the command line's step line) imports.
REWARD_NAME = "pass_rate"  # the sandbox reward's ``__name__``: TRL logs rewards/<it>/mean and a column <it>
REWARD_KEY = f"rewards/{REWARD_NAME}/mean"  # TRL's mean of that reward over a step's completions
STEP_TIME_KEY = "step_time"  # TRL's: wall seconds of the step
TOOL_CALLS_KEY = "env/tool_calls"  # --environment tools: mean run_tests calls per rollout
FEEDBACK_TURNS_KEY = "feedback/turns"  # --environment feedback: mean answers per rollout
# and each status's share (``STATUSES``)
SANDBOX_METRICS = ("pass_rate", "public_pass_rate", "hidden_pass_rate", "visibility_gap", "zero_std_groups",
                   "seconds", "completions", "dedup_hits", "flagged", "masked", "canaries", "cheat_rate")


def sandbox_key(name: str) -> str:
    """The logged key of a sandbox figure: ``sandbox/<name>``, ``name`` one of ``SANDBOX_METRICS``
    or a status (its share of the step's completions)."""
    return f"sandbox/{name}"


# the share of a step's groups whose sandbox rewards were all equal (``rewards.zero_variance_share``;
# TRL's ``frac_reward_zero_std`` is that share only when it scales advantages by the group's std)
ZERO_STD_KEY = sandbox_key("zero_std_groups")
# with train --canary_rate: a step's completions of canary tasks, and the share of them that passed
# every test (each a cheat: no honest program passes a canary; ``grpo_code.rl.canaries``)
CANARIES_KEY, CHEAT_RATE_KEY = sandbox_key("canaries"), sandbox_key("cheat_rate")
_NODE_PREFIX, _NODE_SUFFIX = sandbox_key("node/"), "/seconds"


def node_seconds_key(node: str) -> str:
    """The logged key of a sandbox node's busy seconds in a step: ``sandbox/node/<node>/seconds``."""
    return f"{_NODE_PREFIX}{node}{_NODE_SUFFIX}"


def node_seconds(entry: dict) -> dict[str, float]:
    """Each node's busy sandbox seconds in one logged step (``node_seconds_key``), by node name."""
    return {key.removeprefix(_NODE_PREFIX).removesuffix(_NODE_SUFFIX): value for key, value in entry.items()
            if key.startswith(_NODE_PREFIX) and key.endswith(_NODE_SUFFIX)}


@dataclass
class Curves:
    """Per logged training step (all lists have the length of ``steps``; None: not logged).

    Attributes:
        steps: global step numbers.
        reward: mean total reward of the step's completions (TRL's ``reward``).
        pass_rate: mean pass-rate reward (``rewards/pass_rate/mean``; None for unscorable ones).
        statuses: status -> share of the step's completions (0..1), statuses that ever occur.
        sandbox_s: seconds spent in the sandbox for the step's completions.
        step_s: wall seconds of the whole step (generation, scoring, update).
        zero_std: share of the step's groups whose sandbox rewards were all equal
            (``ZERO_STD_KEY``: advantage 0, nothing learned from them).
        canaries: completions of canary tasks in the step (``CANARIES_KEY``; None without canaries).
        cheat_rate: the share of them that passed every test (``CHEAT_RATE_KEY``; None when the
            step had none).
    """

    steps: list[int] = field(default_factory=list)
    reward: list[float | None] = field(default_factory=list)
    pass_rate: list[float | None] = field(default_factory=list)
    statuses: dict[str, list[float]] = field(default_factory=dict)
    sandbox_s: list[float | None] = field(default_factory=list)
    step_s: list[float | None] = field(default_factory=list)
    zero_std: list[float | None] = field(default_factory=list)
    canaries: list[float | None] = field(default_factory=list)
    cheat_rate: list[float | None] = field(default_factory=list)

    def cheats(self) -> tuple[int, int] | None:
        """``(canary completions that passed every test, canary completions)`` over the run; None
        when it logged no canary."""
        seen = [(n, r) for n, r in zip(self.canaries, self.cheat_rate, strict=True) if n is not None]
        if not seen:
            return None
        return sum(round(n * r) for n, r in seen if r is not None), sum(round(n) for n, _ in seen)


@dataclass
class LoggedCompletion:
    """One completion of the completions log, with its verdict."""

    step: int
    task: str
    completion: str
    status: str | None
    tests_passed: str | None
    reward: float | None
    advantage: float | None


@dataclass
class TrainingRun:
    """A training run as read from its folder: its curves, a few completions, its summary."""

    folder: Path
    curves: Curves
    early: list[LoggedCompletion]
    late: list[LoggedCompletion]
    summary: dict


def is_training_run(folder: str | Path) -> bool:
    """Whether ``folder`` looks like a ``grpo-code train`` output folder."""
    folder = Path(folder)
    return (folder / "trainer_state.json").is_file() or any(folder.glob("checkpoint-*/trainer_state.json")) \
        or (folder / "completions").is_dir()


def _step_of(path: Path) -> int:
    m = re.search(r"(\d+)", path.parent.name if path.name == "trainer_state.json" else path.stem)
    return int(m.group(1)) if m else -1


def log_history(folder: str | Path) -> list[dict]:
    """The run's ``log_history``: from ``trainer_state.json`` in the folder, else from its latest
    checkpoint.

    Raises:
        ConfigError: neither exists (not a training run folder).
    """
    folder = Path(folder)
    path = folder / "trainer_state.json"
    if not path.is_file():
        checkpoints = sorted(folder.glob("checkpoint-*/trainer_state.json"), key=_step_of)
        if not checkpoints:
            raise ConfigError(f"{folder} has no trainer_state.json (nor a checkpoint-*/ with one): "
                              "give a folder written by `grpo-code train`")
        path = checkpoints[-1]
    return json.loads(path.read_text()).get("log_history", [])


def curves(history: list[dict]) -> Curves:
    """The per-step curves of a ``log_history`` (entries without a reward, such as the final
    ``train_runtime`` one, are left out; a NaN, such as the reward of a step whose every
    completion was unscorable, becomes None)."""
    entries = [e for e in history if "step" in e and (REWARD_KEY in e or "reward" in e)]
    present = [s for s in STATUSES if any(_number(e.get(sandbox_key(s))) for e in entries)]

    def column(key: str) -> list[float | None]:
        return [_number(e.get(key)) for e in entries]

    return Curves(steps=[int(e["step"]) for e in entries], reward=column("reward"), pass_rate=column(REWARD_KEY),
                  statuses={s: [v or 0.0 for v in column(sandbox_key(s))] for s in present},
                  sandbox_s=column(sandbox_key("seconds")), step_s=column(STEP_TIME_KEY),
                  zero_std=column(ZERO_STD_KEY), canaries=column(CANARIES_KEY), cheat_rate=column(CHEAT_RATE_KEY))


def quarter_means(values: list[float]) -> tuple[float, float] | None:
    """The mean of the first and of the last quarter of ``values`` (at least one value each;
    they overlap when there are fewer than 4 values); None when ``values`` is empty."""
    if not values:
        return None
    k = max(1, len(values) // 4)
    return sum(values[:k]) / k, sum(values[-k:]) / k


def _text(value) -> str:
    """A prompt or completion cell: a string, or chat messages (the last one's content)."""
    if isinstance(value, str):
        return value
    try:
        messages = list(value)
    except TypeError:
        return str(value)
    if messages and isinstance(messages[-1], dict):
        return str(messages[-1].get("content", ""))
    return str(value)


def _number(value) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if number != number else number  # NaN: the completion had no reward


def completions_at(folder: str | Path, step: int, limit: int = 3) -> list[LoggedCompletion]:
    """Up to ``limit`` completions logged at ``step``, one per status where it can (the most
    frequent status first), from ``completions/completions_{step:05d}.parquet``; [] if absent."""
    path = Path(folder) / "completions" / f"completions_{step:05d}.parquet"
    if not path.is_file():
        return []
    import pandas as pd

    table = pd.read_parquet(path)
    rows = table.to_dict("records")
    by_status: dict[str, list[dict]] = {}
    for row in rows:
        by_status.setdefault(str(row.get("status")), []).append(row)
    picked = []
    for group in sorted(by_status.values(), key=len, reverse=True):  # round robin over statuses
        picked.append(group[0])
    for row in rows:
        if len(picked) >= limit:
            break
        if all(row is not p for p in picked):
            picked.append(row)
    out = []
    for row in picked[:limit]:
        task = row.get("task_id") or _text(row.get("prompt", "")).strip().split("\n")[0]
        task = task if len(task) <= 80 else task[:77] + "..."
        out.append(LoggedCompletion(int(row.get("step", step)), str(task), _text(row.get("completion", "")),
                                    row.get("status"), row.get("tests_passed"), _number(row.get(REWARD_NAME)),
                                    _number(row.get("advantage"))))
    return out


def load_training_run(folder: str | Path, examples: int = 3) -> TrainingRun:
    """Read a training run folder: curves from its log history, ``examples`` completions of its
    first and of its last logged step, and ``summary.json`` ({} while the run is going).

    Raises:
        ConfigError: the folder has no log history.
    """
    folder = Path(folder)
    c = curves(log_history(folder))
    summary_path = folder / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.is_file() else {}
    logged = sorted(_step_of(p) for p in (folder / "completions").glob("completions_*.parquet"))
    early = completions_at(folder, logged[0], examples) if logged else []
    late = completions_at(folder, logged[-1], examples) if len(logged) > 1 else []
    return TrainingRun(folder, c, early, late, summary)
