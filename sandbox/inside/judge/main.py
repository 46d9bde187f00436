"""A job's judge: forked by the fork server (``messages.JudgeRequest``) for one job, with that
job's tests, it runs each ``assert`` test and each check it is asked for, writes each ``verdict``
record on its result channel (``judge``: the protocol), and is gone at the job's end. No code of an
earlier job (its tests, setup or checker) ever ran in it: it is a fork of the fork server, which
never runs task code; so a job's test code judges its own job and nothing else.

Stdlib only, light: the fork server loads it.
"""

from __future__ import annotations

import _socket
import marshal
import os
import resource
import sys
from typing import TYPE_CHECKING, NoReturn

from ..procs import JUDGE_UID, recv_message, set_dumpable, setup_child
from ..records import VERDICT, record_line, write_all
from .applied import install
from .asserts import JobTests, run_test
from .checker import run_check
from .files import cases_text
from .remote import Remote

if TYPE_CHECKING:
    from ..messages import JudgeMessage, JudgeRequest


def judge_main(request: JudgeRequest) -> NoReturn:
    """The judge process: forked by the fork server for ``request``. Never returns."""
    try:
        result_fd = setup_child(request, JUDGE_UID)  # a user of its own: no process of the program's can reach it
        set_dumpable(0)
        os.environ["TMPDIR"] = request["workdir"]  # its own tmpfs: a program can neither read nor fill it
        sys.setrecursionlimit(4000)
        sock = _socket.socket(fileno=request["ctl_fd"])
        own_size = request["rlimits"].get("own_bytes", 0)
        setup, tests, memory_bytes, checker, allow_non_finite, shared, reads = request["job"]
        folder = request["workdir"]
        del request
        resource.setrlimit(resource.RLIMIT_AS, (own_size + memory_bytes, resource.RLIM_INFINITY))
        install(Remote)  # (the standard library's functions a test applies to the program's objects)
        job = JobTests(setup, tests, checker, allow_non_finite, folder, shared, reads)
        while True:
            received = recv_message(sock)
            if received is None:
                os._exit(0)
            data, fds = received
            message: JudgeMessage = marshal.loads(data)
            if message[0] == "check":
                _, nonce, stdin, output, expected = message
                status, text, score, flags = run_check(job.check, stdin, output, expected)
                write_all(result_fd, record_line(VERDICT, nonce, {"status": status, "message": text, "calls": 0,
                                                                  "flags": flags, "score": score, "cases": ""}))
                continue
            _, nonce, index = message
            call_fd, reply_fd = fds
            status, text, channel, score, cases = run_test(job, job.tests[index], call_fd, reply_fd)
            os.close(call_fd)  # the program's test process sees end of file and exits
            os.close(reply_fd)
            write_all(result_fd, record_line(VERDICT, nonce, {"status": status, "message": text,
                                                              "calls": channel.calls,
                                                              "flags": ",".join(sorted(channel.flags)),
                                                              "score": score, "cases": cases_text(cases)}))
    except BaseException as e:  # noqa: BLE001 - a broken judge stops; the runner sees it go
        try:
            import traceback

            os.write(2, "".join(traceback.format_exception(e)).encode())
        finally:
            os._exit(70)
