"""The host's reading of a container's attach stream (``SandboxContainer``): Docker's frames taken
apart whatever way the kernel hands them over, and every wait bounded by its deadline. A real
socket pair stands in for Docker's attach socket (the runner's side writes Docker's frames)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import struct
import threading
import time

import pytest

from sandbox.container import RECV_SLICE_S, ContainerSettings, SandboxContainer, set_kernel_timeouts
from sandbox.types import SandboxFault


def frame(stream: int, payload: bytes) -> bytes:
    return struct.pack(">BxxxL", stream, len(payload)) + payload


def reply(n: int) -> bytes:
    return (json.dumps({"ok": True, "id": str(n)}) + "\n").encode()


@pytest.fixture
def stream():
    """``(container, runner_end)``: a container reading one end of a socket pair."""
    ours, theirs = socket.socketpair()
    container = SandboxContainer(client=None, image="-", settings=ContainerSettings(), labels={})
    set_kernel_timeouts(ours)
    container._sock = ours
    yield container, theirs
    ours.close()
    theirs.close()


def bounded(fn, limit_s: float):
    """``fn()``'s result or exception, or a failure if it has not returned after ``limit_s``."""
    out: dict = {}

    def call():
        try:
            out["value"] = fn()
        except Exception as e:  # noqa: BLE001 - handed to the test thread
            out["error"] = e

    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    worker.join(limit_s)
    assert not worker.is_alive(), f"still waiting after {limit_s} s"
    if "error" in out:
        raise out["error"]
    return out["value"]


def test_replies_come_whole_however_the_frames_are_cut(stream, caplog):
    container, runner = stream
    first, second, third = reply(1), reply(2), reply(3)
    # The first reply's frame in three writes, a stderr frame, then two replies in one write, the
    # second of them split across two frames.
    whole = frame(1, first)
    runner.sendall(whole[:5])

    def rest() -> None:
        runner.sendall(whole[5:20])
        time.sleep(0.05)
        runner.sendall(whole[20:])

    writer = threading.Timer(0.05, rest)
    writer.start()
    with caplog.at_level(logging.WARNING, logger="sandbox.container"):
        assert container._receive(5.0) == {"ok": True, "id": "1"}
        writer.join()
        runner.sendall(frame(2, b"Traceback: the runner's own crash report\n")
                       + frame(1, second + third[:7]) + frame(1, third[7:]))
        assert container._receive(5.0) == {"ok": True, "id": "2"}
        assert container._receive(5.0) == {"ok": True, "id": "3"}
    assert "the runner's own crash report" in caplog.text
    assert not container._frames and not container._buf


def test_a_silent_runner_is_a_fault_at_its_deadline(stream):
    container, _ = stream
    started = time.monotonic()
    with pytest.raises(SandboxFault, match="did not answer in time"):
        bounded(lambda: container._receive(0.3), 10)
    assert 0.3 <= time.monotonic() - started < 0.3 + RECV_SLICE_S + 0.5


@pytest.mark.parametrize("trickled", [frame(2, b"."), frame(1, b"x")], ids=["stderr", "half a stdout line"])
def test_a_runner_that_only_trickles_is_a_fault_at_its_deadline(stream, trickled):
    container, runner = stream
    stop = threading.Event()

    def trickle():
        while not stop.wait(0.02):
            runner.sendall(trickled)  # never a whole reply line

    threading.Thread(target=trickle, daemon=True).start()
    started = time.monotonic()
    try:
        with pytest.raises(SandboxFault, match="did not answer in time"):
            bounded(lambda: container._receive(0.4), 10)
    finally:
        stop.set()
    assert time.monotonic() - started < 0.4 + 0.5


def test_a_closed_stream_is_a_fault(stream):
    container, runner = stream
    runner.sendall(frame(1, b'{"ok": true, "id"'))
    runner.close()
    with pytest.raises(SandboxFault, match="closed its stream"):
        bounded(lambda: container._receive(5.0), 10)


class _CountingBuffer(bytearray):
    """A ``_buf`` that counts the bytes its searches for a newline go over."""

    searched = 0

    def find(self, sub, start=0, *rest):
        self.searched += len(self) - start
        return super().find(sub, start, *rest)

    def __contains__(self, sub):
        self.searched += len(self)
        return super().__contains__(sub)


@pytest.mark.parametrize("drive", ["threads", "loop"])
def test_a_reply_of_many_reads_is_searched_for_its_end_once(stream, drive):
    """A reply of 8 MiB comes in 32 KiB frames, a read at a time: each of its bytes is searched
    for the newline that ends it at most twice, not once per read (which made a reply of 400 MiB
    take a minute and hold its container)."""
    container, runner = stream
    container._buf = _CountingBuffer()
    payload = (json.dumps({"ok": True, "id": "big", "pad": "x" * (8 << 20)}) + "\n").encode()
    writer = threading.Thread(target=lambda: [runner.sendall(frame(1, payload[i:i + 32768]))
                                              for i in range(0, len(payload), 32768)], daemon=True)

    async def on_a_loop() -> bytes:
        container.attach(asyncio.get_running_loop())
        try:
            return await container._aread_line(time.monotonic() + 60)
        finally:
            container.detach()

    writer.start()
    line = container._read_line(time.monotonic() + 60) if drive == "threads" else asyncio.run(on_a_loop())
    writer.join()
    assert json.loads(line)["id"] == "big"
    assert 0 < container._buf.searched <= 2 * len(payload)
    assert not container._buf
