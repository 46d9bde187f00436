"""SandboxFusion's ``/run_code``, on grpo-code's sandbox: its request in, its response out.

SandboxFusion (bytedance/SandboxFusion, ``sandbox/server/sandbox_api.py``) runs one program with
one stdin and returns its raw output; callers judge the output themselves: verl's
``sandbox_fusion`` reward (``verl/utils/reward_score/sandbox_fusion/utils.py``: ``POST`` the
request below, then ``status``, ``compile_result`` and ``run_result``'s ``status``,
``return_code`` and ``stdout``) and SandboxFusion's own client package (PyPI ``sandbox-fusion``:
``run_code``, which raises on ``SandboxError``). Here the request becomes a sandbox ``Job`` with
one ``stdio`` test and ``capture_output`` (the program runs in the locked-down container like any
other), and the verdict becomes SandboxFusion's response.

The rules:

- Languages: SandboxFusion's ``python``, ``cpp``, ``nodejs``, ``typescript``, ``java``, ``go``,
  ``rust`` run as grpo-code's ``python``, ``cpp``, ``javascript``, ``typescript``, ``java``,
  ``go``, ``rust``; its other modes (``pytest``, ``go_test``, ``junit``, ``jest``, ``php``,
  ``bash``, ...) are refused with a 4xx naming them.
- ``run_timeout`` is the CPU-time limit of the run (``Limits.time_limit_s``; its wall clock is
  ``3 x run_timeout + 1`` s, so a busy host never turns a correct program into a timeout: a
  program that sleeps is not stopped at ``run_timeout`` as SandboxFusion's wall clock would);
  ``compile_timeout`` the compiler's CPU time; ``memory_limit_MB`` the memory limit (``-1``,
  SandboxFusion's "none", is the server's largest). Values above the server's bounds are refused.
- ``files`` and ``fetch_files`` must be empty (verl sends them empty): programs get no files of
  the caller and return none.
- The response: ``status`` ``Success`` (the run exited 0), ``Failed`` (a compile error, a
  non-zero exit, a signal, a limit) or ``SandboxError`` (the sandbox failed after its retries,
  never the program's doing: SandboxFusion's client raises on it and verl scores it -1, not 0).
  ``run_result``: ``status`` ``Finished`` or ``TimeLimitExceeded``, ``return_code`` (the exit
  status, ``-N`` for signal N, ``-9`` when the sandbox stopped the run at a memory or output
  limit, 1 for a Python program that does not compile or ran out of memory in-process),
  ``stdout`` (whole up to the output limit), ``stderr`` (its last 2 KiB), ``execution_time``
  (wall seconds), and fields of ours the two clients ignore: ``stdout_truncated`` and
  ``stderr_truncated`` (nothing is cut silently), ``grpo_code_status`` and ``grpo_code_message``
  (``finished``, or the status of a run that did not finish, in grpo-code's terms). A Python
  program that does not compile has a ``run_result`` (exit 1, the ``SyntaxError`` on stderr), as
  SandboxFusion's would; a compiled
  language's compiler gets a ``compile_result`` (``TimeLimitExceeded`` when it ran out of time).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, field_validator

from grpo_code.service.bounds import RequestBounds
from sandbox import Job, Limits, TestCase, Verdict

LANGUAGES = {"python": "python", "cpp": "cpp", "nodejs": "javascript", "typescript": "typescript",
             "java": "java", "go": "go", "rust": "rust"}
COMPILE_TIMED_OUT = "compilation timed out"  # the runner's first line of a compiler stopped at its CPU limit


class RunCodeRequest(BaseModel):
    """SandboxFusion's ``RunCodeRequest`` (its field names and defaults)."""

    compile_timeout: float = Field(10, gt=0, description="CPU seconds for compiling (compiled languages)")
    run_timeout: float = Field(10, gt=0, description="CPU seconds of the run")
    memory_limit_MB: int = Field(-1, description="memory limit, MiB; -1: the server's largest")
    code: str = Field(..., description="the program")
    stdin: str | None = Field(None, description="the program's stdin")
    language: str = Field(..., description="one of " + ", ".join(LANGUAGES))
    files: dict[str, str | None] = Field(default_factory=dict, description="must be empty")
    fetch_files: list[str] = Field(default_factory=list, description="must be empty")

    @field_validator("language")
    @classmethod
    def _known_language(cls, value: str) -> str:
        if value not in LANGUAGES:
            raise ValueError(f"{value!r} is not run here; this server runs {', '.join(LANGUAGES)} "
                             "(SandboxFusion's other modes are not supported)")
        return value

    @field_validator("files", "fetch_files")
    @classmethod
    def _empty(cls, value):
        if value:
            raise ValueError("must be empty: programs get no files of the caller and return none here")
        return value

    @field_validator("code")
    @classmethod
    def _some_code(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("is empty: send the program to run")
        return value


def to_job(request: RunCodeRequest, bounds: RequestBounds) -> Job:
    """The sandbox job of a ``/run_code`` request.

    Raises:
        ValueError: a limit outside the server's bounds, naming the field.
    """
    if request.run_timeout > bounds.max_run_timeout_s:
        raise ValueError(f"run_timeout: at most {bounds.max_run_timeout_s:g} s on this server")
    if request.compile_timeout > bounds.max_compile_timeout_s:
        raise ValueError(f"compile_timeout: at most {bounds.max_compile_timeout_s:g} s on this server")
    memory = bounds.max_memory_mb if request.memory_limit_MB == -1 else request.memory_limit_MB
    if not 16 <= memory <= bounds.max_memory_mb:
        raise ValueError(f"memory_limit_MB: from 16 to {bounds.max_memory_mb} (or -1) on this server, "
                         f"got {request.memory_limit_MB}")
    limits = Limits(time_limit_s=request.run_timeout, memory_limit_mb=memory,
                    output_limit_bytes=bounds.output_limit_bytes, compile_time_limit_s=request.compile_timeout)
    return Job(program=request.code, language=LANGUAGES[request.language], limits=limits, compare="exact",
               tests=(TestCase(kind="stdio", stdin=request.stdin or "", expected_stdout=""),),
               capture_output=True, job_id="run_code")


def _compile_result(verdict: Verdict, failed: bool) -> dict:
    timed_out = failed and verdict.compile_output.startswith(COMPILE_TIMED_OUT)
    return {"status": "TimeLimitExceeded" if timed_out else "Finished",
            "execution_time": verdict.compile_time_s, "return_code": None if timed_out else int(failed),
            "stdout": "", "stderr": verdict.compile_output}


def to_response(verdict: Verdict, language: str) -> dict[str, Any]:
    """SandboxFusion's ``RunCodeResponse`` of a ``/run_code`` job's verdict (``language``: the
    request's, SandboxFusion's name)."""
    compiled = LANGUAGES[language] != "python"
    response: dict[str, Any] = {"status": "Failed", "message": "", "compile_result": None, "run_result": None,
                                "executor_pod_name": None, "files": {}}
    if verdict.status == "sandbox_error":
        return {**response, "status": "SandboxError", "message": verdict.message}
    if verdict.status == "compile_error":
        if compiled:
            response["compile_result"] = _compile_result(verdict, failed=True)
        else:  # SandboxFusion runs Python as a script: a SyntaxError is the run's exit status 1
            response["run_result"] = {"status": "Finished", "execution_time": verdict.compile_time_s,
                                      "return_code": 1, "stdout": "", "stderr": verdict.compile_output,
                                      "stdout_truncated": False, "stderr_truncated": False,
                                      "grpo_code_status": "compile_error", "grpo_code_message": ""}
        return response
    if compiled:
        response["compile_result"] = _compile_result(verdict, failed=False)
    test = verdict.test_results[0]
    output = test.output
    timed_out = test.status == "timeout"
    if output is not None and output.exit_code is not None:
        code = output.exit_code
    elif output is not None and output.signal is not None:
        code = -output.signal
    else:
        code = -9  # the sandbox stopped the run (SIGKILL) at a limit; the status says which
    if code == 0 and test.status not in ("passed", "failed"):  # e.g. Python's MemoryError, caught in-process
        code = 1
    response["run_result"] = {
        "status": "TimeLimitExceeded" if timed_out else "Finished",
        "execution_time": test.time_s,
        "return_code": None if timed_out else code,
        "stdout": output.stdout if output is not None else "",
        "stderr": output.stderr if output is not None else "",
        "stdout_truncated": output.stdout_truncated if output is not None else False,
        "stderr_truncated": output.stderr_truncated if output is not None else False,
        "grpo_code_status": "finished" if test.status in ("passed", "failed") else test.status,
        "grpo_code_message": test.message if test.status not in ("passed", "failed") else "",
    }
    response["status"] = "Success" if not timed_out and code == 0 else "Failed"
    return response
