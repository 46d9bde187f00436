"""A clean container, measured (``sandbox/inside/clean.py``): whatever a job leaves is gone before
the next job, in every form a program can make it (a tree deeper than PATH_MAX made with relative
``mkdir``/``chdir``, a full ``/tmp``, folders of mode 000, FIFOs and sockets, POSIX and System V
IPC objects, processes left running), from Python, C and Go; correct programs after it in the same
container get their own verdicts; a container that cannot be brought back to its baseline is
replaced, its job flagged ``residue``. Through the executor, ``score``, ``serve`` and the training
environment, where a hidden test must never reach a report (real Docker)."""

from __future__ import annotations

import asyncio

import pytest
import requests

from grpo_code.rl.environment import CodeEnvironmentFactory, EnvironmentSettings
from grpo_code.rl.rewards import PassRateReward
from grpo_code.score.scoring import score_completions
from grpo_code.suites.tasks import TaskSuite, parse_task
from helpers import Server, run_every
from sandbox import ContainerSettings, DockerExecutor, Job, Limits, TestCase

pytestmark = pytest.mark.docker

ADD_TESTS = (TestCase(kind="stdio", stdin="2 3\n", expected_stdout="5\n"),
             TestCase(kind="stdio", stdin="40 2\n", expected_stdout="42\n"))
ROOMY = Limits(time_limit_s=10.0)

# Each leaves everything it can and answers right (its own verdict is not the point here).
PY_LEAVER = r"""
import os, subprocess, sys
from multiprocessing import shared_memory
a, b = map(int, sys.stdin.read().split())
def leave():  # each test's own (the tests of a job share /tmp; the second finds it full)
    os.chdir('/tmp')
    os.mkdir(f't{os.getpid()}')
    os.chdir(f't{os.getpid()}')
    for _ in range(30):                  # 30 x 201 bytes: deeper than PATH_MAX, by relative paths
        os.mkdir('p' * 200)
        os.chdir('p' * 200)
    with open('answer', 'w') as f:       # what a later wrong program would like to read
        f.write(str(a + b))
    os.mkfifo('fifo')
    os.symlink('..', 'loop')
    os.mkdir('locked')
    os.chmod('locked', 0)
    subprocess.Popen(['sleep', '1000'], start_new_session=True)
    shared_memory.SharedMemory(name=f'left{os.getpid()}', create=True, size=4096)
    for i in range(20):                  # /tmp full (16 MiB per file: RLIMIT_FSIZE)
        with open(f'fill{i}', 'wb') as f:
            f.write(b'x' * (16 << 20))
try:
    leave()
except OSError:
    pass
os.chmod('.', 0)
print(a + b)
"""
C_LEAVER = r"""
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
int main(void) {
    long a, b;
    if (scanf("%ld %ld", &a, &b) != 2) return 1;
    char name[201];
    memset(name, 'c', 200);
    name[200] = 0;
    char top[32];
    snprintf(top, sizeof top, "/tmp/t%d", (int)getpid());
    mkdir(top, 0700);
    if (chdir(top)) return 2;
    for (int i = 0; i < 30; i++) { mkdir(name, 0700); if (chdir(name)) return 3; }
    FILE *f = fopen("answer", "w");
    fprintf(f, "%ld\n", a + b);
    fclose(f);
    mkfifo("fifo", 0600);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    strcpy(addr.sun_path, "sock");
    bind(s, (struct sockaddr *)&addr, sizeof addr);
    chmod(".", 0);
    shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
    int q = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
    (void)q;
    mq_open("/left", O_CREAT | O_RDWR, 0600, NULL);
    int fd = open("/dev/shm/left-c", O_CREAT | O_WRONLY, 0);
    if (fd >= 0) { if (write(fd, "x", 1) < 0) return 4; close(fd); }
    if (fork() == 0) { setsid(); if (fork() == 0) sleep(1000); _exit(0); }
    printf("%ld\n", a + b);
    return 0;
}
"""
GO_LEAVER = r"""
package main

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	var a, b int
	fmt.Scan(&a, &b)
	name := strings.Repeat("g", 200)
	top := fmt.Sprintf("/tmp/t%d", os.Getpid())
	os.Mkdir(top, 0700)
	os.Chdir(top)
	for i := 0; i < 30; i++ {
		os.Mkdir(name, 0700)
		os.Chdir(name)
	}
	os.WriteFile("answer", []byte(fmt.Sprint(a+b)), 0600)
	chunk := make([]byte, 16<<20)
	for i := 0; i < 20; i++ {
		if os.WriteFile(fmt.Sprintf("fill%d", i), chunk, 0600) != nil {
			break
		}
	}
	os.Chmod(".", 0)
	fmt.Println(a + b)
}
"""
# What a program of a later job can find of earlier jobs: it must be nothing.
READER = r"""
import os
found = []
for place in ('/tmp', '/dev/shm', '/dev/mqueue'):
    for name in os.listdir(place):
        if place == '/tmp' and name == 'jobs' and len(os.listdir('/tmp/jobs')) == 1:
            continue  # its own job's folder
        found.append(f'{place}/{name}')
for pid in os.listdir('/proc'):
    if pid.isdigit() and int(pid) != os.getpid() and os.stat(f'/proc/{pid}').st_uid == os.getuid():
        found.append('process ' + open(f'/proc/{pid}/cmdline').read().replace('\0', ' '))
for kind in ('shm', 'msg', 'sem'):
    if len(open(f'/proc/sysvipc/{kind}').read().splitlines()) > 1:
        found.append('System V ' + kind)
free = os.statvfs('/tmp')
if free.f_bavail * free.f_frsize < 200 << 20:
    found.append('/tmp is nearly full')
print(found or 'clean')
"""
GO_ADD = 'package main\nimport "fmt"\nfunc main() { var a, b int; fmt.Scan(&a, &b); fmt.Println(a + b) }\n'
RUST_ADD = """use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();
    println!("{}", v[0] + v[1]);
}
"""
PY_SCRATCH = ("import sys, tempfile\na, b = map(int, sys.stdin.read().split())\n"
              "with tempfile.TemporaryFile() as f:\n    f.write(b'y' * (12 << 20))\n    f.seek(0)\n"
              "    assert len(f.read()) == 12 << 20\nprint(a + b)\n")


def _job(program: str, language: str = "python", tests=ADD_TESTS) -> Job:
    return Job(program=program, tests=tests, language=language, limits=ROOMY)


def _reader(tag: str) -> Job:
    return Job(program=READER + f"# {tag}\n", tests=(TestCase(kind="stdio", stdin="", expected_stdout="clean\n"),),
               limits=ROOMY)


def test_what_a_job_leaves_is_gone_and_correct_programs_after_it_pass(solo_executor):
    # One container, in order: each leaver, then a look for anything it left, then a correct
    # program that needs the room a full /tmp would take (Go and Rust compile in /tmp).
    jobs = [_job(PY_LEAVER), _reader("after python"), _job(GO_ADD, "go"),
            _job(C_LEAVER, "c"), _reader("after c"), _job(RUST_ADD, "rust"),
            _job(GO_LEAVER, "go"), _reader("after go"), _job(PY_SCRATCH)]
    verdicts = run_every(solo_executor, jobs)
    leavers, readers, correct = verdicts[0::3], verdicts[1::3], verdicts[2::3]
    assert [v.status for v in leavers] == ["passed"] * 3, [(v.status, v.compile_output[-300:]) for v in leavers]
    assert [v.test_results[0].message for v in readers if not v.passed] == []
    assert [v.status for v in correct] == ["passed"] * 3, [(v.status, v.compile_output[-300:]) for v in correct]
    stats = solo_executor.stats()
    assert (stats.containers_started, stats.residue_replacements, stats.faults) == (1, 0, 0)
    assert not any("residue" in v.flags for v in verdicts)


FLOOD = "import os\nos.mkdir('/tmp/many')\nfor i in range(60_000):\n    os.mkdir(f'/tmp/many/{i}')\nprint(5)\n"


def test_a_flood_of_files_is_gone_with_the_fresh_tmp_and_the_container_stays(solo_executor):
    # /tmp is a fresh tmpfs for every job (sandbox/inside/counters.py): nothing to empty, no residue.
    first = solo_executor.container_ids()
    left, after = run_every(solo_executor, [_job(FLOOD, tests=ADD_TESTS[:1]), _reader("after the flood")])
    assert left.status == "passed" and "residue" not in left.flags
    assert after.passed, after.test_results[0].message
    assert solo_executor.container_ids() == first and solo_executor.stats().residue_replacements == 0


def test_a_container_that_does_not_come_back_to_its_baseline_is_replaced():
    # Where the runner cleans by emptying (it may not mount: ContainerSettings(fresh_counters=False),
    # a host whose AppArmor profile denies mount), more entries than the clean-up removes after a
    # job (clean.SCRUB_ENTRY_BUDGET): the job is flagged, its container replaced before another
    # job, and that job finds nothing.
    with DockerExecutor(concurrency=1, settings=ContainerSettings(fresh_counters=False)) as emptying:
        first = emptying.container_ids()
        left, after = run_every(emptying, [_job(FLOOD, tests=ADD_TESTS[:1]), _reader("after the flood")])
        assert left.status == "passed" and "residue" in left.flags
        assert after.passed, after.test_results[0].message
        assert "residue" not in after.flags
        assert emptying.stats().residue_replacements == 1
        assert emptying.container_ids() != first


TASK = {"task_id": "crafted/sum", "prompt": "Read two integers and print their sum.",
        "tests": [{"kind": "stdio", "stdin": "2 3\n", "expected_stdout": "5\n", "visibility": "public"},
                  {"kind": "stdio", "stdin": "31337 1\n", "expected_stdout": "31338\n"}]}


def test_through_score_a_wrong_program_never_reads_what_an_earlier_one_stored(solo_executor):
    # The earlier program is right and keeps each test's answer in a tree deeper than PATH_MAX; the
    # later one only looks them up: it must be paid nothing.
    keeper = ("import os, sys\na, b = map(int, sys.stdin.read().split())\nos.chdir('/tmp')\n"
              "for _ in range(25):\n    os.makedirs('k' * 200, exist_ok=True)\n    os.chdir('k' * 200)\n"
              "open(f'{a} {b}', 'w').write(str(a + b))\nprint(a + b)\n")
    looker = ("import os, sys\na, b = map(int, sys.stdin.read().split())\ntry:\n    os.chdir('/tmp')\n"
              "    for _ in range(25):\n        os.chdir('k' * 200)\n    print(open(f'{a} {b}').read())\n"
              "except OSError:\n    print(0)\n")
    task = parse_task(TASK)
    scored = score_completions(solo_executor, [(task, f"```python\n{keeper}```"), (task, f"```python\n{looker}```")])
    assert [s.verdict.pass_rate for s in scored] == [1.0, 0.0]


def test_a_hidden_test_never_reaches_a_report_whatever_an_earlier_program_did(solo_executor):
    # Rollout 1's answer, scored on every test (get_reward), stores each stdin it sees; rollout 2's
    # program prints whatever it finds on its public test, whose report shows its output: no
    # hidden test's input may be in it.
    keeper = ("import os, sys\ndata = sys.stdin.read()\nos.chdir('/tmp')\n"
              "for _ in range(25):\n    os.makedirs('h' * 200, exist_ok=True)\n    os.chdir('h' * 200)\n"
              "open(str(len(os.listdir('.'))), 'w').write(data)\na, b = map(int, data.split())\nprint(a + b)\n")
    shower = ("import os\nfound = []\ntry:\n    os.chdir('/tmp')\n"
              "    for _ in range(25):\n        os.chdir('h' * 200)\n"
              "    found = [open(n).read() for n in os.listdir('.')]\nexcept OSError:\n    pass\n"
              "print('seen:', ' '.join(sorted(set(' '.join(found).split()))))\n")
    suite = TaskSuite("crafted", (parse_task(TASK),))
    rules = PassRateReward(suite, solo_executor)
    factory = CodeEnvironmentFactory(rules, EnvironmentSettings(max_tool_calls=2))

    async def rollouts():
        first, second = factory(), factory()
        first.reset(task_id="crafted/sum")
        second.reset(task_id="crafted/sum")
        await first.run_tests(keeper)
        reward = await first.get_reward()  # every test: the hidden one's stdin reaches the keeper
        report = await second.run_tests(shower)
        return reward, report

    reward, report = asyncio.run(rollouts())
    assert reward == 1.0
    assert "seen:" in report and "31337" not in report and "31338" not in report, report


def test_through_serve_another_client_finds_nothing_an_earlier_request_left():
    # One container behind the service: a request leaves a deep tree and a full /tmp; the next
    # client's request finds nothing, and its Go program compiles (in /tmp).
    server = Server("--concurrency", "1")
    try:
        def run(code: str, language: str = "python", stdin: str = "2 3\n") -> dict:
            return requests.post(f"{server.url}/run_code", json={"code": code, "language": language, "stdin": stdin},
                                 timeout=120).json()

        left = run(PY_LEAVER)
        seen = run(READER)
        compiled = run(GO_ADD, "go")
    finally:
        assert server.stop() == 0, "".join(server.lines)
    assert left["run_result"]["stdout"] == "5\n"
    assert seen["run_result"]["stdout"] == "clean\n", seen
    assert compiled["status"] == "Success" and compiled["run_result"]["stdout"] == "5\n", compiled
