"""Verdicts: turn what a test process did (an ``Outcome``) into a per-test result.

Stdlib only. Verdicts come from harness code and positive evidence: an ``assert`` test passes
only on a ``passed`` record carrying the test's nonce; a ``call`` test's returned value is
compared here, with ``json_equal``; ``stdio`` output is compared here, with ``compare_output``.
"""

from __future__ import annotations

import json
import re
import signal

if __package__:  # sandbox.judge, imported on the host
    from .harness import MESSAGE_LIMIT, _clip
else:  # inside the image, beside runner.py
    from harness import MESSAGE_LIMIT, _clip

# --------------------------------------------------------------------------------------
# Output comparison (stdio) and value comparison (call): harness code, never the program's.
# --------------------------------------------------------------------------------------

_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z")
_INTEGER = re.compile(r"[+-]?\d+\Z")


def _significant_lines(text: str) -> list[str]:
    """Lines with trailing whitespace removed and trailing blank lines dropped."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _token_equal(got: str, want: str, tolerance: float) -> bool:
    if got == want:
        return True
    # Tolerance applies when the expected token is a float literal; integers and words are exact.
    if _INTEGER.match(want) or not _NUMBER.match(want) or not _NUMBER.match(got):
        return False
    a, b = float(got), float(want)
    diff = abs(a - b)
    return diff <= tolerance or diff <= tolerance * abs(b)


def compare_output(got: str, want: str, mode: str, tolerance: float) -> str | None:
    """Compare a program's stdout with the expected stdout.

    Args:
        got: the program's stdout (decoded).
        want: the expected stdout.
        mode: ``tokens`` (per line, whitespace-separated tokens, floats within ``tolerance``;
            trailing whitespace and trailing blank lines ignored, the line count must match),
            ``lines`` (per line, trailing whitespace and trailing blank lines ignored) or
            ``exact``.
        tolerance: absolute-or-relative tolerance for float tokens (``tokens`` mode).

    Returns:
        None when the output is accepted, else a short message saying where it differs.
    """
    if mode == "exact":
        if got == want:
            return None
        return f"output differs (exact comparison): expected {_clip(repr(want))}, got {_clip(repr(got))}"
    got_lines, want_lines = _significant_lines(got), _significant_lines(want)
    for i, (g, w) in enumerate(zip(got_lines, want_lines), start=1):
        if mode == "lines":
            ok = g == w
        else:
            gt, wt = g.split(), w.split()
            ok = len(gt) == len(wt) and all(_token_equal(a, b, tolerance) for a, b in zip(gt, wt))
        if not ok:
            return f"line {i}: expected {_clip(repr(w))}, got {_clip(repr(g))}"
    if len(got_lines) != len(want_lines):
        return f"expected {len(want_lines)} line(s) of output, got {len(got_lines)}"
    return None


def json_equal(got, want) -> bool:
    """Same JSON type and value: bool is not a number, int and float are both numbers."""
    if isinstance(got, bool) or isinstance(want, bool):
        return type(got) is type(want) and got == want
    if isinstance(got, (int, float)) and isinstance(want, (int, float)):
        return got == want or (got != got and want != want)  # NaN equals NaN here
    if type(got) is not type(want):
        return False
    if isinstance(want, list):
        return len(got) == len(want) and all(json_equal(a, b) for a, b in zip(got, want))
    if isinstance(want, dict):
        return got.keys() == want.keys() and all(json_equal(got[k], want[k]) for k in want)
    return got == want


# --------------------------------------------------------------------------------------
# Plain data: the only values a test may compare. Bound to pristine builtins at import time.
# --------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------
# Verdicts
# --------------------------------------------------------------------------------------


def _records(outcome, nonce: str) -> list[dict]:
    out = []
    for line in bytes(outcome.records).splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and rec.get("nonce") == nonce:
            out.append(rec)
    return out


def _signal_name(sig: int) -> str:
    try:
        return signal.Signals(sig).name
    except ValueError:
        return f"signal {sig}"


def _stderr_hint(outcome) -> str:
    tail = bytes(outcome.stderr).decode("utf-8", "replace").strip().splitlines()
    return f": {_clip(tail[-1], 300)}" if tail else ""


def judge(test: dict, outcome, limits: dict, nonce: str, compare: str, tolerance: float) -> dict:
    """Turn a test process's outcome (a ``supervise.Outcome``) into a per-test result
    ``{status, time_s, cpu_time_s, message}``.

    Only records carrying ``nonce`` count. ``compare`` and ``tolerance`` apply to ``stdio``
    output (see ``harness.compare_output``).
    """
    result = {"status": "passed", "time_s": round(outcome.wall_s, 6), "cpu_time_s": round(outcome.cpu_s, 6)}

    def verdict(status: str, message: str = "") -> dict:
        result["status"] = status
        if message:
            result["message"] = _clip(message, MESSAGE_LIMIT)
        return result

    time_limit = limits["time_limit_s"]
    if outcome.killed_for == "output_limit":
        return verdict("output_limit", f"output exceeded {limits['output_limit_bytes']} bytes")
    if (outcome.killed_for == "timeout" or outcome.cpu_s > time_limit
            or outcome.signal == signal.SIGXCPU):
        return verdict("timeout", f"time limit exceeded ({time_limit:g} s CPU, "
                                  f"{limits['wall_time_limit_s']:g} s wall)")
    if outcome.killed_for == "forker":
        if outcome.oom:
            return verdict("memory_limit", f"memory limit of {limits['memory_limit_mb']} MB reached")
        return verdict("runtime_error", "the process that forked this test died during it "
                                        "(did the program kill its parent?)")
    records = _records(outcome, nonce)
    last = records[-1] if records else None
    stderr_text = bytes(outcome.stderr).decode("utf-8", "replace")
    if last is not None and last["event"] == "memory_limit":
        return verdict("memory_limit", f"memory limit of {limits['memory_limit_mb']} MB reached")
    if outcome.signal is not None:
        if outcome.oom or (outcome.signal == signal.SIGABRT and "bad_alloc" in stderr_text):
            return verdict("memory_limit", f"memory limit of {limits['memory_limit_mb']} MB reached")
        if outcome.signal == signal.SIGXFSZ:
            return verdict("runtime_error", "file size limit exceeded")
        return verdict("runtime_error", f"killed by {_signal_name(outcome.signal)}{_stderr_hint(outcome)}")
    if last is not None and last["event"] in ("failed", "runtime_error"):
        return verdict(last["event"], last.get("message", ""))
    kind = test["kind"]
    if kind == "assert":
        if last is not None and last["event"] == "passed":
            return result
        return verdict("runtime_error", "the process ended before the test finished "
                                        f"(exit status {outcome.exit_code}); no pass was recorded")
    if kind == "call":
        if last is None or last["event"] != "returned":
            return verdict("runtime_error", "the process ended before the call returned "
                                            f"(exit status {outcome.exit_code})")
        got = json.loads(last["value"])
        if json_equal(got, test["expected"]):
            return result
        return verdict("failed", f"expected {_clip(json.dumps(test['expected']), 200)}, "
                                 f"got {_clip(last['value'], 200)}")
    # stdio
    if outcome.exit_code != 0:
        return verdict("runtime_error", f"exit status {outcome.exit_code}{_stderr_hint(outcome)}")
    got = bytes(outcome.stdout).decode("utf-8", "replace")
    problem = compare_output(got, test["expected_stdout"], compare, tolerance)
    return verdict("failed", problem) if problem else result
