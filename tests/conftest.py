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


@pytest.fixture(scope="module")
def ray_cluster():
    """A real local Ray cluster of two nodes on this machine (``ray.cluster_utils.Cluster``), each
    offering the ``sandbox`` resource and one CPU (in Ray's count), this process connected to it.
    Small: no dashboard, a small object store, quiet logs. One per module, shut down at its end:
    ``ray.init(address="auto")`` finds any Ray running on this machine, so a test that starts a
    Ray of its own lives in a module without this one (test_ray_local.py)."""
    import logging

    import ray
    from ray.cluster_utils import Cluster

    node = dict(num_cpus=1, resources={"sandbox": 1}, object_store_memory=80 * 2**20)
    cluster = Cluster(initialize_head=True, head_node_args={**node, "include_dashboard": False})
    cluster.add_node(**node)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, logging_level=logging.WARNING, log_to_driver=False)
    yield cluster
    ray.shutdown()
    cluster.shutdown()
