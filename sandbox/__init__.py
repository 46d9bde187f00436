r"""grpo-code's execution layer: run untrusted programs against test cases in Docker.

Knows programs, tests, limits and verdicts; imports nothing from ``grpo_code`` (nor torch or
TRL), so it is usable on its own::

    from sandbox import DockerExecutor, Job, TestCase

    job = Job(program="def add(a, b):\n    return a + b\n",
              tests=[TestCase(kind="assert", code="assert add(1, 2) == 3")])
    with DockerExecutor() as ex:
        verdict = ex.run([job])[0]          # verdict.status, verdict.pass_rate, verdict.test_results

``Executor`` is the protocol every executor implements (``DockerExecutor`` here,
``sandbox.ray_executor.RayExecutor`` on a Ray cluster); ``make_executor("docker" | "ray")``
builds one. Ray is imported only when asked for.
"""

from sandbox.container import ContainerSettings
from sandbox.executor import DockerExecutor
from sandbox.factory import EXECUTOR_KINDS, check_executor_options, make_executor
from sandbox.inside.languages import LANGUAGES
from sandbox.protocol import Executor, ExecutorStats
from sandbox.types import (
    FLAGS,
    STATUSES,
    CapturedOutput,
    DockerUnavailable,
    ImageMissing,
    Job,
    Limits,
    SandboxError,
    SandboxFault,
    TestCase,
    TestResult,
    Verdict,
)

__all__ = [
    "EXECUTOR_KINDS",
    "FLAGS",
    "LANGUAGES",
    "STATUSES",
    "CapturedOutput",
    "ContainerSettings",
    "DockerExecutor",
    "DockerUnavailable",
    "Executor",
    "ExecutorStats",
    "ImageMissing",
    "Job",
    "Limits",
    "SandboxError",
    "SandboxFault",
    "TestCase",
    "TestResult",
    "Verdict",
    "check_executor_options",
    "make_executor",
]
