"""The mapping of SandboxFusion's ``/run_code`` onto a sandbox job and back (no Docker: verdicts
built as the runner's replies would be, read by ``Verdict.from_wire``), and the job's wire form."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import pytest
from pydantic import ValidationError

from grpo_code.service.bounds import RequestBounds
from grpo_code.service.sandbox_fusion import RunCodeRequest, to_job, to_response
from sandbox import Job, TestCase, Verdict

if TYPE_CHECKING:
    from sandbox.inside.messages import CapturedWire, RunReply


def _verdict(status: str, output: dict | None = None, compile_output: str = "", test_status: str | None = None,
             message: str = "") -> Verdict:
    reply: RunReply = {"id": "id", "ok": True, "status": status, "compile_output": compile_output,
                       "compile_time_s": 0.5, "run_time_s": 0.6, "flags": [], "tests": []}
    if test_status is not None:
        reply["tests"] = [{"status": test_status, "time_s": 0.01, "cpu_time_s": 0.0, "message": message}]
        if output:
            reply["tests"][0]["output"] = cast("CapturedWire", output)  # malformed ones too: read strictly
    return Verdict.from_wire(reply, n_tests=1)


def _output(stdout="", stderr="", exit_code=0, signal=None, cut=False) -> dict:
    return {"stdout": stdout, "stderr": stderr, "stdout_truncated": cut, "stderr_truncated": False,
            "exit_code": exit_code, "signal": signal}


def test_a_request_becomes_one_captured_stdio_job():
    job = to_job(RunCodeRequest(code="print(1)", language="nodejs", stdin="x", run_timeout=3, compile_timeout=4,
                                memory_limit_MB=512), RequestBounds())
    assert job.language == "javascript" and job.capture_output and job.compare == "exact"
    assert job.tests == (TestCase(kind="stdio", stdin="x", expected_stdout=""),)
    assert (job.limits.time_limit_s, job.limits.compile_time_limit_s, job.limits.memory_limit_mb) == (3, 4, 512)
    wire = job.to_wire("id")
    assert wire["tests"][0] == {"kind": "stdio", "stdin": "x", "expected_stdout": "", "capture": True}
    assert "capture" not in Job(program="x", tests=job.tests).to_wire("id")["tests"][0]
    unlimited = to_job(RunCodeRequest(code="x", language="python"), RequestBounds(max_memory_mb=700))
    assert unlimited.limits.memory_limit_mb == 700 and unlimited.tests[0].stdin == ""
    with pytest.raises(ValueError, match=r"^memory_limit_MB: "):
        to_job(RunCodeRequest(code="x", language="python", memory_limit_MB=701), RequestBounds(max_memory_mb=700))
    with pytest.raises(ValidationError, match="not run here"):
        RunCodeRequest(code="x", language="go_test")


@pytest.mark.parametrize(("verdict", "language", "status", "run"), [
    (_verdict("passed", _output("42\n"), test_status="passed"), "python", "Success",
     {"status": "Finished", "return_code": 0, "stdout": "42\n", "grpo_code_status": "finished"}),
    (_verdict("failed", _output("41\n"), test_status="failed"), "python", "Success",
     {"status": "Finished", "return_code": 0, "stdout": "41\n"}),
    (_verdict("runtime_error", _output("", "boom", 3), test_status="runtime_error"), "python", "Failed",
     {"return_code": 3, "stderr": "boom", "grpo_code_status": "runtime_error"}),
    (_verdict("runtime_error", _output(exit_code=None, signal=11), test_status="runtime_error"), "cpp", "Failed",
     {"return_code": -11}),
    (_verdict("timeout", _output(exit_code=None), test_status="timeout"), "python", "Failed",
     {"status": "TimeLimitExceeded", "return_code": None}),
    (_verdict("output_limit", _output("x" * 10, exit_code=None, cut=True), test_status="output_limit"), "python",
     "Failed", {"return_code": -9, "stdout_truncated": True, "grpo_code_status": "output_limit"}),
    (_verdict("memory_limit", _output(exit_code=0), test_status="memory_limit"), "python", "Failed",
     {"return_code": 1, "grpo_code_status": "memory_limit"}),  # a MemoryError caught in-process exits 0
    (_verdict("compile_error", compile_output="SyntaxError: bad"), "python", "Failed",
     {"return_code": 1, "stderr": "SyntaxError: bad"}),
])
def test_verdicts_become_sandbox_fusion_responses(verdict, language, status, run):
    response = to_response(verdict, language)
    assert response["status"] == status
    assert {k: response["run_result"][k] for k in run} == run
    assert (response["compile_result"] is None) == (language == "python")


def test_compile_failures_and_sandbox_errors():
    broken = to_response(_verdict("compile_error", compile_output="main.cpp:1: error"), "cpp")
    assert broken["status"] == "Failed" and broken["run_result"] is None
    assert broken["compile_result"] == {"status": "Finished", "execution_time": 0.5, "return_code": 1, "stdout": "",
                                        "stderr": "main.cpp:1: error"}
    slow = to_response(_verdict("compile_error", compile_output="compilation timed out\n..."), "rust")
    assert slow["compile_result"]["status"] == "TimeLimitExceeded" and slow["compile_result"]["return_code"] is None
    down = to_response(Verdict.program_level("sandbox_error", 1, "container died"), "python")
    assert down["status"] == "SandboxError" and down["message"] == "container died"


def test_captured_output_is_read_strictly():
    good = _verdict("passed", _output("a"), test_status="passed").test_results[0].output
    assert good is not None and good.stdout == "a" and good.exit_code == 0
    for bad in ({**_output(), "stdout": 5}, {**_output(), "stdout_truncated": "no"}, {**_output(), "exit_code": "0"},
                {"stdout": "a"}):
        assert _verdict("passed", bad, test_status="passed").test_results[0].output is None


@pytest.mark.parametrize(("data", "message"), [
    ({"program": "x", "tests": [{"kind": "assert", "code": "1"}], "limit": {}}, "did you mean 'limits'"),
    ({"program": 1, "tests": []}, "'program' must be a string"),
    ({"program": "x", "tests": {}}, "'tests' must be a JSON list"),
    ({"program": "x", "tests": [{"kind": "stdio"}]}, r"tests\[0\]: a stdio test needs 'expected_stdout'"),
    ({"program": "x", "tests": [{"kind": "assert", "code": "1"}], "limits": {"time_limit_s": 0}}, "limits: time"),
    ({"program": "x", "tests": [{"kind": "assert", "code": "1"}], "limits": {"cpu": 1}}, "limits: unknown field"),
    ({"program": "x", "tests": [{"kind": "assert", "code": "1"}], "capture_output": 1}, "'capture_output' must be"),
    ({"program": "x", "tests": []}, "at least one test"),
])
def test_job_from_dict_names_the_bad_field(data, message):
    with pytest.raises(ValueError, match=message):
        Job.from_dict(data)


def test_job_from_dict_round_trips_the_wire_form():
    job = Job(program="print(1)", tests=(TestCase(kind="stdio", stdin="1", expected_stdout="1"),), language="c",
              compare="lines", float_tolerance=0.5, capture_output=True, job_id="j")
    wire = job.to_wire("id")
    data: dict[str, Any] = {k: v for k, v in wire.items() if k not in ("op", "id", "budget_s")}  # the runner's
    data["tests"] = [{k: v for k, v in t.items() if k != "capture"} for t in data["tests"]]
    assert Job.from_dict({**data, "capture_output": True, "job_id": "j"}) == job
