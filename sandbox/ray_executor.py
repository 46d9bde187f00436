"""Verification on a Ray cluster: one actor per sandbox node, each owning a ``DockerExecutor`` pool.

Host side, like ``sandbox.executor``; Ray is an optional extra (``pip install 'grpo-code[ray]'``)
and only this module imports it. The nodes that verify are the nodes that offer the Ray resource
``sandbox`` (``ray start --resources='{"sandbox": 1}'``; a local Ray started here offers it), so
GPU nodes can be left out. Each gets one ``SandboxActor``, pinned to it, whose pool has as many
containers as the node has CPUs in Ray's count (``node_share`` of them when several executors
share the cluster). A batch is spread over the actors by load, in chunks, with a bounded number
of jobs in flight per actor (back-pressure); the verdicts come back in the jobs' order.

A node or actor that dies takes no job with it: the jobs it held go to another actor, and a job
whose actors kept dying is reported as ``sandbox_error`` (never a crash, never a missing verdict).
A node whose actor died gets a new one at the next batch, if the node is still alive. The
containers of a dead actor end by themselves (``StdinOnce``, see ``sandbox.container``).
"""

from __future__ import annotations

import logging
import math
import os
import socket
import threading
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sandbox.attempts import JobAttempts
from sandbox.dedup import collapse
from sandbox.executor import DockerExecutor
from sandbox.image import check_pins
from sandbox.protocol import ExecutorBase, ExecutorStats, check_concurrency
from sandbox.types import Job, SandboxError, Verdict

log = logging.getLogger(__name__)

RESOURCE = "sandbox"
START_TIMEOUT_S = 180.0  # an actor's pool start: image check, orphan sweep, containers
LOCAL_OBJECT_STORE_MB = 128  # a Ray started here carries jobs and verdicts only


def require_ray():
    """The ``ray`` module; raises SandboxError with the install line when it is missing."""
    try:
        import ray
    except ImportError as e:
        raise SandboxError("the ray executor needs Ray: pip install 'grpo-code[ray]'") from e
    return ray


class SandboxActor:
    """A Ray actor on one node: owns a ``DockerExecutor`` pool of that node's Docker daemon.

    Args:
        pool: keyword arguments of ``DockerExecutor`` (``concurrency``, ``image``, ...).

    Raises (at creation, as Ray's actor error): whatever ``DockerExecutor.start`` raises, e.g.
    ``ImageMissing`` on a node without the image.
    """

    def __init__(self, pool: dict):
        self.executor = DockerExecutor(**pool).start()

    def pid(self) -> int:
        """The actor's process id (to tell a restarted actor from the one that was lost)."""
        return os.getpid()

    def run(self, jobs: list[Job]) -> tuple[list[Verdict], float]:
        """The verdicts of ``jobs`` and the node's busy seconds since the start."""
        verdicts = self.executor.run(jobs)
        return verdicts, next(iter(self.executor.node_seconds().values()))

    def stats(self) -> ExecutorStats:
        """The node's pool's counters."""
        return self.executor.stats()

    def close(self) -> None:
        """Remove the node's pool's containers."""
        self.executor.close()


@dataclass
class _Node:
    """A sandbox node and its actor (None while it has none)."""

    node_id: str
    name: str
    cpus: float
    actor: Any = None  # a Ray actor handle (its methods are called with .remote)
    concurrency: int = 0
    pid: int | None = None
    busy_s: float = 0.0  # the actor's busy seconds, as last reported
    jobs: int = 0  # jobs its actors ran (distinct jobs, not dedup copies)
    lost_stats: ExecutorStats = field(default_factory=ExecutorStats)  # of its dead actors, last known
    last_stats: ExecutorStats = field(default_factory=ExecutorStats)
    load: int = 0  # jobs in flight on it now
    broken: str | None = None  # why its actor could not start (not tried again)

    def retire(self) -> None:
        """Forget the node's actor; its last known counters join those of its lost actors."""
        self.lost_stats, self.last_stats = self.lost_stats + self.last_stats, ExecutorStats()
        self.actor, self.pid = None, None


class RayExecutor(ExecutorBase):
    """Run sandbox jobs on the nodes of a Ray cluster (see the module docstring).

    Use it like ``DockerExecutor``::

        with RayExecutor(address="auto") as ex:
            verdicts = ex.run(jobs)

    Args:
        address: the cluster (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``); default: join the
            local Ray, or start one whose node offers ``resource``. When this process is
            connected to Ray already, that connection is used.
        concurrency: containers in all (at least 1), spread over the nodes in proportion to their
            CPUs (at least one each); default (None): every sandbox node's CPUs times ``node_share``.
        node_share: the share of each node's CPUs this executor's pools take (several trainer
            processes sharing a cluster: 1 / their number).
        resource: the Ray resource that marks a sandbox node.
        max_in_flight: jobs in flight per actor at most, as a multiple of its pool's size.
        max_retries: how often a job whose actor died is sent to another one.
        **pool: keyword arguments of every node's ``DockerExecutor`` (``max_jobs_per_container``,
            ``settings``, ...); the image defaults to this version's tag (every node must have
            it built).

    Raises:
        ValueError: ``concurrency`` below 1 (``protocol.check_concurrency``), ``node_share``
            outside (0, 1].

    Raises (from ``start``):
        SandboxError: Ray is not installed, the cluster cannot be reached, no node offers
            ``resource``, or no actor could start its pool (the message says why).
    """

    def __init__(self, address: str | None = None, concurrency: int | None = None, node_share: float = 1.0,
                 resource: str = RESOURCE, max_in_flight: int = 4, max_retries: int = 2, **pool):
        if not 0 < node_share <= 1:
            raise ValueError(f"node_share must be in (0, 1], got {node_share}")
        check_concurrency(concurrency)
        self.address = address
        self.requested = concurrency
        self.node_share = node_share
        self.resource = resource
        self.max_in_flight = max(1, max_in_flight)
        self.max_retries = max_retries
        self.pool = pool
        self.packages = check_pins(pool.get("packages", ()))  # the image's (``DockerExecutor``)
        self.concurrency = 0
        self.nodes: dict[str, _Node] = {}
        self._owns_ray = False
        self._stats = ExecutorStats()
        self._lock = threading.Lock()  # one batch at a time
        self.started = False

    # -- lifecycle -------------------------------------------------------------------

    def start(self) -> RayExecutor:
        """Connect to (or start) Ray, start one actor per sandbox node, wait until their pools run."""
        if self.started:
            return self
        ray = require_ray()
        self._connect(ray)
        from sandbox.image import image_tag

        self.pool.setdefault("image", image_tag(self.packages))  # GRPO_CODE_SANDBOX_IMAGE overrides it there
        self.started = True
        try:
            errors = self._refresh(ray)
            if not any(n.actor is not None for n in self.nodes.values()):
                raise SandboxError(f"no sandbox actor could start on the Ray cluster: {errors[0] if errors else '?'}")
        except BaseException:
            self.close()
            raise
        return self

    def _connect(self, ray) -> None:
        if ray.is_initialized():
            return
        quiet = dict(include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
        try:
            if self.address:
                _reachable(self.address)
                ray.init(address=self.address, **quiet)
                return
            try:  # join the local Ray, if one runs
                ray.init(address="auto", **quiet)
                return
            except ConnectionError:
                pass
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            cpus = os.cpu_count() or 1
            ray.init(num_cpus=cpus, resources={self.resource: cpus},
                     object_store_memory=LOCAL_OBJECT_STORE_MB * 2**20, **quiet)
            self._owns_ray = True
        except SandboxError:
            raise
        except Exception as e:
            where = self.address or "a local Ray"
            raise SandboxError(f"cannot connect to the Ray cluster at {where}: {e}. Give --ray-address auto "
                               "(a cluster started with `ray start`), HOST:PORT or ray://HOST:PORT") from e

    def _sandbox_nodes(self, ray) -> list[dict]:
        return [n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get(self.resource, 0) > 0]

    def _refresh(self, ray) -> list[str]:
        """Give every alive sandbox node without an actor a new one; returns the start errors."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        alive = self._sandbox_nodes(ray)
        if not alive:
            raise SandboxError(f"no node of the Ray cluster offers the resource {self.resource!r}: start the "
                               f"sandbox nodes with `ray start ... --resources='{{\"{self.resource}\": 1}}'`")
        hosts = Counter(n["NodeManagerHostname"] for n in alive)
        for n in alive:
            if n["NodeID"] not in self.nodes:
                host = n["NodeManagerHostname"]
                name = host if hosts[host] == 1 else f"{host}-{n['NodeID'][:6]}"
                self.nodes[n["NodeID"]] = _Node(n["NodeID"], name, float(n["Resources"].get("CPU", 1)))
        alive_ids = {n["NodeID"] for n in alive}
        for node in self.nodes.values():
            if node.node_id not in alive_ids and node.actor is not None:
                self._lose(node)
        wanted = [n for n in self.nodes.values() if n.node_id in alive_ids and n.actor is None and not n.broken]
        if not wanted:
            return []
        sizes = self._pool_sizes([n for n in self.nodes.values() if n.node_id in alive_ids])
        actor_class = ray.remote(SandboxActor)
        for node in wanted:
            node.concurrency = sizes[node.node_id]
            node.actor = actor_class.options(
                num_cpus=0, resources={self.resource: 0.001},
                max_concurrency=self.max_in_flight * node.concurrency + 2,
                scheduling_strategy=NodeAffinitySchedulingStrategy(node.node_id, soft=False),
            ).remote({**self.pool, "concurrency": node.concurrency})
        errors = []
        for node in wanted:
            try:
                node.pid = ray.get(node.actor.pid.remote(), timeout=START_TIMEOUT_S)
            except Exception as e:  # noqa: BLE001 - one node that cannot start is left out, with its reason
                reason = _reason(e)
                errors.append(f"{node.name}: {reason}")
                node.broken = reason
                log.warning("sandbox node %s left out: %s", node.name, reason)
                try:
                    ray.kill(node.actor)
                except Exception:  # noqa: BLE001 - it is gone already
                    pass
                node.actor = None
        self.concurrency = sum(n.concurrency for n in self.nodes.values() if n.actor is not None)
        return errors

    def _pool_sizes(self, nodes: list[_Node]) -> dict[str, int]:
        if self.requested is None:
            return {n.node_id: max(1, math.floor(n.cpus * self.node_share)) for n in nodes}
        total_cpus = sum(n.cpus for n in nodes) or len(nodes)
        return {n.node_id: max(1, round(self.requested * n.cpus / total_cpus)) for n in nodes}

    def close(self) -> None:
        """Stop every actor (each removes its pool's containers); disconnect a Ray started here."""
        if not self.started:
            return
        self.started = False
        ray = require_ray()
        live = [n for n in self.nodes.values() if n.actor is not None]
        for n in live:
            try:
                n.last_stats = ray.get(n.actor.stats.remote(), timeout=30)
                ray.get(n.actor.close.remote(), timeout=60)
            except Exception as e:  # noqa: BLE001 - a dead actor's containers end by themselves
                log.info("sandbox actor on %s did not close cleanly: %s", n.name, _reason(e))
            try:
                ray.kill(n.actor)
            except Exception:  # noqa: BLE001
                pass
            n.retire()
        if self._owns_ray:
            ray.shutdown()
            self._owns_ray = False

    # -- running jobs ----------------------------------------------------------------

    def run(self, jobs: Sequence[Job], on_verdict: Callable[[int, Verdict], None] | None = None) -> list[Verdict]:
        """Run jobs on the cluster; returns their verdicts in the jobs' order (never raises for a
        job). Identical jobs run once (``sandbox.dedup``).

        Args:
            jobs: the jobs.
            on_verdict: called as ``on_verdict(index, verdict)`` as each job's chunk comes back.
        """
        if not self.started:
            raise SandboxError("the executor is not started: use `with RayExecutor() as ex:`")
        ray = require_ray()
        batch = collapse(jobs)
        copies = batch.copies()
        verdicts: list[Verdict | None] = [None] * len(batch.unique)

        def finish(entry: JobAttempts, verdict: Verdict) -> None:
            verdicts[entry.index] = verdict
            if on_verdict is not None:
                for i in copies[entry.index]:
                    on_verdict(i, verdict)

        with self._lock:
            if batch.unique:
                if any(n.actor is None and not n.broken for n in self.nodes.values()):
                    self._refresh(ray)
                self._dispatch(ray, deque(JobAttempts(i, job) for i, job in enumerate(batch.unique)), finish)
            self._stats.jobs += len(jobs)
            self._stats.dedup_hits += batch.hits
        return batch.expand(verdicts)  # type: ignore[arg-type]

    def _dispatch(self, ray, todo: deque[JobAttempts], finish: Callable[[JobAttempts, Verdict], None]) -> None:
        """Keep every live actor fed with chunks (at most ``max_in_flight`` times its pool size
        in jobs), the least loaded first, until every job has a verdict."""
        in_flight: dict[object, tuple[_Node, list[JobAttempts]]] = {}
        while todo or in_flight:
            live = [n for n in self.nodes.values() if n.actor is not None]
            if not live and not in_flight:  # every actor is gone: nothing can run these jobs
                for entry in todo:
                    entry.error = entry.error or "no sandbox actor is alive on the Ray cluster"
                    self._give_up(entry, finish)
                todo.clear()
                break
            while todo:  # one chunk at a time to the least loaded actor with room
                room = [n for n in live if n.load < self.max_in_flight * n.concurrency]
                if not room:
                    break
                node = min(room, key=lambda n: n.load / n.concurrency)
                size = max(1, min(2 * node.concurrency, self.max_in_flight * node.concurrency - node.load,
                                  math.ceil(len(todo) / (2 * len(live)))))
                chunk = [todo.popleft() for _ in range(min(size, len(todo)))]
                in_flight[node.actor.run.remote([e.job for e in chunk])] = (node, chunk)
                node.load += len(chunk)
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                node, chunk = in_flight.pop(ref)
                node.load -= len(chunk)
                try:
                    results, node.busy_s = ray.get(ref)
                except Exception as e:  # noqa: BLE001 - the actor or its node died: its jobs go elsewhere
                    reason = _reason(e)
                    if node.actor is not None:
                        log.warning("sandbox actor on %s lost (%s): %d job(s) go to another actor",
                                    node.name, reason, len(chunk))
                        self._lose(node)
                    for entry in chunk:
                        entry.error = f"sandbox actor on {node.name} lost: {reason}"
                        if entry.attempt > self.max_retries:
                            self._give_up(entry, finish)
                        else:
                            entry.attempt += 1
                            self._stats.retries += 1
                            todo.appendleft(entry)
                    continue
                node.jobs += len(chunk)
                for entry, verdict in zip(chunk, results, strict=True):
                    finish(entry, replace(verdict, attempts=verdict.attempts + entry.attempt - 1))

    def _lose(self, node: _Node) -> None:
        """Forget a node's dead actor (counted as a fault); its last known counters are kept."""
        ray = require_ray()
        try:
            ray.kill(node.actor)
        except Exception:  # noqa: BLE001 - it is dead already
            pass
        node.retire()
        self._stats.faults += 1
        self.concurrency = sum(n.concurrency for n in self.nodes.values() if n.actor is not None)

    def _give_up(self, entry: JobAttempts, finish) -> None:
        self._stats.sandbox_errors += 1
        finish(entry, entry.given_up())

    # -- what it did -----------------------------------------------------------------

    def stats(self) -> ExecutorStats:
        """The counters of every actor (of the dead ones as last known) and the cluster's own:
        ``jobs`` and ``dedup_hits`` are the verdicts this executor returned; ``faults``,
        ``retries`` and ``sandbox_errors`` add the actors lost, the jobs sent again and the jobs
        given up after their actors kept dying to the pools' own counts."""
        ray = require_ray()
        pools = ExecutorStats()
        for node in self.nodes.values():
            if node.actor is not None:
                try:
                    node.last_stats = ray.get(node.actor.stats.remote(), timeout=30)
                except Exception:  # noqa: BLE001 - dying: its last known counters stand
                    pass
            pools = pools + node.lost_stats + node.last_stats
        return replace(pools + self._stats, jobs=self._stats.jobs)

    def node_seconds(self) -> dict[str, float]:
        """``{node name: seconds}``: each node's busy wall-clock seconds since the start, as its
        actor last reported them (a node name is its host name, with the start of its Ray
        node id when two nodes share a host)."""
        return {n.name: n.busy_s for n in self.nodes.values()}

    def node_jobs(self) -> dict[str, int]:
        """``{node name: jobs}``: the distinct jobs each node ran since the start."""
        return {n.name: n.jobs for n in self.nodes.values()}

    def actor_pids(self) -> dict[str, int]:
        """``{node name: pid}`` of each live actor (for checks and tests)."""
        return {n.name: n.pid for n in self.nodes.values() if n.actor is not None and n.pid is not None}


def _reachable(address: str, timeout_s: float = 10.0) -> None:
    """Fail fast on a cluster address nothing listens at (Ray itself retries for minutes)."""
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not port.isdigit():
        raise SandboxError(f"the Ray address {address!r} has no port: give HOST:PORT, ray://HOST:PORT or auto")
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=timeout_s).close()
    except OSError as e:
        raise SandboxError(f"cannot reach the Ray cluster at {address} ({e}): is it running (`ray status`)? "
                           "Give --ray-address auto for the local one") from e


def _reason(error: BaseException) -> str:
    """One line for a Ray error (Ray's own messages run over many lines)."""
    cause = getattr(error, "cause", None) or error
    text = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {text[-1] if text else ''}"[:300]
