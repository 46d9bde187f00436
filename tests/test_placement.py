"""CPU placement: each container of a pool is pinned to CPUs of its own, the least loaded;
a daemon that refuses a CPU set still gets a working (unpinned) container."""

from __future__ import annotations

import time
import uuid

import pytest

from helpers import distinct, run_every, stdio_job
from sandbox import DockerExecutor, Job, TestCase
from sandbox.container import CPU_LABEL, LABEL, OWNER_LABEL, ContainerSettings, SandboxContainer, owner_token
from sandbox.placement import spread

ONE_CPU = Job(program="import os\n", tests=(TestCase(kind="assert", code="assert len(os.sched_getaffinity(0)) == 1"),))
# The CPUs it may run on (to stdout: checked) and the container it ran in (to stderr: captured).
WHERE = Job(program=("import os, socket, sys\nprint(len(os.sched_getaffinity(0)))\n"
                     "print(socket.gethostname(), file=sys.stderr)\n"),
            tests=(TestCase(kind="stdio", expected_stdout="1\n"),), capture_output=True)


def test_spread_fills_the_least_loaded_cpus_first():
    load = {0: 2, 1: 0, 2: 1, 3: 0}
    assert spread(load, 4, 1) == ["1", "3", "1", "2"]
    assert load == {0: 2, 1: 2, 2: 2, 3: 1}


def test_spread_breaks_ties_from_the_offset_round_the_cpus():
    assert spread(dict.fromkeys(range(4), 0), 5, 1, offset=2) == ["2", "3", "0", "1", "2"]


def test_spread_gives_wide_containers_several_cpus():
    assert spread({0: 1, 1: 0, 2: 0}, 2, 2) == ["1,2", "0,1"]
    assert spread({0: 0, 1: 0}, 1, 5) == ["0,1"]  # never more CPUs than there are


def _cpuset_of(client, container_id: str) -> str:
    return client.api.inspect_container(container_id)["HostConfig"]["CpusetCpus"]


@pytest.mark.docker
def test_pool_containers_are_pinned_one_cpu_each():
    with DockerExecutor(concurrency=2) as ex:
        ncpu = ex.client.info()["NCPU"]
        labels = {c: ex.client.api.inspect_container(c)["Config"]["Labels"][CPU_LABEL] for c in ex.container_ids()}
        for container_id, cpus in labels.items():
            assert _cpuset_of(ex.client, container_id) == cpus
            assert cpus.isdigit() and int(cpus) < ncpu
        if ncpu >= 2:
            assert len(set(labels.values())) == 2  # two containers, two CPUs
        # A program sees the one CPU it was given, in each container of the pool: six jobs, each
        # one distinct (copies would run once), each saying which container ran it.
        verdicts = run_every(ex, distinct(WHERE, 6))
        assert [v.status for v in verdicts] == ["passed"] * 6
        ran_in = {v.test_results[0].output.stderr.strip() for v in verdicts if v.test_results[0].output}
        assert ran_in == {container_id[:12] for container_id in labels}  # its host name: the container's id


@pytest.mark.docker
def test_pinning_can_be_switched_off():
    with DockerExecutor(concurrency=1, settings=ContainerSettings(pin_cpus=False)) as ex:
        (container_id,) = ex.container_ids()
        assert _cpuset_of(ex.client, container_id) == ""
        assert ex.run_one(ONE_CPU).passed == (ex.client.info()["NCPU"] == 1)
        assert CPU_LABEL not in ex.client.api.inspect_container(container_id)["Config"]["Labels"]


@pytest.mark.docker
def test_a_refused_cpu_set_gives_an_unpinned_container(executor):
    from sandbox.image import image_tag

    labels = {LABEL: "1", OWNER_LABEL: owner_token(), "grpo-code.test": uuid.uuid4().hex}
    container = SandboxContainer(executor.client, image_tag(), ContainerSettings(), labels, cpuset="4095")
    try:
        container.start()
        assert container.cpuset is None
        assert _cpuset_of(executor.client, container.container.id) == ""
        mine = executor.client.api.containers(all=True, filters={"label": f"grpo-code.test={labels['grpo-code.test']}"})
        assert [c["Id"] for c in mine] == [container.container.id]  # nothing left of the refused try
        container.submit(stdio_job("print(6 * 7)\n", "", "42\n"))
        assert container.receive()[1].passed
    finally:
        container.remove()


@pytest.mark.docker
def test_pools_starting_at_the_same_instant_see_each_other(monkeypatch):
    # Two pools start together, their container starts slowed down (1 s): the pool that chooses
    # its CPUs second must count the first pool's container (it waits for the placement lock),
    # else both would count the same load and pin the same CPU.
    import threading

    import sandbox.executor

    counted: dict[str, set[str]] = {}
    place, start = sandbox.executor.place, SandboxContainer.start

    def recording_place(client, n, cpus):
        counted[threading.current_thread().name] = {c["Id"] for c in client.api.containers(filters={"label": LABEL})}
        return place(client, n, cpus)

    def slow_start(self):
        time.sleep(1.0)
        start(self)

    monkeypatch.setattr("sandbox.executor.place", recording_place)
    monkeypatch.setattr(SandboxContainer, "start", slow_start)
    pools = {"a": DockerExecutor(concurrency=1), "b": DockerExecutor(concurrency=1)}
    barrier = threading.Barrier(2)

    def start_pool(name):
        barrier.wait()
        pools[name].start()

    threads = [threading.Thread(target=start_pool, args=(name,), name=name) for name in pools]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        ids = {name: set(pool.container_ids()) for name, pool in pools.items()}
        assert all(len(v) == 1 for v in ids.values())
        saw_other = [ids["b" if name == "a" else "a"] <= counted[name] for name in pools]
        assert sorted(saw_other) == [False, True]  # the first saw none of the other's, the second all
    finally:
        for pool in pools.values():
            pool.close()
