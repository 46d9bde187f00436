"""Captured output: a ``stdio`` test's raw stdout and stderr, for a caller that judges them itself.

Stdlib only; runs in the runner. A ``stdio`` test sent with ``"capture": true`` (the host's
``sandbox.Job.capture_output``; SandboxFusion-style ``/run_code`` needs it) gets, beside its
verdict, what the program wrote and how it ended, under an ``output`` key of its result. Bounded,
and never cut silently: stdout is whole up to the test's output limit (a program that writes more
is stopped there, its status is ``output_limit`` and ``stdout_truncated`` is true); stderr is its
last ``watch.STDERR_TAIL`` bytes, and ``stderr_truncated`` says when it wrote more. ``exit_code``
and ``signal`` come from the kernel (``wait4`` in the runner, never from the program); both are None
when the runner stopped the test itself (a limit: the status says which). What the program wrote
is its own output, handed to the caller as it is: the test's status is decided exactly as for any
other ``stdio`` test, never from this.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .messages import CapturedWire


def captured(outcome) -> CapturedWire:
    """The ``output`` of a captured ``stdio`` test, from its ``watch.Outcome``."""
    stdout, stderr = bytes(outcome.stdout), bytes(outcome.stderr)
    cut = outcome.killed_for == "output_limit"  # the chunk that crossed the limit was kept by neither stream
    return {
        "stdout": stdout.decode("utf-8", "replace"),
        "stderr": stderr.decode("utf-8", "replace"),
        "stdout_truncated": cut,
        "stderr_truncated": cut or outcome.printed - len(stdout) > len(stderr),
        "exit_code": outcome.exit_code,
        "signal": outcome.signal,
    }
