"""``--executor ray`` with no cluster to join starts a local Ray of its own.

A module of its own: the two-node ``ray_cluster`` fixture (one per module) of the other Ray tests is
shut down before this one runs, since ``ray.init(address="auto")`` finds any Ray that runs on
this machine, whatever ``RAY_TMPDIR`` says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import pytest

from helpers import humaneval_samples

pytestmark = pytest.mark.docker


@pytest.mark.slow
def test_score_starts_a_local_ray_of_its_own(tmp_path):
    # No cluster to join (a fresh Ray temp folder): `--executor ray` starts a local Ray whose one
    # node offers the sandbox resource, and shuts it down at the end.
    ray_tmp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths live under it
    env = {**os.environ, "RAY_TMPDIR": ray_tmp}
    env.pop("RAY_ADDRESS", None)
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "score", str(humaneval_samples(tmp_path)), "--suite",
                           "humaneval", "-k", "1", "--json", "--executor", "ray", "--concurrency", "1"],
                          capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status_counts"] == {"passed": 2, "failed": 2}
