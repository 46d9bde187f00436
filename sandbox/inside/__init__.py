"""Trusted in-container code: baked into the sandbox image, copied as this whole folder.

Stdlib only. Two trust levels live here (docs/architecture.md, "Three trust levels", whose Layout
says what each module does):

- trusted code, in processes no program runs in: the runner (PID 1: the protocol with the host;
  ``runner``, ``state``, ``jobs``, ``children``, ``watch``, ``resident``, ``verdict``, ``compare``,
  ``guard``, ``values``, ``records``, ``capture``, ``cgroup``, ``forkclient``), the fork server
  (``forkserver``), the judge (the package ``judge``, as a user of its own) and a Harbor verifier
  box's PID 1 (``harbor_verifier``); ``procs``, ``languages`` and ``passrate`` are shared by them
  (the host reads the last two too), and ``messages`` types what they say to each other (for
  annotations only: no process loads it);
- code that shares a process with a program: the package ``program`` (``program.child``,
  ``program.calls``, ``program.zygote``, ``program.encode``, ``program.monitor``,
  ``program.errors``), and nothing else. It never holds an expected value, and what it writes is
  evidence for the runner to check, never a verdict.

Modules import each other relatively, so the same files work as ``sandbox.inside`` on the host and
as the package ``inside`` in the image (``/opt/sandbox/inside``).
"""
