"""Generation throughput through an inference server against in-process ``generate``, same run.

Draws the same samples (the first TASKS tasks of a suite, N samples each, the same
max_new_tokens and temperature) from the same model twice, taking turns for ``--rounds`` rounds:
in this process with transformers ``generate`` in batches of BATCH (what ``grpo-code eval`` does
without ``--endpoint``), and through ``transformers serve`` on 127.0.0.1 with BATCH requests in
flight (``grpo-code eval --endpoint``; ``--continuous-batching`` turns on the server's continuous
batching). Prints completion tokens per second of each and the median ratio server / in-process.
On a GPU node the server would be vLLM (docs/evaluation.md); here both run on the same CPU cores.

    python benchmarks/endpoint_generation.py [--model smollm2-135m-instruct] [--tasks 8] [-n 2]
        [--max-new-tokens 64] [--batch 8] [--rounds 3] [--continuous-batching]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from grpo_code.generate.endpoint import EndpointConfig, generate_from_endpoint
from grpo_code.generate.evaluate import generate_samples, missing_samples
from grpo_code.generate.models import load_policy, resolve_model
from grpo_code.generate.sampling import SamplingConfig
from grpo_code.suites.registry import load_suite


def start_server(model: str, continuous_batching: bool) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [str(Path(sys.executable).with_name("transformers")), "serve", model, "--host", "127.0.0.1",
               "--port", str(port), "--device", "cpu", "--dtype", "float32"]
    if continuous_batching:
        command.append("--continuous-batching")
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "HF_HUB_OFFLINE": "1"})
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 300
    while True:
        try:
            urllib.request.urlopen(f"{url}/models", timeout=5).read()
            return proc, url
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                sys.exit("transformers serve did not start")
            time.sleep(0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="smollm2-135m-instruct")
    parser.add_argument("--suite", default="humaneval")
    parser.add_argument("--tasks", type=int, default=8)
    parser.add_argument("-n", type=int, default=2)
    parser.add_argument("--max-new-tokens", type=int, default=64)
    parser.add_argument("--batch", type=int, default=8, help="in-process batch size = requests in flight")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--continuous-batching", action="store_true")
    args = parser.parse_args()
    path = resolve_model(args.model)
    suite = load_suite(args.suite)
    tasks = list(suite)[: args.tasks]
    config = SamplingConfig(n=args.n, temperature=0.8, max_new_tokens=args.max_new_tokens, batch_size=args.batch)
    todo = missing_samples(tasks, args.n, [])
    model, tokenizer = load_policy(path)
    server, url = start_server(path, args.continuous_batching)
    endpoint = EndpointConfig(url, path, max_concurrency=args.batch)
    print(f"{args.model}: {len(todo)} samples per round ({args.tasks} tasks x {args.n}), {args.max_new_tokens} new "
          f"tokens at most, batch / requests in flight {args.batch}, {args.rounds} rounds; server: transformers serve"
          f"{' --continuous-batching' if args.continuous_batching else ''}")
    ratios = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for r in range(1, args.rounds + 1):
                local = generate_samples(model, tokenizer, suite, todo, config, Path(tmp) / f"local{r}.jsonl", "m")
                remote = generate_from_endpoint(suite, todo, config, endpoint, Path(tmp) / f"remote{r}.jsonl")
                local_rate, remote_rate = local.tokens / local.seconds, remote.tokens / remote.seconds
                ratios.append(remote_rate / local_rate)
                print(f"round {r}: in-process {local_rate:7.1f} tokens/s ({local.tokens} tokens) | server "
                      f"{remote_rate:7.1f} tokens/s ({remote.tokens} tokens) | ratio {ratios[-1]:.2f}")
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"ratio server / in-process generation tokens/s (median of {args.rounds} rounds): "
          f"{statistics.median(ratios):.2f} (rounds: {', '.join(f'{x:.2f}' for x in ratios)})")


if __name__ == "__main__":
    main()
