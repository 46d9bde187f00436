"""What the test set for the process the program runs in, for one request (``judge.environment``).

The program's ``sys.stdout`` and ``sys.stderr`` write into buffers whose text goes back to the
test's own streams where the test redirected them; its ``sys.stdin`` is the test's (a proxy) where
the test replaced it; the builtins the test replaced are the test's (proxies, callbacks) for the
request; ``random``'s state is the test's, and goes back once the request changed it; the
test's definitions the judge sends (those the program's code reads by name: ``judge.environment``)
are the program's globals where it has none of the name. Everything
is put back when the request is answered, so the program's code after it sees its own again, and
the monitor sees its builtins as they were. So are what the test patched of the modules the program
uses (a mock in place of ``os.path.exists``), the environment variables and the working folder.

Nothing here is trusted: it runs in the program's process.
"""

from __future__ import annotations

import builtins
import io
import os
import sys

# The builtins this module uses: a program that replaces one (``builtins.isinstance = ...``)
# changes nothing of what this module reads and writes.
from builtins import (  # noqa: UP029 - bound once, as the fork server loaded them
    delattr,
    dict,
    getattr,
    list,
    object,
    reversed,
    setattr,
    vars,
)

_MISSING = object()
_BUILTINS = vars(builtins)


class Applied:
    """One request's environment, applied (``apply``) until ``undo``."""

    __slots__ = ("cwd", "environ", "err", "modules", "out", "patched", "random_after", "shared_random", "stdin",
                 "streams")

    def __init__(self):
        self.out = self.err = None
        self.streams: list = []
        self.stdin = _MISSING
        self.patched: dict = {}
        self.modules: list = []  # (object, attribute, value before)
        self.environ: dict = {}  # name -> value before (or _MISSING)
        self.cwd: str | None = None  # the working folder before
        self.shared_random = False
        self.random_after = None


def apply(env, take, namespace: dict) -> Applied | None:
    """Apply ``env`` (``judge.environment.Environment.outgoing``), its values built by ``take``; the
    test's definitions become the program's globals (``namespace``) where it has none of the name."""
    if env is None:
        return None
    out, err, stdin, patches, state, shared_random, definitions, modules, environ, cwd = env
    applied = Applied()
    if modules is not None:  # what the test patched of a module the program may use: the test's value
        for module, path, value in take(modules):
            target, attribute = _target(module, path)
            applied.modules.append((target, attribute, getattr(target, attribute, _MISSING)))
            setattr(target, attribute, value)
    if environ is not None:
        for name, value in take(environ).items():
            applied.environ[name] = os.environ.get(name, _MISSING)
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    if cwd is not None:
        applied.cwd = os.getcwd()
        os.chdir(cwd)
    if definitions is not None:
        for name, value in take(definitions).items():
            namespace.setdefault(name, value)
    applied.streams = [sys.stdout, sys.stderr]
    if out:
        applied.out = sys.stdout = io.StringIO()
    if err:
        applied.err = sys.stderr = io.StringIO()
    if stdin is not None:
        applied.stdin = sys.stdin
        sys.stdin = take(stdin)
    if patches is not None:
        for name, value in take(patches).items():
            applied.patched[name] = _BUILTINS.get(name, _MISSING)
            _BUILTINS[name] = value
    if state is not None or shared_random:
        import random

        if state is not None:
            random.setstate(take(state))
        applied.shared_random = True
        applied.random_after = random.getstate()
    return applied


def _target(module: str, path: str):
    """The object and attribute that ``module`` and ``path`` (``exists``, ``get`` of a class ``Session``) name here."""
    import importlib

    target: object = importlib.import_module(module)
    *parents, attribute = path.split(".")
    for part in parents:
        target = getattr(target, part)
    return target, attribute


def undo(applied: Applied | None) -> list | None:
    """Put back what ``apply`` changed; what goes back to the test: ``[stdout text, stderr text,
    random state]`` (null where nothing), or None."""
    if applied is None:
        return None
    for target, attribute, value in reversed(applied.modules):
        if value is _MISSING:
            try:
                delattr(target, attribute)
            except AttributeError:
                pass
        else:
            setattr(target, attribute, value)
    for name, value in applied.environ.items():
        if value is _MISSING:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    if applied.cwd is not None:
        os.chdir(applied.cwd)
    sys.stdout, sys.stderr = applied.streams
    if applied.stdin is not _MISSING:
        sys.stdin = applied.stdin
    for name, value in applied.patched.items():
        if value is _MISSING:
            _BUILTINS.pop(name, None)
        else:
            _BUILTINS[name] = value
    state = None
    if applied.shared_random:
        random = sys.modules.get("random")
        if random is not None:
            now = random.getstate()
            state = now if now != applied.random_after else None
    out = applied.out.getvalue() if applied.out is not None else None
    err = applied.err.getvalue() if applied.err is not None else None
    return None if out is None and err is None and state is None else [out, err, state]
