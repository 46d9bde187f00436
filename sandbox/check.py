"""Prove the sandbox's isolation on the live image: each property is checked by a real job.

``run_checks(executor)`` returns one ``Check`` per property; ``grpo-code sandbox check`` prints
them. The network check sends traffic only to loopback: a listener on the host's 127.0.0.1
must see no connection, and the container must have no interface but ``lo``.
"""

from __future__ import annotations

import ast
import socket
import threading
import time
from dataclasses import dataclass

from sandbox.executor import DockerExecutor
from sandbox.types import Job, Limits, TestCase


@dataclass(frozen=True)
class Check:
    """One isolation property: what was expected, what was observed, whether it holds."""

    name: str
    expected: str
    observed: str
    ok: bool


def _first_message(verdict) -> str:
    """The first test's message, else the verdict's own (program-level statuses)."""
    return verdict.test_results[0].message if verdict.test_results else verdict.message

def _stdio(program: str, expected: str, limits: Limits | None = None, language: str = "python") -> Job:
    return Job(program=program, tests=(TestCase(kind="stdio", stdin="", expected_stdout=expected),),
               language=language, limits=limits or Limits(), job_id="sandbox-check", capture_output=not expected)


NETWORK = """
import os, socket
print(" ".join(sorted(os.listdir("/sys/class/net"))))
s = socket.socket()
s.settimeout(2)
try:
    s.connect(("127.0.0.1", {port}))
    print("connected")
except OSError as e:
    print("unreachable")
"""

READ_ONLY = """
import os
hits = []
for path in ("/usr/x", "/etc/x", "/opt/sandbox/inside/runner.py", "/x"):
    try:
        with open(path, "a") as f:
            f.write("x")
        hits.append(path)
    except OSError:
        pass
print("read-only" if not hits else "writable: " + " ".join(hits))
"""

IDENTITY = """
import os
status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
print("uid", os.getuid(), "euid", os.geteuid())
print("CapEff", int(status["CapEff"], 16), "CapPrm", int(status["CapPrm"], 16), "CapBnd", int(status["CapBnd"], 16))
print("NoNewPrivs", status["NoNewPrivs"].strip())
"""

# Every process of another user (the runner, its fork server, the judge, which runs this very
# test): signal it, change its limits, trace it, read its memory: each must be refused by the kernel.
TRUSTED = """
import ctypes, os, resource, signal
def attack():
    libc = ctypes.CDLL(None, use_errno=True)
    allowed, seen = [], set()
    for pid in sorted(int(p) for p in os.listdir("/proc") if p.isdigit()):
        try:
            uid = int(open(f"/proc/{pid}/status").read().split("Uid:")[1].split()[0])
        except PermissionError:  # a resident's counting files are covered (sandbox/inside/counters.py)
            uid = os.stat(f"/proc/{pid}").st_uid  # the judge's user, or root's
        except (OSError, IndexError):
            continue
        if uid == os.getuid():
            continue
        seen.add("runner" if pid == 1 else "judge" if uid == 10000 else "forkserver")
        for attempt in (lambda: os.kill(pid, signal.SIGSTOP), lambda: os.kill(pid, signal.SIGKILL),
                        lambda: resource.prlimit(pid, resource.RLIMIT_NOFILE, (1, 1)),
                        lambda: open(f"/proc/{pid}/mem", "rb").read(1)):
            try:
                attempt()
                allowed.append(pid)
            except OSError:
                pass
        if libc.ptrace(16, pid, 0, 0) == 0:
            allowed.append(pid)
    return sorted(seen), len(allowed)
"""

# What a capability-less process may not do even where Docker's profile would let it (the
# container grants the runner SYS_ADMIN): the fork server's seccomp filter refuses it first.
KERNEL = """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
nr = {"x86_64": dict(clone=56, clone3=435, bpf=321, perf_event_open=298, keyctl=250),
      "aarch64": dict(clone=220, clone3=435, bpf=280, perf_event_open=241, keyctl=219)}[os.uname().machine]
allowed = []
def refused(name, result):
    if result == 0:
        allowed.append(name)
for flag, name in ((0x10000000, "user"), (0x00020000, "mount"), (0x08000000, "ipc"), (0x40000000, "net")):
    refused(f"unshare({name})", libc.unshare(flag))
pid = libc.syscall(nr["clone"], 0x10000000 | 17, 0, 0, 0, 0)
if pid == 0:
    os._exit(0)
if pid > 0:
    os.waitpid(pid, 0)
    allowed.append("clone(NEWUSER)")
if libc.syscall(nr["clone3"], None, 0) != -1 or ctypes.get_errno() != 38:
    allowed.append("clone3")
fd = os.open("/proc/self/ns/ipc", os.O_RDONLY)
refused("setns", libc.setns(fd, 0))
refused("mount", libc.mount(b"none", b"/tmp", b"tmpfs", 0, None))
refused("remount /proc/sys", libc.mount(None, b"/proc/sys", None, 0x20 | 0x1000, None))
for name in ("bpf", "perf_event_open", "keyctl"):
    if libc.syscall(nr[name], 0, 0, 0, 0, 0) != -1 or ctypes.get_errno() != 1:
        allowed.append(name)
for path in ("/proc/sys/kernel/ns_last_pid", "/proc/sys/kernel/shm_next_id"):
    try:
        with open(path, "w") as f:
            f.write("1000")
        allowed.append("write " + path)
    except OSError:
        pass
print("refused" if not allowed else "allowed: " + " ".join(allowed))
"""

# What a job reads of the counters an earlier job could move: the same in a container that has
# run every check as in a fresh container's first job (sandbox/inside/counters.py).
COUNTERS = """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
read = {}
def first_inode(place):
    fd = os.open(place + "/counter-probe", os.O_CREAT | os.O_WRONLY, 0o600)
    return os.fstat(fd).st_ino
read["inode /tmp"], read["inode /dev/shm"] = first_inode("/tmp"), first_inode("/dev/shm")
forkserver = min(int(p) for p in os.listdir("/proc") if p.isdigit() and p != "1"
                 and b"forkserver" in open(f"/proc/{p}/cmdline", "rb").read() and os.stat(f"/proc/{p}").st_uid == 0)
read["pid (after the fork server's)"] = os.getpid() - forkserver
for kind, make, remove in (("shm", lambda: libc.shmget(0, 4096, 0o1600), lambda i: libc.shmctl(i, 0, None)),
                           ("msg", lambda: libc.msgget(0, 0o1600), lambda i: libc.msgctl(i, 0, None)),
                           ("sem", lambda: libc.semget(0, 1, 0o1600), lambda i: libc.semctl(i, 0, 0))):
    read["System V " + kind + " id"] = i = make()
    remove(i)
for path in ("/sys/fs/cgroup/cpuacct/cpuacct.usage", "/sys/fs/cgroup/cpu.stat",
             "/sys/fs/cgroup/memory/memory.max_usage_in_bytes", "/sys/fs/cgroup/memory.peak",
             "/sys/fs/cgroup/memory/memory.stat", "/sys/fs/cgroup/memory.stat",
             "/sys/fs/cgroup/pids/pids.events", "/sys/fs/cgroup/pids.events", "/proc/1/status", "/proc/1/schedstat"):
    try:
        read[path] = open(path).read(4096).splitlines()[0]
    except OSError as e:
        if not isinstance(e, FileNotFoundError):
            read[path] = "hidden"
print(read)
"""

PROCESSES = """
import os, time
n = 0
try:
    for _ in range(10000):
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
        n += 1
    print("unlimited", n)
except OSError:
    print("limited")
"""

FILE_SIZE = """
try:
    with open("/tmp/big", "wb") as f:
        for _ in range(64):
            f.write(b"x" * (1 << 20))
    print("unlimited")
except OSError:
    print("limited")
"""

ESCAPE = """
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(600)
    os._exit(0)
print("spawned")
"""

WRITE_SECRET = """
open("/tmp/secret-of-job-a", "w").write("a")
open("/dev/shm/secret-of-job-a", "w").write("a")
print("written")
"""

READ_SECRET = """
import os
found = [p for p in ("/tmp/secret-of-job-a", "/dev/shm/secret-of-job-a") if os.path.exists(p)]
print("absent" if not found else "visible: " + " ".join(found))
"""


# Per language: a hello world (compiled once, then run), and a program that holds 1 GiB (touched)
# under a 128 MiB limit, which must be memory_limit (an address-space limit, or for the JVM, Go and
# V8 the poll of the container's resident memory and the runtime's own heap flag). C has no such
# row: a C program sees malloc fail and does what it likes (Python's row is above).
HELLO = {
    "c": '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n',
    "cpp": '#include <iostream>\nint main() { std::cout << "hello\\n"; }\n',
    "javascript": "console.log('hello');\n",
    "typescript": "const greeting: string = 'hello';\nconsole.log(greeting);\n",
    "java": ('public class Main {\n    public static void main(String[] a) {\n        System.out.println("hello");\n'
             '    }\n}\n'),
    "rust": 'fn main() {\n    println!("hello");\n}\n',
    "go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hello")\n}\n',
}
HOG = {
    "cpp": ("#include <iostream>\n#include <vector>\nint main() {\n    std::vector<std::vector<char>> keep;\n"
            "    for (int i = 0; i < 1024; i++) keep.emplace_back(1 << 20, 1);\n"
            "    std::cout << keep.size() << std::endl;\n}\n"),
    "javascript": ("const keep = [];\nfor (let i = 0; i < 1024; i++) keep.push(new Array(131072).fill(i + 0.5));\n"
                   "console.log(keep.length);\n"),
    "typescript": ("const keep: number[][] = [];\n"
                   "for (let i = 0; i < 1024; i++) keep.push(new Array<number>(131072).fill(i + 0.5));\n"
                   "console.log(keep.length);\n"),
    "java": ("import java.util.*;\npublic class Main {\n    public static void main(String[] a) {\n"
             "        List<long[]> keep = new ArrayList<>();\n"
             "        for (int i = 0; i < 1024; i++) { long[] b = new long[131072]; Arrays.fill(b, i); keep.add(b); }\n"
             "        System.out.println(keep.size());\n    }\n}\n"),
    "rust": ("fn main() {\n    let mut keep: Vec<Vec<u8>> = Vec::new();\n"
             "    for i in 0..1024 { keep.push(vec![(i % 250) as u8 + 1; 1 << 20]); }\n"
             "    println!(\"{}\", keep.len());\n}\n"),
    "go": ("package main\n\nimport \"fmt\"\n\nfunc main() {\n\tkeep := [][]byte{}\n\tfor i := 0; i < 1024; i++ {\n"
           "\t\tb := make([]byte, 1<<20)\n\t\tfor j := range b {\n\t\t\tb[j] = byte(i + 1)\n\t\t}\n"
           "\t\tkeep = append(keep, b)\n\t}\n\tfmt.Println(len(keep))\n}\n"),
}


def language_checks(executor: DockerExecutor) -> list[Check]:
    """Per compiled language: hello world compiles and runs; 1 GiB under a 128 MiB limit is memory_limit."""
    languages = sorted(HELLO)
    jobs = [_stdio(HELLO[lang], "hello\n", language=lang) for lang in languages]
    jobs += [_stdio(HOG[lang], "never\n", Limits(memory_limit_mb=128), lang) for lang in languages if lang in HOG]
    verdicts = executor.run(jobs)
    hogs = iter(verdicts[len(languages):])
    checks = []
    for lang, hello in zip(languages, verdicts[:len(languages)], strict=True):
        if lang not in HOG:
            checks.append(Check(f"{lang}: hello world", "passed",
                                f"{hello.status}, compiled in {hello.compile_time_s:.1f} s", hello.passed))
            continue
        hog = next(hogs)
        why = hello.compile_output.strip().splitlines()[:1] if hello.status == "compile_error" else \
            [t.message for t in hello.test_results if t.message]
        hello_seen = f"{hello.status}, compiled in {hello.compile_time_s:.1f} s" + (f": {why[0][:80]}" if why else "")
        hog_seen = hog.status + (f": {_first_message(hog)[:80]}" if hog.status != "memory_limit" else "")
        checks.append(Check(f"{lang}: hello world; 1 GiB under 128 MiB",
                            "passed; memory_limit", f"{hello_seen}; {hog_seen}",
                            hello.passed and hog.status == "memory_limit"))
    return checks


def _listener() -> tuple[socket.socket, list[str], threading.Thread]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    seen: list[str] = []

    def accept_loop() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                conn, addr = server.accept()
                seen.append(str(addr))
                conn.close()
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept_loop, daemon=True)
    thread.start()
    return server, seen, thread


def run_checks(executor: DockerExecutor) -> list[Check]:
    """Run every isolation check on the executor's live containers."""
    checks: list[Check] = []
    server, seen, thread = _listener()
    port = server.getsockname()[1]
    try:
        v = executor.run_one(_stdio(NETWORK.format(port=port), "lo\nunreachable\n"))
    finally:
        server.close()
        thread.join(timeout=5)
    checks.append(Check("network: only lo, host 127.0.0.1 listener unreachable",
                        "interfaces: lo; connect refused; listener saw 0 connections",
                        f"{v.status}{': ' + _first_message(v) if _first_message(v) else ''}; "
                        f"listener saw {len(seen)}", v.passed and not seen))

    def expect_output(name: str, program: str, expected: str, limits: Limits | None = None) -> None:
        verdict = executor.run_one(_stdio(program, expected, limits))
        message = _first_message(verdict)
        checks.append(Check(name, expected.strip().replace("\n", "; "),
                            "as expected" if verdict.passed else f"{verdict.status}: {message}", verdict.passed))

    def expect_status(name: str, program: str, statuses: set[str], limits: Limits, within_s: float,
                      language: str = "python") -> None:
        started = time.monotonic()
        verdict = executor.run_one(_stdio(program, "never\n", limits, language))
        seconds = time.monotonic() - started
        ok = verdict.status in statuses and seconds <= within_s
        checks.append(Check(name, f"{' or '.join(sorted(statuses))} within {within_s:g} s",
                            f"{verdict.status} after {seconds:.1f} s", ok))

    expect_output("root filesystem read-only", READ_ONLY, "read-only\n")
    expect_output("non-root user, no capabilities, no-new-privileges", IDENTITY,
                  "uid 10001 euid 10001\nCapEff 0 CapPrm 0 CapBnd 0\nNoNewPrivs 1\n")
    trusted = executor.run_one(Job(program=TRUSTED, job_id="sandbox-check", tests=(
        TestCase(kind="assert", code="assert attack() == (['forkserver', 'judge', 'runner'], 0)"),)))
    checks.append(Check("no program can signal, limit, trace or read the runner, fork server or judge",
                        "every attempt refused", "as expected" if trusted.passed else
                        f"{trusted.status}: {_first_message(trusted)}", trusted.passed))
    expect_output("no namespace, mount, bpf, perf or keyring; ns_last_pid and /proc/sys unwritable", KERNEL,
                  "refused\n")
    expect_status("time limit (CPU loop, 1 s)", "while True:\n    pass\n", {"timeout"},
                  Limits(time_limit_s=1), within_s=6)
    expect_status("wall-clock limit (sleep, 1 s CPU)", "import time\ntime.sleep(600)\n", {"timeout"},
                  Limits(time_limit_s=1), within_s=8)
    expect_status("memory limit (1 GiB list, 128 MiB)", "x = bytearray(1 << 30)\nprint(len(x))\n",
                  {"memory_limit"}, Limits(memory_limit_mb=128), within_s=10)
    expect_status("output limit (endless stdout, 1 MiB)", "while True:\n    print('y' * 1000)\n",
                  {"output_limit"}, Limits(), within_s=10)
    expect_output("process-count limit (fork 10000 sleepers)", PROCESSES, "limited\n", Limits(time_limit_s=5))
    expect_output("file-size limit (64 MiB file, 16 MiB)", FILE_SIZE, "limited\n")
    escape = executor.run_one(_stdio(ESCAPE, "spawned\n"))
    left = [p for cid in executor.container_ids() for p in _processes(executor, cid)]
    checks.append(Check("whole process tree killed (setsid escapee)",
                        "only the runner and its fork server left in each container",
                        f"{escape.status}; processes left: {left or 'runner and fork server only'}",
                        escape.passed and not left))
    if executor.concurrency == 1:
        executor.run_one(_stdio(WRITE_SECRET, "written\n"))
        expect_output("nothing one job writes is visible to the next", READ_SECRET, "absent\n")
    else:  # every container must come out clean: write and read on each of them
        jobs = [_stdio(WRITE_SECRET, "written\n") for _ in range(executor.concurrency * 2)]
        executor.run(jobs)
        expect_output("nothing one job writes is visible to the next", READ_SECRET, "absent\n")
    checks.append(counters_check(executor))
    return checks + language_checks(executor)


def counters_check(executor: DockerExecutor) -> Check:
    """A job after every other check reads the counters an earlier job could move (inode numbers,
    pids, IPC ids, the cgroup's counters, the runner's ``/proc`` files): as a fresh container's
    first job does. Each reading that differs is a counter an earlier job's value reaches."""
    job = _stdio(COUNTERS, "")
    after = executor.run_one(job)
    with DockerExecutor(concurrency=1, image=executor.image, settings=executor.settings) as fresh:
        first = fresh.run_one(job)
    seen = [_output(v) for v in (after, first)]
    try:
        now, fresh_reads = ast.literal_eval(seen[0]), ast.literal_eval(seen[1])
        differ = [name for name, value in now.items() if fresh_reads.get(name) != value]
    except (ValueError, SyntaxError, AttributeError):
        differ = [f"no reading: {seen[0][:100]!r} / {seen[1][:100]!r}"]
    return Check("no counter carries a value from one job to the next", "as in a fresh container's first job",
                 "as expected" if not differ else "differ: " + ", ".join(differ), not differ)


def _output(verdict) -> str:
    result = verdict.test_results[0] if verdict.test_results else None
    if result is None or result.output is None:
        return verdict.status
    return result.output.stdout.strip() or result.output.stderr.strip()[-300:]


def _processes(executor: DockerExecutor, container_id: str) -> list[str]:
    """Command lines of the container's processes other than the runner and its fork server."""
    top = executor.client.api.top(container_id, ps_args="-eo pid,args")
    rows = [row[-1] for row in top.get("Processes") or []]
    return [cmd for cmd in rows if not cmd.endswith(("/opt/sandbox/inside runner", "/opt/sandbox/inside forkserver"))]
