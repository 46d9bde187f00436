"""Trusted in-container code: baked into the sandbox image, copied as this whole folder.

Stdlib only. Two trust levels live here (``docs/architecture.md``):

- trusted code, in processes no program runs in: ``runner`` (PID 1: the protocol with the host),
  ``jobs`` (compile a program, run its tests), ``forkserver`` (forks every child), ``forkclient``
  (the runner's handle on it), ``watch`` (feeds and reads a test process, enforces its limits),
  ``cgroup`` (the container's CPU, process and OOM counters), ``zygote`` (the runner's handle on
  a process that ran a program's top level once), ``verdict`` and ``compare`` (turn what a test
  process did into a per-test result), ``guard`` (compiles test code), ``records`` (the result
  records every process writes and the runner reads), ``procs`` (process utilities),
  ``languages`` (compile and run commands; the host reads it too);
- code that runs *inside the program's process*: ``program_process``, and nothing else. It never
  holds an expected value, and what it writes is evidence for the runner to check, never a verdict.

Modules import each other relatively, so the same files work as ``sandbox.inside`` on the host and
as the package ``inside`` in the image (``/opt/sandbox/inside``).
"""
