"""grpo-code as a user installs it: a wheel, without the source tree.

The wheel carries the Dockerfile (as ``sandbox/Dockerfile``) and the bundled suites (as
``grpo_code/suites/bundled/``); an installed copy must find both, and build the image with the same tag
as a checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import sandbox.image as image
from grpo_code.suites import registry

ROOT = Path(__file__).resolve().parent.parent


def test_an_installed_layout_gives_the_checkout_image_tag(tmp_path, monkeypatch):
    """site-packages holds sandbox/Dockerfile and sandbox/inside/: same files, same names, same tag."""
    checkout_tag, checkout_files = image.image_tag(), image.baked_files()
    site = tmp_path / "site-packages"
    shutil.copytree(ROOT / "sandbox" / "inside", site / "sandbox" / "inside",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "Dockerfile", site / "sandbox" / "Dockerfile")
    monkeypatch.setattr(image, "PACKAGE_DIR", site / "sandbox")
    assert image.dockerfile_path() == site / "sandbox" / "Dockerfile"
    assert image.baked_files() == checkout_files
    assert image.image_tag() == checkout_tag
    (site / "sandbox" / "Dockerfile").write_text("FROM scratch\n" + (ROOT / "Dockerfile").read_text())
    assert image.image_tag() != checkout_tag  # the installed copy is the one read


def test_a_missing_dockerfile_says_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.setattr(image, "PACKAGE_DIR", tmp_path / "site-packages" / "sandbox")
    with pytest.raises(image.SandboxError, match=r"neither at .*site-packages/sandbox/Dockerfile"):
        image.dockerfile_path()


def test_bundled_suites_come_from_the_installed_package_first(tmp_path, monkeypatch):
    installed = tmp_path / "grpo_code" / "suites" / "bundled"
    (installed / "only-installed").mkdir(parents=True)
    (installed / "only-installed" / "suite.yaml").write_text("name: only-installed\n")
    monkeypatch.setattr(registry, "BUNDLED_DIRS", (installed, ROOT / "tasks"))
    assert list(registry.bundled_suites()) == ["only-installed"]
    monkeypatch.setattr(registry, "BUNDLED_DIRS", (tmp_path / "absent", ROOT / "tasks"))
    assert {"humaneval", "warmup-python", "stdio-basics"} <= set(registry.bundled_suites())


def run(cmd: list[str], cwd: Path, env: dict | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{cmd} exited {proc.returncode}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.mark.slow
@pytest.mark.docker
def test_the_wheel_installs_and_runs_away_from_the_source_tree(tmp_path):
    """``python -m build`` (an sdist, then a wheel from it), a fresh venv with the wheel and its
    dependencies only (no torch, no TRL), and the three commands a new user tries first."""
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)], cwd=tmp_path)
    wheel = next(dist.glob("grpo_code-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    bundled = "grpo_code/suites/bundled"
    assert {"sandbox/Dockerfile", f"{bundled}/stdio-basics/problems.jsonl", f"{bundled}/warmup-python/suite.yaml",
            f"{bundled}/humaneval/suite.yaml"} <= names
    assert set(image.baked_files()) <= names  # sandbox/inside/ whole, under the same names
    shipped = zipfile.ZipFile(wheel).read(f"{bundled}/stdio-basics/problems.jsonl")
    assert shipped == (ROOT / "tasks" / "stdio-basics" / "problems.jsonl").read_bytes()

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path)
    bin_dir = venv / "bin"
    run([str(bin_dir / "pip"), "install", "-q", str(wheel)], cwd=tmp_path)
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"

    where = run([str(bin_dir / "python"), "-c", "import grpo_code, sandbox.image as i; "
                 "print(grpo_code.__file__); print(i.image_tag())"], cwd=work, env=env).stdout.split()
    assert where[0].startswith(str(venv)) and not where[0].startswith(str(ROOT))
    assert where[1] == image.image_tag()  # the wheel's image is the checkout's

    listed = run([str(bin_dir / "grpo-code"), "tasks", "list"], cwd=work, env={**env, "COLUMNS": "300"}).stdout
    rows = {cells[1]: cells[2:] for cells in ([c.strip() for c in line.split("│")] for line in listed.splitlines())
            if len(cells) > 4}
    from grpo_code.suites.registry import load_suite

    assert rows["humaneval"][0] == "164" and rows["humaneval"][2] == "python"  # tasks, tests, languages
    for name in ("warmup-python", "stdio-basics"):  # the same suites as the checkout's
        assert rows[name][0] == str(len(load_suite(name))), (name, rows[name])
    assert f"{venv}/lib/" in rows["stdio-basics"][4] and f"/{bundled}/stdio-basics/" in rows["stdio-basics"][4]
    assert rows["warmup-python"][3].endswith("(0 cheated)")  # its shipped audit.json came with it

    built = run([str(bin_dir / "grpo-code"), "sandbox", "build"], cwd=work, env=env).stdout
    assert f"sandbox image: {image.image_tag()}" in built

    samples = work / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "warmup-python/add", "completion":
                                   "```python\ndef add(a, b):\n    return a + b\n```"}) + "\n"
                       + json.dumps({"task_id": "warmup-python/add", "completion": "def add(a, b):\n    return 0\n"})
                       + "\n")
    scored = run([str(bin_dir / "grpo-code"), "score", str(samples), "--suite", "warmup-python", "-k", "1",
                  "--json"], cwd=work, env=env).stdout
    summary = json.loads(scored)
    assert summary["n_samples"] == 2 and summary["pass@1"] == pytest.approx(0.5)
    assert summary["status_counts"] == {"passed": 1, "failed": 1}

    # the base install has no [train] extra: the commands that need it say which to install
    for command in (["train"], ["eval", "--suite", "warmup-python"]):
        proc = subprocess.run([str(bin_dir / "grpo-code"), *command], cwd=work, env=env, capture_output=True,
                              text=True, timeout=120)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr
        assert "pip install 'grpo-code[train]'" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
