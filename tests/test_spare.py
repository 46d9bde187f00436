"""The spare (``forkclient.Spare``): after a Python job the runner makes the next job's first Python
process ready ahead of it (forked, the program's user in the next job's folder, its streams and
monitor set up) while the container waits. A program that runs in it sees exactly what a process
forked for the job sees; a job in another language, or one that needs no process, lets it go,
and nothing a program leaves meets it."""

from __future__ import annotations

import re
import time

import pytest

from helpers import statuses, stdio_job
from sandbox import Job, TestCase

pytestmark = pytest.mark.docker

# What a process of the program's sees of itself, as one digest (with the age of the job's first
# process: the process itself, or the zygote whose top level ran it), raised so that every kind of
# test reports it in its message. Job folders differ only by name; a result channel's number is
# chosen at random per process, so the descriptors above 2 count by their distance to the lowest.
VIEW = r'''
import hashlib, json, os, resource, signal, sys


def _age():
    with open("/proc/self/stat") as f:
        start = int(f.read().rsplit(")", 1)[1].split()[19])
    with open("/proc/uptime") as f:
        up = float(f.read().split()[0])
    return up - start / os.sysconf("SC_CLK_TCK")


AGE = _age()


def _link(fd):
    try:
        return os.readlink(f"/proc/self/fd/{fd}").split(":")[0]
    except OSError:
        return None


def view():
    folder = os.path.dirname(__file__)
    fds = [fd for fd in sorted(int(n) for n in os.listdir("/proc/self/fd")) if _link(fd) is not None]
    high = [fd for fd in fds if fd > 2]
    status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
    mask = os.umask(0)
    os.umask(mask)
    seen = {
        "folder": [os.getcwd() == folder, os.environ.get("HOME") == folder, sys.path[0] == folder,
                   folder.startswith("/tmp/jobs/"), os.listdir(folder)],
        "env": sorted((k, v) for k, v in os.environ.items() if k != "HOME"),
        "argv": sys.argv, "name": __name__, "module": vars(sys.modules[__name__]) is globals(),
        "limits": [resource.getrlimit(getattr(resource, name)) for name in (
            "RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_FSIZE", "RLIMIT_NOFILE", "RLIMIT_CORE", "RLIMIT_NPROC",
            "RLIMIT_STACK", "RLIMIT_DATA", "RLIMIT_MEMLOCK")],
        "fds": [fd for fd in fds if fd <= 2] + [fd - high[0] for fd in high], "kinds": [_link(fd) for fd in fds],
        "ids": [os.getuid(), os.geteuid(), os.getgid(), os.getegid(), os.getgroups(), os.getppid() == 1],
        "status": [status[k].strip() for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs",
                                               "Seccomp", "SigBlk", "SigIgn", "SigCgt")],
        "own /proc": os.stat("/proc/self/environ").st_uid, "umask": mask, "modules": sorted(sys.modules),
        "signals": [str(signal.getsignal(s)) for s in (signal.SIGPIPE, signal.SIGINT, signal.SIGTERM)],
        "streams": [(type(s).__name__, s.fileno(), s.isatty(), s.buffer.seekable()) for s in
                    (sys.stdin, sys.stdout, sys.stderr)],
        "oom": open("/proc/self/oom_score_adj").read(), "nice": os.nice(0),
        "builtins": sorted(vars(sys.modules["builtins"])),
    }
    digest = hashlib.sha256(json.dumps(seen, sort_keys=True).encode()).hexdigest()[:16]
    raise RuntimeError(f"view {digest} age {AGE:.3f}")


if __name__ == "__main__":
    view()
'''

FORMS = {
    "stdio": (TestCase(kind="stdio", expected_stdout=""),),
    "call": (TestCase(kind="call", fn_name="view", args=[], expected=0),),
    "zygote calls": (TestCase(kind="call", fn_name="view", args=[], expected=0),) * 2,
    "assert": (TestCase(kind="assert", code="view()"),),
    "zygote asserts": (TestCase(kind="assert", code="view()"),) * 2,
}


def _seen(verdict) -> list[tuple[str, float]]:
    """``(digest, age)`` of each test's process."""
    found = [re.search(r"view (\w+) age ([\d.]+)", t.message) for t in verdict.test_results]
    assert all(found), [t.message for t in verdict.test_results]
    return [(m.group(1), float(m.group(2))) for m in found if m]


@pytest.mark.parametrize("form", list(FORMS))
def test_a_program_run_by_the_spare_sees_what_a_process_forked_for_its_job_sees(solo_executor, form):
    job = Job(program=VIEW, tests=FORMS[form])
    forked = _seen(solo_executor.run_one(job))  # a fresh container's first job: no spare yet
    assert all(age < 0.4 for _, age in forked), forked
    solo_executor.run_one(job)  # a Python job: the next one's process is made ready while the container waits
    time.sleep(0.6)
    spare = _seen(solo_executor.run_one(job))
    assert all(age >= 0.5 for _, age in spare), spare  # it was there before the job came
    assert [digest for digest, _ in spare] == [digest for digest, _ in forked]


def _between_jobs(executor, spares: int) -> dict[str, list[str]]:
    """The pids of the container's processes between jobs, by user, once the runner's work after
    the reply is done (the spare is forked after the reply, and is root's until it becomes the
    program's user): as soon as they are the runner, the fork server and ``spares`` spares, or as
    they are after 5 s."""
    deadline = time.monotonic() + 5
    while True:
        top = executor.client.api.top(executor.container_ids()[0], ps_args="-eo pid,user")["Processes"]
        users: dict[str, list[str]] = {}
        for pid, user in top:
            users.setdefault(user, []).append(pid)
        if (len(users.get("root", [])) == 2 and len(users.get("10001", [])) == spares) or time.monotonic() > deadline:
            return users
        time.sleep(0.05)


def test_a_job_that_takes_no_spare_lets_it_go_and_leaves_the_container_clean(solo_executor):
    add = Job(program="def add(a, b):\n    return a + b\n",
              tests=(TestCase(kind="assert", code="assert add(1, 2) == 3"),))
    broken = Job(program="def add(a, b:\n", tests=add.tests)
    c_job = stdio_job('#include <stdio.h>\nint main(void) { puts("ok"); return 0; }\n', "", "ok\n", language="c")
    forkserver = None
    for job, status, spare in ((add, "passed", 1), (c_job, "passed", 0), (add, "passed", 1),
                               (broken, "compile_error", 1), (add, "passed", 1), (c_job, "passed", 0)):
        assert solo_executor.run_one(job).status == status
        between = _between_jobs(solo_executor, spare)
        assert len(between.get("10001", [])) == spare, between  # a spare after a Python job only
        assert "10000" not in between, between  # each job's judge went with it
        forkserver = forkserver or between["root"]
        assert between["root"] == forkserver, between  # never killed: no process was left to kill
    stats = solo_executor.stats()
    assert stats.residue_replacements == 0 and stats.faults == 0 and stats.containers_started == 1, stats


LINGER = r'''
import os, signal, time
def add(a, b):
    if os.fork() == 0:  # left behind, holding none of the test's pipes: once its test process is gone,
        os.setsid()     # it stops every other process of the program's user it finds, for 3 seconds
        os.closerange(0, 256)
        parent = os.getppid()
        while os.getppid() == parent:
            time.sleep(0.001)
        me, end = os.getpid(), time.time() + 3
        while time.time() < end:
            for name in os.listdir("/proc"):
                if name.isdigit() and int(name) != me:
                    try:
                        os.kill(int(name), signal.SIGSTOP)
                    except OSError:
                        pass
        os._exit(0)
    return a + b
'''


def test_what_a_program_leaves_behind_never_meets_the_next_jobs_spare(solo_executor):
    """Everything of a job's goes before the spare for the next is forked: a process left behind to
    stop the next job's first process stops nothing."""
    tests = (TestCase(kind="call", fn_name="add", args=[1, 2], expected=3),)
    assert statuses(solo_executor.run_one(Job(program=LINGER, tests=tests))) == ["passed"]
    time.sleep(0.3)
    after = solo_executor.run_one(Job(program="def add(a, b):\n    return a + b\n", tests=tests))
    assert statuses(after) == ["passed"] and after.attempts == 1, after
    stats = solo_executor.stats()  # ended with its job: the container stayed, and served the next
    assert stats.containers_started == 1 and stats.residue_replacements == 0 and stats.faults == 0, stats
