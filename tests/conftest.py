"""Shared fixtures. Sandbox tests run in real Docker containers: without a daemon or the image
they fail with the error that says how to fix it (never skip silently)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grpo_code.jsonl import read_records

CASES_FILE = Path(__file__).parent / "cases" / "sandbox_cases.jsonl"


def load_cases() -> dict[str, dict]:
    return {case["id"]: case for case in read_records(CASES_FILE)}


@pytest.fixture(scope="session")
def cases() -> dict[str, dict]:
    return load_cases()


@pytest.fixture(scope="session")
def executor():
    """One warm pool for the whole session (2 containers)."""
    from sandbox import DockerExecutor

    with DockerExecutor(concurrency=2) as ex:
        yield ex


@pytest.fixture
def solo_executor():
    """A pool of one container, for tests that inspect the container a job ran in."""
    from sandbox import DockerExecutor

    with DockerExecutor(concurrency=1) as ex:
        yield ex
