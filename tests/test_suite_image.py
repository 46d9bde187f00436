"""A suite's image: the lean sandbox image with the suite's pinned packages and nothing else,
built from PyPI once and cached by its tag (real Docker; the first test builds the image of one
small pure-Python package, a few seconds, where it is not built yet)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from grpo_code.suites.registry import load_suite
from sandbox import DockerExecutor, ImageMissing, Job, TestCase
from sandbox.container import connect
from sandbox.image import build_image, image_tag, require_image

pytestmark = pytest.mark.docker

PIN = "sortedcontainers==2.4.0"  # tiny, pure Python, not in the lean image (pytest's own needs are)
PROGRAM = "from sortedcontainers import SortedList\n\ndef ordered(xs):\n    return list(SortedList(xs))\n"
CALL = TestCase(kind="call", fn_name="ordered", args=[[3, 1, 2]], expected=[1, 2, 3])
ASSERT = TestCase(kind="assert",
                  code="import sortedcontainers\nassert ordered([4, 0]) == list(sortedcontainers.SortedList([0, 4]))")


@pytest.fixture(scope="module")
def client():
    return connect()


@pytest.fixture(scope="module")
def built(client) -> str:
    """The image of ``PIN``, built here if it is not yet (once per machine: cached by its tag)."""
    return build_image(client, packages=[PIN])


def test_the_image_is_the_lean_one_with_the_packages_and_nothing_else(client, built):
    lean = client.images.get(image_tag())
    image = client.images.get(built)
    assert built == image_tag([PIN]) == f"{image_tag()}-{built.rpartition('-')[2]}"
    assert image.labels["grpo-code.packages"] == PIN and image.labels["grpo-code.lean-image"] == image_tag()
    layers, lean_layers = image.attrs["RootFS"]["Layers"], lean.attrs["RootFS"]["Layers"]
    assert layers[:-1] == lean_layers and len(layers) == len(lean_layers) + 1  # one layer on top: the packages
    config, lean_config = image.attrs["Config"], lean.attrs["Config"]
    assert {k: config[k] for k in ("Cmd", "Entrypoint", "Env", "User", "WorkingDir")} == \
        {k: lean_config[k] for k in ("Cmd", "Entrypoint", "Env", "User", "WorkingDir")}
    assert client.images.list(filters={"dangling": True, "label": f"grpo-code.install-stage={built}"}) == []


def test_a_second_build_does_nothing(client, built):
    before = client.images.get(built).id
    lines: list[str] = []
    assert build_image(client, progress=lines.append, packages=["SortedContainers==2.4.0"]) == built
    assert lines == [f"{image_tag()} is already built", f"{built} is already built"]
    assert client.images.get(built).id == before


def test_a_program_and_a_test_import_the_package_in_its_image_and_not_in_the_lean_one(built):
    jobs = [Job(program=PROGRAM, tests=(CALL,)), Job(program=PROGRAM, tests=(ASSERT,)),
            Job(program="def ordered(xs):\n    return sorted(xs)\n", tests=(ASSERT,))]
    with DockerExecutor(concurrency=1, packages=[PIN]) as executor:
        assert executor.image == built
        assert [v.status for v in executor.run(jobs)] == ["passed", "passed", "passed"]
    with DockerExecutor(concurrency=1) as lean:
        assert lean.image == image_tag()
        verdicts = lean.run(jobs)
    for verdict in verdicts:  # the program's import, then the test's, fails: never a pass
        assert verdict.status != "passed" and verdict.pass_rate == 0.0
        assert "ModuleNotFoundError: No module named 'sortedcontainers'" in verdict.test_results[0].message


def test_an_image_not_built_says_the_command_that_builds_it(client):
    pins = ["more-itertools==10.4.0", "NumPy==2.2.6"]
    with pytest.raises(ImageMissing) as e:
        require_image(client, packages=pins)
    assert str(e.value) == (f"the sandbox image {image_tag(pins)} is not built (with more-itertools==10.4.0, "
                            "numpy==2.2.6 on this version's image). Build it with: grpo-code sandbox build --packages "
                            "more-itertools==10.4.0 numpy==2.2.6")
    with pytest.raises(ImageMissing, match=r"grpo-code sandbox build --packages more-itertools==10\.4\.0$"):
        DockerExecutor(concurrency=1, packages=pins[:1]).start()


def test_a_suite_s_commands_run_in_its_image(tmp_path, built):
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "suite.yaml").write_text(f"name: chunks\npackages:\n  - {PIN}\n")
    (folder / "problems.jsonl").write_text(json.dumps({
        "task_id": "chunks/pairs", "prompt": "Write ordered(xs).", "entry_point": "ordered",
        "reference_solution": PROGRAM,
        "tests": [CALL.to_dict(), ASSERT.to_dict()]}) + "\n")
    run = [sys.executable, "-m", "grpo_code.cli"]
    proc = subprocess.run([*run, "sandbox", "build", "--suite", str(folder)], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0 and proc.stdout.strip() == f"sandbox image: {built}", proc.stderr
    proc = subprocess.run([*run, "tasks", "validate", str(folder), "--concurrency", "1"], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0 and "1 references pass, 0 fail" in proc.stdout, proc.stdout + proc.stderr
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "chunks/pairs", "completion": PROGRAM}) + "\n")
    proc = subprocess.run([*run, "score", str(samples), "--suite", str(folder), "-k", "1", "--json", "--concurrency",
                           "1"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and json.loads(proc.stdout)["pass@1"] == 1.0, proc.stderr
    (folder / "suite.yaml").write_text("name: chunks\npackages:\n  - sortedcontainers==2.3.0\n")  # not built
    proc = subprocess.run([*run, "tasks", "validate", str(folder), "--concurrency", "1"], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().endswith("Build it with: grpo-code sandbox build --packages sortedcontainers==2.3.0")
    assert load_suite(str(folder)).packages == ("sortedcontainers==2.3.0",)
