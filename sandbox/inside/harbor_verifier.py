"""Harbor's verifier in the image: judge an agent's program with this image's own runner and
write the reward file, inside the verifier container of a task that ``grpo-code tasks export
--format harbor`` wrote.

Stdlib only. Harbor starts that container itself (from the task's ``tests/Dockerfile``, ``FROM``
the sandbox image, in ``environment_mode = "separate"``: the agent never touches it) and runs
``tests/test.sh`` in it as root. Two commands of the image serve it:

``harbor-init`` (``init_main``): the container's PID 1, its ``ENTRYPOINT`` (Harbor's own
    command, ``sh -c "sleep infinity"``, only keeps a container up, and is ignored). As root it
    sets ``no_new_privs``, binds a Unix socket in a folder only root can enter, and answers the
    runner's protocol (``runner.serve``) on each connection whose peer is root. So the runner is
    what it is in every sandbox container: PID 1 and root, every child of it a user of its own
    (the judge 10000, programs 10001, no capability), with the same verdict rules and limits;
    ``kill_all`` ends only the sandbox's own processes, never Harbor's; only root can hand it a
    job.
``harbor-verify JOB PROGRAM`` (``verify_main``, run by ``test.sh`` as root): first makes the
    verifier folder (``/logs/verifier``) writable by root only, so no process of the program's
    can write there; reads the job (``tests/job.json``: the sandbox job without its program,
    its reward mode and its worst-case seconds; mode 0600 in a folder only root can enter, so a
    program never reads the hidden tests) and the agent's program (``PROGRAM``, not followed if it
    is a link, at most ``PROGRAM_LIMIT`` bytes; missing or empty: ``no_code``, reward 0); sends
    the job to the runner, and writes ``verdict.json`` (status, pass rate, per-test statuses,
    flags) and ``reward.json`` (numbers only, as Harbor reads them: ``reward``, ``pass_rate``,
    ``passed``, ``n_tests``, ``n_flags``). Both files are written here, from the runner's reply,
    and replace whatever was at their path; a reward is written only when it is finite and in
    [0, 1]. A verdict with no pass rate (``sandbox_error`` after a retry, a task's
    ``checker_error``) writes no reward file: Harbor then records an error for the trial, never a
    0 (``verdict.json`` says why).
"""

from __future__ import annotations

import json
import math
import os
import select
import socket
import stat
import struct
import sys
import time

from .passrate import pass_rate
from .procs import PROGRAM_UID

SOCKET_DIR = "/run/grpo-code"
SOCKET_PATH = SOCKET_DIR + "/runner.sock"
VERIFIER_DIR = "/logs/verifier"
PROGRAM_LIMIT = 1 << 20  # bytes of an agent's program
REPLY_LIMIT = 64 << 20
ATTEMPTS = 2  # a runner that fails a job (never the program's doing) gets it once more
RUNNER_START_S = 30.0  # how long harbor-verify waits for PID 1 to open the runner's socket
PR_SET_NO_NEW_PRIVS = 38


def _no_new_privs() -> None:
    """``prctl(PR_SET_NO_NEW_PRIVS, 1)``: no process of the container gains privileges through a
    set-uid program from now on (what Docker's ``no-new-privileges`` gives a sandbox container)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")


def _peer_uid(conn: socket.socket) -> int:
    _, uid, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
    return uid


def init_main() -> None:
    """PID 1 of a verifier container: bind the runner's socket as root, set up the runner, then
    serve the runner's protocol to root's connections, one at a time, for ever."""
    if os.getpid() != 1 or os.getuid() != 0:
        sys.exit("harbor-init runs as root and PID 1 of a grpo-code verifier container (tests/Dockerfile's ENTRYPOINT)")
    _no_new_privs()
    os.makedirs(SOCKET_DIR, mode=0o700, exist_ok=True)
    os.chown(SOCKET_DIR, 0, 0)
    os.chmod(SOCKET_DIR, 0o700)
    try:
        os.unlink(SOCKET_PATH)
    except FileNotFoundError:
        pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # not inherited by any child (close-on-exec)
    listener.bind(SOCKET_PATH)
    listener.listen(8)
    os.environ.update(GRPO_CODE_SANDBOX="1")
    os.chdir("/tmp")
    from .runner import prepare, serve

    state = prepare()  # the runner as in every sandbox container: PID 1, root, every child a user of its own
    while True:
        conn, _ = listener.accept()
        if _peer_uid(conn) != 0:
            conn.close()
            continue
        fd = conn.detach()
        os.dup2(fd, 0)
        os.dup2(fd, 1)
        os.close(fd)
        try:
            serve(state, 0)
        except OSError:  # root's end went away before a reply: the next connection starts afresh
            pass
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.close(null)


# -- harbor-verify ------------------------------------------------------------------------------


def _lock_verifier_dir(path: str) -> None:
    """Make ``path`` a folder that only root can write (created if missing)."""
    os.makedirs(path, exist_ok=True)
    st = os.lstat(path)
    if st.st_uid == PROGRAM_UID or st.st_gid == PROGRAM_UID:
        os.chown(path, 0, 0)
    os.chmod(path, 0o755)


def _remove(path: str) -> None:
    """Remove whatever is at ``path`` (a file, a link, a folder and all it holds)."""
    try:
        os.unlink(path)
        return
    except FileNotFoundError:
        return
    except IsADirectoryError:
        pass
    for root, folders, files in os.walk(path, topdown=False):
        for name in files:
            os.unlink(os.path.join(root, name))
        for name in folders:
            full = os.path.join(root, name)
            os.unlink(full) if os.path.islink(full) else os.rmdir(full)
    os.rmdir(path)


def _write_file(folder: str, name: str, data: dict) -> None:
    """Write ``data`` as JSON to ``folder/name`` atomically, replacing whatever was there."""
    path = os.path.join(folder, name)
    _remove(path)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    _remove(tmp)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=1, allow_nan=False)
        f.write("\n")
    os.replace(tmp, path)


def read_program(path: str) -> str | None:
    """The agent's program at ``path``: None if it is missing, a link, not a file or empty.

    Raises:
        ValueError: it is larger than ``PROGRAM_LIMIT`` bytes.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # a FIFO or a device: never read
            return None
        data = f.read(PROGRAM_LIMIT + 1)
    if len(data) > PROGRAM_LIMIT:
        raise ValueError(f"{path} is larger than {PROGRAM_LIMIT} bytes")
    text = data.decode("utf-8", "replace")
    return text if text.strip() else None


def _ask_runner(request: dict, deadline_s: float) -> dict:
    """Send one request to the runner (PID 1) and return its reply.

    Raises:
        OSError: the runner cannot be reached, or closed the connection.
        TimeoutError: no reply within ``deadline_s``.
        ValueError: the reply is not one JSON object carrying the request's id.
    """
    deadline = time.monotonic() + deadline_s
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(SOCKET_PATH)
        conn.sendall((json.dumps(request) + "\n").encode())
        buf = bytearray()
        while not buf.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([conn], [], [], remaining)[0]:
                raise TimeoutError(f"the runner did not answer within {deadline_s:.0f} s")
            data = conn.recv(1 << 20)
            if not data:
                raise ConnectionError("the runner closed the connection without a reply")
            buf += data
            if len(buf) > REPLY_LIMIT:
                raise ValueError("the runner's reply is too long")
    reply = json.loads(buf)
    if not isinstance(reply, dict) or reply.get("id") != request["id"]:
        raise ValueError("the runner's reply does not answer this request")
    return reply


def verdict_of(reply: dict, n_tests: int) -> dict:
    """The verdict fields of a results line (docs/task-format.md) from the runner's reply."""
    tests = []
    for t in reply.get("tests", ()):
        test = {"status": t.get("status"), "time_s": t.get("time_s", 0.0)}
        for key in ("message", "score"):
            if t.get(key) not in (None, "", False):
                test[key] = t[key]
        tests.append(test)
    status = str(reply.get("status"))
    verdict = {"status": status, "pass_rate": pass_rate(status, ((t["status"], t.get("score")) for t in tests),
                                                        n_tests),
               "tests": tests, "flags": sorted(f for f in reply.get("flags", ()) if isinstance(f, str))}
    if status == "compile_error":
        verdict["compile_output"] = reply.get("compile_output", "")
    return verdict


def reward_of(verdict: dict, n_tests: int, mode: str) -> dict | None:
    """The numbers of ``reward.json``; None when the verdict has no pass rate or the reward would
    not be finite and in [0, 1] (no reward is then written)."""
    rate = verdict["pass_rate"]
    if rate is None:
        return None
    reward = float(verdict["status"] == "passed") if mode == "binary" else float(rate)
    if not (math.isfinite(reward) and 0.0 <= reward <= 1.0 and math.isfinite(rate)):
        return None
    return {"reward": reward, "pass_rate": float(rate),
            "passed": sum(t["status"] == "passed" for t in verdict["tests"]), "n_tests": n_tests,
            "n_flags": len(verdict["flags"])}


def verify(job_path: str, program_path: str, out_dir: str = VERIFIER_DIR) -> dict:
    """Judge the program at ``program_path`` against the job at ``job_path``; write ``verdict.json``
    and (when the verdict has a pass rate) ``reward.json`` into ``out_dir``; return the verdict."""
    _lock_verifier_dir(out_dir)
    for name in ("reward.json", "reward.txt", "verdict.json"):
        _remove(os.path.join(out_dir, name))
    with open(job_path, encoding="utf-8") as f:
        spec = json.load(f)
    job, mode, deadline_s = spec["job"], spec.get("reward_mode", "fraction"), float(spec["deadline_s"])
    n_tests = len(job["tests"])
    program = read_program(program_path)
    if program is None:
        verdict = {"status": "no_code", "pass_rate": 0.0, "tests": [], "flags": [],
                   "message": f"no program at {program_path}"}
    else:
        request = {**job, "op": "run", "program": job["program"] + program}
        error = ""
        for _ in range(ATTEMPTS):
            request["id"] = os.urandom(16).hex()
            try:
                reply = _ask_runner(request, deadline_s)
            except (OSError, ValueError) as e:
                error = f"{type(e).__name__}: {e}"
                continue
            if reply.get("ok"):
                verdict = verdict_of(reply, n_tests)
                break
            error = str(reply.get("error", ""))[-2000:]
        else:
            verdict = {"status": "sandbox_error", "pass_rate": None, "tests": [], "flags": [],
                       "message": f"the sandbox runner failed {ATTEMPTS} times: {error}"}
    reward = reward_of(verdict, n_tests, mode)
    _write_file(out_dir, "verdict.json", {**verdict, "reward": None if reward is None else reward["reward"]})
    if reward is not None:
        _write_file(out_dir, "reward.json", reward)
    return verdict


def verify_main(argv: list[str]) -> None:
    """``harbor-verify JOB PROGRAM``: exit status 0 when a reward was written, 1 otherwise."""
    if len(argv) != 2 or os.getuid() != 0:
        sys.exit("usage (as root, in a grpo-code verifier container): harbor-verify JOB.json PROGRAM")
    waited = time.monotonic() + RUNNER_START_S  # Harbor may run test.sh the moment the box starts
    while not os.path.exists(SOCKET_PATH) and time.monotonic() < waited:
        time.sleep(0.05)
    if not os.path.exists(SOCKET_PATH):
        sys.exit(f"no grpo-code runner at {SOCKET_PATH}: the verifier container's PID 1 must be harbor-init "
                 "(tests/Dockerfile's ENTRYPOINT; the task must run with [verifier] environment_mode = \"separate\")")
    verdict = verify(*argv)
    print(json.dumps({k: verdict[k] for k in ("status", "pass_rate", "flags")}))
    sys.exit(0 if verdict["pass_rate"] is not None else 1)
