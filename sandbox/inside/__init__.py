"""Trusted in-container code: baked into the sandbox image, copied as this whole folder.

Stdlib only. Two trust levels live here (``docs/architecture.md``, "Three trust levels"):

- trusted code, in processes no program runs in and no program can reach (the runner and the fork
  server as root, the judge as its own user): ``runner`` (PID 1: the protocol with the host),
  ``jobs`` (compile a program, run its tests, leave the container clean), ``forkserver`` (forks
  every child, as the runner's child), ``forkclient`` (the runner's handle on it), ``watch``
  (feeds and reads a test, enforces its limits, reads its outcome from the kernel), ``resident``
  (the runner's handles on a zygote and on the judge), ``judge`` (runs ``assert`` tests and
  checkers), ``verdict`` and ``compare`` (a test's result), ``guard`` (compiles test code),
  ``values`` and ``records`` (the strict readers of what a program's process writes),
  ``messages`` (every message, typed), ``procs`` (users, capabilities, process utilities),
  ``cgroup`` (the container's counters), ``languages`` (compile and run commands; the host reads
  it too), ``capture``, ``passrate``, ``harbor_verifier``;
- code that runs *inside the program's process*: the package ``program``, and nothing else. It
  never holds a test's code or expected value, and nothing it writes is believed: the program's
  answers and the monitor's flags, read strictly.

Modules import each other relatively, so the same files work as ``sandbox.inside`` on the host and
as the package ``inside`` in the image (``/opt/sandbox/inside``).
"""
