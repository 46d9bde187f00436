"""Verdicts: turn what a test's processes did (``watch.Outcome``) into a per-test result.

Stdlib only; runs in the runner. Verdicts come from trusted sources only: a test process's exit
status, signal and CPU time from the kernel (every process of a program is the runner's child),
the runner's own limits, the judge's ``verdict`` record (an ``assert`` test passes only on it),
and the runner's comparison of the program's answer: a ``stdio`` test's output
(``compare.compare_output``), a ``call`` test's returned value, read strictly (``values``) and
compared (``compare.json_equal``). What a process of the program's wrote on its channel is its
answer or evidence (flags), read strictly (``records.read_records``); it can never say "passed".
"""

from __future__ import annotations

import json
import re
import signal
from typing import TYPE_CHECKING

from .compare import compare_output, json_equal
from .passrate import credit
from .records import (
    MESSAGE_LIMIT,
    NOT_PLAIN,
    PROGRAM_ENDED,
    RAISED,
    RETURNED,
    flag_names,
    read_records,
)
from .records import clip as _clip
from .values import NotPlain, decode_value, non_finite, preview, to_json_form

if TYPE_CHECKING:
    from .messages import CallTestWire, LimitsWire, StdioTestWire, TestResultWire, VerdictRecord

_ANSWERS = (RETURNED, RAISED, NOT_PLAIN)


def _memory_message(limits: LimitsWire) -> str:
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


def _limits_broken(outcome, limits: LimitsWire) -> tuple[str, str] | None:
    """The status and message of a test that broke a limit or whose test process never came, else None."""
    time_limit = limits["time_limit_s"]
    if outcome.killed_for == "memory_limit":
        return "memory_limit", _memory_message(limits) + " (resident memory of the test's processes)"
    if outcome.killed_for == "output_limit":
        return "output_limit", f"output exceeded {limits['output_limit_bytes']} bytes"
    if outcome.killed_for == "timeout" or outcome.cpu_s > time_limit or outcome.signal == signal.SIGXCPU:
        return "timeout", f"time limit exceeded ({time_limit:g} s CPU, {limits['wall_time_limit_s']:g} s wall)"
    if outcome.killed_for == "lost":
        if outcome.oom:
            return "memory_limit", _memory_message(limits)
        return "runtime_error", "the program's zygote died or named no test process of its own (did the program " \
                                "kill it?)"
    return None


def _signalled(outcome, limits: LimitsWire, language=None) -> tuple[str, str] | None:
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


def _judge_gone(end: tuple[str, int] | None) -> str:
    """How the judge went away during a test, as the kernel reported it: a signal (SIGSEGV: its C
    stack overflowed, in a recursion of the test's own under the limit the program set), or its own
    exit (70: it failed, out of its memory or on a bug of its own)."""
    if end is None:
        return "the judge went away during the test"
    kind, number = end
    if kind == "signal":
        cause = " (its stack overflowed: a recursion too deep for it)" if number == signal.SIGSEGV else ""
        return f"the judge was killed by {_signal_name(number)} during the test{cause}"
    return f"the judge went away during the test (exit status {number}: out of its memory, or a fault of its own)"


def _result(outcome, status: str, message: str, flags: set[str]) -> TestResultWire:
    result: TestResultWire = {"status": status, "time_s": round(outcome.wall_s, 6),
                              "cpu_time_s": round(outcome.cpu_s, 6)}
    if message:
        result["message"] = _clip(message, MESSAGE_LIMIT)
    if flags:
        result["flags"] = sorted(flags)
    return result


def _evidence(outcome, nonce: str) -> tuple[list, set[str]]:
    """The program's records for ``nonce`` and the flags they and their reading give."""
    records, malformed = read_records(bytes(outcome.records), nonce)
    flags = flag_names(records)
    if malformed:
        flags.add("test_tampering")
    return records, flags


def test_result(test: StdioTestWire | CallTestWire, outcome, limits: LimitsWire, nonce: str, compare: str,
                tolerance: float, language=None, checker=None, allow_non_finite: bool = False) -> TestResultWire:
    """Turn what a test process did (a ``watch.Outcome``) into a per-test result ``{status,
    time_s, cpu_time_s, message, flags}`` for a ``stdio`` or ``call`` test.

    ``compare`` and ``tolerance`` apply to ``stdio`` output (see ``compare.compare_output``).
    ``language`` (a ``languages.Language``) says how its runtime reports running out of memory,
    which stderr line names an error, and how a ``call`` test's value is written: tagged JSON by
    Python's harness (``values``), plain JSON by JavaScript's driver. ``checker``, for a
    ``stdio`` test of a task with a checker: called with the program's output, it returns the
    checker's ``(status, message, score, flags)`` (``jobs._TestRun._check``), used instead of the
    comparison. A ``call`` test's value that holds NaN or an infinity fails it, flagged
    ``non_finite``, unless ``allow_non_finite``.
    """
    records, flags = _evidence(outcome, nonce)
    answers = [r for r in records if r["event"] in _ANSWERS]
    if len(answers) > 1:  # one call, one answer: more is a forgery, and no answer counts
        flags.add("test_tampering")
        return _result(outcome, "runtime_error", "the test process answered the call more than once", flags)

    def verdict(status: str, message: str = "") -> TestResultWire:
        return _result(outcome, status, message, flags)

    broken = _limits_broken(outcome, limits)
    if broken is not None:
        return verdict(*broken)
    if test["kind"] == "call":
        return _call_result(test, outcome, answers[0] if answers else None, limits, language, verdict,
                            allow_non_finite, flags)
    signalled = _signalled(outcome, limits, language)
    if signalled is not None:
        return verdict(*signalled)
    if outcome.exit_code != 0:
        return verdict("runtime_error", f"exit status {outcome.exit_code}{_stderr_hint(outcome, language)}")
    got = bytes(outcome.stdout).decode("utf-8", "replace")
    if checker is not None:
        status, message, score, checker_flags = checker(got)
        flags.update(checker_flags)
        result = verdict(status if status in ("passed", "failed", "checker_error") else "checker_error", message)
        if score is not None and status == "failed" and 0 < score < 1:
            result["score"] = score
        return result
    problem = compare_output(got, test["expected_stdout"], compare, tolerance)
    return verdict("failed", problem) if problem else verdict("passed")


def _call_result(test: CallTestWire, outcome, answer, limits: LimitsWire, language, verdict,
                 allow_non_finite: bool, flags: set[str]) -> TestResultWire:
    """A ``call`` test: the function's answer (returned, raised, not plain), then the process's
    own end, then the comparison."""
    if answer is not None and answer["event"] == RAISED:
        if answer["kind"] == "MemoryError":
            return verdict("memory_limit", _memory_message(limits))
        return verdict("runtime_error", answer["message"] or answer["kind"])
    signalled = _signalled(outcome, limits, language)
    if signalled is not None:
        return verdict(*signalled)
    if answer is not None and answer["event"] == NOT_PLAIN:
        return verdict("failed", answer["message"])
    if answer is None:
        return verdict("runtime_error", f"the process ended before the call returned (exit status {outcome.exit_code})"
                                        f"{_stderr_hint(outcome, language)}")
    if outcome.exit_code != 0:
        return verdict("runtime_error", f"exit status {outcome.exit_code} after the call returned"
                                        f"{_stderr_hint(outcome, language)}")
    try:
        python = language is None or not language.run_command
        value = decode_value(answer["value"]) if python else _json_value(answer["value"])
        if not allow_non_finite and non_finite(value):
            flags.add("non_finite")
            return verdict("failed", "the returned value holds NaN or an infinity, which the task does not allow")
        got = to_json_form(value) if python else value
    except NotPlain as e:
        return verdict("failed", f"the returned value is not plain JSON data ({e})")
    if json_equal(got, test["expected"], test.get("atol", 0.0), test.get("rtol", 0.0)):
        return verdict("passed")
    return verdict("failed", f"expected {preview(test['expected'])}, got {preview(got)}")


def _json_value(text: str):
    """A JSON value a driver wrote (JavaScript's), read totally.

    Raises:
        NotPlain: ``text`` is not one JSON value.
    """
    try:
        return json.loads(text)
    except Exception as e:  # noqa: BLE001 - any text: every failure is the program's value's
        raise NotPlain(f"not JSON: {type(e).__name__}") from None


def judged_result(program, record: VerdictRecord | None, limits: LimitsWire, nonce: str,
                  judge_end: tuple[str, int] | None = None) -> TestResultWire:
    """The per-test result of an ``assert`` test run by the judge (``judge``).

    Args:
        program: the ``watch.Outcome`` of the program's process that served the test's calls.
        record: the judge's ``verdict`` record for the test, or None if none came (the judge
            went away, or everything was killed for a limit).
        limits: the job's limits.
        nonce: the test's nonce (the program's process's records carry it).
        judge_end: how the judge ended where it went away (``resident.Judge.ended``), or None.

    Only the judge's record can say ``passed``, and only for a program's process that then ended
    cleanly (exit status 0, no signal, within its limits: the kernel's word); what the program's
    process wrote is evidence (flags).
    """
    records, flags = _evidence(program, nonce)
    if any(r["event"] in _ANSWERS for r in records):
        flags.add("test_tampering")  # a serving process answers the judge, never its channel
    if record is not None:
        flags |= flag_names([record])

    def verdict(status: str, message: str = "") -> TestResultWire:
        return _result(program, status, message, flags)

    broken = _limits_broken(program, limits)
    if broken is not None:
        return verdict(*broken)
    if record is None or program.killed_for == "judge":
        return verdict("runtime_error", f"{_judge_gone(judge_end)}; no pass was recorded")
    status, message = record["status"], record["message"]
    signalled = _signalled(program, limits)
    if status == PROGRAM_ENDED:
        if signalled is not None:
            return verdict(*signalled)
        flags.add("early_exit")
        return verdict("runtime_error", f"the program's process ended during a call (exit status "
                                        f"{program.exit_code}){_stderr_hint(program)}")
    if signalled is not None:
        return verdict(*signalled)
    if program.exit_code != 0:
        return verdict("runtime_error", f"exit status {program.exit_code}{_stderr_hint(program)}")
    if status not in ("passed", "failed", "runtime_error", "memory_limit"):
        return verdict("runtime_error", f"the judge answered {status!r}")
    result = verdict(status, message if status != "passed" else "")
    _add_cases(result, record)
    return result


def _add_cases(result: TestResultWire, record: VerdictRecord) -> None:
    """A test file's cases and the share of them that passed (its partial credit), from the
    judge's record (``judge.files``)."""
    if record["cases"]:
        try:
            cases = json.loads(record["cases"])
        except ValueError:
            cases = None
        if type(cases) is list and all(type(c) is list and len(c) == 3 and all(type(p) is str for p in c)
                                       for c in cases):
            result["cases"] = [(name, status, message) for name, status, message in cases]
    score = credit(record_score(record))
    if score is not None and result["status"] != "passed":
        result["score"] = score


def record_score(record: VerdictRecord) -> float | None:
    """The score a verdict record carries (its text), or None."""
    try:
        return float(record["score"]) if record["score"] else None
    except ValueError:
        return None
