"""The judge's import hook: standard library functions a test applies to the program's objects,
applied where they live, and the patches a test makes, noted.

The rule: ``dataclasses.asdict(p)``, ``astuple``, ``replace``, ``fields`` and ``is_dataclass`` read
an object's own structure (its class's fields), which a ``Remote`` does not have: applied to an
object of the program's, each runs in the program's process on the real object (``program.calls``,
op ``apply``), and what it gives comes back as any value does; applied to anything else, it is the
judge's own. ``unittest.mock`` and pytest's ``monkeypatch`` are watched for the patches a test makes
(``judge.environment.watch_patches``); ``tempfile`` makes its folders where the program can use
them (``judge.files.share_tempfile``). A module is wrapped when a test first imports it
(``install``: an import hook of the judge's), never before: no test that does not use it pays for it.

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import importlib.machinery
import sys
from typing import Any

from .environment import watch_patches
from .files import share_tempfile

APPLIED = {"dataclasses": ("asdict", "astuple", "replace", "fields", "is_dataclass")}  # program.calls.APPLIED
WATCHED = ("unittest.mock", "_pytest.monkeypatch")  # where a test's patches are made (``watch_patches``)
SHARING = ("tempfile",)  # its folders made where the program can use them (``files.share_tempfile``)


def _applied(module: str, name: str, original, remote_type: Any):
    def function(*args, **kwargs):
        target: Any = args[0] if args else None
        if isinstance(target, remote_type):
            value = target._op("apply", (module, name, args, kwargs))
            return target._making(value) if target._made else value
        return original(*args, **kwargs)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = original.__doc__
    return function


class _Wrapping:
    """Imports one of ``APPLIED``'s modules as ever, then wraps its functions (an import hook: a
    meta path finder and the loader of what it finds)."""

    def __init__(self, remote_type: Any):
        self.remote_type = remote_type
        self.originals: dict[str, Any] = {}  # each module's own loader, by name

    def find_spec(self, fullname, path, target=None):
        if fullname not in APPLIED and fullname not in WATCHED and fullname not in SHARING:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return None
        self.originals[fullname] = spec.loader
        spec.loader = self  # type: ignore[assignment]  # (a loader by what it does)
        return spec

    def create_module(self, spec):
        return self.originals[spec.name].create_module(spec)

    def exec_module(self, module):
        self.originals[module.__name__].exec_module(module)
        if module.__name__ in WATCHED:
            watch_patches(module)
            return
        if module.__name__ in SHARING:
            share_tempfile(module)
            return
        for name in APPLIED[module.__name__]:
            setattr(module, name, _applied(module.__name__, name, getattr(module, name), self.remote_type))


def install(remote_type: Any) -> None:
    """Wrap ``APPLIED``'s modules as a test imports them (in a job's judge, before any test runs)."""
    sys.meta_path.insert(0, _Wrapping(remote_type))
