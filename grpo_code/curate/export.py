"""A suite written as Harbor task folders (harbor-framework/harbor, ``task.toml`` schema 1.4):
``grpo-code tasks export SUITE --format harbor OUT``; ``grpo_code.suites.harbor`` reads them back
as a suite (``--suite harbor:PATH``).

One exported task, ``OUT/<task id, made safe>/``:

- ``instruction.md``: the task's prompt, then where the agent leaves its program:
  ``/app/solution.<ext>`` (``PROGRAM_FILES``), the whole file being the program (the task's
  prelude, if any, goes before it, as for every program of the task);
- ``task.toml``: the limits, following the task's: the verifier's timeout is the job's worst case
  in the sandbox (``Limits.worst_case_s``) plus a minute; the verifier runs in a container of its
  own (``[verifier] environment_mode = "separate"``, as root, no network, one CPU and the sandbox
  container's memory), which receives only the agent's program (``artifacts``);
- ``environment/Dockerfile``: the agent's box, ``FROM`` the sandbox image (every toolchain of the
  task's language), with no test in it;
- ``solution/solve.sh``: the oracle, which writes the task's reference solution byte for byte;
- ``tests/``: the verifier's build context, which the agent never sees: ``Dockerfile`` (``FROM``
  the sandbox image; ``harbor-init`` as PID 1, ``sandbox/inside/harbor_verifier.py``),
  ``test.sh`` (``harbor-verify``: judges the program with the image's own runner, so the
  verdict rules and limits are the sandbox's, and writes ``/logs/verifier/reward.json`` and
  ``verdict.json``), ``job.json`` (the sandbox job without its program, the reward mode and the
  worst case) and ``grpo_code_task.json`` (``suites.harbor.TASK_FILE``: the task in
  docs/task-format.md form, with its suite's fields, which the import reads); both are readable by
  root only in the verifier container.

``reward.json`` holds numbers only (Harbor 0.25 refuses a reward file with any other value):
``reward`` (the pass rate, or 1/0 for ``binary``), ``pass_rate``, ``passed``, ``n_tests``,
``n_flags``; the status, the per-test statuses and the flags are in ``verdict.json``. A verdict
without a pass rate (``sandbox_error``, a task's ``checker_error``) writes no reward, so Harbor
records an error for the trial, never a 0.

The image must be built where Harbor runs (``grpo-code sandbox build``): both Dockerfiles name
its tag, which changes with the sandbox's code.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

from grpo_code.errors import ConfigError
from grpo_code.rl.rules import RewardRules
from grpo_code.suites.harbor import TASK_FILE
from grpo_code.suites.tasks import Task, TaskSuite
from sandbox import ContainerSettings

PROGRAM_FILES = {"python": "solution.py", "c": "solution.c", "cpp": "solution.cpp", "javascript": "solution.js",
                 "typescript": "solution.ts", "java": "Main.java", "rust": "solution.rs", "go": "solution.go"}
APP_DIR = "/app"
JOB_FILE = "job.json"  # under tests/: what the verifier runs
VERIFIER_MARGIN_S = 60.0  # on top of the job's worst case: the verifier's start-up and the reply
AGENT_TIMEOUT_S = 600.0

TEST_SH = """#!/bin/bash
# grpo-code's verifier: judges the agent's program with grpo-code's own judge (this image's runner,
# PID 1 of this container) and writes /logs/verifier/reward.json and verdict.json.
exec python3 -I /opt/sandbox/inside harbor-verify /tests/{job} {program}
"""

TESTS_DOCKERFILE = """# The verifier's box: grpo-code's sandbox image, whose runner judges the agent's program.
FROM {image}
USER root
COPY {job} {task} test.sh /tests/
RUN chmod 0700 /tests && chmod 0600 /tests/{job} /tests/{task} && chmod 0755 /tests/test.sh
WORKDIR {app}
# PID 1: the runner, as the sandbox user, reachable by root only (sandbox/inside/harbor_verifier.py)
ENTRYPOINT ["python3", "-I", "/opt/sandbox/inside", "harbor-init"]
"""

ENVIRONMENT_DOCKERFILE = """# The agent's box: grpo-code's sandbox image (every language's toolchain), no test.
FROM {image}
USER root
WORKDIR {app}
"""


def task_folder_name(task_id: str) -> str:
    """A folder name for ``task_id``: its characters outside ``[A-Za-z0-9._-]`` become ``__``."""
    return re.sub(r"[^A-Za-z0-9._-]", "__", task_id).strip(".") or "task"


def program_path(language: str) -> str:
    """Where the agent leaves its program, in both boxes (``/app/solution.py``, ...)."""
    return f"{APP_DIR}/{PROGRAM_FILES[language]}"


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(float(value)) if isinstance(value, float) else str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value))  # a TOML basic string: JSON's escapes are TOML's


def _toml(top: dict, tables: dict[str, dict]) -> str:
    lines = [f"{key} = {_toml_value(value)}" for key, value in top.items()]
    for name, table in tables.items():
        lines += ["", f"[{name}]"] + [f"{key} = {_toml_value(value)}" for key, value in table.items()]
    return "\n".join(lines) + "\n"


def _instruction(task: Task) -> str:
    path = program_path(task.language)
    kinds = {t.kind for t in task.tests}
    how = []
    if "stdio" in kinds:
        how.append("runs it with each hidden test's input on stdin and compares its stdout")
    if kinds & {"assert", "call"}:
        how.append(f"calls {'`' + task.entry_point + '`' if task.entry_point else 'its functions'} "
                   "with each hidden test's arguments")
    prompt = task.prompt.rstrip()
    if task.entry_point and re.search(rf"^\s*def {re.escape(task.entry_point)}\b", prompt, re.M):
        prompt = f"Complete this {task.language} function:\n\n```{task.language}\n{prompt}\n```"  # a human-eval prompt
    return (f"{prompt}\n\n## Your answer\n\nWrite your solution in {task.language} to `{path}`. "
            f"The file as a whole is the program: give every import and definition it needs. The verifier "
            f"{' and '.join(how)}; the reward is the share of hidden tests passed.\n")


def _solve_sh(task: Task) -> str:
    path = program_path(task.language)
    encoded = base64.b64encode((task.reference_solution or "").encode("utf-8")).decode()
    lines = [encoded[i:i + 76] for i in range(0, len(encoded), 76)]
    return ("#!/bin/bash\n# The oracle: the task's reference solution, byte for byte.\nset -euo pipefail\n"
            f"mkdir -p {APP_DIR}\nbase64 -d > {path} <<'EOF'\n" + "\n".join(lines) + "\nEOF\n")


def _task_toml(task: Task, suite: TaskSuite, worst_case_s: float) -> str:
    memory = ContainerSettings().memory_mb
    box = {"cpus": 1, "memory_mb": memory, "build_timeout_sec": 600.0}
    return _toml(
        {"schema_version": "1.4", "artifacts": [program_path(task.language)]},
        {"metadata": {"task_id": task.task_id, "suite": suite.name, "suite_version": str(suite.version),
                      "language": task.language, "source": "grpo-code tasks export --format harbor"},
         "agent": {"timeout_sec": AGENT_TIMEOUT_S},
         "verifier": {"timeout_sec": round(worst_case_s + VERIFIER_MARGIN_S, 1), "user": "root",
                      "environment_mode": "separate"},
         "verifier.environment": {**box, "network_mode": "no-network"},
         "environment": box})


def export_task(task: Task, suite: TaskSuite, folder: Path, image: str, reward_mode: str = "fraction") -> None:
    """Write ``task`` as one Harbor task folder (see the module docstring).

    Raises:
        ConfigError: the task has no reference solution (Harbor's oracle needs one).
    """
    if task.reference_solution is None:
        raise ConfigError(f"task {task.task_id!r} has no reference solution: Harbor's oracle agent needs one "
                          "(export a suite whose tasks all have one, or pick them with ?limit / a smaller suite)")
    job = task.job("")  # the program is the task's prelude (if any) + the agent's file
    wire = {key: value for key, value in job.to_wire("").items() if key != "id"}  # harbor-verify adds its own
    deadline_s = job.limits.worst_case_s(len(job.tests))
    spec = {"job": wire, "reward_mode": reward_mode, "deadline_s": deadline_s}
    stored = {**task.to_dict(), "suite": {"name": suite.name, "version": suite.version, "description":
                                           suite.description, "license": suite.license,
                                           "prompt_template": suite.prompt_template}}
    for sub in ("environment", "solution", "tests"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    names = {"image": image, "app": APP_DIR, "job": JOB_FILE, "task": TASK_FILE,
             "program": program_path(task.language)}
    (folder / "instruction.md").write_text(_instruction(task), encoding="utf-8")
    (folder / "task.toml").write_text(_task_toml(task, suite, deadline_s), encoding="utf-8")
    (folder / "environment" / "Dockerfile").write_text(ENVIRONMENT_DOCKERFILE.format(**names), encoding="utf-8")
    (folder / "solution" / "solve.sh").write_text(_solve_sh(task), encoding="utf-8")
    (folder / "tests" / "Dockerfile").write_text(TESTS_DOCKERFILE.format(**names), encoding="utf-8")
    (folder / "tests" / "test.sh").write_text(TEST_SH.format(**names), encoding="utf-8")
    (folder / "tests" / JOB_FILE).write_text(json.dumps(spec, indent=1) + "\n", encoding="utf-8")
    (folder / "tests" / TASK_FILE).write_text(json.dumps(stored, indent=1) + "\n", encoding="utf-8")
    for script in (folder / "solution" / "solve.sh", folder / "tests" / "test.sh"):
        script.chmod(0o755)


def export_suite(suite: TaskSuite, out: str | Path, image: str, reward_mode: str = "fraction") -> list[Path]:
    """Write every task of ``suite`` as a Harbor task folder under ``out``; returns the folders.

    Args:
        suite: the tasks (each needs a reference solution).
        out: the folder to write into (created; an existing task folder is overwritten).
        image: the sandbox image tag both Dockerfiles start from (``sandbox.image.image_tag()``).
        reward_mode: ``fraction`` (the pass rate) or ``binary`` (1 when every test passed).

    Raises:
        ConfigError: an unknown reward mode, a task without a reference solution, or two task
            ids that make the same folder name.
    """
    RewardRules(mode=reward_mode, option_names={"mode": "--reward"})  # the rules' owner checks the mode
    missing = [t.task_id for t in suite if t.reference_solution is None]
    if missing:
        raise ConfigError(f"{len(missing)} task(s) of {suite.name!r} have no reference solution, which Harbor's "
                          f"oracle agent needs (first: {missing[0]!r})")
    folders: dict[str, str] = {}
    for task in suite:
        name = task_folder_name(task.task_id)
        if name in folders:
            raise ConfigError(f"task ids {folders[name]!r} and {task.task_id!r} make the same folder name {name!r}")
        folders[name] = task.task_id
    root = Path(out)
    written = []
    for task in suite:
        folder = root / task_folder_name(task.task_id)
        export_task(task, suite, folder, image, reward_mode)
        written.append(folder)
    return written
