"""One warm sandbox container: start it locked down, talk to its runner, remove it.

The runner is the container's PID 1 and reads requests from the container's stdin; we write
to and read from the attach socket of the Docker API (stdout arrives in Docker's multiplexed
frames: an 8-byte header, then the payload).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import struct
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from sandbox.inside.procs import JUDGE_UID
from sandbox.types import DockerUnavailable, Job, SandboxError, SandboxFault, Verdict

if TYPE_CHECKING:
    from sandbox.inside.messages import PingRequest, Reply, Request

log = logging.getLogger(__name__)

LABEL = "grpo-code.sandbox"
OWNER_LABEL = "grpo-code.owner"
CPU_LABEL = "grpo-code.cpus"  # the CPUs a container is pinned to (``sandbox.placement``)
START_TIMEOUT_S = 60.0
SEND_TIMEOUT_S = 60.0  # a request's write that makes no progress this long: the container is stuck
RECV_SLICE_S = 0.5  # a wait for a reply wakes this often to look at its deadline
RECV_BYTES = 65536
# What the runner (PID 1, root) needs and nothing more: make each child the judge's or the
# program's user (SETUID, SETGID) with an empty bounding set (SETPCAP), kill every process (KILL),
# create the job's folder for the program's user (CHOWN) and remove whatever a program left,
# whatever its modes (DAC_OVERRIDE, FOWNER). No child keeps any of them (``sandbox/inside/procs.py``).
RUNNER_CAPABILITIES = ("CHOWN", "DAC_OVERRIDE", "FOWNER", "KILL", "SETGID", "SETPCAP", "SETUID")
# And, with ``ContainerSettings.fresh_counters``, what gives every job counters no earlier job moved:
# a fresh /tmp and /dev/shm, the next pid and IPC ids set back, the cgroup's counters and the
# runner's own /proc files hidden (``sandbox/inside/counters.py``). No child keeps it either, and the
# fork server's seccomp filter (``sandbox/inside/seccomp.py``) refuses every child what SYS_ADMIN in
# the container lets Docker's profile allow (namespaces, mounts, bpf, ...).
COUNTER_CAPABILITIES = ("SYS_ADMIN",)
JUDGE_TMPFS_MB = 64


@dataclass(frozen=True)
class ContainerSettings:
    """How each sandbox container is confined.

    Attributes:
        memory_mb: the container's memory cgroup limit (swap included), MiB: the backstop
            behind each test process's own limit.
        cpus: CPU share per container (1.0 = one core), so one program cannot slow the others.
        pids_limit: most processes (and threads) alive at once in the container.
        tmpfs_mb: size of the writable /tmp, MiB; everything else is read-only.
        pin_cpus: pin each container to ``ceil(cpus)`` CPUs of its own, the least loaded
            (``sandbox.placement``): the processes of a job then hand work to each other on one
            CPU, which is much faster than across CPUs.
        fresh_counters: give every job counters no earlier job moved (inode numbers, pids, IPC
            ids, the cgroup's counters: docs/sandbox.md, "No counter between jobs"), for which the
            runner holds ``CAP_SYS_ADMIN`` (``COUNTER_CAPABILITIES``). False: it runs without, cleans
            up by emptying, and those counters stay readable from job to job.
    """

    memory_mb: int = 2048
    cpus: float = 1.0
    pids_limit: int = 128
    tmpfs_mb: int = 256
    pin_cpus: bool = True
    fresh_counters: bool = True

    def host_config(self, cpuset: str | None = None) -> dict:
        """Keyword arguments of ``docker.APIClient.create_host_config`` for a locked-down container,
        pinned to the CPUs ``cpuset`` (Docker's form: ``"3"``, ``"0,1"``) unless it is None.
        Docker removes the container as soon as it stops (``auto_remove``)."""
        kwargs = dict(
            auto_remove=True,
            network_mode="none",
            read_only=True,
            tmpfs={"/tmp": f"rw,exec,nosuid,nodev,size={self.tmpfs_mb}m,mode=1777",
                   # the judge's own: programs can neither read it nor fill it
                   "/run/judge": f"rw,noexec,nosuid,nodev,size={JUDGE_TMPFS_MB}m,mode=0700,uid={JUDGE_UID},"
                                 f"gid={JUDGE_UID}"},
            cap_drop=["ALL"],
            cap_add=[*RUNNER_CAPABILITIES, *(COUNTER_CAPABILITIES if self.fresh_counters else ())],
            security_opt=["no-new-privileges"],
            pids_limit=self.pids_limit,
            mem_limit=f"{self.memory_mb}m",
            memswap_limit=f"{self.memory_mb}m",
            nano_cpus=int(self.cpus * 1e9),
            ipc_mode="private",
            init=False,
        )
        if cpuset is not None:
            kwargs["cpuset_cpus"] = cpuset
        return kwargs


def owner_token() -> str:
    """``host:pid:start-time`` of this process, stamped on the containers it starts."""
    return f"{socket.gethostname()}:{os.getpid()}:{_start_time(os.getpid())}"


def _start_time(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return "?"


def owner_alive(token: str) -> bool:
    """Whether the process that stamped ``token`` on a container still runs (on this host)."""
    host, _, rest = token.partition(":")
    pid, _, started = rest.partition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return True  # another host's container: not ours to judge
    return _start_time(int(pid)) == started


def set_kernel_timeouts(sock: socket.socket) -> None:
    """Put the attach stream in blocking mode with the kernel's timeouts (``SO_SNDTIMEO``,
    ``SO_RCVTIMEO``): each write or read is one system call, where a Python-level timeout costs a
    ``poll`` and an ``ioctl`` around each."""
    if type(sock) is not socket.socket:  # another transport's stream (TLS, an SSH channel): Python's timeout
        sock.settimeout(SEND_TIMEOUT_S)
        return
    sock.settimeout(None)
    for option, seconds in ((socket.SO_SNDTIMEO, SEND_TIMEOUT_S), (socket.SO_RCVTIMEO, RECV_SLICE_S)):
        sock.setsockopt(socket.SOL_SOCKET, option, struct.pack("ll", int(seconds), int(seconds % 1 * 1e6)))


def _line(message: Request) -> bytes:
    """A request as the runner reads it: one line of JSON."""
    return (json.dumps(message) + "\n").encode()


def _wake(waiter: asyncio.Future) -> None:
    if not waiter.done():
        waiter.set_result(None)


def submission_id() -> str:
    """A fresh identity for one submission of a job to a runner (32 hex digits, never reused:
    a retry is a new submission). The runner echoes it in its reply."""
    return os.urandom(16).hex()


class ReplyMismatch(SandboxFault):
    """The runner's reply carries another submission's identity: the container is not trusted."""


class SandboxContainer:
    """A started container whose runner answers requests in the order they come.

    ``submit`` sends a job under a fresh submission id and queues it in ``pending``; ``receive``
    takes the oldest pending submission and accepts only a reply that carries its id. So the
    host's idea of which job is in flight is the container's own queue, never a count kept
    elsewhere, and a reply can never be taken for another job's verdict.

    Attributes:
        pending: ``(submission id, job)`` of jobs sent and not yet received, oldest first.
        jobs_submitted: jobs sent to this container over its life.
        spent: why the container is to be replaced though clean (its runner said a job moved a
            counter that cannot be set back in place: the reply's ``recycle``); None while it serves.
    """

    def __init__(self, client, image: str, settings: ContainerSettings, labels: dict[str, str],
                 cpuset: str | None = None):
        self.client = client
        self.image = image
        self.settings = settings
        self.labels = labels
        self.cpuset = cpuset  # None once the daemon has refused it: the container runs unpinned
        self.container: Any = None  # docker SDK objects (untyped)
        self._sock: Any = None
        self._response: Any = None
        self._frames = bytearray()  # the attach stream as read: Docker's frames, not yet taken apart
        self._buf = bytearray()  # the runner's stdout from those frames, up to its next reply line
        self._scanned = 0  # how much of _buf is known to hold no newline (``_newline``)
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop that reads the stream (``attach``)
        self._waiter: asyncio.Future | None = None  # ``_aread_line`` waiting for the loop's reader
        self._broken: OSError | None = None  # how the stream ended, as the loop's reader saw it
        self.pending: deque[tuple[str, Job]] = deque()
        self.jobs_submitted = 0
        self.spent: str | None = None

    @property
    def id(self) -> str:
        """The container's short id, or ``-`` before it started."""
        return self.container.id[:12] if self.container is not None else "-"

    def start(self) -> None:
        """Start the container and check that its runner answers; raises SandboxFault."""
        import docker.errors

        try:
            self.container = self._run()
            self._response = self.client.api.attach_socket(
                self.container.id, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1})
            self._sock = getattr(self._response, "_sock", self._response)
            set_kernel_timeouts(self._sock)
            ping = submission_id()
            reply = self.request({"op": "ping", "id": ping}, START_TIMEOUT_S)
        except (docker.errors.DockerException, OSError) as e:
            self.remove()
            raise SandboxFault(f"cannot start a sandbox container: {e}") from e
        except SandboxFault:
            self.remove()
            raise
        if reply.get("op") != "pong" or reply.get("id") != ping:
            self.remove()
            raise SandboxFault(f"the sandbox runner answered {reply!r} to ping")

    def _run(self):
        import docker.errors

        if self.cpuset is not None:
            try:
                return self._create_and_start({**self.labels, CPU_LABEL: self.cpuset}, self.cpuset)
            except docker.errors.APIError as e:
                if "cpu" not in str(e).lower():
                    raise
                log.warning("the Docker daemon refused CPU set %s (%s): this container runs unpinned",
                            self.cpuset, e)
                self.cpuset = None
        return self._create_and_start(self.labels, None)

    def _create_and_start(self, labels: dict[str, str], cpuset: str | None):
        """Create and start the container with its stdin open for one attach only (``StdinOnce``):
        when our attach stream ends, because we closed it or because this process died (even by
        SIGKILL), Docker closes the runner's stdin, the runner exits, and Docker removes the
        container (``auto_remove``). So no container outlives the process that owns it."""
        import docker.errors

        api = self.client.api
        # user root: the runner, with the capabilities of ``host_config``; every child drops to a user of its own
        config = api.create_container_config(self.image, None, detach=True, stdin_open=True, tty=False, labels=labels,
                                             user="0:0",
                                             host_config=api.create_host_config(**self.settings.host_config(cpuset)))
        config["StdinOnce"] = True  # docker-py sets it only for containers run attached
        container_id = api.create_container_from_config(config)["Id"]
        try:
            api.start(container_id)
        except docker.errors.APIError:
            try:
                api.remove_container(container_id, force=True)
            except docker.errors.APIError:
                pass
            raise
        return self.client.containers.prepare_model({"Id": container_id})

    def submit(self, job: Job) -> None:
        """Send a job to the runner under a fresh submission id and queue it in ``pending``; the
        runner runs jobs in the order they come, and ``receive`` gives their verdicts in that order.

        Raises:
            SandboxFault: the container cannot be written to (the job is not queued).
        """
        wire_id = submission_id()
        self._send(job.to_wire(wire_id))
        self.pending.append((wire_id, job))
        self.jobs_submitted += 1

    async def asubmit(self, job: Job) -> None:
        """``submit`` on the event loop the stream is attached to (``attach``)."""
        wire_id = submission_id()
        data = _line(job.to_wire(wire_id))
        try:
            try:
                sent = self._sock.send(data)  # most requests fit the socket's buffer at once
            except BlockingIOError:
                sent = 0
            if sent < len(data):
                loop = cast(asyncio.AbstractEventLoop, self._loop)
                await asyncio.wait_for(loop.sock_sendall(self._sock, data[sent:]), SEND_TIMEOUT_S)
        except OSError as e:  # TimeoutError among them
            raise self._broke(e) from e
        self.pending.append((wire_id, job))
        self.jobs_submitted += 1

    def receive(self) -> tuple[Job, Verdict]:
        """The oldest pending job and its verdict, waiting at most the job's worst case from now.

        Raises:
            SandboxError: nothing is pending (a bug of the caller).
            ReplyMismatch: the reply carries another submission's id.
            SandboxFault: the container failed (the job is not judged). After any fault the
                container must be discarded: its stream is no longer in step with ``pending``.
        """
        wire_id, job = self._oldest()
        try:
            reply = self._receive(job.limits.worst_case_s(len(job.tests)))
        except SandboxFault as e:  # it died or hung while running this job, the oldest in flight
            raise SandboxFault(str(e), started=not self._held_by_docker()) from e
        return job, self._verdict(wire_id, job, reply)

    async def areceive(self) -> tuple[Job, Verdict]:
        """``receive`` on the event loop the stream is attached to (``attach``)."""
        wire_id, job = self._oldest()
        try:
            line = await self._aread_line(time.monotonic() + job.limits.worst_case_s(len(job.tests)))
            reply = self._parse(line)
        except (OSError, SandboxFault) as e:  # it died or hung while running this job, the oldest in flight
            held = await asyncio.to_thread(self._held_by_docker)
            fault = self._broke(e) if isinstance(e, OSError) else e
            raise SandboxFault(str(fault), started=not held) from e
        return job, self._verdict(wire_id, job, reply)

    def _broke(self, error: Exception) -> SandboxFault:
        """The fault of a stream that broke with ``error`` (or a reply that was none)."""
        return SandboxFault(f"container {self.id}: {type(error).__name__}: {error}")

    def _oldest(self) -> tuple[str, Job]:
        if not self.pending:
            raise SandboxError("receive() with no job pending on this container")
        return self.pending.popleft()

    def _verdict(self, wire_id: str, job: Job, reply: Reply) -> Verdict:
        """The verdict in the runner's ``reply`` to submission ``wire_id`` of ``job``; raises
        ``ReplyMismatch`` or ``SandboxFault`` (see ``receive``)."""
        if reply.get("id") != wire_id:
            raise ReplyMismatch(f"container {self.id}: the runner answered submission {reply.get('id')!r} "
                                f"while {wire_id!r} (job {job.job_id or '-'}) was the oldest in flight")
        if not reply["ok"]:
            flags = reply.get("flags")
            raise SandboxFault(f"the sandbox runner failed: {reply.get('error', reply)}",
                               started=reply.get("started") is True,
                               flags=tuple(f for f in flags if isinstance(f, str)) if isinstance(flags, list) else ())
        if "op" in reply:  # a pong where a verdict was due (it carries the ping's id: never reached)
            raise SandboxFault(f"container {self.id}: the runner answered {reply!r} to a job")
        if reply.get("residue"):
            log.warning("container %s: job %s left what would not go: %s", self.id, job.job_id or "-",
                        "; ".join(map(str, reply["residue"]))[:2000])
        if reply.get("recycle"):
            self.spent = str(reply.get("recycle"))[:500]
            log.info("container %s is replaced after job %s: %s", self.id, job.job_id or "-", self.spent)
        return Verdict.from_wire(reply, n_tests=len(job.tests))

    def _held_by_docker(self) -> bool:
        """Whether the infrastructure stopped the container, not what ran in it: Docker paused it,
        or the daemon cannot be reached to say."""
        import docker.errors

        try:
            return bool(self.client.api.inspect_container(self.container.id)["State"].get("Paused"))
        except docker.errors.NotFound:  # it exited (its runner died) and Docker removed it
            return False
        except (docker.errors.DockerException, OSError, KeyError, TypeError, AttributeError):
            return True

    def request(self, message: PingRequest, timeout_s: float) -> Reply:
        """Send one request line, return the runner's reply within ``timeout_s``; raises SandboxFault."""
        self._send(message)
        return self._receive(timeout_s)

    def _send(self, message: Request) -> None:
        """Write one request line (a write that makes no progress for ``SEND_TIMEOUT_S`` is a fault)."""
        if self._sock is None:
            raise SandboxFault("the sandbox container is not started")
        try:
            self._sock.sendall(_line(message))
        except OSError as e:
            raise self._broke(e) from e

    def _receive(self, timeout_s: float) -> Reply:
        """The runner's next reply line: a JSON object with ``ok`` true or false (the runner's own
        word, ``messages.Reply``; the caller checks that it answers its request).

        Raises:
            SandboxFault: no line in time, the container's stream broke, or the line is no reply.
        """
        if self._sock is None:
            raise SandboxFault("the sandbox container is not started")
        try:
            line = self._read_line(time.monotonic() + timeout_s)
        except OSError as e:
            raise self._broke(e) from e
        return self._parse(line)

    def _parse(self, line: bytes) -> Reply:
        """The reply in one line of the runner's, or SandboxFault if it is none."""
        try:
            data = json.loads(line)
        except ValueError as e:
            raise self._broke(e) from e
        if not isinstance(data, dict) or type(data.get("ok")) is not bool:
            raise SandboxFault(f"container {self.id}: the runner wrote {str(data)[:200]!r}, which is no reply")
        return cast("Reply", data)  # as the runner built it (``runner.serve``)

    def _read_line(self, deadline: float) -> bytes:
        while (line := self._take_line()) is None:
            self._read_frames(deadline)
        return line

    def _take_line(self) -> bytes | None:
        """The runner's next whole line from ``_buf`` (taken off it), or None if there is none yet."""
        i = self._newline()
        if i < 0:
            return None
        line = bytes(self._buf[:i])
        del self._buf[: i + 1]
        self._scanned = 0
        return line

    def _newline(self) -> int:
        """Where ``_buf``'s first newline is, or -1: each byte is searched once however many reads
        a reply takes (a reply of hundreds of MiB comes 64 KiB a read; searching all of ``_buf``
        after each read took time that grew with the square of its size)."""
        i = self._buf.find(b"\n", self._scanned)
        self._scanned = len(self._buf) if i < 0 else i
        return i

    def _read_frames(self, deadline: float) -> None:
        """Read the stream until ``_buf`` holds a whole line (at most until ``deadline``), taking
        apart every whole frame of Docker's in it: stdout onto ``_buf``, stderr logged."""
        while True:
            try:
                data = self._sock.recv(RECV_BYTES)
            except (TimeoutError, BlockingIOError):  # nothing for RECV_SLICE_S (or, another transport, its timeout)
                if time.monotonic() >= deadline:
                    raise TimeoutError("the sandbox runner did not answer in time") from None
                continue
            if not data:
                raise ConnectionError("the sandbox container closed its stream (it died)")
            self._frames += data
            self._take_frames()
            if self._newline() >= 0:
                return
            if time.monotonic() >= deadline:  # a stream that trickles half a line, stderr or half a frame
                raise TimeoutError("the sandbox runner did not answer in time")

    def _take_frames(self) -> None:
        """Take every whole frame of Docker's off ``_frames``: stdout onto ``_buf``, stderr logged."""
        frames = self._frames
        while len(frames) >= 8:
            stream, size = struct.unpack_from(">BxxxL", frames)
            if len(frames) < 8 + size:
                return
            if stream == 2:  # the runner's own stderr: only ever a crash report
                log.warning("sandbox runner %s stderr: %s", self.id, frames[8:8 + size].decode("utf-8", "replace"))
            else:
                self._buf += frames[8:8 + size]
            del frames[:8 + size]

    # -- on an event loop (``DockerExecutor(drive="loop")``) ------------------------------

    @property
    def plain_stream(self) -> bool:
        """Whether the attach stream is a plain socket (a local daemon's): an event loop can read it
        (``attach``); a TLS or SSH transport's cannot."""
        return type(self._sock) is socket.socket

    def abandon(self) -> None:
        """Close the stream and nothing else, never blocking: the runner sees its stdin end and
        exits, and Docker removes the container (``_create_and_start``). For an event loop that
        must not wait on Docker's API; ``remove`` later finds it gone."""
        self.detach()
        for closable in (self._sock, self._response):
            with contextlib.suppress(OSError):
                if closable is not None:
                    closable.close()

    @property
    def attached(self) -> bool:
        """Whether an event loop reads the stream (``attach``)."""
        return self._loop is not None

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Have ``loop`` read the stream from now on, as a reader callback of its own (the socket
        non-blocking): ``asubmit`` and ``areceive`` then work on that loop, ``submit`` and
        ``receive`` do not until ``detach``. Call it on the loop's thread."""
        self._sock.setblocking(False)
        self._loop, self._broken = loop, None
        loop.add_reader(self._sock.fileno(), self._on_readable)

    def detach(self) -> None:
        """Stop the loop's reading (``attach``): the stream is back in blocking mode. From another
        thread than the loop's (an executor closed under a running pump), the loop is asked to."""
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(OSError, ValueError, RuntimeError):  # a closed socket or loop
                if asyncio._get_running_loop() is loop:
                    loop.remove_reader(self._sock.fileno())
                else:
                    loop.call_soon_threadsafe(loop.remove_reader, self._sock.fileno())
            self._loop = None
            with contextlib.suppress(OSError):
                self._sock.setblocking(True)  # the kernel's timeouts (``set_kernel_timeouts``) stay

    def _on_readable(self) -> None:
        try:
            data = self._sock.recv(RECV_BYTES)
        except BlockingIOError:
            return
        except OSError as e:
            data, self._broken = b"", e
        if data:
            self._frames += data
            self._take_frames()
            if self._newline() < 0:
                return
        else:  # the end of the stream: no more reading (a reader would be called at once forever)
            self._broken = self._broken or ConnectionError("the sandbox container closed its stream (it died)")
            cast(asyncio.AbstractEventLoop, self._loop).remove_reader(self._sock.fileno())
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def _aread_line(self, deadline: float) -> bytes:
        loop = cast(asyncio.AbstractEventLoop, self._loop)
        while (line := self._take_line()) is None:
            if self._broken is not None:
                raise self._broken
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("the sandbox runner did not answer in time")
            self._waiter = waiter = loop.create_future()
            timer = loop.call_later(remaining, _wake, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
                self._waiter = None
        return line

    def remove(self) -> None:
        """Close the stream and remove the container (idempotent, never raises)."""
        import docker.errors

        self.abandon()
        self._sock = self._response = None
        if self.container is not None:
            try:
                self.container.remove(force=True)
            except docker.errors.DockerException as e:
                # gone, or Docker removes it already (auto_remove: its runner exited when the stream closed)
                gone = isinstance(e, docker.errors.NotFound) or getattr(e, "status_code", None) == 409
                if not gone:
                    log.warning("could not remove sandbox container %s: %s", self.id, e)
            except OSError as e:
                log.warning("could not remove sandbox container %s: %s", self.id, e)
            self.container = None


def connect(max_pool_size: int = 32):
    """A ``docker.DockerClient`` for the daemon of ``DOCKER_HOST`` (default: the local socket).

    Raises:
        DockerUnavailable: the daemon cannot be reached; the message says how to start it.
    """
    import docker
    import docker.errors

    try:
        client = docker.from_env(max_pool_size=max_pool_size, timeout=120)
        client.ping()
        return client
    except (docker.errors.DockerException, OSError) as e:
        where = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
        raise DockerUnavailable(
            f"cannot reach the Docker daemon at {where} ({e}). Start it: `sudo systemctl start docker`, "
            "or as root `dockerd > /var/log/dockerd.log 2>&1 &`; or set DOCKER_HOST to a reachable "
            "daemon. On a fresh Debian machine: apt-get install -y docker.io") from e


def remove_all(client=None) -> int:
    """Remove every sandbox container on the daemon (``LABEL``), whoever started it, running or
    not (``grpo-code sandbox clean``: what killed runs left behind). Returns how many.

    Args:
        client: a ``docker.DockerClient``; default: ``connect()``.

    Raises:
        DockerUnavailable: the daemon cannot be reached.
    """
    client = client or connect()
    containers = client.containers.list(all=True, filters={"label": LABEL})
    for container in containers:
        container.remove(force=True)
    return len(containers)
