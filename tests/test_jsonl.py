"""The one JSON Lines reader and writer (grpo_code.jsonl)."""

from __future__ import annotations

import gzip

import pytest

from grpo_code.errors import ConfigError
from grpo_code.jsonl import append_jsonl, read_jsonl, read_records, write_jsonl


def test_lines_are_numbered_and_blank_lines_skipped(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text('{"a": 1}\n\n  \n[2]\r\n"three"\n', encoding="utf-8")
    assert list(read_jsonl(path)) == [(1, {"a": 1}), (4, [2]), (5, "three")]


def test_a_bad_line_raises_with_file_and_line_or_goes_to_on_error(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text('{"a": 1}\n{"a": \n{"b": 2}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"^{path}:2: invalid JSON \(Expecting value at column 7\)$"):
        read_records(path)
    bad = []
    assert read_records(path, on_error=lambda line, message: bad.append((line, message))) == [{"a": 1}, {"b": 2}]
    assert bad == [(2, "invalid JSON (Expecting value at column 7)")]


def test_a_missing_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match=r"nosuch\.jsonl does not exist"):
        read_records(tmp_path / "nosuch.jsonl")


def test_gzip_files_are_read_too(tmp_path):
    path = tmp_path / "a.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write('{"task_id": "x"}\n{"task_id": "y"}\n')
    assert read_records(path) == [{"task_id": "x"}, {"task_id": "y"}]


def test_write_then_append_after_a_partly_written_line(tmp_path):
    path = tmp_path / "out" / "samples.jsonl"
    write_jsonl(path, [{"i": 0}, {"i": 1}])
    with path.open("a") as f:
        f.write('{"i": 2, "compl')  # a crash mid-write
    with append_jsonl(path) as sink:
        sink.write('{"i": 3}\n')
    assert read_records(path) == [{"i": 0}, {"i": 1}, {"i": 3}]
