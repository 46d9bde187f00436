"""Counters a job can move and a later job can read: how many bits per job each one carries.

For each channel a *writer* program moves a counter by an amount it chooses (its stdin), and a
*reader* program, the next job in the same container, prints what it reads. Both run through a
real ``DockerExecutor`` with one container, one after the other, as a training run's jobs do.
For each amount the pair runs ``--repeats`` times; the reading's spread at one amount is its
noise, and its change per unit of the amount its slope. A channel whose reading does not depend
on the amount carries nothing; one that does carries about ``log2(1 + moves * |slope| / (noise +
1))`` bits per job, where ``moves`` is how far a writer moves it within one test's CPU limit
(``Limits().time_limit_s``, at the rate the writer measures itself).

    python benchmarks/counters.py [--image TAG] [--repeats 2] [--only NAME ...] [--json OUT]
    python benchmarks/counters.py --cost [--image TAG] [--rounds 400]

``--cost`` measures instead what setting the counters back costs a job, in a container of the
image with the sandbox's settings: the runner's work after a job as it was (every place measured,
and emptied where it differs) and as it is (the places that stay measured, the IPC ids looked at,
``/tmp`` and ``/dev/shm`` made anew, the network's counters read, the next pid set), with a job's
folder and program left in ``/tmp`` each round; and what the seccomp filter costs a program's
system calls (a cached one, ``getppid``, and one it reads, ``clone``).

``CHANNELS`` is also what ``tests/test_counters.py`` runs: one test per channel that the sandbox
closes, each showing that the reader's reading does not depend on the writer's choice.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from sandbox import DockerExecutor, Job, Limits, TestCase

# A writer prints how many moves per second it made (its own clock), after making them.
_RATE = "import time as _t\n_a = int(input())\n_t0 = _t.perf_counter()\n"
_RATE_END = "\nprint(_a / (_t.perf_counter() - _t0) if _a else 0)\n"
_LIBC = "import ctypes\n_libc = ctypes.CDLL(None, use_errno=True)\n"


def _writer(body: str, prelude: str = "") -> str:
    return prelude + _RATE + body + _RATE_END


def _cgroup_reader(paths: list[tuple[str, str | None]]) -> str:
    """A reader that prints the first of ``paths`` it can read: ``(path, key)``, the whole file's
    number when ``key`` is None, else the number after ``key`` on its line."""
    return f"""
for path, key in {paths!r}:
    try:
        text = open(path).read()
    except OSError:
        continue
    if key is None:
        print(int(text.split()[0]))
    else:
        print(next(int(line.split()[1]) for line in text.splitlines() if line.split()[0] == key))
    break
else:
    print("unreadable")
"""


_INODE_WRITER = """
import os
for _ in range(_a):
    fd = os.open({place!r} + '/w', os.O_CREAT | os.O_WRONLY, 0o600)
    os.close(fd)
    os.unlink({place!r} + '/w')
"""
_INODE_READER = """
import os
fd = os.open({place!r} + '/r', os.O_CREAT | os.O_WRONLY, 0o600)
print(os.fstat(fd).st_ino)
"""
_FORKS = """
import os
for _ in range(_a):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
"""
_SYSV = {  # get, remove (IPC_PRIVATE, IPC_CREAT | 0600; IPC_RMID)
    "shm": ("_libc.shmget(0, 4096, 0o1600)", "_libc.shmctl({id}, 0, None)"),
    "msg": ("_libc.msgget(0, 0o1600)", "_libc.msgctl({id}, 0, None)"),
    "sem": ("_libc.semget(0, 1, 0o1600)", "_libc.semctl({id}, 0, 0)"),
}


def _sysv_writer(kind: str) -> str:
    get, remove = _SYSV[kind]
    return _writer(f"for _ in range(_a):\n    i = {get}\n    {remove.format(id='i')}\n", _LIBC)


def _sysv_reader(kind: str) -> str:
    get, remove = _SYSV[kind]
    return f"{_LIBC}i = {get}\nprint(i)\n{remove.format(id='i')}\n"


_UDP_READER = """
names, values = [line.split() for line in open('/proc/net/snmp') if line.startswith('Udp:')]
print(values[names.index('OutDatagrams')])
"""
_MOUNTS_READER = """
import hashlib
lines = sorted(' '.join(line.split()[2:]) for line in open('/proc/self/mountinfo'))
print(len(lines), hashlib.sha256('\\n'.join(lines).encode()).hexdigest()[:12])
"""
_JUDGE_PID_READER = """
import os
judge = forkserver = None
for name in sorted((n for n in os.listdir('/proc') if n.isdigit()), key=int):
    try:
        cmdline = open('/proc/' + name + '/cmdline', 'rb').read()
        owner = os.stat('/proc/' + name).st_uid
    except OSError:
        continue
    if b'forkserver' in cmdline and owner == 0 and forkserver is None and name != '1':
        forkserver = int(name)
    elif b'forkserver' in cmdline and owner == 10000:
        judge = int(name)
# the judge's pid, from the fork server's (the first pid of a container is Docker's to choose)
print(judge - forkserver if judge and forkserver else -1)
"""


def _judge_pid_writer(amount: int) -> Job:
    """A job whose program forks ``amount`` times at its top level before its ``assert`` tests
    start the container's judge (a job with two tests: a zygote runs the top level first)."""
    program = f"import os\nfor _ in range({amount}):\n    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n" \
              "    os.waitpid(pid, 0)\n\ndef f(x):\n    return x\n"
    return Job(program=program, tests=(TestCase(kind="assert", code="assert f(1) == 1"),
                                       TestCase(kind="assert", code="assert f(2) == 2")))


def _judge_memory_writer(amount: int) -> Job:
    """A job whose program hands the judge a list of ``amount`` x 100,000 numbers to compare."""
    return Job(program=f"def f():\n    return list(range({amount} * 100_000))\n",
               tests=(TestCase(kind="assert", code="assert f() is not None"),))


_JUDGE_STATUS_READER = """
import os
for name in sorted((n for n in os.listdir('/proc') if n.isdigit()), key=int):
    try:
        status = open('/proc/' + name + '/status').read()
    except OSError:
        continue
    if '\\nUid:\\t10000' in status:
        print(next(line.split()[1] for line in status.splitlines() if line.startswith('VmHWM')))
        break
else:
    print('unreadable')
"""


@dataclass(frozen=True)
class Channel:
    """A counter, its writer and its reader.

    Attributes:
        name: what the counter is.
        scope: ``container`` (the sandbox can close it) or ``host`` (the kernel's, host-wide).
        writer: a Python program that reads an amount on stdin, moves the counter by it and prints
            its moves per second; or a function of the amount that makes the writer's job.
        reader: a Python program that prints what it reads (one line).
        amounts: the amounts a measurement tries (the first is the smallest).
        fresh: run each writer in a fresh container (a counter only a container's first job moves).
        judged: the reader's job has a checker, so that its judge (each job's own, forked at the
            job's start) runs while the reader reads.
    """

    name: str
    scope: str
    writer: str | Callable[[int], Job]
    reader: str
    amounts: tuple[int, ...] = (0, 1, 2, 3, 40)
    fresh: bool = False
    judged: bool = False
    ratchet: bool = False
    note: str = field(default="", compare=False)


CHANNELS: dict[str, Channel] = {c.name: c for c in (
    Channel("tmp_inode", "container", _writer(_INODE_WRITER.format(place="/tmp")),
            _INODE_READER.format(place="/tmp"), note="/tmp's inode numbers (the job's folder is on it)"),
    Channel("shm_inode", "container", _writer(_INODE_WRITER.format(place="/dev/shm")),
            _INODE_READER.format(place="/dev/shm"), note="/dev/shm's inode numbers"),
    Channel("pid", "container", _writer(_FORKS), "import os\nprint(os.getpid())\n",
            note="the PID namespace's next pid"),
    Channel("sysv_shm", "container", _sysv_writer("shm"), _sysv_reader("shm"), note="System V shared memory ids"),
    Channel("sysv_msg", "container", _sysv_writer("msg"), _sysv_reader("msg"), note="System V message queue ids"),
    Channel("sysv_sem", "container", _sysv_writer("sem"), _sysv_reader("sem"), note="System V semaphore ids"),
    Channel("judge_pid", "container", _judge_pid_writer, _JUDGE_PID_READER, amounts=(0, 3, 40), fresh=True,
            judged=True, note="the judge's pid (the reader's own job's, forked at its start)"),
    Channel("restarts", "container", _writer("""
import os, time
for _ in range(_a * 20):  # processes left behind: the runner kills every process, its residents too
    if os.fork() == 0:
        time.sleep(60)
        os._exit(0)
"""), _MOUNTS_READER, amounts=(0, 1),
            note="whether the residents were restarted (the mounts a program sees, ids aside)"),
    Channel("judge_memory", "container", _judge_memory_writer, _JUDGE_STATUS_READER, amounts=(0, 5, 10, 20),
            ratchet=True, judged=True,
            note="the judge's highest memory (the reader's own job's judge: its /proc status, kB)"),
    Channel("cpu_usage", "container", _writer("while _t.perf_counter() - _t0 < _a / 1000:\n    pass\n"),
            _cgroup_reader([("/sys/fs/cgroup/cpuacct/cpuacct.usage", None), ("/sys/fs/cgroup/cpu.stat", "usage_usec")]),
            amounts=(0, 100, 200, 400), note="the cgroup's CPU time (ns; ms moved)"),
    Channel("memory_peak", "container", _writer("b = bytearray(_a << 20)\n"),
            _cgroup_reader([("/sys/fs/cgroup/memory/memory.max_usage_in_bytes", None),
                            ("/sys/fs/cgroup/memory.peak", None)]),
            amounts=(0, 40, 80, 160), ratchet=True, note="the cgroup's memory peak (bytes; MiB moved)"),
    Channel("page_faults", "container",
            _writer("import mmap\nm = mmap.mmap(-1, max(_a, 1) * 4096)\nfor i in range(_a):\n    m[i * 4096] = 1\n"),
            _cgroup_reader([("/sys/fs/cgroup/memory/memory.stat", "total_pgfault"),
                            ("/sys/fs/cgroup/memory.stat", "pgfault")]),
            amounts=(0, 2000, 4000, 8000), note="the cgroup's page faults"),
    Channel("pids_max_events", "container", _writer("""
import os
r, w = os.pipe()
failed = 0
while failed < _a:
    try:
        if os.fork() == 0:
            os.read(r, 1)
            os._exit(0)
    except OSError:
        failed += 1
os.close(w)
"""), _cgroup_reader([("/sys/fs/cgroup/pids/pids.events", "max"), ("/sys/fs/cgroup/pids.events", "max")]),
            amounts=(0, 1, 2, 10), note="the cgroup's refused forks"),
    Channel("runner_switches", "container",
            _writer("import sys\nfor _ in range(_a):\n    sys.stderr.write('.')\n    sys.stderr.flush()\n"
                    "    _t.sleep(0.002)\n"),
            _cgroup_reader([("/proc/1/status", "voluntary_ctxt_switches:")]),
            amounts=(0, 100, 200, 400), note="the runner's context switches (/proc/1/status)"),
    Channel("udp_datagrams", "container", _writer(
        "import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
        "for _ in range(_a):\n    s.sendto(b'x', ('127.0.0.1', 9))\n"),
            _UDP_READER,
            note="the network namespace's UDP counters (/proc/net/snmp OutDatagrams)"),
    Channel("processes", "host", _writer(_FORKS), _cgroup_reader([("/proc/stat", "processes")]),
            amounts=(0, 10, 100, 400), note="forks since boot (/proc/stat)"),
    Channel("pipe_inode", "host", _writer("import os\nfor _ in range(_a):\n    r, w = os.pipe()\n    os.close(r)\n"
                                          "    os.close(w)\n"),
            "import os\nr, w = os.pipe()\nprint(os.fstat(r).st_ino)\n",
            note="the kernel's get_next_ino (pipes, sockets, POSIX queues), per CPU"),
    Channel("memfd_inode", "host", _writer("import os\nfor _ in range(_a):\n    os.close(os.memfd_create('w'))\n"),
            "import os\nprint(os.fstat(os.memfd_create('r')).st_ino)\n",
            note="the kernel's shmem inode numbers (memfd, System V shm, shared anonymous maps), per CPU"),
    Channel("dentries", "host", _writer("import os\nfor i in range(_a):\n    os.path.exists(f'/usr/nx{i}')\n"),
            _cgroup_reader([("/proc/sys/fs/dentry-state", None)]),
            amounts=(0, 1000, 2000, 4000), note="the kernel's dentry count (negative dentries)"),
)}


def _stdio(program: str, stdin: str) -> Job:
    return Job(program=program, tests=(TestCase(kind="stdio", stdin=stdin, expected_stdout=""),),
               capture_output=True, limits=Limits(time_limit_s=5.0))


def _output(verdict) -> str:
    result = verdict.test_results[0] if verdict.test_results else None
    if result is None or result.output is None:
        return f"<{verdict.status}>"
    return result.output.stdout.strip() or f"<{result.status}: {result.output.stderr.strip()[-200:]}>"


def run_pair(ex: DockerExecutor, channel: Channel, amount: int, tag: str = "") -> tuple[str, str]:
    """Run the writer (moving the counter by ``amount``), then the reader, in ``ex``'s one
    container; return what each printed (the writer: its moves per second)."""
    writer = channel.writer(amount) if callable(channel.writer) else _stdio(channel.writer + f"# {tag}\n",
                                                                            f"{amount}\n")
    written = ex.run([writer])[0]
    reader = _stdio(channel.reader + f"# {tag}\n", "")
    if channel.judged:
        reader = replace(reader, checker="def check(stdin, output, expected):\n    return False\n")
    read = ex.run([reader])[0]
    return (_output(written) if not callable(channel.writer) else written.status), _output(read)


def _number(text: str) -> float | None:
    try:
        return float(text.split()[0])
    except (ValueError, IndexError):
        return None


@dataclass
class Measurement:
    """What a channel carried: the reader's readings, in order, each after a writer's amount
    (the first after none), and the bits per job they give.

    A reader that knows the reading before a writer (the last reader's, as colluding jobs
    arrange) decodes the writer's amount from the increase: ``increase = c + slope * amount``,
    ``noise`` the spread of what is left.
    """

    channel: Channel
    sequence: list[tuple[int | None, str]]  # (the writer's amount, the reading after it)
    rate: float  # the writer's moves per second

    @property
    def depends(self) -> bool:
        """Whether the reading depends on the amount: it changes when a writer moved it by
        different amounts (a reading equal after every writer carries nothing)."""
        after: dict[str, set[int | None]] = {}
        for amount, reading in self.sequence[1:]:
            after.setdefault(reading, set()).add(amount)
        return len(after) > 1

    def bits(self, seconds: float) -> float:
        """Bits per job: how many distinct amounts a writer makes within ``seconds`` of CPU that
        the reader tells apart."""
        if not self.depends:
            return 0.0
        points: list[tuple[int, float]] = []
        sequence = self.sequence
        while len(sequence) > 2 and _number(sequence[0][1]) is None:  # nothing to read yet (no judge)
            sequence = sequence[1:]
        previous = _number(sequence[0][1])
        for amount, reading in sequence[1:]:
            value = _number(reading)
            if value is None or previous is None or amount is None:
                return 1.0  # it changes, but not as a number: at least one bit
            # each in a fresh container: the reading itself; else its increase since the last one
            points.append((amount, value if self.channel.fresh else value - previous))
            previous = value
        if self.channel.ratchet:  # a highest-so-far: only the rise over the first round says anything
            points = points[:len(self.channel.amounts)]
        n = len(points)
        mean_a = sum(a for a, _ in points) / n
        mean_d = sum(d for _, d in points) / n
        var_a = sum((a - mean_a) ** 2 for a, _ in points)
        slope = sum((a - mean_a) * (d - mean_d) for a, d in points) / var_a if var_a else 0.0
        residuals = [d - mean_d - slope * (a - mean_a) for a, d in points]
        noise = max(residuals) - min(residuals)
        moves = max(self.rate * seconds, max(a for a, _ in points))
        return math.log2(1 + moves * abs(slope) / (noise + abs(slope) or 1))


def measure(channel: Channel, image: str | None, repeats: int, rate: float = 0.0) -> Measurement:
    """Run ``channel``'s pairs: a reader, then each amount's writer and a reader, ``repeats``
    rounds; ``rate``: the writer's moves per second where it does not say (a job-made writer)."""
    sequence: list[tuple[int | None, str]] = []
    rates = [rate]
    with DockerExecutor(concurrency=1, image=image) as ex:
        sequence.append((None, _output(ex.run([_stdio(channel.reader + "# first\n", "")])[0])))
        for r in range(repeats):
            for amount in channel.amounts:
                if channel.fresh:  # a counter only a container's first job moves: a container each
                    with DockerExecutor(concurrency=1, image=image) as fresh:
                        written, read = run_pair(fresh, channel, amount, f"{r}")
                else:
                    written, read = run_pair(ex, channel, amount, f"{r}")
                sequence.append((amount, read))
                rates.append(_number(written) or 0.0)
    return Measurement(channel, sequence, max(rates))


_COST = r"""
import os, statistics, sys, time
sys.path.insert(0, "/opt/sandbox")
os.chdir("/")
from inside.clean import Baseline
from inside.counters import Counters
from inside.seccomp import install
from inside.state import ipc_objects
rounds = int(sys.argv[1])
def leave_a_job():
    os.makedirs("/tmp/jobs/0123456789abcdef", exist_ok=True)
    with open("/tmp/jobs/0123456789abcdef/main.py", "w") as f:
        f.write("print(1)\n")
def median_us(xs):
    return round(statistics.median(xs) * 1e6, 1)
as_it_was = Baseline()
was = []
for _ in range(rounds):
    leave_a_job()
    t = time.perf_counter()
    assert not as_it_was.restore()
    ipc_objects()
    was.append(time.perf_counter() - t)
counters = Counters()
counters.start()
counters.note_pid_base(100)
baseline = Baseline(renewed=counters.renewed)
parts = {"measure the rest": [], "IPC ids": [], "fresh tmpfs": [], "network": [], "next pid": []}
now = []
for _ in range(rounds):
    leave_a_job()
    t0 = time.perf_counter(); assert not baseline.restore()
    t1 = time.perf_counter(); assert not counters.ipc_used()
    t2 = time.perf_counter(); assert not counters.renew_places()
    t3 = time.perf_counter(); assert counters.moved() is None
    t4 = time.perf_counter(); counters.reset_pids()
    t5 = time.perf_counter()
    now.append(t5 - t0)
    for name, a, b in zip(parts, (t0, t1, t2, t3, t4), (t1, t2, t3, t4, t5)):
        parts[name].append(b - a)
def syscalls(filtered):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        if filtered:
            install()
        t = time.perf_counter()
        for _ in range(100_000):
            os.getppid()
        t1 = time.perf_counter()
        for _ in range(300):
            child = os.fork()
            if child == 0:
                os._exit(0)
            os.waitpid(child, 0)
        t2 = time.perf_counter()
        os.write(w, f"{(t1 - t) / 100_000 * 1e9:.0f} {(t2 - t1) / 300 * 1e6:.0f}".encode())
        os._exit(0)
    os.waitpid(pid, 0)
    return os.read(r, 100).decode()
print({"modes": counters.modes, "as it was (us)": median_us(was), "as it is (us)": median_us(now),
       **{name + " (us)": median_us(xs) for name, xs in parts.items()},
       "getppid ns, fork+wait us (no filter)": syscalls(False), "(filter)": syscalls(True)})
"""


def cost(image: str | None, rounds: int) -> dict:
    """What the runner's work after a job costs, as it was and as it is, in a container of
    ``image`` with the sandbox's settings (``_COST``)."""
    import ast

    from sandbox.container import ContainerSettings, connect
    from sandbox.image import require_image

    client = connect()
    image = image or require_image(client)
    host_config = ContainerSettings().host_config()
    host_config.pop("auto_remove")
    container = client.containers.run(image, ["-c", _COST, str(rounds)], entrypoint="python3", user="0:0",
                                      detach=True, **host_config)
    try:
        container.wait(timeout=600)
        return ast.literal_eval(container.logs().decode().strip().splitlines()[-1])
    finally:
        container.remove(force=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--image", default=None, help="the sandbox image (default: this tree's)")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None, help="channels to measure (default: all)")
    parser.add_argument("--json", default=None, help="also write the measurements here")
    parser.add_argument("--cost", action="store_true", help="measure what setting the counters back costs a job")
    parser.add_argument("--rounds", type=int, default=400, help="rounds of --cost")
    args = parser.parse_args(argv)
    if args.cost:
        for name, value in cost(args.image, args.rounds).items():
            print(f"{name:40s} {value}")
        return 0
    seconds = Limits().time_limit_s
    rows: list[dict] = []
    fork_rate = 0.0  # a job-made writer forks at the pid writer's rate
    for name, channel in CHANNELS.items():
        if args.only and name not in args.only:
            continue
        m = measure(channel, args.image, args.repeats, fork_rate if callable(channel.writer) else 0.0)
        if name == "pid":
            fork_rate = m.rate
        bits = m.bits(seconds)
        rows.append({"channel": name, "scope": channel.scope, "bits_per_job": round(bits, 1),
                     "moves_per_s": round(m.rate), "sequence": m.sequence, "note": channel.note})
        print(f"{name:18s} {channel.scope:9s} {bits:5.1f} bits/job  ({round(m.rate)} moves/s)  "
              f"{' '.join(f'{a}:{r}' for a, r in m.sequence)[:120]}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
