"""Verdicts: turn what a test's processes did (``watch.Outcome``) into a per-test result.

Stdlib only; runs in the runner. Verdicts come from trusted code and positive evidence: an
``assert`` test passes only on the judge's ``verdict`` record (``judged_result``), or, for a test
judged in the program's process, on a ``passed`` record carrying the test's nonce; a ``call``
test's returned value is read strictly (``values``) and compared here, with
``compare.json_equal``; ``stdio`` output is compared here, with ``compare.compare_output``.
"""

from __future__ import annotations

import json
import re
import signal

from .compare import compare_output, json_equal
from .records import (
    EXIT,
    FAILED,
    FLAG,
    MEMORY_LIMIT,
    MESSAGE_LIMIT,
    PASSED,
    PROGRAM_ENDED,
    READY,
    RETURNED,
    RUNTIME_ERROR,
    flags_in,
    for_nonce,
)
from .records import clip as _clip
from .values import NotPlain, decode_value, to_json_form


def _memory_message(limits: dict) -> str:
    return f"memory limit of {limits['memory_limit_mb']} MB reached"


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


def _limits_broken(outcome, limits: dict) -> tuple[str, str] | None:
    """The status and message of a test process that broke a limit or lost its forker, else None."""
    time_limit = limits["time_limit_s"]
    if outcome.killed_for == "memory_limit":
        return "memory_limit", _memory_message(limits) + " (resident memory of the test's processes)"
    if outcome.killed_for == "output_limit":
        return "output_limit", f"output exceeded {limits['output_limit_bytes']} bytes"
    if outcome.killed_for == "timeout" or outcome.cpu_s > time_limit or outcome.signal == signal.SIGXCPU:
        return "timeout", f"time limit exceeded ({time_limit:g} s CPU, {limits['wall_time_limit_s']:g} s wall)"
    if outcome.killed_for == "forker":
        if outcome.oom:
            return "memory_limit", _memory_message(limits)
        return "runtime_error", "the process that forked this test died during it (did the program kill its parent?)"
    return None


def _signalled(outcome, limits: dict, language=None) -> tuple[str, str] | None:
    """The status and message of a test process that ran out of memory (its runtime says so, or
    the kernel killed it for that) or that a signal ended, else None."""
    stderr_text = bytes(outcome.stderr).decode("utf-8", "replace")
    if _out_of_memory(outcome, language, stderr_text):
        return "memory_limit", _memory_message(limits)
    if outcome.signal is None:
        return None
    if outcome.signal == signal.SIGXFSZ:
        return "runtime_error", "file size limit exceeded"
    return "runtime_error", f"killed by {_signal_name(outcome.signal)}{_stderr_hint(outcome, language)}"


def _flags(outcome, records: list[dict], forged: bool) -> list[str]:
    flags = flags_in(records)
    if outcome.killed_for == "forker":
        flags.add("parent_killed")
    if forged:
        flags.add("test_tampering")
    return sorted(flags)


def _result(outcome, status: str, message: str, flags: list[str]) -> dict:
    result = {"status": status, "time_s": round(outcome.wall_s, 6), "cpu_time_s": round(outcome.cpu_s, 6)}
    if message:
        result["message"] = _clip(message, MESSAGE_LIMIT)
    if flags:
        result["flags"] = flags
    return result


def test_result(test: dict, outcome, limits: dict, nonce: str, compare: str, tolerance: float,
                language=None, checker=None) -> dict:
    """Turn what a test process did (a ``watch.Outcome``) into a per-test result ``{status,
    time_s, cpu_time_s, message, flags}`` for a ``stdio`` or ``call`` test, or an ``assert`` test
    judged in process.

    Only records carrying ``nonce`` count; ``flag`` records are evidence, never a status.
    ``compare`` and ``tolerance`` apply to ``stdio`` output (see ``compare.compare_output``).
    ``language`` (a ``languages.Language``) says how its runtime reports running out of memory,
    which stderr line names an error, and how a ``call`` test's value is written: tagged JSON by
    Python's harness (``values``), plain JSON by JavaScript's driver. ``checker``, for a
    ``stdio`` test of a task with a checker: called with the program's output, it returns the
    checker's ``(status, message, score)`` (``jobs._TestRun._check``), used instead of the
    comparison.
    """
    records = for_nonce(bytes(outcome.records), nonce)
    outcomes = [r for r in records if r.get("event") != FLAG]
    last = outcomes[-1] if outcomes else None
    kind = test["kind"]
    expected_events = {"assert": (PASSED,), "call": (RETURNED,), "stdio": (EXIT,)}[kind]
    forged = sum(r.get("event") in expected_events for r in outcomes) > 1

    def verdict(status: str, message: str = "") -> dict:
        return _result(outcome, status, message, _flags(outcome, records, forged))

    broken = _limits_broken(outcome, limits)
    if broken is not None:
        return verdict(*broken)
    if last is not None and last["event"] == MEMORY_LIMIT:
        return verdict("memory_limit", _memory_message(limits))
    signalled = _signalled(outcome, limits, language)
    if signalled is not None:
        return verdict(*signalled)
    if last is not None and last["event"] in (FAILED, RUNTIME_ERROR):
        return verdict(last["event"], last.get("message", ""))
    if kind == "assert":
        if last is not None and last["event"] == PASSED:
            return verdict("passed")
        return verdict("runtime_error", "the process ended before the test finished "
                                        f"(exit status {outcome.exit_code}); no pass was recorded")
    if kind == "call":
        if last is None or last["event"] != RETURNED or type(last.get("value")) is not str:
            return verdict("runtime_error", "the process ended before the call returned "
                                            f"(exit status {outcome.exit_code})")
        try:
            python = language is None or not language.run_command
            got = to_json_form(decode_value(last["value"])) if python else json.loads(last["value"])
        except NotPlain as e:
            return verdict("failed", f"the returned value is not plain JSON data ({e})")
        except (TypeError, ValueError):
            return verdict("failed", "the returned value could not be read as JSON")
        if json_equal(got, test["expected"]):
            return verdict("passed")
        return verdict("failed", f"expected {_clip(json.dumps(test['expected']), 200)}, "
                                 f"got {_clip(json.dumps(got), 200)}")
    # stdio
    if outcome.exit_code != 0:
        return verdict("runtime_error", f"exit status {outcome.exit_code}{_stderr_hint(outcome, language)}")
    got = bytes(outcome.stdout).decode("utf-8", "replace")
    if checker is not None:
        status, message, score = checker(got)
        result = verdict(status if status in ("passed", "failed", "checker_error") else "checker_error", message)
        if score is not None and status == "failed" and 0 < score < 1:
            result["score"] = score
        return result
    problem = compare_output(got, test["expected_stdout"], compare, tolerance)
    return verdict("failed", problem) if problem else verdict("passed")


def judged_result(program, record: dict | None, limits: dict, nonce: str, forked_ready: bool = False) -> dict:
    """The per-test result of an ``assert`` test run by the judge (``judge``).

    Args:
        program: the ``watch.Outcome`` of the program's process that served the test's calls.
        record: the judge's ``verdict`` record for the test, or None if none came (the judge
            went away: killed by the program, or everything was killed for a limit).
        limits: the job's limits.
        nonce: the test's nonce (the program's process's records carry it).
        forked_ready: the program's process was forked from a zygote whose top level had run
            (else it must have written its own ``ready`` record).

    Only the judge's record can say ``passed``, and only for a program whose process ran its top
    level to its end (its ``ready`` record); what the program's process wrote is evidence (flags,
    and why it ended), and a record of it that claims an outcome is a forgery.
    """
    records = for_nonce(bytes(program.records), nonce)
    forged = any(r.get("event") not in (FLAG, READY, RUNTIME_ERROR, MEMORY_LIMIT) for r in records)
    ready = forked_ready or any(r.get("event") == READY for r in records)
    flags = _flags(program, records, forged)
    if record is not None:
        flags = sorted(set(flags) | flags_in([record]))

    def verdict(status: str, message: str = "") -> dict:
        return _result(program, status, message, flags)

    broken = _limits_broken(program, limits)
    if broken is not None:
        return verdict(*broken)
    if record is None or program.killed_for == "judge":
        flags = sorted(set(flags) | {"test_tampering"})
        return verdict("runtime_error", "the judge went away during the test (was it killed?); no pass was recorded")
    status, message = record.get("status"), record.get("message", "")
    own = [r for r in records if r.get("event") in (RUNTIME_ERROR, MEMORY_LIMIT)]  # evidence of its own end
    if status == PROGRAM_ENDED:
        signalled = _signalled(program, limits)
        if own and own[-1]["event"] == MEMORY_LIMIT:
            return verdict("memory_limit", _memory_message(limits))
        if signalled is not None:
            return verdict(*signalled)
        if own:
            return verdict("runtime_error", own[-1].get("message", ""))
        flags = sorted(set(flags) | {"early_exit"})
        return verdict("runtime_error", f"the program's process ended during a call (exit status "
                                        f"{program.exit_code}) before the test finished")
    if status == "passed" and not ready:  # the program never got past its top level
        if own:
            return verdict(own[-1]["event"], own[-1].get("message", ""))
        flags = sorted(set(flags) | {"early_exit"})
        return verdict("runtime_error", f"the program's process ended before its top level finished "
                                        f"(exit status {program.exit_code})")
    if status in ("passed", "failed", "runtime_error", "memory_limit"):
        return verdict(status, message if status != "passed" else "")
    return verdict("runtime_error", f"the judge answered {status!r}")
