"""The largest limits a request may ask for of ``grpo-code serve`` (``/run_code`` and ``/v1/jobs``).

Light (no server libraries): the command line reads its defaults without the ``serve`` extra.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from sandbox import Limits


@dataclass(frozen=True)
class RequestBounds:
    """The largest limits a request may ask for on this server (``/run_code`` and ``/v1/jobs``).

    Attributes:
        max_run_timeout_s: the largest ``run_timeout`` / ``time_limit_s`` (CPU seconds).
        max_compile_timeout_s: the largest ``compile_timeout`` / ``compile_time_limit_s``.
        max_memory_mb: the largest ``memory_limit_MB`` / ``memory_limit_mb``; also what ``-1`` means.
        output_limit_bytes: stdout + stderr of a ``/run_code`` run (beyond: stopped,
            ``stdout_truncated``), and the largest ``output_limit_bytes`` of a job.
    """

    max_run_timeout_s: float = 60.0
    max_compile_timeout_s: float = 60.0
    max_memory_mb: int = 1024
    output_limit_bytes: int = 1 << 20

    def check(self, limits: Limits) -> None:
        """Raise ValueError naming the first limit of a job above these bounds."""
        wall = cast(float, limits.wall_time_limit_s)  # set by Limits.__post_init__
        for name, value, most in (("time_limit_s", limits.time_limit_s, self.max_run_timeout_s),
                                  ("wall_time_limit_s", wall, 3 * self.max_run_timeout_s + 1),
                                  ("compile_time_limit_s", limits.compile_time_limit_s, self.max_compile_timeout_s),
                                  ("memory_limit_mb", limits.memory_limit_mb, self.max_memory_mb),
                                  ("output_limit_bytes", limits.output_limit_bytes, self.output_limit_bytes),
                                  ("file_size_limit_mb", limits.file_size_limit_mb, 64)):
            if not value <= most:
                raise ValueError(f"limits: {name} at most {most:g} on this server, got {value:g}")
