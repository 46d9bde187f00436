"""Build an executor by name: ``make_executor("docker" | "ray")``.

Above both executors (it imports each one only when asked for it, so Ray is imported only for
``ray``); nothing in ``sandbox`` imports it but the package's ``__init__``.
"""

from __future__ import annotations

from sandbox.protocol import Executor

EXECUTOR_KINDS = ("docker", "ray")


def make_executor(kind: str = "docker", *, concurrency: int | None = None, ray_address: str | None = None,
                  **kwargs) -> Executor:
    """An executor of ``kind`` (not started).

    Args:
        kind: ``docker`` (this machine's daemon) or ``ray`` (a Ray cluster; needs the ``ray``
            extra: ``pip install 'grpo-code[ray]'``).
        concurrency: jobs at once, all workers together (default: the CPUs, of this machine or
            of the cluster's sandbox nodes).
        ray_address: the Ray cluster to join (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``);
            default: join the local one, or start one. Only with ``kind="ray"``.
        **kwargs: passed on to ``DockerExecutor`` (for ``ray``: to the pool of every node, or
            to ``RayExecutor`` for its own options).

    Raises:
        ValueError: an unknown kind, or a Ray address for the docker executor.
        SandboxError: Ray is asked for but not installed.
    """
    if kind not in EXECUTOR_KINDS:
        raise ValueError(f"unknown executor {kind!r}; choose one of {', '.join(EXECUTOR_KINDS)}")
    if kind == "docker":
        if ray_address:
            raise ValueError("a Ray address needs the ray executor (--executor ray)")
        from sandbox.executor import DockerExecutor

        return DockerExecutor(concurrency=concurrency, **kwargs)
    from sandbox.ray_executor import RayExecutor, require_ray

    require_ray()
    return RayExecutor(address=ray_address, concurrency=concurrency, **kwargs)
