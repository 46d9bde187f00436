"""No counter carries a value from one job to the next (real Docker; ``sandbox/inside/counters.py``).

A writer job moves a counter by an amount it chooses, and the next job in the same container, a
reader, reads it (``benchmarks/counters.py``'s pairs, which also measure the bits per job each
counter carried): for every counter the sandbox closes, two writers that chose different amounts
leave the reader the same reading. The judge and every program run under the fork server's
seccomp filter: the capability the runner holds to set the counters back (``SYS_ADMIN``) lets
Docker's profile allow namespaces and mounts, which no program may have.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from sandbox import DockerExecutor, Job, TestCase
from sandbox.inside.seccomp import ARCHES, DENIED, filter_program

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from counters import CHANNELS, run_pair

CLOSED = [name for name, channel in CHANNELS.items() if channel.scope == "container"]


def _readings(executor: DockerExecutor, name: str) -> list[str]:
    """The reader's reading after the channel's smallest writer, then after its largest."""
    channel = CHANNELS[name]
    return [run_pair(executor, channel, amount, f"{name} {amount}")[1]
            for amount in (channel.amounts[0], channel.amounts[-1])]


@pytest.mark.docker
@pytest.mark.parametrize("name", [n for n in CLOSED if not CHANNELS[n].fresh and n != "judge_memory"])
def test_a_reader_reads_the_same_whatever_the_writer_before_it_chose(solo_executor, name):
    small, large = _readings(solo_executor, name)
    assert small == large, (name, small, large)
    assert not small.startswith("<"), small  # the reader ran and read (or was refused: "unreadable")


@pytest.mark.docker
def test_a_judges_memory_says_nothing_of_an_earlier_job_s(solo_executor):
    """Each job's judge is a process of its own: its highest memory varies a little from job to job
    (the heap's layout), never with what an earlier job's judge held."""
    channel = CHANNELS["judge_memory"]
    small, large = channel.amounts[0], channel.amounts[-1]

    def reading(amount: int) -> int:
        for _ in range(3):  # (a reader that looked before its judge became the judge's user: again)
            text = run_pair(solo_executor, channel, amount, f"memory {amount}")[1]
            if text.isdigit():
                return int(text)
        raise AssertionError(f"no reading after a writer of {amount}: {text}")

    baseline = [reading(small) for _ in range(3)]
    after = reading(large)  # the writer's judge held 2,000,000 numbers: its peak was tens of MiB higher
    assert min(baseline) - 1024 <= after <= max(baseline) + 1024, (baseline, after)


@pytest.mark.docker
def test_the_judges_pid_is_its_own_whatever_the_program_before_it_forked():
    """Each job's judge is forked at the job's start, after the pids were set back: its pid says
    nothing of what an earlier job's program forked."""
    channel = CHANNELS["judge_pid"]
    readings = []
    for amount in (channel.amounts[0], channel.amounts[-1]):
        with DockerExecutor(concurrency=1) as fresh:  # a container whose first judge starts in the writer's job
            readings.append(run_pair(fresh, channel, amount, str(amount))[1])
    assert readings[0] == readings[1] != "-1", readings


@pytest.mark.docker
def test_a_job_that_moves_the_network_counters_has_its_container_replaced_unflagged(solo_executor):
    channel = CHANNELS["udp_datagrams"]
    first = solo_executor.container_ids()
    writer = Job(program=channel.writer + "# loopback\n",  # type: ignore[operator]
                 tests=(TestCase(kind="stdio", stdin="5\n", expected_stdout=""),), capture_output=True)
    verdict = solo_executor.run_one(writer)
    assert verdict.status == "failed" and verdict.flags == ()  # it ran, to its end: a correct program is not flagged
    reader = Job(program=channel.reader, tests=(TestCase(kind="stdio", expected_stdout="0\n"),))
    assert solo_executor.run_one(reader).passed
    stats = solo_executor.stats()
    assert (stats.recycled, stats.residue_replacements, stats.faults) == (1, 0, 0), stats
    assert solo_executor.container_ids() != first


@pytest.mark.docker
def test_system_v_objects_a_job_leaves_go_with_its_namespace(solo_executor):
    leave = ("import ctypes\nlibc = ctypes.CDLL(None)\n"
             "print(sum(libc.shmget(0, 4096, 0o1666) >= 0 for _ in range(50)), libc.msgget(0, 0o1666) >= 0)\n")
    look = ("import ctypes\nlibc = ctypes.CDLL(None)\nleft = [len(open(f'/proc/sysvipc/{k}').read().splitlines()) - 1 "
            "for k in ('shm', 'msg', 'sem')]\nprint(left, libc.shmget(0, 4096, 0o1600))\n")
    left = solo_executor.run_one(Job(program=leave, tests=(TestCase(kind="stdio", expected_stdout="50 True\n"),)))
    assert left.passed, left.test_results[0].message
    after = solo_executor.run_one(Job(program=look,
                                      tests=(TestCase(kind="stdio", expected_stdout="[0, 0, 0] 0\n"),)))
    assert after.passed, after.test_results[0].message
    assert solo_executor.stats().containers_started == 1  # set back in place: no container replaced


@pytest.mark.docker
def test_the_cgroup_shows_programs_its_settings_and_none_of_its_counters(solo_executor):
    program = ("import os\nnames = sorted(n for d in os.listdir('/sys/fs/cgroup')"
               " if os.path.isdir('/sys/fs/cgroup/' + d) for n in os.listdir('/sys/fs/cgroup/' + d))\n"
               "print(open('/sys/fs/cgroup/memory/memory.limit_in_bytes').read().strip(),"
               " open('/sys/fs/cgroup/cpu/cpu.cfs_quota_us').read().strip(),"
               " [n for n in names if 'usage' in n or n.endswith(('.stat', 'failcnt', '.events', 'current'))])\n")
    verdict = solo_executor.run_one(Job(program=program, tests=(TestCase(kind="stdio", expected_stdout=""),),
                                        capture_output=True))
    assert verdict.test_results[0].output.stdout == f"{2048 << 20} 100000 []\n", verdict.test_results[0].output


@pytest.mark.docker
def test_a_runtime_still_sizes_itself_by_the_cgroups_limits(solo_executor):
    """The JVM reads the container's memory limit from the cgroup's settings (else it sees the host's)."""
    java = ("public class Main { public static void main(String[] a) { System.out.println(((com.sun.management."
            "OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())"
            ".getTotalMemorySize()); } }\n")
    verdict = solo_executor.run_one(Job(program=java, language="java",
                                        tests=(TestCase(kind="stdio", expected_stdout=f"{2048 << 20}\n"),)))
    assert verdict.passed, (verdict.status, verdict.compile_output[-300:], verdict.test_results)


# -- what no program may ask the kernel, though the runner holds SYS_ADMIN ------------------------

KERNEL_PY = r"""
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
nr = {"x86_64": dict(clone=56, clone3=435, bpf=321, perf_event_open=298, keyctl=250, cachestat=451),
      "aarch64": dict(clone=220, clone3=435, bpf=280, perf_event_open=241, keyctl=219, cachestat=451),
      }[os.uname().machine]
def outcome(result):
    return "ok" if result >= 0 else errno.errorcode[ctypes.get_errno()]
out = {}
for flag, name in ((0x10000000, "user"), (0x00020000, "mount"), (0x08000000, "ipc"), (0x20000000, "pid"),
                   (0x40000000, "net"), (0x04000000, "uts"), (0x02000000, "cgroup")):
    out["unshare " + name] = outcome(libc.unshare(flag))
pid = libc.syscall(nr["clone"], 0x10000000 | 17, 0, 0, 0, 0)
if pid == 0:
    os._exit(0)
out["clone NEWUSER"] = outcome(pid)
out["clone3"] = outcome(libc.syscall(nr["clone3"], None, 0))
out["setns"] = outcome(libc.setns(os.open("/proc/self/ns/ipc", os.O_RDONLY), 0))
out["mount tmpfs"] = outcome(libc.mount(b"none", b"/tmp", b"tmpfs", 0, None))
out["remount /proc/sys"] = outcome(libc.mount(None, b"/proc/sys", None, 0x20 | 0x1000, None))
out["umount /tmp"] = outcome(libc.umount2(b"/tmp", 2))
for name in ("bpf", "perf_event_open", "keyctl", "cachestat"):
    out[name] = outcome(libc.syscall(nr[name], 0, 0, 0, 0, 0))
out["fadvise DONTNEED"] = outcome(os.posix_fadvise(os.open("/usr/bin/python3", os.O_RDONLY), 0, 0, 4) or 0)
for path in ("/proc/sys/kernel/ns_last_pid", "/proc/sys/kernel/shm_next_id"):
    try:
        with open(path, "w") as f:
            f.write("5000")
        out["write " + path] = "ok"
    except OSError as e:
        out["write " + path] = errno.errorcode[e.errno]
if os.fork() == 0:  # what a program does every day still works
    os._exit(0)
out["fork"] = "ok" if os.wait()[1] == 0 else "failed"
print(out)
"""
KERNEL_REFUSED = {**{f"unshare {n}": "EPERM" for n in ("user", "mount", "ipc", "pid", "net", "uts", "cgroup")},
                  "clone NEWUSER": "EPERM", "clone3": "ENOSYS", "setns": "EPERM", "mount tmpfs": "EPERM",
                  "remount /proc/sys": "EPERM", "umount /tmp": "EPERM", "bpf": "EPERM", "perf_event_open": "EPERM",
                  "keyctl": "EPERM", "cachestat": "ENOSYS", "fadvise DONTNEED": "ok",
                  "write /proc/sys/kernel/ns_last_pid": "EROFS",
                  "write /proc/sys/kernel/shm_next_id": "EROFS", "fork": "ok"}

KERNEL_C = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>
extern char **environ;
static void *nothing(void *arg) { return arg; }
int main(void) {
    printf("unshare(NEWUSER) %s\n", unshare(CLONE_NEWUSER) == 0 ? "ok" : errno == EPERM ? "EPERM" : "other");
    printf("unshare(NEWNS) %s\n", unshare(CLONE_NEWNS) == 0 ? "ok" : errno == EPERM ? "EPERM" : "other");
    printf("mount %s\n", mount("none", "/tmp", "tmpfs", 0, NULL) == 0 ? "ok" : errno == EPERM ? "EPERM" : "other");
    int fd = open("/proc/self/ns/net", O_RDONLY);
    printf("setns %s\n", setns(fd, 0) == 0 ? "ok" : errno == EPERM ? "EPERM" : "other");
    pthread_t t;  /* glibc tries clone3 first, and falls back on clone */
    printf("thread %s\n", pthread_create(&t, NULL, nothing, NULL) == 0 && pthread_join(t, NULL) == 0 ? "ok" : "failed");
    pid_t pid;
    char *argv[] = {"true", NULL};
    int status = -1;
    if (posix_spawnp(&pid, "true", NULL, NULL, argv, environ) == 0) waitpid(pid, &status, 0);
    printf("spawn %s\n", status == 0 ? "ok" : "failed");
    return 0;
}
"""


@pytest.mark.docker
def test_no_program_may_make_a_namespace_or_mount_or_set_a_counter(solo_executor):
    verdict = solo_executor.run_one(Job(program=KERNEL_PY, tests=(TestCase(kind="stdio", expected_stdout=""),),
                                        capture_output=True))
    assert eval(verdict.test_results[0].output.stdout) == KERNEL_REFUSED, verdict.test_results[0].output


@pytest.mark.docker
def test_a_compiled_program_is_refused_the_same_and_still_starts_threads_and_processes(solo_executor):
    verdict = solo_executor.run_one(Job(program=KERNEL_C, language="c", tests=(TestCase(
        kind="stdio", expected_stdout="unshare(NEWUSER) EPERM\nunshare(NEWNS) EPERM\nmount EPERM\nsetns EPERM\n"
                                      "thread ok\nspawn ok\n"),)))
    assert verdict.passed, (verdict.compile_output[-300:], verdict.test_results[0].message)


@pytest.mark.docker
def test_the_judge_is_refused_the_same(solo_executor):
    """A task's test code runs in the judge, a child of the fork server too."""
    test = "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n" \
           "assert libc.unshare(0x10000000) == -1 and ctypes.get_errno() == 1"
    verdict = solo_executor.run_one(Job(program="def f():\n    return 1\n",
                                        tests=(TestCase(kind="assert", code=test),)))
    assert verdict.passed, verdict.test_results[0].message


PAGES = ("import os, time\nfd = os.open('/usr/lib/go-1.19/pkg/tool/linux_amd64/compile', os.O_RDONLY)\n"
         "{drop}slow = 0\nfor i in range(1, os.fstat(fd).st_size >> 20):  # a page a MiB: cached ~1 us, read ~30 us\n"
         "    t = time.perf_counter()\n    os.pread(fd, 1, i << 20)\n    slow += time.perf_counter() - t > 10e-6\n"
         "print(slow)\n")


@pytest.mark.docker
def test_no_program_drops_the_pages_of_the_images_files_a_later_job_would_time(solo_executor):
    """The page cache is the host's: a program that dropped a file's pages and read back the ones it
    chose would have a later job time which are cached (measured: 16 pages, 16 bits, each time).
    ``posix_fadvise(POSIX_FADV_DONTNEED)`` does nothing for a program (seccomp)."""
    def slow_pages(drop: str, tag: str) -> int:
        verdict = solo_executor.run_one(Job(program=PAGES.format(drop=drop) + f"# {tag}\n",
                                            tests=(TestCase(kind="stdio", expected_stdout=""),), capture_output=True))
        return int(verdict.test_results[0].output.stdout)
    slow_pages("", "cache them")
    assert slow_pages("os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)\n", "drop them") <= 2


HEADERS = {"x86_64": "/usr/include/x86_64-linux-gnu/asm/unistd_64.h", "aarch64": "/usr/include/asm-generic/unistd.h"}


@pytest.mark.parametrize("machine", sorted(ARCHES))
def test_the_filters_system_call_numbers_are_the_kernels(machine):
    header = HEADERS[machine]
    if not os.path.exists(header):
        pytest.skip(f"{header} is not on this machine (linux-libc-dev)")
    with open(header) as f:
        known = {m[1]: int(m[2]) for m in re.finditer(r"#define __NR(?:3264)?_(\w+)\s+(\d+)", f.read())}
    _, numbers, _ = ARCHES[machine]
    assert {name: nr for name, nr in numbers.items() if name in known} == \
        {name: known[name] for name in numbers if name in known}
    assert set(DENIED) - set(numbers) <= {"iopl", "ioperm"}  # x86's alone
    assert len(filter_program(machine)) % 8 == 0
