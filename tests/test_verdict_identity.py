"""Every verdict belongs to its own job: GRPO-shaped batches under load, recycling and faults.

The completions of one GRPO group share their task id, so a task id cannot tell their verdicts
apart: each submission to a runner carries an identity of its own, the reply must carry it back,
and a reply that does not is a container fault (retried on a fresh container, then
``sandbox_error``), never another job's verdict. ``benchmarks/soak.py`` builds the batches and
knows the verdict each job deserves; its long run (20,000 jobs per executor) is ``make bench``'s.
"""

from __future__ import annotations

import logging
import re
import sys
import threading
from pathlib import Path

import pytest

from helpers import stdio_job
from sandbox import DockerExecutor, Job
from sandbox.ray_executor import RayExecutor

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from soak import grpo_batch

pytestmark = pytest.mark.docker

# Every executor gives the same guarantee; each one is run through the same batches (the Ray
# executor on a local two-node cluster: the ray_cluster fixture).
EXECUTORS = {"docker": DockerExecutor, "ray": RayExecutor}


def _soak(make_executor, n_jobs: int, batch: int, caplog, distinct: bool = True, **kwargs):
    caplog.set_level(logging.WARNING, logger="sandbox")
    wrong = []
    with make_executor(concurrency=2, **kwargs) as ex:
        for start in range(0, n_jobs, batch):
            jobs, expected = grpo_batch(min(batch, n_jobs - start), seed=start, first_task=start, distinct=distinct)
            for job, want, got in zip(jobs, expected, ex.run(jobs), strict=True):
                if not want.matches(got):
                    wrong.append((job.job_id, want, got.status, [t.status for t in got.test_results]))
        stats = ex.stats()
    return wrong, stats, [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.fixture
def executor_class(request):
    """The executor class of the test's ``name``, with what it needs (a Ray cluster) running."""
    if request.getfixturevalue("name") == "ray":
        request.getfixturevalue("ray_cluster")
    return EXECUTORS[request.getfixturevalue("name")]


@pytest.mark.parametrize("name", EXECUTORS)
def test_grpo_batches_get_their_own_verdicts(name, executor_class, caplog):
    # Containers replaced every 40 jobs: the replace path runs about 25 times (the 20,000-job soak
    # is `make bench`'s).
    wrong, stats, warnings = _soak(executor_class, 1000, 500, caplog, max_jobs_per_container=40)
    assert wrong == []
    assert stats.jobs == 1000 and stats.dedup_hits == 0 and stats.recycled >= 20
    assert (stats.faults, stats.mismatches, stats.sandbox_errors) == (0, 0, 0)
    assert warnings == []


@pytest.mark.parametrize("name", EXECUTORS)
def test_copies_in_a_group_each_get_their_own_verdict(name, executor_class, caplog):
    # About a third of the jobs are copies of another of their group: they run once (dedup), and
    # each copy still gets the verdict its own program deserves.
    wrong, stats, warnings = _soak(executor_class, 1000, 500, caplog, distinct=False)
    assert wrong == []
    assert stats.jobs == 1000 and stats.dedup_hits > 100
    assert (stats.faults, stats.mismatches, stats.sandbox_errors) == (0, 0, 0)
    assert warnings == []


def test_killed_containers_mid_batch_lose_no_verdict_and_give_no_wrong_one(caplog):
    # Fault injection: a container is killed every 1.5 s (5 times, the two slots in turn) while a
    # GRPO batch runs; each job in flight on a killed container is retried on a fresh one and
    # still gets its own verdict.
    caplog.set_level(logging.WARNING, logger="sandbox")
    jobs, expected = grpo_batch(1200, seed=7)
    with DockerExecutor(concurrency=2, max_retries=3) as ex:
        stop = threading.Event()

        def killer():
            for n in range(5):
                if stop.wait(1.5):
                    return
                container = ex._slots[n % 2].container
                if container is not None and container.container is not None:
                    try:
                        ex.client.api.kill(container.container.id)
                    except Exception:  # noqa: BLE001 - it may be gone already
                        pass

        thread = threading.Thread(target=killer, daemon=True)
        thread.start()
        try:
            verdicts = ex.run(jobs)
        finally:
            stop.set()
            thread.join()
        stats = ex.stats()
    wrong = [(job.job_id, w, v.status, [(t.status, t.message) for t in v.test_results], v.attempts)
             for job, w, v in zip(jobs, expected, verdicts, strict=True) if not w.matches(v)]
    assert wrong == []
    assert stats.faults >= 5 and stats.retries >= 5
    assert stats.mismatches == 0 and stats.sandbox_errors == 0


def test_each_submission_has_an_identity_of_its_own(solo_executor):
    job = stdio_job("print(input())\n", "x\n", "x\n")
    slot = solo_executor._slots[0]
    container = slot.ensure()
    container.submit(job)
    container.submit(job)  # the same job twice: two submissions, two identities
    ids = [wire_id for wire_id, _ in container.pending]
    assert len(set(ids)) == 2 and all(re.fullmatch(r"[0-9a-f]{32}", i) for i in ids)
    assert [container.receive()[1].status for _ in range(2)] == ["passed", "passed"]
    assert not container.pending


def _misaddressed(times: int):
    """``Job.to_wire`` that sends the first ``times`` submissions under an identity that is not
    theirs (fault injection: a runner's reply then answers another submission)."""
    original = Job.to_wire
    left = [times]

    def to_wire(self, submission_id):
        if left[0] > 0 and submission_id:  # a submission (not the dedup key, which has no id)
            left[0] -= 1
            return original(self, "0" * 32)
        return original(self, submission_id)

    return to_wire


def test_a_reply_for_another_submission_is_a_fault_retried_on_a_fresh_container(monkeypatch, caplog):
    monkeypatch.setattr("sandbox.executor.RETRY_BACKOFF_S", (0.0,))
    monkeypatch.setattr(Job, "to_wire", _misaddressed(1))
    with DockerExecutor(concurrency=1) as ex:
        first = ex.container_ids()[0]
        verdict = ex.run_one(stdio_job("print(6 * 7)\n", "", "42\n"))
        assert verdict.passed and verdict.attempts == 2
        assert ex.container_ids()[0] != first  # the container that answered wrongly is gone
        stats = ex.stats()
    assert (stats.faults, stats.mismatches, stats.retries) == (1, 1, 1)
    assert any("answered submission" in r.getMessage() for r in caplog.records)


def test_replies_that_never_match_become_sandbox_error(monkeypatch):
    monkeypatch.setattr("sandbox.executor.RETRY_BACKOFF_S", (0.0,))
    monkeypatch.setattr(Job, "to_wire", _misaddressed(10))
    with DockerExecutor(concurrency=1, max_retries=2) as ex:
        verdict = ex.run_one(stdio_job("print(6 * 7)\n", "", "42\n"))
        stats = ex.stats()
    assert verdict.status == "sandbox_error" and verdict.pass_rate is None and verdict.attempts == 3
    assert "answered submission" in verdict.message
    assert (stats.mismatches, stats.sandbox_errors) == (3, 1)
