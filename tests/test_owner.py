"""Nothing outlives its owner: a client killed outright (SIGKILL, nothing of it runs after)
leaves no container. Each container's stdin is open for one attach only (``StdinOnce``): when
the owner's attach stream ends, the runner sees its stdin hang up, exits in the middle of a job,
and Docker removes the container. Other engineers' pools share the daemon: only containers with
the killed process's owner label are counted."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from sandbox.container import LABEL, OWNER_LABEL, connect

pytestmark = pytest.mark.docker

GONE_WITHIN_S = 10.0


def containers_of(client, pid: int) -> list[str]:
    """Ids of the sandbox containers (running or not) whose owner label names process ``pid``."""
    return [c["Id"] for c in client.api.containers(all=True, filters={"label": LABEL})
            if (c.get("Labels") or {}).get(OWNER_LABEL, "::").split(":")[1] == str(pid)]


def wait_for(predicate, timeout_s: float, every_s: float = 0.1) -> float | None:
    """Seconds until ``predicate()`` held, or None if it did not within ``timeout_s``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout_s:
        if predicate():
            return time.monotonic() - started
        time.sleep(every_s)
    return None


def test_a_killed_score_client_leaves_no_container(tmp_path):
    # Programs that spin until their time limit: the client is killed while its containers
    # are in the middle of jobs (a test of these takes seconds).
    samples = tmp_path / "samples.jsonl"
    spin = "    while True:\n        pass\n"
    samples.write_text("".join(json.dumps({"task_id": f"HumanEval/{i}", "completion": spin}) + "\n" for i in range(12)))
    proc = subprocess.Popen([sys.executable, "-m", "grpo_code.cli", "score", str(samples), "--suite", "humaneval",
                             "-k", "1", "--concurrency", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = connect()
    try:
        assert wait_for(lambda: len(containers_of(client, proc.pid)) == 2, 60), "the client's pool did not start"
        time.sleep(1.5)  # jobs in flight
        assert proc.poll() is None
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        took = wait_for(lambda: not containers_of(client, proc.pid), GONE_WITHIN_S)
        assert took is not None, f"containers of the killed client still there after {GONE_WITHIN_S} s: " \
                                 f"{containers_of(client, proc.pid)}"
    finally:
        proc.kill()
        for cid in containers_of(client, proc.pid):
            client.api.remove_container(cid, force=True)


def test_the_runner_watches_its_owner_without_a_task_of_its_own(solo_executor):
    # Between two jobs the container holds the runner and the fork server only (each job's judge
    # goes with it); a watcher thread would be one more task, and every test would then be taken
    # for one that left a process behind (everything killed and restarted after each test).
    # Between jobs, the spare made for the next Python job (the program's user) is the one other
    # process, with one task of its own.
    from sandbox import Job, TestCase

    def tasks():
        top = solo_executor.client.api.top(solo_executor.container_ids()[0], ps_args="-eLo pid,lwp,user,args")
        rows = top["Processes"]
        return sorted((p[0], p[1], p[-1]) for p in rows if p[2] != "10001"), [p for p in rows if p[2] == "10001"]

    job = Job(program="def f():\n    return 1\n", tests=tuple(TestCase(kind="assert", code="assert f() == 1")
                                                          for _ in range(5)))
    assert solo_executor.run_one(job).passed
    before, spare = tasks()
    assert all(v.passed for v in solo_executor.run([job, Job(program=job.program + "\n", tests=job.tests)]))
    after, spare = tasks()
    assert after == before and len(before) == 2 and len(spare) == 1  # the same runner and fork server
