"""A judge per job: a job's test code, task setup and checker run in a judge forked for that job
alone, gone at its end; nothing they do reaches a later job's verdict, in one container or through
``grpo-code serve`` between two clients."""

from __future__ import annotations

import pytest
import requests

from helpers import Server, statuses
from sandbox import Job, TestCase

pytestmark = pytest.mark.docker

# Test code that makes every later test of its judge pass: it replaces the judge's own function that
# runs a test (reached through sys.modules) with one that says "passed" without running anything.
PATCH_THE_JUDGE = """
import sys
class _Channel:
    calls = 0
    flags = set()
def _always_passed(job, test, call_fd, reply_fd):
    return 'passed', '', _Channel(), '', []
for _name, _module in list(sys.modules.items()):
    if _name.endswith('judge.main') and hasattr(_module, 'run_test'):
        _module.run_test = _always_passed
"""

# Test code that leaves a process of the judge's user behind, which kills every later process of
# that user it finds (the next jobs' judges) for two seconds once its own job's judge is gone.
KILL_LATER_JUDGES = """
import os, signal, time
judge = os.getpid()
if os.fork() == 0:
    os.setsid()
    os.closerange(0, 1024)  # none of the test's channels: its own test ends as ever
    if os.fork() == 0:
        me = os.getuid()
        while os.path.exists(f'/proc/{judge}/status'):  # its own job's judge ends first
            time.sleep(0.001)
        end = time.time() + 2
        while time.time() < end:
            for pid in os.listdir('/proc'):
                if pid.isdigit() and int(pid) != os.getpid():
                    try:
                        with open(f'/proc/{pid}/status') as f:
                            if f'Uid:\\t{me}\\t' in f.read():
                                os.kill(int(pid), signal.SIGKILL)
                    except OSError:
                        pass
            time.sleep(0.001)
    os._exit(0)
assert add(1, 2) == 3
"""

WRONG_ADD = Job(program="def add(a, b):\n    return 0\n", tests=(TestCase(kind="assert", code="assert add(1, 2) == 3"),
                                                           TestCase(kind="assert", code="assert add(2, 2) == 4")))
RIGHT_ADD = "def add(a, b):\n    return a + b\n"


def _patching_jobs() -> list[Job]:
    """Jobs of one suite whose test code, or checker, patches its judge."""
    return [Job(program=RIGHT_ADD, tests=(TestCase(kind="assert", code=PATCH_THE_JUDGE + "\nassert add(1, 2) == 3"),
                                          TestCase(kind="assert", code="assert add(5, 5) == 10"))),
            Job(program="print(input())\n", tests=(TestCase(kind="stdio", stdin="1\n", expected_stdout="1\n"),),
                checker=PATCH_THE_JUDGE + "\ndef check(stdin, output, expected):\n    return output == expected\n")]


def test_a_task_s_test_code_judges_its_own_job_and_nothing_else(solo_executor):
    assert statuses(solo_executor.run_one(WRONG_ADD)) == ["failed", "failed"]
    for patching in _patching_jobs():
        verdict = solo_executor.run_one(patching)
        assert verdict.passed, verdict  # its own job: the patch judges it (the task's own business)
        # the next task in the same container: its wrong program is still paid nothing
        assert statuses(solo_executor.run_one(WRONG_ADD)) == ["failed", "failed"]
    assert solo_executor.stats().containers_started == 1  # one container all along


def test_a_test_s_change_to_the_builtins_stops_with_it(solo_executor):
    # As each test in a fresh ``python3``: the program sees the test's patch while the test runs (its
    # `len` the test's: the judge's own frames must not be measured with it),
    # and the next test of the same job (same judge) finds the builtins as they were, also after a
    # test that put back the very same objects (the judge tells a change by the builtins' dict).
    count = "def count(xs):\n    return len(xs)\n"
    tests = (TestCase(kind="assert", code="import builtins\nbuiltins.len = lambda x: 7\nassert count([1]) == 7"),
             TestCase(kind="assert", code="assert len([1, 2]) == 2 and count([1, 2]) == 2"),
             TestCase(kind="assert", code="import builtins\nkept = builtins.len\ndel builtins.len\n"
                                          "builtins.len = kept\nbuiltins.sum = lambda xs: -1\nassert count([]) == 0"),
             TestCase(kind="assert", code="assert sum([1, 2]) == 3 and count([3]) == 1"),
             TestCase(kind="assert", code="import builtins\nassert builtins.len([1]) == 1"),
             # the judge's own code runs on the builtins it started with, whatever the test patched
             TestCase(kind="assert", code="import builtins\nbuiltins.isinstance = lambda a, b: True\n"
                                          "builtins.type = lambda a: int\nassert count([1, 2, 3]) == 3"))
    assert statuses(solo_executor.run_one(Job(program=count, tests=tests))) == ["passed"] * 6


def test_a_process_a_test_leaves_behind_is_gone_before_the_next_job(solo_executor):
    leaver = Job(program=RIGHT_ADD, tests=(TestCase(kind="assert", code=KILL_LATER_JUDGES),))
    assert solo_executor.run_one(leaver).passed
    right = Job(program=RIGHT_ADD, tests=WRONG_ADD.tests)
    for _ in range(3):  # each within the two seconds the leftover would live
        assert statuses(solo_executor.run_one(right)) == ["passed", "passed"]
        assert statuses(solo_executor.run_one(WRONG_ADD)) == ["failed", "failed"]
    stats = solo_executor.stats()
    assert stats.faults == 0 and stats.containers_started == 1, stats


def _post(session: requests.Session, url: str, job: Job) -> dict:
    body = {"jobs": [{"program": job.program, "language": job.language, "checker": job.checker,
                      "tests": [t.to_dict() | ({"stdin": t.stdin} if t.kind == "stdio" else {}) for t in job.tests]}]}
    response = session.post(f"{url}/v1/jobs", json=body, timeout=120)
    assert response.status_code == 200, response.text
    return response.json()["verdicts"][0]


def test_one_client_of_serve_never_touches_another_s_verdict():
    server = Server("--concurrency", "1")  # one container: both clients' jobs run in it, one after the other
    try:
        alice, bob = requests.Session(), requests.Session()
        assert _post(bob, server.url, WRONG_ADD)["pass_rate"] == 0.0
        for patching in _patching_jobs():
            assert _post(alice, server.url, patching)["status"] == "passed"
            assert _post(bob, server.url, WRONG_ADD)["pass_rate"] == 0.0
    finally:
        assert server.stop() == 0, "".join(server.lines)
