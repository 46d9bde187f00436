"""Harbor tasks out and in: ``grpo-code tasks export --format harbor`` and ``harbor:PATH``.

Harbor's own runner (``harbor run -a oracle``) needs Python 3.12 and Docker Compose, which this
machine lacks; so the Docker tests run each exported task as Harbor runs it in
``environment_mode = "separate"``: ``solution/solve.sh`` in the image of ``environment/``, the
agent's program carried over as an artifact (``task.toml``'s ``artifacts``) into a container of the
image of ``tests/`` started with Harbor's own command (``sh -c "sleep infinity"``, no network),
``/logs/verifier`` mounted from the host and left writable by anyone (Harbor makes it so), and
``tests/test.sh`` run in it as root (``[verifier] user``); then the reward file is read as Harbor
reads it.
"""

from __future__ import annotations

import io
import json
import math
import os
import tarfile
import tomllib
import uuid
from pathlib import Path

import pytest

from grpo_code.curate.export import export_suite, program_path
from grpo_code.errors import ConfigError, TaskFormatError
from grpo_code.suites.harbor import load_harbor_suite
from grpo_code.suites.registry import load_suite
from grpo_code.suites.tasks import TaskSuite, parse_task

STDIO_LANGUAGES = ("c", "cpp", "go", "javascript")


def _stdio_tasks() -> list:
    suite = load_suite("stdio-basics")
    first = suite.tasks[0].task_id.rsplit("/", 1)[0]
    return [suite.get(f"{first}/{language}") for language in STDIO_LANGUAGES]


# -- export and import, no Docker --------------------------------------------------------------


def test_export_writes_harbor_task_folders(tmp_path):
    suite = load_suite("warmup-python?limit=2")
    folders = export_suite(suite, tmp_path, "grpo-code-sandbox:test")
    assert [f.name for f in folders] == [t.task_id.replace("/", "__") for t in suite]
    task, folder = suite.tasks[0], folders[0]
    config = tomllib.loads((folder / "task.toml").read_text())
    assert config["verifier"]["environment_mode"] == "separate" and config["verifier"]["user"] == "root"
    assert config["verifier"]["environment"]["network_mode"] == "no-network"
    assert config["artifacts"] == ["/app/solution.py"] and config["metadata"]["task_id"] == task.task_id
    assert config["verifier"]["timeout_sec"] == pytest.approx(task.limits.worst_case_s(len(task.tests)) + 60, abs=0.1)
    assert "/app/solution.py" in (folder / "instruction.md").read_text()
    assert task.prompt in (folder / "instruction.md").read_text()
    spec = json.loads((folder / "tests" / "job.json").read_text())
    assert spec["reward_mode"] == "fraction" and spec["job"]["tests"] == [t.check_dict() for t in task.tests]
    assert "FROM grpo-code-sandbox:test" in (folder / "tests" / "Dockerfile").read_text()
    assert "harbor-init" in (folder / "tests" / "Dockerfile").read_text()
    for script in ("solution/solve.sh", "tests/test.sh"):
        assert os.access(folder / script, os.X_OK)
    agent_side = {p.relative_to(folder).parts[0] for p in folder.rglob("*") if p.is_file()} - {"tests"}
    hidden = [json.dumps(t.to_dict())[:40] for t in task.tests]
    for part in agent_side:  # no hidden test outside tests/, which only the verifier's box is built from
        for path in (folder / part).rglob("*") if (folder / part).is_dir() else [folder / part]:
            if path.is_file():
                assert not any(h in path.read_text() for h in hidden), path


def test_an_exported_suite_reads_back_as_the_same_tasks(tmp_path):
    for spec, out in (("warmup-python", tmp_path / "warmup"), ("stdio-basics?limit=24", tmp_path / "stdio")):
        suite = load_suite(spec)
        export_suite(suite, out, "grpo-code-sandbox:test", reward_mode="binary")
        back = load_suite(f"harbor:{out}")
        assert back.name == suite.name and back.version == suite.version
        assert list(back.tasks) == sorted(suite.tasks, key=lambda t: t.task_id.replace("/", "__"))
        assert load_suite(str(out)).tasks == back.tasks  # a folder of Harbor tasks is a suite too
        one = load_suite(f"harbor:{out / back.tasks[0].task_id.replace('/', '__')}")
        assert one.tasks == back.tasks[:1]
    assert len(load_suite(f"harbor:{tmp_path / 'warmup'}?split=heldout")) == 256


def test_harbor_tasks_grpo_code_cannot_judge_are_refused(tmp_path):
    foreign = tmp_path / "foreign-task"
    (foreign / "tests").mkdir(parents=True)
    (foreign / "task.toml").write_text('schema_version = "1.4"\n')
    (foreign / "tests" / "test.sh").write_text("#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n")
    with pytest.raises(TaskFormatError, match=r"foreign-task.*cannot judge"):
        load_suite(f"harbor:{tmp_path}")
    with pytest.raises(TaskFormatError, match="no Harbor task here"):
        load_harbor_suite(tmp_path / "foreign-task" / "tests")
    no_reference = parse_task({"task_id": "x/1", "prompt": "p", "tests": [{"kind": "assert", "code": "assert 1"}]})
    with pytest.raises(ConfigError, match="no reference solution"):
        export_suite(TaskSuite(name="x", tasks=(no_reference,)), tmp_path / "out", "img")


def test_export_command(tmp_path):
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "grpo_code.cli", "tasks", "export", "warmup-python?limit=3",
                             str(tmp_path), "--format", "harbor", "--reward", "binary"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "3 Harbor task(s)" in result.stdout and len(list(tmp_path.iterdir())) == 3
    bad = subprocess.run([sys.executable, "-m", "grpo_code.cli", "tasks", "export", "warmup-python", str(tmp_path),
                          "--format", "parquet"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


# -- each exported task run as Harbor runs it --------------------------------------------------


def _tar(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _untar_one(stream) -> bytes | None:
    with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as tar:
        member = tar.next()
        extracted = tar.extractfile(member) if member is not None else None
        return extracted.read() if extracted is not None else None


def run_like_harbor(client, folder: Path, logs: Path, program: bytes | None = None,
                    solve: bytes | None = None) -> tuple[dict | None, dict]:
    """One trial of an exported task as Harbor runs it in separate-verifier mode; ``program``
    None: a solution writes it in the agent's box, ``solve`` (a bash script) or the oracle
    (``solution/solve.sh``), with ``/logs/verifier`` mounted there as Harbor mounts it. Returns
    ``(reward.json or None, verdict.json)``."""
    import docker.errors

    config = tomllib.loads((folder / "task.toml").read_text())
    artifact = config["artifacts"][0]
    tag = f"grpo-code-test-harbor:{uuid.uuid4().hex[:12]}"
    images, containers = [], []
    try:
        logs.mkdir(parents=True, exist_ok=True)
        logs.chmod(0o777)
        if program is None:
            client.images.build(path=str(folder / "environment"), tag=tag + "-env", rm=True)
            images.append(tag + "-env")
            agent = client.containers.run(tag + "-env", ["sh", "-c", "sleep infinity"], detach=True,
                                          network_mode="none",
                                          volumes={str(logs): {"bind": "/logs/verifier", "mode": "rw"}})
            containers.append(agent)
            script = solve if solve is not None else (folder / "solution" / "solve.sh").read_bytes()
            agent.put_archive("/", _tar({"solution/solve.sh": script}))
            code, output = agent.exec_run(["bash", "/solution/solve.sh"], user="root")
            assert code == 0, output
            stream, _ = agent.get_archive(artifact)
            program = _untar_one(stream)
            assert program is not None, f"the oracle wrote no {artifact}"
        client.images.build(path=str(folder / "tests"), tag=tag + "-verifier", rm=True)
        images.append(tag + "-verifier")
        memory = config["verifier"]["environment"]["memory_mb"]
        verifier = client.containers.run(tag + "-verifier", ["sh", "-c", "sleep infinity"], detach=True,
                                         network_mode="none", mem_limit=f"{memory}m",
                                         volumes={str(logs): {"bind": "/logs/verifier", "mode": "rw"}})
        containers.append(verifier)
        verifier.put_archive(os.path.dirname(artifact), _tar({os.path.basename(artifact): program}))
        code, output = verifier.exec_run(["bash", "/tests/test.sh"], user="root")
        reward_file, text_file = logs / "reward.json", logs / "reward.txt"  # the order Harbor reads them in
        reward = json.loads(reward_file.read_text()) if reward_file.is_file() else \
            {"reward": float(text_file.read_text())} if text_file.is_file() else None
        if reward is not None:  # what Harbor 0.25 accepts: numbers only, each finite
            assert all(isinstance(v, int | float) and math.isfinite(v) for v in reward.values()), reward
            assert 0.0 <= reward["reward"] <= 1.0
        return reward, json.loads((logs / "verdict.json").read_text())
    finally:
        for container in containers:
            container.remove(force=True)
        for image in images:
            try:
                client.images.remove(image, force=True)
            except docker.errors.DockerException:
                pass


@pytest.fixture(scope="module")
def docker_client():
    from sandbox.container import connect
    from sandbox.image import require_image

    client = connect()
    require_image(client)
    return client


@pytest.mark.docker
@pytest.mark.slow
def test_the_oracle_scores_one_on_every_exported_task(docker_client, tmp_path):
    from sandbox.image import image_tag

    tasks = list(load_suite("warmup-python?limit=3")) + _stdio_tasks()
    folders = export_suite(TaskSuite(name="mixed", tasks=tuple(tasks)), tmp_path / "tasks", image_tag())
    for folder, task in zip(folders, tasks, strict=True):
        reward, verdict = run_like_harbor(docker_client, folder, tmp_path / "logs" / folder.name)
        assert reward is not None and reward["reward"] == 1.0, (task.task_id, verdict)
        assert reward["passed"] == reward["n_tests"] == len(task.tests) and verdict["status"] == "passed"


PLANTS_AND_PEEKS = r'''
import json
for path in ("/logs/verifier/reward.json", "/logs/verifier/reward.txt"):
    try:
        with open(path, "w") as f:
            f.write(json.dumps({"reward": 1.0}) if path.endswith("json") else "1.0")
    except OSError:
        pass
try:
    CHEAT = json.load(open("/tests/job.json"))  # the hidden tests: readable by root only
except OSError:
    CHEAT = None

def add(a, b):
    return a + b if CHEAT else a - b
'''

KILLS_ITS_RUNNER = ("import os, signal\ntry:\n    os.kill(1, signal.SIGKILL)  # another user's: refused\n"
                    "except PermissionError:\n    pass\n\ndef add(a, b):\n    return a + b\n")
KILLS_EVERYTHING = "import os, signal\nos.kill(-1, signal.SIGKILL)\n\ndef add(a, b):\n    return a - b\n"


@pytest.mark.docker
@pytest.mark.slow
def test_wrong_and_hostile_programs_get_their_true_reward(docker_client, executor, tmp_path):
    from sandbox.image import image_tag

    task = load_suite("warmup-python").get("warmup-python/add")
    folder = export_suite(TaskSuite(name="one", tasks=(task,)), tmp_path / "tasks", image_tag())[0]
    assert program_path(task.language) == "/app/solution.py"
    for name, program in (("wrong", "def add(a, b):\n    return a * b\n"), ("plants and peeks", PLANTS_AND_PEEKS),
                          ("partial", "def add(a, b):\n    return 3 if (a, b) == (1, 2) else a - b\n"),
                          ("kills PID 1", KILLS_ITS_RUNNER)):
        reward, verdict = run_like_harbor(docker_client, folder, tmp_path / "logs" / name, program.encode())
        want = executor.run([task.job(program)])[0]  # the same program in a sandbox container
        assert reward is not None and reward["reward"] == want.pass_rate, (name, verdict)
        assert [t["status"] for t in verdict["tests"]] == [t.status for t in want.test_results], name
        assert verdict["flags"] == list(want.flags), name
        assert (reward["reward"] == 1.0) == (name == "kills PID 1"), name  # PID 1 outlives it; nothing else wins
        assert not (tmp_path / "logs" / name / "reward.txt").exists(), name  # nothing planted for Harbor to read
    # kill(-1) takes every process of the sandbox user with it (as in a sandbox container): the tests
    # fail, and the reward is still written, from the runner's verdict
    reward, verdict = run_like_harbor(docker_client, folder, tmp_path / "logs" / "kills all", KILLS_EVERYTHING.encode())
    assert reward is not None and reward["reward"] == verdict["pass_rate"] < 1.0 and "parent_killed" in verdict["flags"]
    missing, verdict = run_like_harbor(docker_client, folder, tmp_path / "logs" / "missing", b"")
    assert missing is not None and missing["reward"] == 0.0 and verdict["status"] == "no_code"


SETS_ITS_OWN_REWARD = b"""#!/bin/bash
# A solution that writes a wrong program, then every file of the verifier's it can reach.
set -e
mkdir -p /app
printf 'def add(a, b):\\n    return a - b\\n' > /app/solution.py
cd /logs/verifier
echo 1.0 > reward.txt
mkdir -p reward.json/inner && echo '{"reward": 1.0}' > reward.json/inner/x
mkdir verdict.json
ln -s /etc/passwd .reward.json.1.tmp
echo '{"reward": 1.0}' > reward.json.bak
"""


@pytest.mark.docker
@pytest.mark.slow
def test_a_solution_that_writes_the_verifiers_files_gets_its_programs_verdict(docker_client, executor, tmp_path):
    from sandbox.image import image_tag

    task = load_suite("warmup-python").get("warmup-python/add")
    folder = export_suite(TaskSuite(name="one", tasks=(task,)), tmp_path / "tasks", image_tag())[0]
    logs = tmp_path / "logs"
    reward, verdict = run_like_harbor(docker_client, folder, logs, solve=SETS_ITS_OWN_REWARD)
    want = executor.run([task.job("def add(a, b):\n    return a - b\n")])[0]
    assert reward is not None and reward["reward"] == want.pass_rate < 1.0, verdict
    assert verdict["status"] == want.status and (logs / "verdict.json").is_file()
    assert not (logs / "reward.txt").exists()  # Harbor would read reward.json first, then this
