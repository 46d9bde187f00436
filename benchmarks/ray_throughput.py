"""RayExecutor against DockerExecutor: the same jobs, the same total number of workers, same run.

Runs the 164 HumanEval canonical solutions (REPEATS times each, the suite's per-test form)
through ``RayExecutor`` on a local two-node Ray cluster (``ray.cluster_utils.Cluster``: each
node offers WORKERS/2 CPUs and the ``sandbox`` resource, so each node's actor owns a pool of
WORKERS/2 containers) and through one ``DockerExecutor`` of WORKERS containers, taking turns for
``--rounds`` rounds so that both see the same drift of a shared machine. Prints samples per second
of each and the median ratio Ray / Docker (target: at least 0.85). Copies of a job within a batch
would run once (dedup), so every job is made distinct by a comment line.

    python benchmarks/ray_throughput.py [--rounds 5] [--repeats 2] [--workers 2]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from dataclasses import replace

from grpo_code.suites.registry import load_suite
from sandbox import DockerExecutor
from sandbox.ray_executor import RayExecutor


def jobs_for(repeats: int):
    suite = load_suite("humaneval")
    return [replace(job, program=f"# copy {r}\n{job.program}")
            for r in range(repeats) for job in (t.job(t.reference_solution or "") for t in suite)]


def timed(executor, jobs) -> tuple[float, int]:
    started = time.perf_counter()
    verdicts = executor.run(jobs)
    seconds = time.perf_counter() - started
    return len(jobs) / seconds, sum(v.passed for v in verdicts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=2, help="copies of the 164 samples per round")
    parser.add_argument("--workers", type=int, default=2, help="containers in all (even: half per Ray node)")
    args = parser.parse_args()
    import ray
    from ray.cluster_utils import Cluster

    per_node = max(1, args.workers // 2)
    node = dict(num_cpus=per_node, resources={"sandbox": per_node}, object_store_memory=80 * 2**20)
    cluster = Cluster(initialize_head=True, head_node_args={**node, "include_dashboard": False})
    cluster.add_node(**node)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, logging_level=logging.WARNING, log_to_driver=False)
    jobs = jobs_for(args.repeats)
    print(f"HumanEval canonical solutions x{args.repeats} = {len(jobs)} samples per round, {args.rounds} rounds; "
          f"Ray: 2 nodes x {per_node} containers, Docker: {2 * per_node} containers")
    ratios = []
    try:
        with RayExecutor() as on_ray, DockerExecutor(concurrency=2 * per_node) as local:
            timed(on_ray, jobs[:40])  # warm up both (first forks, imports)
            timed(local, jobs[:40])
            for r in range(1, args.rounds + 1):
                ray_rate, ray_passed = timed(on_ray, jobs)
                docker_rate, docker_passed = timed(local, jobs)
                ratios.append(ray_rate / docker_rate)
                print(f"round {r}: Ray {ray_rate:6.1f} samples/s ({ray_passed}/{len(jobs)} passed) | Docker "
                      f"{docker_rate:6.1f} samples/s ({docker_passed}/{len(jobs)} passed) | ratio {ratios[-1]:.2f}")
            print(f"jobs per Ray node: {on_ray.node_jobs()}")
    finally:
        ray.shutdown()
        cluster.shutdown()
    print(f"ratio Ray / Docker (same workers, median of {args.rounds} rounds): {statistics.median(ratios):.2f} "
          f"(rounds: {', '.join(f'{x:.2f}' for x in ratios)})")


if __name__ == "__main__":
    main()
