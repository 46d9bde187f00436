"""RayExecutor on a real local Ray cluster of two nodes (``ray.cluster_utils.Cluster``), each
node with its own actor and its own pool of real Docker containers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
from test_owner import GONE_WITHIN_S, containers_of, wait_for

from grpo_code.suites.registry import load_suite
from helpers import humaneval_samples, reference
from sandbox import SandboxError, make_executor
from sandbox.container import connect
from sandbox.ray_executor import RayExecutor

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def humaneval_jobs():
    return [task.job(reference(task)) for task in load_suite("humaneval")]


def test_humaneval_references_pass_spread_over_both_nodes(ray_cluster, humaneval_jobs):
    with make_executor("ray") as ex:
        assert isinstance(ex, RayExecutor)
        assert ex.concurrency == 2 and len(ex.actor_pids()) == 2  # one container per node (1 CPU each)
        verdicts = ex.run(humaneval_jobs)
        stats, jobs, seconds = ex.stats(), ex.node_jobs(), ex.node_seconds()
    assert [v.status for v in verdicts] == ["passed"] * len(humaneval_jobs)
    assert len(jobs) == 2 and all(n >= 20 for n in jobs.values()) and sum(jobs.values()) == len(humaneval_jobs)
    assert len(seconds) == 2 and all(s > 0 for s in seconds.values())
    assert stats.jobs == len(humaneval_jobs) and (stats.faults, stats.sandbox_errors) == (0, 0)
    assert stats.containers_started == 2


def test_an_actor_killed_mid_batch_loses_no_job(ray_cluster):
    jobs = [task.job(reference(task)) for task in load_suite("humaneval?form=whole")]
    client = connect()
    with make_executor("ray", max_retries=2) as ex:
        assert isinstance(ex, RayExecutor)
        name, pid = sorted(ex.actor_pids().items())[0]
        done = []

        def kill_after_twenty(index, verdict):  # mid-batch, whatever the machine's speed
            done.append(index)
            if len(done) == 20:
                os.kill(pid, signal.SIGKILL)

        verdicts = ex.run(jobs, on_verdict=kill_after_twenty)
        stats = ex.stats()
        assert [v.status for v in verdicts] == ["passed"] * len(jobs) and sorted(done) == list(range(len(jobs)))
        assert stats.faults >= 1 and stats.retries >= 1 and stats.sandbox_errors == 0
        assert name not in ex.actor_pids()  # the dead actor is gone
        # its containers end by themselves: nothing outlives the actor that owned them
        assert wait_for(lambda: not containers_of(client, pid), GONE_WITHIN_S) is not None
        before = ex.node_jobs()[name]
        assert all(v.passed for v in ex.run(jobs[:40]))  # the node gets a new actor
        assert name in ex.actor_pids() and ex.actor_pids()[name] != pid and ex.node_jobs()[name] > before


def test_no_sandbox_node_is_one_clear_error(ray_cluster):
    with pytest.raises(SandboxError, match=r"offers the resource 'sandbox-gpu-free'.*--resources"):
        make_executor("ray", resource="sandbox-gpu-free").start()


def test_ray_is_imported_only_when_asked_for():
    code = ("import sys, sandbox, grpo_code.cli, grpo_code.rl.train, grpo_code.rl.rewards,"
            " grpo_code.generate.evaluate\n"
            "print('ray' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"


def test_without_ray_installed_the_error_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    with pytest.raises(SandboxError, match=r"pip install 'grpo-code\[ray\]'"):
        make_executor("ray")


def test_score_joins_a_cluster_with_executor_ray(ray_cluster, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "score", str(humaneval_samples(tmp_path)), "--suite",
                           "humaneval", "-k", "1", "--json", "--executor", "ray", "--ray-address", ray_cluster.address],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["status_counts"] == {"passed": 2, "failed": 2} and summary["n_dedup_hits"] == 1
