"""Build an executor by name: ``make_executor("docker" | "ray")``, and the rules of its options.

Above both executors (it imports each one only when asked for it, so Ray is imported only for
``ray``); nothing in ``sandbox`` imports it but the package's ``__init__``. It owns the rules of
the options every front end takes (``grpo-code``'s ``--executor``, ``--concurrency``,
``--ray-address``; ``grpo-code train``'s own spellings): a caller maps the ``ValueError`` to its
own error, and names the options as its users write them (``option_names``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sandbox.protocol import Executor, check_concurrency

EXECUTOR_KINDS = ("docker", "ray")
OPTION_NAMES = {"kind": "kind", "concurrency": "concurrency", "ray_address": "ray_address"}


def check_executor_options(kind: str, concurrency: int | None = None, ray_address: str | None = None, *,
                           option_names: Mapping[str, str] | None = None) -> None:
    """Check the options of ``make_executor`` without building anything.

    Args:
        kind: one of ``EXECUTOR_KINDS``.
        concurrency: None (every CPU) or at least 1 (``protocol.check_concurrency``).
        ray_address: only with ``kind="ray"``.
        option_names: how the caller's users spell ``kind``, ``concurrency`` and ``ray_address``
            (``{"kind": "--executor", ...}``), for the message; default: these names.

    Raises:
        ValueError: one line naming the option at fault and what it takes.
    """
    names = {**OPTION_NAMES, **(option_names or {})}
    if kind not in EXECUTOR_KINDS:
        raise ValueError(f"{names['kind']} must be one of {', '.join(EXECUTOR_KINDS)}, got {kind!r}")
    if ray_address and kind != "ray":
        raise ValueError(f"{names['ray_address']} needs the ray executor ({names['kind']} ray)")
    check_concurrency(concurrency, names["concurrency"])


def make_executor(kind: str = "docker", *, concurrency: int | None = None, ray_address: str | None = None,
                  option_names: Mapping[str, str] | None = None, packages: Iterable[str] = (), **kwargs) -> Executor:
    """An executor of ``kind`` (not started).

    Args:
        kind: ``docker`` (this machine's daemon) or ``ray`` (a Ray cluster; needs the ``ray``
            extra: ``pip install 'grpo-code[ray]'``).
        concurrency: jobs at once, all workers together, at least 1 (default None: the CPUs, of
            this machine or of the cluster's sandbox nodes).
        ray_address: the Ray cluster to join (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``);
            default: join the local one, or start one. Only with ``kind="ray"``.
        option_names: the caller's names of the options, for the messages
            (``check_executor_options``).
        packages: the pinned packages (``name==version``) a suite's programs and tests import
            (``TaskSuite.packages``): the executor runs the image of those packages on the lean
            one (``sandbox.image.image_tag``; on every node, for ``ray``); none: the lean image.
        **kwargs: passed on to ``DockerExecutor`` (for ``ray``: to the pool of every node, or
            to ``RayExecutor`` for its own options).

    Raises:
        ValueError: an unknown kind, a concurrency below 1, or a Ray address for the docker
            executor (``check_executor_options``); a pin that is not exact.
        SandboxError: Ray is asked for but not installed.
    """
    check_executor_options(kind, concurrency, ray_address, option_names=option_names)
    if kind == "docker":
        from sandbox.executor import DockerExecutor

        return DockerExecutor(concurrency=concurrency, packages=packages, **kwargs)
    from sandbox.ray_executor import RayExecutor, require_ray

    require_ray()
    return RayExecutor(address=ray_address, concurrency=concurrency, packages=packages, **kwargs)
