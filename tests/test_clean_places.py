"""The clean-up's parts without Docker (``sandbox/inside/clean.py``): the places found from a
mount table, emptying a folder through directory descriptors whatever it holds (a tree deeper than
PATH_MAX, folders of mode 000, links that must not be followed, FIFOs, odd names), the budget it
keeps, and the measurement against the baseline. ``tests/test_clean.py`` runs it in containers."""

from __future__ import annotations

import os

from sandbox.inside import clean
from sandbox.inside.clean import Baseline, Budget, Place, empty_folder, find_places, measure


def _mountinfo(tmp_path, lines: list[str]):
    path = tmp_path / "mountinfo"
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def test_the_places_are_the_writable_mounts_of_the_containers_own_filesystems(tmp_path):
    for name in ("scratch", "ro", "disk", "queue", "with space"):
        (tmp_path / name).mkdir()
    (tmp_path / "file").write_text("")
    table = _mountinfo(tmp_path, [
        f"1 0 0:1 / {tmp_path}/scratch rw,nosuid - tmpfs tmpfs rw,size=1024k",
        f"2 0 0:2 / {tmp_path}/ro ro,nosuid - tmpfs tmpfs ro",
        f"3 0 8:1 / {tmp_path}/disk rw,relatime - ext4 /dev/vda rw",            # the host's disk: Harbor's, not ours
        f"4 0 0:3 / {tmp_path}/queue rw,nosuid - mqueue mqueue rw",
        f"5 0 0:4 /null {tmp_path}/file rw,nosuid - tmpfs tmpfs rw",            # a file mounted over a file
        f"6 0 0:5 / {tmp_path}/with\\040space rw - tmpfs tmpfs rw",
        "7 0 0:6 / /proc rw,nosuid - proc proc rw",
    ])
    found = {p.path: p for p in find_places(table) if p.path.startswith(str(tmp_path))}
    assert found == {f"{tmp_path}/scratch": Place(f"{tmp_path}/scratch", True, False),
                     f"{tmp_path}/queue": Place(f"{tmp_path}/queue", False, False),
                     f"{tmp_path}/with space": Place(f"{tmp_path}/with space", True, False)}


def _deep_tree(top: str, levels: int) -> None:
    """A chain of folders of 200-character names, made by relative mkdir/chdir (no path is ever
    longer than one name), with a file at the bottom and a folder of mode 000 on the way."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    name = "d" * 200
    for level in range(levels):
        os.mkdir(name, dir_fd=fd)
        inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = inner
        if level == levels // 2:
            os.mkdir("locked", 0o700, dir_fd=fd)
            with open(os.open("locked/secret", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd), "w") as f:
                f.write("42")
            os.chmod("locked", 0, dir_fd=fd)
    with open(os.open("answer", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd), "w") as f:
        f.write("42")
    os.close(fd)


def test_a_folder_is_emptied_whatever_it_holds_and_nothing_outside_it_is_touched(tmp_path):
    place, outside = tmp_path / "place", tmp_path / "outside"
    place.mkdir()
    outside.mkdir()
    (outside / "keep").write_text("kept")
    _deep_tree(str(place), 40)  # 40 x 201 bytes: twice PATH_MAX
    os.symlink(outside, place / "link-to-outside")
    os.symlink(outside / "keep", place / "link-to-file")
    os.mkfifo(place / "fifo")
    (place / "new\nline \udcff").mkdir()
    (place / "bare").mkdir(mode=0)
    empty_folder(str(place), Budget(10_000, 10.0))
    assert os.listdir(place) == []
    assert (outside / "keep").read_text() == "kept"


def test_emptying_stops_at_its_budget_and_the_measurement_sees_what_is_left(tmp_path, monkeypatch):
    place = Place(str(tmp_path / "place"), False, True)
    os.mkdir(place.path)
    baseline = Baseline([place])
    assert baseline.restore() == []
    for i in range(50):
        os.mkdir(os.path.join(place.path, str(i)))
    monkeypatch.setattr(clean, "SCRUB_ENTRY_BUDGET", 20)
    left = baseline.restore()
    assert 0 < len(os.listdir(place.path)) < 50
    assert left == [f"{place.path}: entries at the top 0 -> {len(os.listdir(place.path))}"]
    monkeypatch.undo()
    assert baseline.restore() == []  # a full budget: everything goes
    assert os.listdir(place.path) == []


def test_a_place_that_is_only_measured_is_never_emptied(tmp_path):
    watched = Place(str(tmp_path), False, False)
    baseline = Baseline([watched])
    (tmp_path / "left").write_text("x")
    assert baseline.restore() == [f"{tmp_path}: entries at the top 0 -> 1"]
    assert (tmp_path / "left").exists()
    assert measure(Place(str(tmp_path / "missing"), True, False)) is None
