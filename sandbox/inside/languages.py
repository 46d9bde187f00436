"""Per-language compile and run commands, and the limits that fit each runtime.

Stdlib only: this module is baked into the sandbox image with the rest of ``sandbox/inside`` (the image
tag hashes it), and the host reads the same table to validate jobs.

Python programs are not exec'ed: the container's fork server forks itself and runs the program
in-process with the test harness (a fork costs about a millisecond, a fresh interpreter 15 ms).
Every other language is compiled once per job (JavaScript: a syntax check), then each test case
execs the program in a fresh process.

Memory. C, C++ and Rust programs get an address-space limit (RLIMIT_AS) of the task's memory
limit. The JVM, Go and V8 reserve far more address space than they use (the JVM 2.6 GB, V8 650 MB,
Go's page summary over 512 MB, measured on the image), so an address-space limit kills correct
programs; for them (``memory == "cgroup"``) the runner polls the container's resident memory
(``cgroup.container_memory_bytes``) while a test runs and stops the test once it holds more than
the task's limit plus the runtime's own footprint (``memory_overhead_mb``), and the runtime's heap
is capped at the task's limit with its own flag (``-Xmx``, ``--max-old-space-size``,
``GOMEMLIMIT``) so that it collects garbage before it grows past it.

Start-up. The image build (``runtimes/build.sh``) makes each runtime's start-up state once, in
``RUNTIMES``: the JVMs map class-data sharing archives (``java.jsa``, ``javac.jsa``) at the address
they were laid out for (``ArchiveRelocationMode=0``: no relocation at each start), and a program's
JIT compiles a method after four times the default count of calls and loop iterations
(``CompileThresholdScaling=4``): the JIT's threads share the container's one CPU with the
program, and at the default counts they compile dozens of the JVM's own start-up methods in every
test (a fifth of a short test's CPU), while a program that runs for seconds gains nothing from the
earlier compiles (measured: 0.7 to 2.5 s programs within the noise, ±5%; 0.3 s ones 10 to 20%
faster). Node.js starts from a V8 start-up snapshot (``node-<MiB>.blob``, one per heap size, as
V8 refuses a snapshot built with other flags; a heap size without one starts cold); and
TypeScript compiles with a snapshot of tsc whose declaration files are already parsed and bound
(``tsc.blob``). Every test is still a fresh process, with the same limits.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple


class Language(NamedTuple):
    """How the sandbox builds and runs programs of one language.

    Attributes:
        name: the language id used in tasks and jobs (``python``, ``c``, ``java``, ...).
        source_file: file name the program is written to inside the job folder (``{main}``: the
            program's main class, ``program_names``).
        compile_command: argv run once per job in the job folder, or None.
        run_command: argv that runs the program for a ``stdio`` test, or None (in-process Python
            harness).
        test_kinds: the test case kinds this language supports.
        call_command: argv that runs a ``call`` test (a driver that calls the program's function
            and reports the value), or None.
        memory: ``as`` (an address-space limit of the task's memory limit) or ``cgroup`` (the
            container's resident memory, polled, for runtimes that reserve large address spaces).
        memory_overhead_mb: MiB the runtime itself holds on top of the program's data (``cgroup``
            only), allowed beyond the task's memory limit.
        startup_s: CPU seconds the runtime needs to start, added to each test's CPU limit (and
            three times that to its wall-clock limit).
        env: ``(name, value)`` pairs added to the environment of compiler and program.
        memory_markers: texts in the program's stderr that mean its runtime ran out of memory
            (the run is ``memory_limit``, not ``runtime_error``).
        error_line: a regular expression for the line of a runtime's error report that says what
            went wrong (the first one that matches is the message), or None for the last line.

    Commands, ``env`` values and ``source_file`` may hold ``{memory_mb}`` (the task's memory
    limit), ``{main}``, ``{inside}`` (the folder of this module) and ``{node_snapshot}``
    (``runtime_names``), filled in by the runner; an argument that fills to nothing is left out.

    A named tuple (no dataclasses: the runner forks a process per test, and every module it
    imports makes each fork dearer; ``typing`` is loaded already).
    """

    name: str
    source_file: str
    compile_command: tuple[str, ...] | None
    run_command: tuple[str, ...] | None
    test_kinds: tuple[str, ...]
    call_command: tuple[str, ...] | None = None
    memory: str = "as"
    memory_overhead_mb: int = 0
    startup_s: float = 0.0
    env: tuple[tuple[str, str], ...] = ()
    memory_markers: tuple[str, ...] = ()
    error_line: str | None = None


RUNTIMES = "/opt/sandbox/runtimes"  # the runtimes' start-up state, made by the image build (runtimes/build.sh)

# {node_snapshot}: the snapshot for the heap size, or nothing (``runtime_names``); the flags must be
# the ones the snapshot was built with.
_NODE_FLAGS = ("{node_snapshot}", "--max-old-space-size={memory_mb}")
_NODE_ERROR = r"^(\w*Error|[A-Z]\w*Exception)\b"
_TSC = ("node", "--snapshot-blob", f"{RUNTIMES}/tsc.blob", "/usr/share/nodejs/typescript/lib/tsc.js",
        "--target", "es2022", "--lib", "es2022", "--module", "commonjs", "--typeRoots",
        "/usr/share/nodejs/@types", "--types", "node", "--skipLibCheck", "--noEmitOnError", "--pretty", "false",
        "--newLine", "lf", "main.ts")
_CDS = ("-XX:+UnlockDiagnosticVMOptions", "-XX:ArchiveRelocationMode=0", "-Xshare:auto")

_JAVASCRIPT = Language(
    "javascript",
    "main.js",
    ("node", "--check", "main.js"),
    ("node", *_NODE_FLAGS, "main.js"),
    ("stdio", "call"),
    call_command=("node", *_NODE_FLAGS, "{inside}/program/driver.js"),
    memory="cgroup", memory_overhead_mb=64, startup_s=0.1,
    memory_markers=("JavaScript heap out of memory",), error_line=_NODE_ERROR,
)

LANGUAGES: dict[str, Language] = {
    "python": Language("python", "main.py", None, None, ("assert", "stdio", "call", "pytest", "unittest"),
                       memory_markers=("\nMemoryError",)),  # the last line of the traceback the harness prints
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
    "javascript": _JAVASCRIPT,
    "typescript": _JAVASCRIPT._replace(name="typescript", source_file="main.ts", compile_command=_TSC),
    "java": Language(
        "java",
        "{main}.java",
        ("javac", "-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1", *(f"-J{flag}" for flag in _CDS),
         f"-J-XX:SharedArchiveFile={RUNTIMES}/javac.jsa", "-encoding", "UTF-8", "-d", ".", "{main}.java"),
        ("java", "-XX:+UseSerialGC", "-XX:NewRatio=5", "-Xmx{memory_mb}m", "-Xss64m", "-XX:-UsePerfData", *_CDS,
         f"-XX:SharedArchiveFile={RUNTIMES}/java.jsa", "-XX:CompileThresholdScaling=4",
         "-XX:+DisplayVMOutputToStderr", "-Dfile.encoding=UTF-8", "-cp", ".", "{main}"),
        ("stdio",),
        memory="cgroup", memory_overhead_mb=96, startup_s=0.5,
        memory_markers=("java.lang.OutOfMemoryError",), error_line=r"^(Exception in thread|Caused by:)",
    ),
    "rust": Language(
        "rust",
        "main.rs",
        ("rustc", "--edition", "2021", "-O", "--crate-name", "main", "-o", "main", "main.rs"),
        ("./main",),
        ("stdio",),
        memory_markers=("memory allocation of",), error_line=r"panicked at",
    ),
    "go": Language(
        "go",
        "main.go",
        ("go", "build", "-o", "main", "main.go"),
        ("./main",),
        ("stdio",),
        memory="cgroup", memory_overhead_mb=16,
        env=(("GOMEMLIMIT", "{memory_mb}MiB"), ("GOFLAGS", "-buildvcs=false")),
        memory_markers=("runtime: out of memory",), error_line=r"^(panic:|fatal error:)",
    ),
}

_JAVA_PUBLIC_CLASS = re.compile(
    r"^[ \t]*public\s+(?:(?:final|abstract|strictfp)\s+)*class\s+([A-Za-z_$][\w$]{0,100})\b", re.M)


def program_names(language: Language, program: str) -> dict[str, str]:
    """The ``{main}`` placeholder of ``language``'s commands for ``program``: a Java program's
    public top-level class (the file must be named after it, as javac requires), else ``Main``."""
    if language.name == "java":
        match = _JAVA_PUBLIC_CLASS.search(program)
        return {"main": match.group(1) if match else "Main"}
    return {"main": "main"}


_SNAPSHOTS: dict[int, str] = {}  # memory_mb -> its ``{node_snapshot}`` (the image's files never change)


def runtime_names(memory_mb: int) -> dict[str, str]:
    """The ``{node_snapshot}`` placeholder for a heap of ``memory_mb`` MiB: the flag that starts Node.js
    from the image's snapshot for that heap size, or ``""`` (left out of the command: a cold start)
    where the image has none."""
    if memory_mb not in _SNAPSHOTS:
        blob = f"{RUNTIMES}/node-{memory_mb}.blob"
        _SNAPSHOTS[memory_mb] = f"--snapshot-blob={blob}" if os.path.isfile(blob) else ""
    return {"node_snapshot": _SNAPSHOTS[memory_mb]}
