"""A clean container, measured: the places a job can write, their state when the container started
(the baseline), emptying them after each job, and what a job left that would not go (its residue).

Stdlib only; runs in the runner, as root with ``DAC_OVERRIDE`` and ``FOWNER``: it opens, lists and
removes whatever modes and owners a program gave its files.

The places are found from the mounts (``/proc/self/mountinfo``, ``mounts.mount_table``): every
writable mount whose counters are the container's own (``tmpfs``, ``ramfs``, ``mqueue``: a sandbox container's root is
read-only and each of its writable folders is one of these), and the folders a job may write at
the top of (``FOLDERS``), mount or not (in a Harbor verifier box ``/tmp`` is a folder of Harbor's
root). A place is measured by its entries at the top and, where ``statvfs`` counts that mount
alone, by its used inodes and blocks: any file, folder, link, socket or FIFO, at any depth,
changes those counts, and so does a file that a surviving process still holds open. Mounts on
the host's disks (a Harbor box's log folders) are Harbor's, neither emptied nor measured. A place
the runner makes anew after every job (``/tmp``, where it can mount: ``counters``) is none of
them: a fresh mount holds nothing, and its counters start anew.

Emptying never walks by path: it goes depth first through directory descriptors, and a folder
``MAX_DEPTH`` levels down is moved up to the top of its place (``renameat``) and emptied from
there, so no path ever grows (a tree deeper than ``PATH_MAX`` goes like any other) and at most
``MAX_DEPTH`` levels hold descriptors at once. A job that left more than
``SCRUB_ENTRY_BUDGET`` entries, or that would take longer than ``SCRUB_TIME_BUDGET_S`` to remove,
is not emptied to the end: its container does not come back to its baseline, and the host
replaces it (``residue``).
"""

from __future__ import annotations

import os
import stat
import time
from typing import NamedTuple

from .mounts import MS_RDONLY, mount_table

FOLDERS = ("/tmp", "/dev/shm", "/dev/mqueue", "/run/judge")  # emptied after every job
OWN_COUNTERS = frozenset({"tmpfs", "ramfs"})  # statvfs counts this mount's files alone
OWN_FILESYSTEMS = OWN_COUNTERS | {"mqueue"}  # the container's own: its counters say nothing of the host
SCRUB_ENTRY_BUDGET = 50_000
SCRUB_TIME_BUDGET_S = 5.0
MAX_DEPTH = 32  # levels removed depth first (two descriptors each); deeper folders move up to the top
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK


class Place(NamedTuple):
    """A folder a job's processes can change: ``counted`` if ``statvfs`` counts its mount alone;
    ``emptied`` if everything in it goes after each job."""

    path: str
    counted: bool
    emptied: bool


def _is_folder(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def find_places(mountinfo: str = "/proc/self/mountinfo", renewed: frozenset[str] = frozenset()) -> list[Place]:
    """The places of this container: its writable mounts of the container's own filesystems, and
    ``FOLDERS`` (emptied); none of ``renewed`` (made anew after every job: ``counters``)."""
    places = {m.point: Place(m.point, m.fstype in OWN_COUNTERS, m.point in FOLDERS)
              for m in mount_table(mountinfo).values()
              if not m.flags & MS_RDONLY and m.fstype in OWN_FILESYSTEMS and _is_folder(m.point)}
    for path in FOLDERS:
        if path not in places and _is_folder(path):
            places[path] = Place(path, False, True)
    return sorted(place for path, place in places.items() if path not in renewed)


def measure(place: Place) -> tuple[int, ...] | None:
    """``(used inodes, used blocks)`` of ``place`` where ``statvfs`` counts its mount alone (every
    file, folder, link, FIFO or socket takes an inode; a hard link needs a file to link to, and
    what a job may write holds none at the start), else ``(entries at the top,)``; None if it
    cannot be read."""
    try:
        if not place.counted:
            return (len(os.listdir(place.path)),)
        counts = os.statvfs(place.path)
        return counts.f_files - counts.f_ffree, counts.f_blocks - counts.f_bfree
    except OSError:
        return None


def _gone(remove, folder_fd: int, name: str) -> bool:
    """Whether ``remove`` (``os.unlink`` or ``os.rmdir``) took ``name`` away (or it was gone)."""
    try:
        remove(name, dir_fd=folder_fd)
        return True
    except FileNotFoundError:
        return True
    except OSError:
        return False


class Budget:
    """Entries and seconds an emptying may still spend."""

    def __init__(self, entries: int, seconds: float):
        self.entries, self.deadline = entries, time.monotonic() + seconds

    def spend(self) -> bool:
        """Count one entry; False once the budget is spent."""
        self.entries -= 1
        return self.entries > 0 and (self.entries % 1024 != 0 or time.monotonic() < self.deadline)


def empty_folder(path: str, budget: Budget) -> None:
    """Remove everything in the folder ``path`` (not the folder), at any depth, of any mode, name
    or owner, within ``budget``; errors are left for the measurement to find."""
    try:
        top = os.open(path, _DIR)
    except OSError:
        return
    try:
        moved = [0]
        while True:  # again while folders were moved up to the top
            before = moved[0]
            if not _empty(top, top, 0, budget, moved) or moved[0] == before:
                return
    finally:
        os.close(top)


def _empty(folder: int, top: int, depth: int, budget: Budget, moved: list[int]) -> bool:
    """Remove what the folder of descriptor ``folder`` holds, depth first; a folder ``MAX_DEPTH``
    levels below the top moves up to it instead (``moved`` counts them: each gets a fresh name).
    False once the budget is spent."""
    with os.scandir(folder) as entries:
        for entry in entries:
            if not budget.spend():
                return False
            name = entry.name
            try:  # the type the folder's listing gives (no call for it)
                is_folder = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_folder = True
            if not is_folder and _gone(os.unlink, folder, name):
                continue
            if depth >= MAX_DEPTH:
                moved[0] += 1
                try:  # onto a name taken at the top: it stays for the next round
                    os.rename(name, f".scrub-{moved[0]}", src_dir_fd=folder, dst_dir_fd=top)
                except OSError:
                    pass
                continue
            try:
                inner = os.open(name, _DIR, dir_fd=folder)
            except OSError:  # not a folder after all
                _gone(os.unlink, folder, name)
                continue
            try:
                if not _empty(inner, top, depth + 1, budget, moved):
                    return False
            finally:
                os.close(inner)
            _gone(os.rmdir, folder, name)
    return True


class Baseline:
    """The container's places and their state when it started (after emptying them once); the
    places made anew after every job (``renewed``) are none of them."""

    def __init__(self, places: list[Place] | None = None, renewed: frozenset[str] = frozenset()):
        self.places = find_places(renewed=renewed) if places is None else places
        budget = Budget(SCRUB_ENTRY_BUDGET, SCRUB_TIME_BUDGET_S)
        for place in self.places:
            if place.emptied:
                empty_folder(place.path, budget)
        self.states = {place: measure(place) for place in self.places}

    def restore(self) -> list[str]:
        """Bring every place back to the baseline: measure it, empty it if it differs (and may be
        emptied; one budget for all), measure it again.

        Returns:
            the residue: each place that is still not as it was, said in a few words.
        """
        budget = Budget(SCRUB_ENTRY_BUDGET, SCRUB_TIME_BUDGET_S)
        left = []
        for place in self.places:
            before, now = self.states[place], measure(place)
            if now != before and place.emptied:
                empty_folder(place.path, budget)
                now = measure(place)
            if now != before:
                left.append(f"{place.path}: {_describe(place, before, now)}")
        return left


def _describe(place: Place, before: tuple[int, ...] | None, now: tuple[int, ...] | None) -> str:
    if before is None or now is None:
        return "cannot be read" if now is None else "readable now, not at the start"
    names = ("inodes in use", "blocks in use") if place.counted else ("entries at the top",)
    return ", ".join(f"{name} {a} -> {b}" for name, a, b in zip(names, before, now, strict=True) if a != b)
