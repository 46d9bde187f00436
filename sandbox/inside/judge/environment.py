"""What the test sets for the process the program runs in: as in one process, where they share it.

The rule: what a test changes of its own process that the program's code would see in one process
reaches the program's process for each request, and what the program does to it comes back: the
test's ``sys.stdout`` and ``sys.stderr`` when it redirected them (``contextlib.redirect_stdout``,
pytest's ``capsys``): the program's output during the request is captured there and written to
the test's; the test's ``sys.stdin`` when it replaced it (a ``StringIO``): the program reads from
the test's (a proxy, ``judge.objects``); the builtins the test replaced (``builtins.input``): the
program's are the test's for the request; the state of ``random`` once the test seeded or drew
from it: one stream for both, as they share one module. Each is sent only where the test changed
it, so a test that changes none of them costs nothing more.

The test's definitions are the exception, where one namespace is looser than the judge may be: a
class the test or the task's setup defines, or a function the setup defines (the prompt's helper),
becomes a global of the program's only under a name the program's own code loads as a global and
never binds at its top level (``guard.program_reads``, which the runner reads off the program it
compiled), as where the program uses the test's ``ListNode`` or the prompt's ``poly``. A function
of the test's own code (its ``check``, a helper that holds or computes expected values) never does,
nor anything the program could reach only by a string (``globals()["check"]``, ``getattr``,
``eval``): no program reads an expected value by calling the test's checking code (``_offered``).

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import os
import sys
import types
import weakref
from typing import Any

from .taskcode import PRISTINE

_MISSING = object()
_STREAMS = frozenset({"stdout", "stderr", "stdin"})  # what ``Environment.outgoing`` carries of ``sys`` itself


_PATCHES: weakref.WeakSet = weakref.WeakSet()  # the active patches of unittest.mock (``watch_patches``)
_MONKEYPATCHES: weakref.WeakSet = weakref.WeakSet()  # pytest's MonkeyPatch objects a test made
WATCHING = [True]  # whether a test's code runs (pytest makes MonkeyPatch objects of its own between cases)


def _offered(value) -> bool:
    """Whether ``value``, a definition of the test's namespace, is one the program may be given
    under a name it reads: a class the test or the task's setup defines (a ``ListNode``), or a
    function the task's setup defines (the prompt's helpers, such as HumanEval/32's ``poly``, and
    the prelude's). Never a function of the test's own code: that is what checks the program
    (HumanEval's ``check``, a helper that builds or compares expected values), and in no test form
    does the program call it (the test calls it, with the program's function)."""
    if isinstance(value, type):
        return value.__module__ == "__test__"
    code = getattr(value, "__code__", None)
    return code is not None and getattr(code, "co_filename", None) == "<setup>"


def watch_patches(module: types.ModuleType) -> None:
    """Keep note of the patches a test makes with ``unittest.mock`` (its ``_patch``) or pytest's
    ``MonkeyPatch``, as ``module`` is imported (an import hook of the judge's: ``judge.applied``)."""
    patch: Any = getattr(module, "_patch", None)
    if module.__name__ == "unittest.mock" and patch is not None:
        enter, leave = patch.__enter__, patch.__exit__

        def entered(self, *args, **kwargs):
            value = enter(self, *args, **kwargs)
            _PATCHES.add(self)
            return value

        def left(self, *args, **kwargs):
            _PATCHES.discard(self)
            return leave(self, *args, **kwargs)

        patch.__enter__ = entered
        patch.__exit__ = left
    monkeypatch: Any = getattr(module, "MonkeyPatch", None)
    if module.__name__ == "_pytest.monkeypatch" and monkeypatch is not None:
        made = monkeypatch.__init__

        def init(self, *args, **kwargs):
            made(self, *args, **kwargs)
            if WATCHING[0]:
                _MONKEYPATCHES.add(self)

        monkeypatch.__init__ = init


def _patched() -> dict[tuple[str, str], object]:
    """What the test's active patches set of the judge's own modules (and of their classes):
    ``(module, attribute path) -> value now``; a target that is the program's (its module, a
    ``Remote``) is patched in the program's process already."""
    targets: list[tuple[object, str]] = [(p.target, p.attribute) for p in list(_PATCHES)
                                         if getattr(p, "attribute", None)]
    for monkeypatch in list(_MONKEYPATCHES):
        targets += [(obj, name) for obj, name, _ in getattr(monkeypatch, "_setattr", ())]
    patched: dict[tuple[str, str], object] = {}
    for target, attribute in targets:
        if target is sys and attribute in _STREAMS:  # a stream the test patched: captured as any redirection
            continue
        where = _where(target)
        if where is not None:
            patched[where[0], f"{where[1]}{attribute}"] = getattr(target, attribute, None)
    return patched


def _where(target) -> tuple[str, str] | None:
    """``(module name, attribute path prefix)`` by which the program's process finds ``target``: a
    module of the judge's, or a class of one; None for anything else (the program's own objects)."""
    if type(target) is types.ModuleType and not target.__name__.startswith(("inside.", "__test__")):
        return target.__name__, ""
    if not issubclass(type(target), type):  # (not ``isinstance``: it would ask a Remote its ``__class__``)
        return None
    name, qualname = getattr(target, "__module__", None), getattr(target, "__qualname__", None)
    if type(name) is not str or type(qualname) is not str or name.startswith(("inside.", "__test__")):
        return None
    module = sys.modules.get(name)
    value: object = module
    for part in qualname.split("."):
        value = getattr(value, part, None)
    return (name, qualname + ".") if value is target and module is not None else None


def _environ_data() -> dict | None:
    """``os.environ``'s own table (bytes to bytes); None where a test replaced ``os.environ`` with
    something else. Compared in one step, where ``os.environ`` compared with a dict decodes every
    variable."""
    data = getattr(os.environ, "_data", None)
    return data if type(data) is dict else None


class Environment:
    """One test's environment as the program's process must see it (the module docstring)."""

    def __init__(self, program_reads: frozenset[str] = frozenset()):
        self.program_reads = program_reads  # the names the program loads as globals (``guard.program_reads``)
        self.stdout, self.stderr, self.stdin = sys.stdout, sys.stderr, sys.stdin  # the test's own, at its start
        module = sys.modules.get("random")
        self.random_last = module.getstate() if module is not None else None
        self.random_shared = False  # the test seeded or drew: one stream from now on
        self.namespace: dict = {}  # the test's (``asserts.run_test`` sets it)
        self.seen = 0  # the namespace's size when its definitions were last sent
        self.sent: set[str] = set()  # the names of the test's definitions sent
        self.environ = dict(os.environ)  # the environment variables at the test's start
        data = _environ_data()  # and as ``os.environ`` holds them (bytes), compared at each request
        self.environ_data = dict(data) if data is not None else None
        self.cwd = os.getcwd()

    def outgoing(self, sender, name: str, test_builtins: dict | None) -> tuple | None:
        """What the next request carries of the environment: ``(capture stdout, capture stderr,
        stdin, builtins patched, random state, random shared, the test's new definitions that the
        program reads (``_offered``, under a name in ``program_reads``), modules patched,
        environment variables changed, working folder)``, or None where the test changed none of
        them."""
        out, err = sys.stdout is not self.stdout, sys.stderr is not self.stderr
        stdin = sender.crossing(sender.proxy(sys.stdin), name) if sys.stdin is not self.stdin else None
        patches = None
        if test_builtins is not None:  # (``taskcode.take_test_builtins``: the judge's own are in place now)
            changed = {key: value for key, value in test_builtins.items() if PRISTINE.get(key, _MISSING) is not value}
            patches = sender.crossing(changed, name) if changed else None
        state = None
        module = sys.modules.get("random")
        if module is not None:
            now = module.getstate()
            if now != self.random_last:
                self.random_last, self.random_shared = now, True
                state = sender.crossing(now, name)
        definitions = None
        if len(self.namespace) != self.seen:
            self.seen = len(self.namespace)
            new = {key: value for key, value in self.namespace.items()
                   if key in self.program_reads and key not in self.sent and _offered(value)}
            if new:
                self.sent.update(new)
                definitions = sender.crossing(new, name)
        modules = _patched() if _PATCHES or _MONKEYPATCHES else {}
        patched = sender.crossing([[m, a, v] for (m, a), v in modules.items()], name) if modules else None
        environ = None
        data = _environ_data()
        if (data is None or data != self.environ_data) and os.environ != self.environ:
            changed_env: dict[str, str | None] = {k: v for k, v in os.environ.items() if self.environ.get(k) != v}
            changed_env.update({k: None for k in self.environ if k not in os.environ})
            environ = sender.crossing(changed_env, name)
        now_cwd = os.getcwd()
        cwd = None if now_cwd == self.cwd else now_cwd
        if not (out or err or stdin or patches or state or self.random_shared or definitions or patched or environ
                or cwd):
            return None
        return out, err, stdin, patches, state, self.random_shared, definitions, patched, environ, cwd

    def incoming(self, io) -> None:
        """What an answer says of the environment (``[stdout text, stderr text, random state]``):
        the program's output written to the test's streams, the random stream's state taken."""
        if type(io) is not list or len(io) != 3:
            return
        out, err, state = io
        if type(out) is str and out:
            sys.stdout.write(out)
        if type(err) is str and err:
            sys.stderr.write(err)
        module = sys.modules.get("random")
        if module is None and type(state) is tuple:
            import random as module
        if module is not None and type(state) is tuple:
            try:
                module.setstate(state)
                self.random_last = module.getstate()
            except (TypeError, ValueError):  # not a state of ``random``'s: the program's answer, ignored
                pass
