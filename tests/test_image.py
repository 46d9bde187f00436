"""What the sandbox image bakes in: read from the Dockerfile, so its tag and build context
cannot miss a module the in-container runner imports (no Docker needed)."""

from __future__ import annotations

import ast
from pathlib import Path

from sandbox.image import baked_files

SANDBOX = Path(__file__).resolve().parent.parent / "sandbox"


def _sibling_imports(module: str) -> set[str]:
    """Modules of the sandbox folder that ``module`` imports as plain (in-image) modules."""
    tree = ast.parse((SANDBOX / f"{module}.py").read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if (SANDBOX / f"{name}.py").is_file()}


def test_the_image_bakes_every_module_the_runner_and_fork_server_load():
    needed, todo = set(), ["runner", "forkserver"]
    while todo:
        module = todo.pop()
        if module not in needed:
            needed.add(module)
            todo += _sibling_imports(module)
    assert needed == {"runner", "forkserver", "child", "harness", "guard", "judge", "languages", "supervise", "zygote"}
    assert {f"sandbox/{m}.py" for m in needed} <= set(baked_files())


def test_baked_files_come_from_the_copy_instructions_only():
    files = baked_files()
    assert files[0] == "sandbox/languages.py" and files[-1] == "sandbox/runner.py"
    assert len(files) == len(set(files)) == 9
    assert all(f.startswith("sandbox/") and f.endswith(".py") for f in files)
