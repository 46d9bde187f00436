"""``grpo-code serve``: the sandbox as an HTTP service (FastAPI on uvicorn; ``pip install 'grpo-code[serve]'``).

One executor (a Docker pool on this machine, or Ray) behind two APIs:

- ``POST /v1/jobs``: ours. ``{"jobs": [JOB, ...]}`` (each ``sandbox.Job.from_dict``: a program,
  docs/task-format.md test cases, limits, ...) -> ``{"verdicts": [VERDICT, ...]}`` in order, each
  the verdict fields of a ``results.jsonl`` line (``Verdict.to_dict``). A trainer on another
  machine verifies through it without Ray.
- ``POST /run_code``: SandboxFusion's, for verl's ``sandbox_fusion`` reward and SandboxFusion's
  own client (``grpo_code.service.sandbox_fusion`` says how requests and responses map), answered
  in front of FastAPI (``_Front``: one request per completion, so its per-request cost counts);
  ``GET /v1/ping`` answers ``"pong"`` as SandboxFusion's does.
- ``GET /v1/info``: the languages, the bounds and the executor (its counters among them).

A request whose client hangs up is cancelled once it is seen (``_unless_hung_up``): its jobs that
no sandbox worker has taken are dropped.

Safe by default: it binds 127.0.0.1 unless told otherwise; with a token, every endpoint but
``/v1/ping`` needs ``Authorization: Bearer TOKEN`` (or ``?token=TOKEN``, for clients that cannot
send a header, such as verl: put it in the URL you give verl); request bodies are bounded
(``max_body_bytes``, 413 beyond) and so are the jobs of one request (``max_jobs``); at most
``max_in_flight`` requests are worked on at once and ``max_waiting`` more wait for their turn,
any further one gets 503 with ``Retry-After``. Bad input gets a 4xx whose ``detail`` names the
field and the reason (FastAPI's shape: ``[{"loc": [...], "msg": ...}]``), never a 500 (a request
still running when a shutdown's grace is over gets 503); programs
run only in the sandbox's containers, as for every other command. The access log is off (a
token in a URL stays out of logs).
"""

# No ``from __future__ import annotations``: FastAPI reads the endpoints' annotations at run time, and
# their types are imported inside ``create_app`` (the serve extra is imported only when serving).
import asyncio
import hmac
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grpo_code.errors import ConfigError
from grpo_code.options import Option
from grpo_code.service.bounds import RequestBounds
from sandbox import Executor

log = logging.getLogger(__name__)

TOKEN_VARIABLE = "GRPO_CODE_SERVE_TOKEN"  # the bearer token, when no --token-file is given
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
# ``grpo-code serve``'s options, each a parameter of ``ServeSettings.from_options`` (its default too)
OPTIONS = (
    Option("--host", "host", str, "address to bind (default %(default)s: this machine only)"),
    Option("--port", "port", int, "TCP port (default %(default)s, SandboxFusion's)"),
    Option("--token-file", "token_file", str,
           f"file holding the bearer token every request must carry (or {TOKEN_VARIABLE})", "FILE"),
    Option("--max-body-mb", "max_body_mb", float, "largest request body, MiB (default %(default)s)"),
    Option("--max-in-flight", "max_in_flight", int, "requests worked on at once (default: 4 per sandbox worker)"),
    Option("--max-waiting", "max_waiting", int, "requests that may wait for a turn; beyond, 503 (default %(default)s)"),
    Option("--max-memory-mb", "max_memory_mb", int,
           "the largest memory limit a request may ask for, MiB; /run_code's -1 (default %(default)s)"),
    Option("--max-run-timeout", "max_run_timeout", float,
           "the largest time limits a request may ask for (run and compile), CPU seconds (default %(default)s)"),
)


@dataclass(frozen=True)
class ServeSettings:
    """How ``grpo-code serve`` listens and what it accepts.

    Attributes:
        host: address to bind (127.0.0.1: this machine only).
        port: TCP port.
        token: when set, the bearer token every request but ``/v1/ping`` must carry.
        max_body_bytes: largest request body (413 beyond).
        max_jobs: most jobs in one ``/v1/jobs`` request.
        max_in_flight: requests worked on at once (default: 4 per sandbox worker).
        max_waiting: requests that may wait for a turn; beyond, 503.
        bounds: the largest limits a request may ask for (both APIs).
    """

    host: str = "127.0.0.1"
    port: int = 8080
    token: str | None = None
    max_body_bytes: int = 16 << 20
    max_jobs: int = 4096
    max_in_flight: int | None = None
    max_waiting: int = 1024
    bounds: RequestBounds = field(default_factory=RequestBounds)

    # each default is the field's (or RequestBounds') own, named, so that it has one owner
    @classmethod
    def from_options(cls, host: str = host, port: int = port, token_file: str | None = None,
                     max_body_mb: float = max_body_bytes / 2**20, max_in_flight: int | None = max_in_flight,
                     max_waiting: int = max_waiting, max_memory_mb: int = RequestBounds.max_memory_mb,
                     max_run_timeout: float = RequestBounds.max_run_timeout_s,
                     environ: Mapping[str, str] | None = None) -> "ServeSettings":
        """The settings of ``grpo-code serve``'s options, checked; the token is read from
        ``token_file``, else from ``GRPO_CODE_SERVE_TOKEN`` in ``environ`` (default: ``os.environ``).

        Args:
            host: the address to bind.
            port: the TCP port.
            token_file: a file holding the bearer token (stripped of surrounding white space).
            max_body_mb: largest request body, MiB.
            max_in_flight: requests worked on at once (None: 4 per sandbox worker).
            max_waiting: requests that may wait for a turn.
            max_memory_mb: the largest memory limit a request may ask for, MiB (at least 16).
            max_run_timeout: the largest time limits a request may ask for (run and compile), CPU seconds.
            environ: where ``GRPO_CODE_SERVE_TOKEN`` is looked up.

        Raises:
            ConfigError: a token file that cannot be read or is empty, or a value out of range
                (the message names the option: ``--port must be > 0, got 0``).
        """
        token = (os.environ if environ is None else environ).get(TOKEN_VARIABLE) or None
        if token_file:
            try:
                token = Path(token_file).read_text(encoding="utf-8").strip()
            except OSError as e:
                raise ConfigError(f"--token-file: cannot read {token_file}: {e.strerror}") from None
            if not token:
                raise ConfigError(f"--token-file: {token_file} is empty")
        for name, value in (("port", port), ("max-body-mb", max_body_mb), ("max-memory-mb", max_memory_mb),
                            ("max-run-timeout", max_run_timeout), ("max-waiting", max_waiting)):
            if value <= 0:
                raise ConfigError(f"--{name} must be > 0, got {value}")
        if max_in_flight is not None and max_in_flight < 1:
            raise ConfigError(f"--max-in-flight must be >= 1, got {max_in_flight}")
        if max_memory_mb < 16:
            raise ConfigError(f"--max-memory-mb must be at least 16, got {max_memory_mb}")
        return cls(host=host, port=port, token=token, max_body_bytes=int(max_body_mb * 2**20),
                   max_in_flight=max_in_flight, max_waiting=max_waiting,
                   bounds=RequestBounds(max_run_timeout_s=max_run_timeout, max_compile_timeout_s=max_run_timeout,
                                        max_memory_mb=max_memory_mb))

    @property
    def exposed(self) -> bool:
        """Whether anyone who reaches the port may run programs: no token, and an address
        beyond this machine."""
        return self.token is None and self.host not in LOOPBACK_HOSTS

    @property
    def url(self) -> str:
        """``http://HOST:PORT``."""
        return f"http://{self.host}:{self.port}"


def _problem(status: int, loc: list, msg: str, headers: dict | None = None):
    from fastapi import HTTPException

    return HTTPException(status_code=status, detail=[{"loc": loc, "msg": msg}], headers=headers)


def _validation_detail(errors, loc_prefix: tuple = ()) -> list[dict]:
    """A 422's ``detail`` in FastAPI's own shape, without the input it echoes (a NaN in it would not
    even encode as JSON): each error's place (after ``loc_prefix``) and message, pydantic's
    ``"Value error, "`` taken off."""
    return [{"loc": [*loc_prefix, *e.get("loc", ())], "msg": str(e.get("msg", "")).removeprefix("Value error, ")}
            for e in errors]


class _BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413 (by its Content-Length, or
    as it streams in when it has none)."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or ()).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            return await self._refuse(send)
        seen = 0

        async def limited():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:  # FastAPI answers its own HTTPException, even while it reads a body
                    raise _problem(413, ["body"], self.message)
            return message

        return await self.app(scope, limited, send)

    @property
    def message(self) -> str:
        return f"request body over {self.limit} bytes"

    async def _refuse(self, send):
        await _answer(send, 413, ["body"], self.message)


async def _answer(send, status: int, loc: list, msg: str, headers: dict | None = None) -> None:
    """Answer ``status`` with ``_problem``'s JSON shape straight to ``send``, from outside FastAPI's
    handlers (an ASGI layer in front of them)."""
    from fastapi.responses import JSONResponse

    response = JSONResponse({"detail": [{"loc": loc, "msg": msg}]}, status_code=status, headers=headers)
    await response({"type": "http"}, _no_body, send)


async def _no_body() -> dict:
    return {"type": "http.disconnect"}


class _Admission:
    """At most ``in_flight`` requests worked on at once and ``waiting`` more queued; beyond, 503."""

    def __init__(self, in_flight: int, waiting: int):
        self.slots = asyncio.Semaphore(in_flight)
        self.capacity = in_flight + waiting
        self.admitted = 0

    async def __aenter__(self):
        if self.admitted >= self.capacity:
            raise _problem(503, [], "the server is busy; retry shortly", headers={"Retry-After": "1"})
        self.admitted += 1
        try:
            await self.slots.acquire()
        except BaseException:
            self.admitted -= 1
            raise

    async def __aexit__(self, *exc):
        self.slots.release()
        self.admitted -= 1


HANG_UP_WATCH_AFTER_S = 0.5  # a request that has taken this long is watched for its client hanging up


class _HungUp(Exception):
    """The client of a request hung up before its verdicts were ready (its queued jobs dropped)."""


async def _until_hang_up(receive) -> None:
    while (await receive())["type"] != "http.disconnect":  # (the body is read: nothing else comes)
        pass


async def _unless_hung_up(work, receive):
    """``work``'s result, or ``_HungUp`` once the client has hung up (``work`` is cancelled: its jobs
    no worker has taken are dropped, ``DockerExecutor.arun``). A trainer that timed out retries,
    and its first request's jobs would otherwise still run ahead of everyone's. The hang-up is
    watched only once the request has taken ``HANG_UP_WATCH_AFTER_S``: most take milliseconds,
    and then cost one timer, not a task."""
    loop = asyncio.get_running_loop()
    request = asyncio.current_task()
    watcher: asyncio.Task | None = None
    waiting, hung_up = True, False

    def on_hang_up(task: asyncio.Task) -> None:
        nonlocal hung_up
        if waiting and not task.cancelled() and task.exception() is None and request is not None:
            hung_up = True
            request.cancel()

    def watch() -> None:
        nonlocal watcher
        watcher = loop.create_task(_until_hang_up(receive))
        watcher.add_done_callback(on_hang_up)

    timer = loop.call_later(HANG_UP_WATCH_AFTER_S, watch)
    try:
        return await work
    except asyncio.CancelledError:
        if hung_up:
            raise _HungUp from None
        raise
    finally:
        waiting = False
        timer.cancel()
        if watcher is not None:
            watcher.cancel()


class _Front:
    """ASGI: ``POST /run_code``, the request a trainer sends per completion, goes to ``run_code``
    directly; every other request (and the lifespan) to the FastAPI application. A request still
    running when a shutdown's grace is over (uvicorn cancels it) is answered 503, not uvicorn's
    plain-text 500."""

    def __init__(self, app, run_code):
        self.app, self.run_code = app, run_code

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def sending(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            if scope["method"] == "POST" and scope["path"] == "/run_code":
                await self.run_code(scope, receive, sending)
            else:
                await self.app(scope, receive, sending)
        except asyncio.CancelledError:  # uvicorn's shutdown (a hang-up is ``_HungUp`` by here)
            if started:
                raise
            await _answer(send, 503, [], "the server is shutting down; retry on another or once it is back",
                          {"Retry-After": "1"})


def create_app(executor: Executor, settings: ServeSettings | None = None):
    """The ASGI application serving ``executor`` (started and closed with the app's lifespan):
    FastAPI's, with ``POST /run_code`` answered in front of it (``_Front``).

    Args:
        executor: a sandbox executor, not started (``sandbox.make_executor``).
        settings: limits and the token (defaults: ``ServeSettings()``).
    """
    from contextlib import asynccontextmanager

    from fastapi import Depends, FastAPI, HTTPException, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse, Response
    from pydantic import ValidationError

    from grpo_code.service.sandbox_fusion import LANGUAGES, RunCodeRequest, to_job, to_response
    from sandbox import LANGUAGES as SANDBOX_LANGUAGES
    from sandbox import Job, SandboxError

    settings = settings or ServeSettings()
    in_flight = settings.max_in_flight or 4 * executor.concurrency
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app):
        async with executor:  # started in a thread; closed (its work on this loop stopped first)
            state["admission"] = _Admission(in_flight, settings.max_waiting)
            yield

    app = FastAPI(title="grpo-code sandbox", lifespan=lifespan,
                  description="grpo-code's sandbox over HTTP: jobs in, verdicts out; SandboxFusion's /run_code.")
    app.add_middleware(_BodyLimit, limit=settings.max_body_bytes)

    async def authorized(request: Request) -> None:
        # async: FastAPI would run a plain function in its thread pool, a thread hop per request
        check_token(request)

    def check_token(request: Request) -> None:
        if settings.token is None:
            return
        header = request.headers.get("authorization", "")
        given = header[7:] if header[:7].lower() == "bearer " else request.query_params.get("token", "")
        if not hmac.compare_digest(given.encode(), settings.token.encode()):
            raise _problem(401, ["header", "authorization"], "a valid bearer token is required "
                           "(Authorization: Bearer TOKEN, or ?token=TOKEN)", headers={"WWW-Authenticate": "Bearer"})

    async def run(jobs: list, receive) -> list:
        async with state["admission"]:
            try:
                return await _unless_hung_up(executor.arun(jobs), receive)
            except SandboxError as e:
                raise _problem(503, [], f"the sandbox cannot run jobs now: {e}") from None

    @app.exception_handler(_HungUp)
    async def hung_up(request: Request, exc: _HungUp):
        return Response(status_code=499)  # (no one reads it: uvicorn drops what is sent to a closed connection)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError):
        return JSONResponse({"detail": _validation_detail(exc.errors())}, status_code=422)

    @app.exception_handler(SandboxError)
    async def sandbox_down(request: Request, exc: SandboxError):
        return JSONResponse({"detail": [{"loc": [], "msg": f"the sandbox cannot run jobs now: {exc}"}]},
                            status_code=503)

    @app.get("/v1/ping")
    async def ping() -> str:
        return "pong"

    @app.get("/v1/info", dependencies=[Depends(authorized)])
    async def info() -> dict:
        return {"languages": list(SANDBOX_LANGUAGES), "run_code_languages": LANGUAGES,
                "concurrency": executor.concurrency, "max_jobs": settings.max_jobs,
                "max_body_bytes": settings.max_body_bytes, "bounds": vars(settings.bounds),
                "stats": vars(await asyncio.to_thread(executor.stats))}  # (Ray's asks its actors)

    @app.post("/v1/jobs", dependencies=[Depends(authorized)], response_class=JSONResponse)
    async def jobs(request: Request) -> JSONResponse:
        try:
            body = await request.json()
        except ValueError as e:
            raise _problem(422, ["body"], f"not JSON: {e}") from None
        if not isinstance(body, dict) or not isinstance(body.get("jobs"), list):
            raise _problem(422, ["body", "jobs"], 'send {"jobs": [JOB, ...]}')
        if not 1 <= len(body["jobs"]) <= settings.max_jobs:
            raise _problem(422, ["body", "jobs"], f"from 1 to {settings.max_jobs} jobs per request")
        parsed = []
        for i, data in enumerate(body["jobs"]):
            try:
                job = Job.from_dict(data)
                settings.bounds.check(job.limits)
                parsed.append(job)
            except (TypeError, ValueError) as e:
                raise _problem(422, ["body", "jobs", i], str(e)) from None
        verdicts = await run(parsed, request.receive)
        return JSONResponse({"verdicts": [v.to_dict() for v in verdicts]})

    async def run_code(scope, receive, send) -> None:
        """``POST /run_code`` on Starlette's request and response, outside FastAPI's layers: the
        same checks and answers (the token, the body's bound, each field named in a 422, 503 when
        busy or when the sandbox cannot run), a few hundred microseconds less server CPU each."""
        request = Request(scope, receive)
        try:
            check_token(request)
            try:
                parsed = RunCodeRequest.model_validate_json(await request.body())
            except ValidationError as e:  # as ``bad_request`` answers FastAPI's own
                raise HTTPException(422, _validation_detail(e.errors(include_url=False, include_input=False),
                                                            ("body",))) from None
            try:
                job = to_job(parsed, settings.bounds)
            except ValueError as e:
                field_name, _, reason = str(e).partition(": ")
                raise _problem(422, ["body", field_name], reason) from None
            verdict = (await run([job], receive))[0]
            response = JSONResponse(to_response(verdict, parsed.language))
        except HTTPException as e:
            response = JSONResponse({"detail": e.detail}, status_code=e.status_code, headers=e.headers)
        except _HungUp:
            return
        await response(scope, receive, send)

    return _Front(app, _BodyLimit(run_code, limit=settings.max_body_bytes))


def serve(executor: Executor, settings: ServeSettings, on_ready=None) -> None:
    """Serve ``executor`` over HTTP until interrupted (uvicorn; the access log off).

    Args:
        executor: not started; started before the first request, closed on shutdown.
        settings: where to listen, the token, the limits.
        on_ready: called once the server listens (the CLI prints its URL).
    """
    import uvicorn

    app = create_app(executor, settings)
    # no proxy headers: nothing here reads the client's address, so a layer per request for nothing
    config = uvicorn.Config(app, host=settings.host, port=settings.port, log_level="warning", access_log=False,
                            proxy_headers=False, timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    if on_ready is not None:
        original = server.startup

        async def startup(sockets=None):
            await original(sockets)
            if server.started:
                on_ready()

        server.startup = startup
    server.run()
