"""The executor options' rules, at their owner (``sandbox.factory``, ``sandbox.protocol``): refused
when an executor is made, before anything starts (no Docker, no Ray)."""

from __future__ import annotations

import os

import pytest

from sandbox import DockerExecutor, check_executor_options, make_executor
from sandbox.ray_executor import RayExecutor

CLI = {"kind": "--executor", "concurrency": "--concurrency", "ray_address": "--ray-address"}


@pytest.mark.parametrize("kind, options, message", [
    ("kubernetes", {}, "kind must be one of docker, ray, got 'kubernetes'"),
    ("docker", {"concurrency": 0}, "concurrency must be >= 1 (leave it out for every CPU), got 0"),
    ("docker", {"concurrency": -3}, "concurrency must be >= 1 (leave it out for every CPU), got -3"),
    ("ray", {"concurrency": 0}, "concurrency must be >= 1 (leave it out for every CPU), got 0"),
    ("docker", {"ray_address": "auto"}, "ray_address needs the ray executor (kind ray)"),
])
def test_make_executor_refuses_bad_options_in_one_line(kind, options, message):
    with pytest.raises(ValueError) as err:
        make_executor(kind, **options)
    assert str(err.value) == message


@pytest.mark.parametrize("kind, options, message", [
    ("kubernetes", {}, "--executor must be one of docker, ray, got 'kubernetes'"),
    ("docker", {"concurrency": 0}, "--concurrency must be >= 1 (leave it out for every CPU), got 0"),
    ("docker", {"ray_address": "auto"}, "--ray-address needs the ray executor (--executor ray)"),
])
def test_the_messages_name_the_options_as_the_caller_spells_them(kind, options, message):
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)") + "$"):
        check_executor_options(kind, option_names=CLI, **options)


def test_good_options_pass_and_none_means_every_cpu():
    check_executor_options("ray", 2, "auto")
    check_executor_options("docker", None, None)
    executor = make_executor("docker")  # not started: nothing runs
    assert isinstance(executor, DockerExecutor) and executor.concurrency == (os.cpu_count() or 1)
    assert make_executor("docker", concurrency=3).concurrency == 3


@pytest.mark.parametrize("make", [lambda: DockerExecutor(concurrency=0), lambda: RayExecutor(concurrency=0),
                                  lambda: DockerExecutor(concurrency=-1)])
def test_executors_refuse_a_concurrency_below_one(make):
    # 0 once meant "every CPU" for DockerExecutor, silently: leave it out for that
    with pytest.raises(ValueError, match="concurrency must be >= 1"):
        make()
