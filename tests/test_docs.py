"""The documents the code points to exist and cover what the code accepts (no Docker)."""

from __future__ import annotations

import re
from pathlib import Path

from grpo_code.errors import TASK_FORMAT_DOC
from grpo_code.registry import SUITE_KEYS
from grpo_code.tasks import TASK_FIELDS
from sandbox.types import STATUSES

ROOT = Path(__file__).resolve().parent.parent
TASK_FORMAT = (ROOT / TASK_FORMAT_DOC).read_text(encoding="utf-8")


def test_messages_and_docstrings_point_to_documents_in_the_repository():
    old = "TASK_FORMAT" + ".md"  # the name of the guide outside the repository
    assert (ROOT / "docs" / "architecture.md").is_file() and (ROOT / "CONTRIBUTING.md").is_file()
    stale = [str(path.relative_to(ROOT)) for folder in ("grpo_code", "sandbox", "tests", "benchmarks")
             for path in (ROOT / folder).rglob("*.py") if old in path.read_text(encoding="utf-8")]
    stale += [name for name in ("README.md", "CONTRIBUTING.md", "Makefile", "Dockerfile")
              if old in (ROOT / name).read_text(encoding="utf-8")]
    assert stale == []


def test_every_task_field_suite_key_and_status_is_documented():
    fields = set(re.findall(r"^\| `(\w+)` \|", TASK_FORMAT, re.M))
    assert TASK_FIELDS - fields - {"canonical_solution"} == set()  # the alias is described with reference_solution
    assert "canonical_solution" in TASK_FORMAT
    assert all(re.search(rf"^#? ?{key}:", TASK_FORMAT, re.M) for key in SUITE_KEYS)
    assert all(f"`{status}`" in TASK_FORMAT for status in STATUSES)
