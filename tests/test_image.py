"""What the sandbox image bakes in: read from the Dockerfile, so its tag and build context
cannot miss a module the in-container runner imports (no Docker needed)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sandbox.image import baked_files, image_tag

INSIDE = Path(__file__).resolve().parent.parent / "sandbox" / "inside"


def _package_imports(module: str) -> set[str]:
    """Modules of ``sandbox/inside`` that ``module`` imports (relatively, or as ``inside.<name>``)."""
    tree = ast.parse((INSIDE / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.level == 1:
                names.add(f"{module.rpartition('.')[0]}.{node.module}".lstrip("."))
            elif node.level == 2:
                names.add(node.module)
            elif node.module.startswith("inside."):
                names.add(node.module.removeprefix("inside."))
    return names


def test_the_image_bakes_every_module_the_runner_and_fork_server_load():
    needed, todo = set(), ["__main__"]
    while todo:
        module = todo.pop()
        if module not in needed:
            needed.add(module)
            todo += _package_imports(module)
    assert {"runner", "state", "jobs", "children", "forkserver", "program.child", "program.calls", "watch",
            "resident", "judge.main", "judge.asserts", "judge.remote", "judge.checker", "judge.taskcode", "verdict",
            "values"} <= needed
    assert all((INSIDE / (m.replace(".", "/") + ".py")).is_file() for m in needed)
    assert {f"sandbox/inside/{m.replace('.', '/')}.py" for m in needed} <= set(baked_files())


def test_the_folder_is_baked_whole_and_only_it():
    files = baked_files()
    on_disk = sorted(f"sandbox/inside/{p.relative_to(INSIDE).as_posix()}" for p in INSIDE.rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    assert list(files) == on_disk
    assert "sandbox/inside/program/child.py" in files and "sandbox/executor.py" not in files
    assert "sandbox/inside/program/driver.js" in files  # the JavaScript call driver is baked and hashed too


def test_the_tag_changes_with_any_baked_file(tmp_path, monkeypatch):
    import sandbox.image as image

    root = tmp_path / "project"
    (root / "sandbox" / "inside").mkdir(parents=True)
    (root / "Dockerfile").write_text("FROM x\nCOPY sandbox/inside/ /opt/sandbox/inside/\n")
    (root / "sandbox" / "inside" / "a.py").write_text("A = 1\n")
    monkeypatch.setattr(image, "PACKAGE_DIR", root / "sandbox")
    first = image_tag()
    (root / "sandbox" / "inside" / "b.py").write_text("B = 1\n")
    second = image_tag()
    (root / "sandbox" / "inside" / "a.py").write_text("A = 2\n")
    third = image_tag()
    assert len({first, second, third}) == 3


def test_a_suite_image_s_tag_is_the_lean_tag_and_its_sorted_pins(tmp_path, monkeypatch):
    import sandbox.image as image

    lean = image_tag()
    tag = image_tag(["pandas==2.3.3", "NumPy==2.2.6"])
    assert tag == image_tag(["numpy==2.2.6", "pandas==2.3.3"]) == image_tag(["numpy==2.2.6", "Pandas==2.3.3"])
    assert tag.startswith(f"{lean}-") and len(tag) == len(lean) + 13
    assert tag != image_tag(["numpy==2.2.5", "pandas==2.3.3"]) and tag != image_tag(["numpy==2.2.6"])
    assert image_tag([]) == lean
    root = tmp_path / "project"
    (root / "sandbox" / "inside").mkdir(parents=True)
    (root / "Dockerfile").write_text("FROM x\nCOPY sandbox/inside/ /opt/sandbox/inside/\n")
    monkeypatch.setattr(image, "PACKAGE_DIR", root / "sandbox")
    other = image_tag(["numpy==2.2.6", "pandas==2.3.3"])  # another lean image: another suite image
    assert other.startswith(f"{image_tag()}-") and other.rpartition("-")[2] == tag.rpartition("-")[2]
    monkeypatch.setenv("GRPO_CODE_SANDBOX_IMAGE", "registry.example/sandbox:v1")
    assert image_tag() == "registry.example/sandbox:v1"
    assert image_tag(["numpy==2.2.6"]).startswith("grpo-code-sandbox:")


def test_a_pin_is_exact():
    from sandbox.image import check_pin, check_pins

    assert [check_pin(p) for p in ("numpy==2.2.6", " Ruamel.YAML==0.18.6 ", "torch==2.5.1+cpu", "x==1.0rc1",
                                   "y==1.0.post2.dev3", "z==1!2.0")] == [
        "numpy==2.2.6", "ruamel-yaml==0.18.6", "torch==2.5.1+cpu", "x==1.0rc1", "y==1.0.post2.dev3", "z==1!2.0"]
    for bad in ("numpy", "numpy>=2", "numpy==2.*", "numpy~=2.2", "numpy===2.2.6", "pandas[excel]==2.3.3",
                "numpy==2.2.6; python_version > '3'", "numpy @ https://x/numpy.whl", "a==1 b==2", "-e .", 2.2):
        with pytest.raises(ValueError, match="expected an exact pin, name==version"):
            check_pin(bad)
    assert check_pins(["b==1", "A==2", "a==2"]) == ("a==2", "b==1")
    with pytest.raises(ValueError, match=r"^a pinned to more than one version: name each package once$"):
        check_pins(["a==1", "A==2"])
