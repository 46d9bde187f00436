"""The trust boundary, proved from the program's side, and every job starting clean (real Docker).

The runner and the fork server run as root with a few capabilities, the judge as its own user,
and every process of a program as another (docs/architecture.md, "Three trust levels"). Each test
here has a program attack that boundary the way a policy under RL pressure would, from Python and
from C (and through the image's own binaries), and checks the verdict it must get: a wrong program
is a failure with reward 0 (never None), and a correct program run after it in the same container
still passes.
"""

from __future__ import annotations

import pytest

from helpers import settled_processes, statuses, stdio_job
from sandbox import Job, Limits, TestCase
from sandbox.types import SandboxFault

pytestmark = pytest.mark.docker

ADD_TESTS = (TestCase(kind="assert", code="assert add(2, 3) == 5"),
             TestCase(kind="assert", code="assert add(1, 1) == 2"))
CORRECT_ADD = "def add(a, b):\n    return a + b\n"


def add_job(program: str = CORRECT_ADD, **limits) -> Job:
    return Job(program=program, tests=ADD_TESTS, limits=Limits(**limits))


def still_clean(executor) -> None:
    """A correct program passes in the container after the attack, whatever language it is in."""
    assert statuses(executor.run_one(add_job())) == ["passed", "passed"]
    assert executor.run_one(stdio_job("print(int(input()) * 2)\n", "21\n", "42\n")).passed
    assert executor.run_one(Job(program='#include <stdio.h>\nint main(void) { puts("ok"); return 0; }\n',
                                language="c", tests=(TestCase(kind="stdio", expected_stdout="ok\n"),))).passed


def trusted_processes(executor) -> list[tuple[str, str]]:
    """``(stat, user)`` of the container's processes (the runner, its fork server, and after a
    Python job the spare made ready for the next: ``forkclient.Spare``; between jobs there is no
    judge: each job's goes with it)."""
    top = settled_processes(executor, "-eo pid,stat,user,args")
    return sorted((row[1], row[2]) for row in top)


# -- no program can signal, limit, trace or read a trusted process --------------------------------

PROBE_PYTHON = r"""
import ctypes, os, resource, signal, subprocess
libc = ctypes.CDLL(None, use_errno=True)
me = os.getuid()

def role(pid, uid):
    return "runner" if pid == 1 else "judge" if uid == 10000 else "forkserver"

lines = []
for pid in sorted(int(p) for p in os.listdir("/proc") if p.isdigit()):
    try:
        uid = int(open(f"/proc/{pid}/status").read().split("Uid:")[1].split()[0])
    except PermissionError:  # a resident's counting files are covered (sandbox/inside/counters.py)
        uid = os.stat(f"/proc/{pid}").st_uid  # the judge's user, or root's
    except (OSError, IndexError):
        continue
    if uid == me:
        continue
    allowed = []
    for sig in (signal.SIGSTOP, signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(pid, sig)
            allowed.append(signal.Signals(sig).name)
        except OSError:
            pass
    for which in (resource.RLIMIT_NOFILE, resource.RLIMIT_CPU, resource.RLIMIT_AS):
        try:
            resource.prlimit(pid, which, (1, 1))
            allowed.append(f"prlimit{which}")
        except OSError:
            pass
    if subprocess.run(["prlimit", "--pid", str(pid), "--nofile=3:3"], capture_output=True).returncode == 0:
        allowed.append("prlimit(1)")
    if libc.ptrace(16, pid, 0, 0) == 0:  # PTRACE_ATTACH
        allowed.append("ptrace")
    for name in ("mem", "environ", "fd/0"):
        try:
            open(f"/proc/{pid}/{name}", "rb").read(1)
            allowed.append(name)
        except OSError:
            pass
    try:
        os.listdir(f"/proc/{pid}/fd")
        allowed.append("fd")
    except OSError:
        pass
    lines.append(f"{role(pid, uid)}: " + (" ".join(allowed) or "denied"))
print("\n".join(sorted(set(lines))))
"""

PROBE_C = r"""
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int uid_of(int pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f && errno == EACCES) {  /* a resident's counting files are covered: its folder's owner */
        struct stat st;
        snprintf(path, sizeof path, "/proc/%d", pid);
        return stat(path, &st) == 0 ? (int)st.st_uid : -1;
    }
    if (!f) return -1;
    int uid = -1;
    while (fgets(line, sizeof line, f)) if (sscanf(line, "Uid: %d", &uid) == 1) break;
    fclose(f);
    return uid;
}

int main(void) {
    DIR *proc = opendir("/proc");
    struct dirent *e;
    char out[4][256];
    int n = 0;
    while ((e = readdir(proc)) && n < 4) {
        int pid = atoi(e->d_name);
        if (pid <= 0) continue;
        int uid = uid_of(pid);
        if (uid < 0 || uid == (int)getuid()) continue;
        char allowed[200] = "";
        if (kill(pid, SIGSTOP) == 0) strcat(allowed, " SIGSTOP");
        if (kill(pid, SIGKILL) == 0) strcat(allowed, " SIGKILL");
        struct rlimit one = {1, 1};
        if (prlimit(pid, RLIMIT_NOFILE, &one, NULL) == 0) strcat(allowed, " prlimit");
        if (ptrace(PTRACE_ATTACH, pid, 0, 0) == 0) strcat(allowed, " ptrace");
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/mem", pid);
        int fd = open(path, O_RDONLY);
        if (fd >= 0) { strcat(allowed, " mem"); close(fd); }
        pid_t child = fork();
        if (child == 0) {
            char arg[32];
            snprintf(arg, sizeof arg, "%d", pid);
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 1); dup2(null, 2);
            execlp("prlimit", "prlimit", "--pid", arg, "--cpu=1:1", (char *)NULL);
            _exit(127);
        }
        int status;
        waitpid(child, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) strcat(allowed, " prlimit(1)");
        snprintf(out[n++], 256, "%s: %s", pid == 1 ? "runner" : uid == 10000 ? "judge" : "forkserver",
                 allowed[0] ? allowed + 1 : "denied");
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (strcmp(out[i], out[j]) > 0) {
                char t[256];
                strcpy(t, out[i]); strcpy(out[i], out[j]); strcpy(out[j], t);
            }
    for (int i = 0; i < n; i++) puts(out[i]);
    return 0;
}
"""

DENIED = "forkserver: denied\njudge: denied\nrunner: denied\n"
EXACT_CHECKER = "def check(stdin, output, expected):\n    return output == expected\n"


@pytest.mark.parametrize("language, program", [("python", PROBE_PYTHON), ("c", PROBE_C)])
def test_no_program_can_signal_limit_trace_or_read_a_trusted_process(solo_executor, language, program):
    # A job with a checker has its judge from its start to its end: the probe meets it
    probe = solo_executor.run_one(Job(program=program, language=language, checker=EXACT_CHECKER,
                                      tests=(TestCase(kind="stdio", expected_stdout=DENIED),)))
    assert probe.passed, (probe.compile_output[-500:], [t.message for t in probe.test_results])
    assert not any("T" in stat for stat, _ in trusted_processes(solo_executor))  # nothing was stopped
    still_clean(solo_executor)


def test_programs_run_as_their_own_user_with_no_capability_at_all(executor):
    program = ("import os\nstatus = dict(l.split(':', 1) for l in open('/proc/self/status') if ':' in l)\n"
               "caps = [int(status[k], 16) for k in ('CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb')]\n"
               "print(os.getuid(), os.geteuid(), os.getgid(), os.getgroups(), caps, status['NoNewPrivs'].strip())\n")
    verdict = executor.run_one(stdio_job(program, "", "10001 10001 10001 [] [0, 0, 0, 0, 0] 1\n"))
    assert verdict.passed, verdict.test_results[0].message


def test_the_trusted_processes_have_the_users_the_design_says(solo_executor):
    assert statuses(solo_executor.run_one(add_job())) == ["passed", "passed"]
    users = sorted(user for _, user in trusted_processes(solo_executor))
    # the spare made ready for the next Python job (the program's user, nothing of any program's
    # in it yet); the runner and its fork server; the job's judge went with its job
    assert users == ["10001", "root", "root"], users
    assert solo_executor.run_one(stdio_job("int main(void) { return 0; }\n", "", "", language="c")).passed
    users = sorted(user for _, user in trusted_processes(solo_executor))
    assert users == ["root", "root"], users  # after a job in another language: no spare


# -- whatever a job leaves, the next starts clean -------------------------------------------------

FILL_DISK = """
import os
def add(a, b):
    for root in ('/tmp', '/dev/shm', '.'):
        i = 0
        try:
            while True:
                with open(os.path.join(root, f'fill-{i}'), 'wb') as f:
                    for _ in range(15):
                        f.write(b'x' * (1 << 20))
                i += 1
        except OSError:
            pass
    return 0
"""

FORK_EVERYTHING = """
import os, time
def add(a, b):
    try:
        while True:
            if os.fork() == 0:
                os.setsid()
                time.sleep(600)
                os._exit(0)
    except OSError:
        pass
    return 0
"""

RESIST_DELETION = """
import os
def add(a, b):
    for base in ('/tmp', '/dev/shm', '.'):
        os.makedirs(f'{base}/locked/inner', exist_ok=True)
        open(f'{base}/locked/inner/secret', 'w').write('job a')
        os.chmod(f'{base}/locked/inner/secret', 0)
        os.chmod(f'{base}/locked/inner', 0)
        os.chmod(f'{base}/locked', 0)
        os.mkfifo(f'{base}/fifo')
        os.symlink('/run/judge', f'{base}/to-judge')
        os.symlink('/tmp/locked', f'{base}/loop')
    return 0
"""

IPC_C = r"""
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
int main(void) {
    int shm = 0, msg = 0, sem = 0, mq = 0;
    for (int i = 0; i < 5000; i++) { if (shmget(IPC_PRIVATE, 1 << 16, IPC_CREAT | 0666) < 0) break; shm++; }
    for (int i = 0; i < 5000; i++) { if (msgget(IPC_PRIVATE, IPC_CREAT | 0666) < 0) break; msg++; }
    for (int i = 0; i < 5000; i++) { if (semget(IPC_PRIVATE, 4, IPC_CREAT | 0666) < 0) break; sem++; }
    for (int i = 0; i < 300; i++) {
        char name[32];
        snprintf(name, sizeof name, "/q%d", i);
        struct mq_attr attr = {0, 4, 64, 0};
        if (mq_open(name, O_CREAT | O_RDWR, 0666, &attr) < 0) break;
        mq++;
    }
    printf("%d %d %d %d\n", shm > 0, msg > 0, sem > 0, mq > 0);
    return 0;
}
"""

CLEAN_C = r"""
#include <dirent.h>
#include <stdio.h>
#include <string.h>
static int lines(const char *path) {
    FILE *f = fopen(path, "r");
    int n = 0, c;
    if (!f) return -1;
    while ((c = fgetc(f)) != EOF) n += c == '\n';
    fclose(f);
    return n;
}
static int entries(const char *path) {
    DIR *d = opendir(path);
    struct dirent *e;
    int n = 0;
    if (!d) return -1;
    while ((e = readdir(d))) if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "jobs")) n++;
    closedir(d);
    return n;
}
int main(void) {
    printf("%d %d %d %d %d %d\n", lines("/proc/sysvipc/shm") - 1, lines("/proc/sysvipc/msg") - 1,
           lines("/proc/sysvipc/sem") - 1, entries("/dev/mqueue"), entries("/dev/shm"), entries("/tmp"));
    return 0;
}
"""


def test_a_full_disk_is_gone_for_the_next_job_and_never_reached_the_judge(solo_executor):
    verdict = solo_executor.run_one(add_job(FILL_DISK, time_limit_s=10))
    assert verdict.pass_rate == 0.0 and verdict.status != "sandbox_error"
    # a task's checker writes temporary files (the judge's own tmpfs) and the next program its own
    checker = "import tempfile\ndef check(i, o, e):\n    with tempfile.TemporaryFile() as f:\n" \
              "        f.write(o.encode() * 1000)\n    return o.split() == e.split()\n"
    writes = "open('/tmp/mine', 'w').write('x' * 100000)\nprint(int(input()) + 1)\n"
    job = Job(program=writes, tests=(TestCase(kind="stdio", stdin="1\n", expected_stdout="2\n"),), checker=checker)
    assert solo_executor.run_one(job).passed
    still_clean(solo_executor)


def test_processes_left_to_fill_the_pid_limit_are_gone_for_the_next_job(solo_executor):
    verdict = solo_executor.run_one(add_job(FORK_EVERYTHING, time_limit_s=5))
    assert verdict.pass_rate == 0.0 and verdict.status != "sandbox_error"
    still_clean(solo_executor)
    assert len(trusted_processes(solo_executor)) == 2  # the runner, the fork server


FORK_BOMB_C = r"""
#include <signal.h>
#include <unistd.h>
int main(void) {
    for (;;) {
        fork();  /* until the pid limit refuses; every process goes on forking and signalling */
        for (int sig = 1; sig < 32; sig++)
            kill(1, sig);  /* the runner: while it kills as this user, it shares the user for one call */
    }
}
"""


def test_a_compiled_fork_bomb_that_signals_the_runner_fails_and_leaves_nothing(solo_executor):
    """The runner ends a job's processes without forking (a full pid limit refuses a fork), and no
    signal reaches it even while it takes the program's user for that one ``kill(-1)``."""
    for _ in range(3):
        verdict = solo_executor.run_one(Job(program=FORK_BOMB_C, language="c", limits=Limits(time_limit_s=1),
                                            tests=(TestCase(kind="stdio", expected_stdout="never\n"),) * 2))
        assert verdict.status not in ("sandbox_error", "compile_error") and verdict.pass_rate == 0.0, verdict
        assert [t.status for t in verdict.test_results] == ["timeout", "timeout"], verdict
    still_clean(solo_executor)
    assert len(trusted_processes(solo_executor)) == 2  # the runner, the fork server


def test_files_that_resist_deletion_are_gone_for_the_next_job(solo_executor):
    verdict = solo_executor.run_one(add_job(RESIST_DELETION))
    assert verdict.pass_rate == 0.0 and set(statuses(verdict)) <= {"failed", "runtime_error"}
    clean = solo_executor.run_one(Job(program=CLEAN_C, language="c",
                                      tests=(TestCase(kind="stdio", expected_stdout="0 0 0 0 0 0\n"),)))
    assert clean.passed, [t.message for t in clean.test_results]
    still_clean(solo_executor)


def test_ipc_objects_of_every_kind_are_gone_for_the_next_job(solo_executor):
    made = solo_executor.run_one(Job(program=IPC_C, language="c",
                                     tests=(TestCase(kind="stdio", expected_stdout="1 1 1 1\n"),)))
    assert made.passed, [t.message for t in made.test_results] or made.compile_output
    clean = solo_executor.run_one(Job(program=CLEAN_C, language="c",
                                      tests=(TestCase(kind="stdio", expected_stdout="0 0 0 0 0 0\n"),)))
    assert clean.passed, [t.message for t in clean.test_results]
    still_clean(solo_executor)


# -- faults are attributed ------------------------------------------------------------------------

def _faulting_receive(started: bool):
    from sandbox.container import SandboxContainer

    original = SandboxContainer.receive

    def receive(self):
        original(self)  # the job ran; its container then fails (a fault injected here)
        raise SandboxFault("the runner failed on this job", started=started, flags=("ctypes",))

    return receive


def test_a_fault_that_recurs_after_the_program_started_is_the_programs(solo_executor, monkeypatch):
    monkeypatch.setattr("sandbox.executor.RETRY_BACKOFF_S", (0.0,))
    monkeypatch.setattr("sandbox.container.SandboxContainer.receive", _faulting_receive(started=True))
    verdict = solo_executor.run_one(add_job("def add(a, b):\n    return 0\n"))
    assert verdict.status == "runtime_error" and verdict.pass_rate == 0.0  # never None: no free escape
    assert verdict.flags == ("ctypes", "sandbox_tamper")  # the monitor's flags are kept
    assert verdict.attempts == solo_executor.max_retries + 1
    assert solo_executor.stats().program_faults == 1 and solo_executor.stats().sandbox_errors == 0


def test_a_fault_before_the_program_started_is_the_infrastructures(solo_executor, monkeypatch):
    monkeypatch.setattr("sandbox.executor.RETRY_BACKOFF_S", (0.0,))
    monkeypatch.setattr("sandbox.container.SandboxContainer.receive", _faulting_receive(started=False))
    verdict = solo_executor.run_one(add_job())
    assert verdict.status == "sandbox_error" and verdict.pass_rate is None and verdict.flags == ("ctypes",)
    monkeypatch.undo()
    assert statuses(solo_executor.run_one(add_job())) == ["passed", "passed"]


def test_a_job_cannot_outlast_its_budget_by_killing_its_zygote_and_sleeping(executor):
    # Each test kills the zygote and sleeps near its wall limit: the runner answers within the
    # host's wait with a verdict of its own (no fault, so no masked sample). The process it finds
    # may be gone by the time it signals it (a zygote killed by an earlier test, reaped meanwhile).
    program = ("import os, signal, time\ndef zygote():\n    for pid in os.listdir('/proc'):\n"
               "        if pid.isdigit() and int(pid) != os.getpid():\n            try:\n"
               "                if os.stat(f'/proc/{pid}').st_uid == os.getuid():\n"
               "                    return int(pid)\n            except OSError:\n                pass\n"
               "def add(a, b):\n    z = zygote()\n    if z:\n        try:\n            os.kill(z, signal.SIGKILL)\n"
               "        except ProcessLookupError:\n            pass\n"
               "    time.sleep(1.5)\n    return 0\n")
    tests = tuple(TestCase(kind="assert", code=f"assert add({i}, 1) == {i + 1}") for i in range(6))
    job = Job(program=program, tests=tests, limits=Limits(time_limit_s=1, wall_time_limit_s=2))
    verdict = executor.run_one(job)
    assert verdict.status == "failed" and verdict.pass_rate == 0.0 and verdict.attempts == 1
    assert verdict.run_time_s < job.limits.job_budget_s(len(tests))


# -- within a job: each test from a clean setup ---------------------------------------------------

def test_each_test_gets_its_own_copy_of_the_tasks_setup(executor):
    setup = "DATA = [3, 1, 2]\nSEEN = {'calls': 0}\n"
    tests = (TestCase(kind="assert",
                      code="SEEN['calls'] += 1\nassert sort_in_place(DATA) is None and DATA == [1, 2, 3]"),
             TestCase(kind="assert", code="assert DATA == [3, 1, 2] and SEEN == {'calls': 0}"),
             TestCase(kind="assert", code="DATA.append(0)\nassert sorted(DATA) == [0, 1, 2, 3]"),
             TestCase(kind="assert", code="assert len(DATA) == 3"))
    correct = "def sort_in_place(xs):\n    xs.sort()\n"
    assert statuses(executor.run_one(Job(program=correct, tests=tests, test_setup=setup))) == ["passed"] * 4
    # a program that changes what it is given beyond the call gets only what its call did
    hoarder = "KEPT = []\ndef sort_in_place(xs):\n    KEPT.append(xs)\n    xs.sort()\n    xs.append(99)\n"
    verdict = executor.run_one(Job(program=hoarder, tests=tests, test_setup=setup))
    assert statuses(verdict) == ["failed", "passed", "passed", "passed"]


def test_a_pass_needs_the_programs_process_to_end_cleanly(executor):
    # The judge's "passed" stands only if the process that served it then ends cleanly (the
    # kernel's exit status): this program answers right, then ends its process with status 3 when
    # harness code looks at a global of its own after the test (an attribute that runs its code).
    program = ("import os\nclass Exit:\n    @property\n    def __module__(self):\n        os._exit(3)\n"
               "max = Exit()\ndef add(a, b):\n    return a + b\n")
    verdict = executor.run_one(Job(program=program, tests=ADD_TESTS[:1]))
    assert statuses(verdict) == ["runtime_error"] and "exit status 3" in verdict.test_results[0].message
