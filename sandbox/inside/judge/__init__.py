"""The judge: a trusted process that runs ``assert`` tests and checkers; the program only answers calls.

Stdlib only. The fork server forks it (``messages.JudgeRequest``) as a child of the runner; it
becomes a user of its own (``procs.JUDGE_UID``), so no process of the program's can signal it,
trace it, read its memory or change its limits, and it never runs the program's code. It holds the
test code and so the expected values; the program's process never sees either. Every module here
is loaded by the fork server, and so copied into every test process: stdlib only, light, and no
``messages`` but for annotations.

Each test's code runs here with pristine builtins and standard library, in a fresh namespace:
the task's test setup (helpers the task's prompt defines, its prelude's imports), run anew for
every test so that no test sees what another changed; the standard modules the test names
without importing; and, for each name the program defines (the entry point, ``candidate``, a
class), a ``Remote``. What the test does with a ``Remote`` becomes a request to the program's test
process (``program.calls``): calling it, calling what it returned, reading its attributes,
iterating it. Values cross as plain data, read strictly (``values.decode_value``); an object of
the program's stays there and the test holds a handle (another ``Remote``); a callable of the
test's handed to the program stays here and runs here when the program calls it, and a failed
assertion in it fails the test (never the program's to catch). The test's classes, and its setup's
functions, reach the program only under names its own code reads (``environment``). Arguments the
program changed in place are updated here. A program whose process ends during a call fails the
test whatever the test catches, and so does an exception that would steer the test's control
flow (``StopIteration`` ending a ``map`` early, as PEP 479 rules for generators).

It lives as long as the container's fork server: it judges job after job (a job's tests replace
the last job's), and a job whose test breaks a limit has it killed with everything else (the
runner starts a new one). Protocol (``messages``): on its request socket (fd ``ctl_fd``) the
runner sends ``JudgeJob`` per job, then ``JudgeTest`` per ``assert`` test with the test's call
and reply pipe ends as SCM_RIGHTS, and ``JudgeCheck`` per ``stdio`` test of a task with a
checker. For each it writes a ``verdict`` record on its result channel (and closes a test's pipes:
the program's test process then exits). At end of file it exits.

A checker (``check(input, output, expected)``, the task's code) runs here too: True or 1 passes,
False or 0 fails, a number in between is partial credit. A checker that raises, or answers
anything else, on a program's output fails the test and flags it (``checker_fault``): ``tasks
validate`` has run it on malformed outputs, so what breaks it now is the program's doing. One that
does not load is the task's fault (``checker_error``).

Modules, from the ground up:
    ``taskcode``: a task's code in the judge: the builtins put back after it, what it raised in
        one line, ``ProgramError``;
    ``remote``: the program's objects as a test holds them (``Remote``) and the channel their
        operations go through (``Channel``);
    ``checker``: the task's checker, loaded and run on a program's output;
    ``asserts``: a job's ``assert`` tests (``JobTests``: their setup, their namespace) and running
        one (``run_test``), with the rule of what the program may call back (``may_call_back``);
    ``main``: the judge's process (``judge_main``).
"""
