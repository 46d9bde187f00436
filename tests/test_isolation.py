"""Isolation on the live image: `sandbox check` properties, and the network block shown on loopback."""

from __future__ import annotations

import socket
import threading

import pytest

from helpers import stdio_job
from sandbox import Job, Limits, TestCase
from sandbox.check import run_checks

pytestmark = pytest.mark.docker


ISOLATION_CHECKS = [
    "network: only lo, host 127.0.0.1 listener unreachable",
    "root filesystem read-only",
    "non-root user, no capabilities, no-new-privileges",
    "no program can signal, limit, trace or read the runner, fork server or judge",
    "no namespace, mount, bpf, perf or keyring; ns_last_pid and /proc/sys unwritable",
    "time limit (CPU loop, 1 s)",
    "wall-clock limit (sleep, 1 s CPU)",
    "memory limit (1 GiB list, 128 MiB)",
    "output limit (endless stdout, 1 MiB)",
    "process-count limit (fork 10000 sleepers)",
    "file-size limit (64 MiB file, 16 MiB)",
    "whole process tree killed (setsid escapee)",
    "nothing one job writes is visible to the next",
    "no counter carries a value from one job to the next",
]
# a row per compiled language: hello world, and (where a runtime reserves memory) 1 GiB under 128 MiB
LANGUAGE_CHECKS = ["c: hello world"] + [f"{language}: hello world; 1 GiB under 128 MiB" for language in
                                        ("cpp", "go", "java", "javascript", "rust", "typescript")]


def test_every_isolation_check_holds(solo_executor):
    checks = run_checks(solo_executor)
    assert [c.name for c in checks] == ISOLATION_CHECKS + LANGUAGE_CHECKS
    failed = [c for c in checks if not c.ok]
    assert not failed, failed


def test_no_interface_but_lo_and_host_loopback_listener_unreachable(executor):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(3)
    port = server.getsockname()[1]
    accepted = []

    def accept():
        try:
            accepted.append(server.accept())
        except OSError:
            pass

    thread = threading.Thread(target=accept)
    thread.start()
    program = ("import os, socket\nprint(*sorted(os.listdir('/sys/class/net')))\n"
               "s = socket.socket(); s.settimeout(1)\n"
               f"print('refused' if s.connect_ex(('127.0.0.1', {port})) else 'connected')\n")
    verdict = executor.run_one(stdio_job(program, "", "lo\nrefused\n"))
    thread.join()
    server.close()
    assert verdict.passed, verdict
    assert accepted == []


def test_tests_and_expected_outputs_are_not_on_disk_nor_in_memory(executor):
    # The program looks for the expected output and another test's source everywhere it can:
    # every file (the job folder included) and every object it can reach from the modules and its
    # stack (the garbage collector's list of every object is refused).
    program = (
        "import gc, os, sys\n"
        # joined at run time, so the needles are not constants in the program's own code
        "needles = [b'-'.join([b'OUTPUT', b'7f3a9c']), b'-'.join([b'SECRET', b'TEST', b'41d2'])]\n"
        "hits = []\n"
        "for root, _, files in os.walk('/'):\n"
        "    if root.startswith(('/proc', '/sys', '/dev')):\n"
        "        continue\n"
        "    for f in files:\n"
        "        try:\n"
        "            data = open(os.path.join(root, f), 'rb').read(1 << 22)\n"
        "        except OSError:\n"
        "            continue\n"
        "        hits += [os.path.join(root, f) for n in needles if n in data]\n"
        "def strings(o):\n"
        "    if isinstance(o, dict):\n"
        "        return [x for kv in o.items() for x in kv if isinstance(x, (str, bytes))]\n"
        "    if isinstance(o, (list, tuple, set)):\n"
        "        return [x for x in o if isinstance(x, (str, bytes))]\n"
        "    return []\n"
        "def scan():\n"
        "    found, seen = [], set()\n"
        "    try:\n"
        "        gc.get_objects()\n"
        "        found.append('gc allowed')\n"
        "    except RuntimeError:\n"
        "        pass\n"
        "    stack = [vars(m) for m in list(sys.modules.values()) if hasattr(m, '__dict__')]\n"
        "    frame = sys._getframe(0)\n"
        "    while frame is not None:\n"
        "        stack += [frame.f_locals, frame.f_globals]\n"
        "        frame = frame.f_back\n"
        "    while stack and len(seen) < 300000:\n"
        "        o = stack.pop()\n"
        "        if id(o) in seen or o is needles:\n"
        "            continue\n"
        "        seen.add(id(o))\n"
        "        for s in strings(o):\n"
        "            b = s.encode() if isinstance(s, str) else s\n"
        "            found += ['memory' for n in needles if n in b]\n"
        "        if isinstance(o, dict):\n"
        "            stack += list(o.values())\n"
        "        elif isinstance(o, (list, tuple, set)):\n"
        "            stack += list(o)\n"
        "    return found\n"
        "hits += scan()\n"
        "print(len(hits), *hits[:3])\n")
    job = Job(program=program, tests=(
        TestCase(kind="stdio", stdin="", expected_stdout="OUTPUT-7f3a9c\n"),
        TestCase(kind="stdio", stdin="", expected_stdout="SECRET-TEST-41d2\n")), limits=Limits(time_limit_s=10))
    verdict = executor.run_one(job)
    for test in verdict.test_results:
        assert test.status == "failed"
        assert test.message.endswith("got '0'"), test.message
