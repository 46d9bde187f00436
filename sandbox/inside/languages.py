"""Per-language compile and run commands.

Stdlib only: this module is baked into the sandbox image with the rest of ``sandbox/inside`` (the image
tag hashes it), and the host reads the same table to validate jobs.

Python programs are not exec'ed: the container's fork server forks itself and runs the program
in-process with the test harness (a fork costs about a millisecond, a fresh interpreter 15 ms).
Compiled languages are compiled once per job, then each test case execs the binary.
"""

from __future__ import annotations

from collections import namedtuple


class Language(namedtuple("Language", "name source_file compile_command run_command test_kinds")):
    """How the sandbox builds and runs programs of one language.

    Attributes:
        name: the language id used in tasks and jobs (``python``, ``c``, ``cpp``).
        source_file: file name the program is written to inside the job folder.
        compile_command: argv run once per job in the job folder, or None (interpreted).
        run_command: argv that runs the compiled program, or None (in-process Python harness).
        test_kinds: the test case kinds this language supports.

    A named tuple (no dataclasses: the runner forks a process per test, and every module it
    imports makes each fork dearer).
    """

    __slots__ = ()


LANGUAGES: dict[str, Language] = {
    "python": Language("python", "main.py", None, None, ("assert", "stdio", "call")),
    "c": Language(
        "c",
        "main.c",
        ("gcc", "-std=gnu17", "-O2", "-pipe", "-o", "main", "main.c", "-lm"),
        ("./main",),
        ("stdio",),
    ),
    "cpp": Language(
        "cpp",
        "main.cpp",
        ("g++", "-std=gnu++17", "-O2", "-pipe", "-o", "main", "main.cpp"),
        ("./main",),
        ("stdio",),
    ),
}
