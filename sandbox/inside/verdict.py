"""Verdicts: turn what a test process did (a ``watch.Outcome``) into a per-test result.

Stdlib only; runs in the runner. Verdicts come from harness code and positive evidence: an
``assert`` test passes only on a ``passed`` record carrying the test's nonce; a ``call`` test's
returned value is compared here, with ``compare.json_equal``; ``stdio`` output is compared here,
with ``compare.compare_output``.
"""

from __future__ import annotations

import json
import re
import signal

from .compare import compare_output, json_equal
from .records import MESSAGE_LIMIT, for_nonce
from .records import clip as _clip


def _signal_name(sig: int) -> str:
    try:
        return signal.Signals(sig).name
    except ValueError:
        return f"signal {sig}"


def _stderr_hint(outcome, language=None) -> str:
    """``: LINE``, the line of stderr that says what went wrong: the first that matches the
    language's ``error_line`` (a Java or Go report starts with it), else the last one."""
    tail = bytes(outcome.stderr).decode("utf-8", "replace").strip().splitlines()
    pattern = language.error_line if language is not None else None
    if pattern:
        tail = [line for line in tail if re.search(pattern, line)][:1] or tail
    return f": {_clip(tail[-1].strip(), 300)}" if tail else ""


def _out_of_memory(outcome, language, stderr_text: str) -> bool:
    """Whether the program's runtime reported running out of memory (or the kernel killed it for
    that). A program can print such a text itself: it only turns one failure into another."""
    if outcome.oom or (outcome.signal == signal.SIGABRT and "bad_alloc" in stderr_text):
        return True
    if language is None or (outcome.exit_code == 0 and outcome.signal is None):
        return False
    return any(marker in stderr_text for marker in language.memory_markers)


def test_result(test: dict, outcome, limits: dict, nonce: str, compare: str, tolerance: float,
                language=None) -> dict:
    """Turn a test process's outcome (a ``watch.Outcome``) into a per-test result
    ``{status, time_s, cpu_time_s, message}``.

    Only records carrying ``nonce`` count. ``compare`` and ``tolerance`` apply to ``stdio``
    output (see ``compare.compare_output``). ``language`` (a ``languages.Language``) says how its
    runtime reports running out of memory and which stderr line names an error.
    """
    result = {"status": "passed", "time_s": round(outcome.wall_s, 6), "cpu_time_s": round(outcome.cpu_s, 6)}

    def verdict(status: str, message: str = "") -> dict:
        result["status"] = status
        if message:
            result["message"] = _clip(message, MESSAGE_LIMIT)
        return result

    time_limit = limits["time_limit_s"]
    memory_message = f"memory limit of {limits['memory_limit_mb']} MB reached"
    if outcome.killed_for == "memory_limit":
        return verdict("memory_limit", memory_message + " (resident memory of the test's processes)")
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
    records = for_nonce(bytes(outcome.records), nonce)
    last = records[-1] if records else None
    stderr_text = bytes(outcome.stderr).decode("utf-8", "replace")
    if last is not None and last["event"] == "memory_limit":
        return verdict("memory_limit", f"memory limit of {limits['memory_limit_mb']} MB reached")
    if _out_of_memory(outcome, language, stderr_text):
        return verdict("memory_limit", memory_message)
    if outcome.signal is not None:
        if outcome.signal == signal.SIGXFSZ:
            return verdict("runtime_error", "file size limit exceeded")
        return verdict("runtime_error", f"killed by {_signal_name(outcome.signal)}{_stderr_hint(outcome, language)}")
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
        try:
            got = json.loads(last["value"])
        except (TypeError, ValueError):
            return verdict("failed", "the returned value could not be read as JSON")
        if json_equal(got, test["expected"]):
            return result
        return verdict("failed", f"expected {_clip(json.dumps(test['expected']), 200)}, "
                                 f"got {_clip(last['value'], 200)}")
    # stdio
    if outcome.exit_code != 0:
        return verdict("runtime_error", f"exit status {outcome.exit_code}{_stderr_hint(outcome, language)}")
    got = bytes(outcome.stdout).decode("utf-8", "replace")
    problem = compare_output(got, test["expected_stdout"], compare, tolerance)
    return verdict("failed", problem) if problem else result
