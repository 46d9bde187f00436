"""What the fork server forks each child for: the one builder of every child request
(``messages.ChildRequest``), and the rlimits a child gets from a job's limits.

Stdlib only; runs in the runner. A request is a plain dict, built here as a literal of its type
(mypy checks it against ``messages``) and sent to the fork server as ``marshal``
(``forkclient.fork_child``); the child reads it (``program.child.child_main``,
``judge.main.judge_main``). Two kinds of limits, two names: a job's ``limits`` (``LimitsWire``:
CPU seconds and MiB per test, as the host states them) and a child's ``rlimits``
(``ChildLimits``: what ``procs.setup_child`` sets, in bytes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from types import CodeType

    from .languages import Language
    from .messages import CallVisible, ChildLimits, ExecRequest, JudgeJob, JudgeRequest, LimitsWire, PythonRequest

COMPILE_FILE_BYTES = 512 * 1024 * 1024  # the largest file a compiler may write
IPCRM_CPU_S = 5
JUDGE_FILE_BYTES = 1 << 20  # the largest file the judge may write (in its own tmpfs)


def language_limits(limits: LimitsWire, language: Language) -> LimitsWire:
    """The job's limits with the runtime's start-up time added: CPU, and three times it to the
    wall clock (``Language.startup_s``; the JVM's start-up is not the program's time)."""
    if not language.startup_s:
        return limits
    return {**limits, "time_limit_s": limits["time_limit_s"] + language.startup_s,
            "wall_time_limit_s": limits["wall_time_limit_s"] + 3 * language.startup_s}


def child_rlimits(limits: LimitsWire, python: bool, language: Language) -> ChildLimits:
    """The rlimits of a test process. A Python child is forked and keeps the fork server's mappings,
    so the fork server adds its own size to ``memory_bytes``; an exec'd program starts empty, and
    gets no address-space limit where its runtime reserves more than it uses (``cgroup``)."""
    memory = 0 if language.memory == "cgroup" else limits["memory_limit_mb"] * 1024 * 1024
    fsize = limits["file_size_limit_mb"] * 1024 * 1024
    if python:
        return {"cpu_s": limits["time_limit_s"], "memory_bytes": memory, "fsize_bytes": fsize}
    return {"cpu_s": limits["time_limit_s"], "as_bytes": memory, "fsize_bytes": fsize}


def fill(items: tuple[str, ...], names: dict[str, str]) -> list[str]:
    """Each string of ``items`` with its ``{placeholders}`` filled from ``names``; one that fills to
    nothing is left out (``{node_snapshot}`` where there is no snapshot)."""
    return [filled for filled in (item.format(**names) for item in items) if filled]


def _env(language: Language, names: dict[str, str]) -> dict[str, str]:
    return {name: value.format(**names) for name, value in language.env}


def program_request(mode: Literal["python", "zygote"], kind: Literal["stdio", "call", "serve", "zygote"],
                    nonce: str, code: CodeType, test: CallVisible | None, workdir: str,
                    rlimits: ChildLimits) -> PythonRequest:
    """A Python child: the program's ``code``, then one test of ``kind`` (mode ``python``), or a
    zygote (mode and kind ``zygote``); ``test`` is what it may see of a ``call`` test."""
    return {"mode": mode, "kind": kind, "test": test, "nonce": nonce, "code": code, "workdir": workdir,
            "rlimits": rlimits}


def run_request(language: Language, kind: Literal["stdio", "call"], workdir: str, names: dict[str, str],
                rlimits: ChildLimits) -> ExecRequest:
    """One test of an exec'd language: a ``stdio`` test runs the program; a ``call`` test runs the
    language's driver, which reads the call and the nonce on its stdin before it loads the program
    and reports on the result channel that ``GRPO_CODE_RESULT_FD`` names."""
    if kind == "call":
        return {"mode": "exec", "argv": fill(language.call_command or (), names), "env": _env(language, names),
                "workdir": workdir, "rlimits": rlimits, "result_fd_env": "GRPO_CODE_RESULT_FD"}
    return {"mode": "exec", "argv": fill(language.run_command or (), names), "env": _env(language, names),
            "workdir": workdir, "rlimits": rlimits}


def compile_request(language: Language, workdir: str, names: dict[str, str], limits: LimitsWire) -> ExecRequest:
    """The job's compile: the compiler's processes together get ``compile_time_limit_s`` CPU seconds."""
    return {"mode": "exec", "argv": fill(language.compile_command or (), names), "env": _env(language, names),
            "workdir": workdir, "rlimits": {"cpu_s": limits["compile_time_limit_s"], "as_bytes": 0,
                                            "fsize_bytes": COMPILE_FILE_BYTES}}


def ipcrm_request() -> ExecRequest:
    """``ipcrm --all`` as the program's user: every System V IPC object its processes made goes."""
    return {"mode": "exec", "argv": ["ipcrm", "--all"], "env": {}, "workdir": "/tmp",
            "rlimits": {"cpu_s": IPCRM_CPU_S, "as_bytes": 0, "fsize_bytes": 0}}


def judge_request(workdir: str, job: JudgeJob) -> JudgeRequest:
    """A job's judge, in its own folder ``workdir``, with the job's tests ``job``: no CPU limit of
    its own (each test's is the runner's to enforce), its memory the job's (``judge.main.judge_main``)."""
    return {"mode": "judge", "workdir": workdir, "rlimits": {"fsize_bytes": JUDGE_FILE_BYTES}, "job": job}
