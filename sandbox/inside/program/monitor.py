"""The monitor: an audit hook (PEP 578) in every process of the program's, and the checks of
builtins and standard modules.

It refuses what would hand the program harness code or another process's state (frames of
harness code, every thread's frames, trace and profile functions, the garbage collector's object
lists, harness code objects, changes to harness functions) and flags (``records.FLAGS``) each
refusal and each attempt against the sandbox: signals to other processes, reads of other
processes' ``/proc`` files, modules written or imported from the working folder or /tmp, ctypes.
A flag is evidence, never a verdict; since the program's process writes them, a program can
forge flags against itself only.
"""

from __future__ import annotations

import os
import sys

from ..dicttag import version_tag
from ..records import FLAG, PLANTED_SUFFIXES

_FUNCTION = type(lambda: None)
HARNESS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # sandbox/inside (and program/)

_PROGRAM_MODULES = frozenset({"main", "__main__"})  # the ``__name__`` of a program's globals
# The standard modules whose patching is flagged: tests call these. Those the fork server loads
# itself (``typing`` and what it imports) only when the program imported them too: looking at them
# costs every job; the others are loaded by the program or not at all.
_MONITORED_MODULES = ("math", "random", "string", "itertools", "copy", "heapq", "bisect", "statistics",
                      "fractions", "decimal", "json", "cmath")
_PRELOADED_MONITORED = ("re", "operator", "functools", "collections")
_FRAME_ATTRS = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
_CODE_ATTRS = frozenset({"__code__", "gi_code", "cr_code", "ag_code"})
_WATCHED = frozenset({"sys._getframe", "sys._current_frames", "object.__getattr__", "object.__setattr__",
                      "sys.settrace", "sys.setprofile", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
                      "os.kill", "os.killpg", "signal.pthread_kill", "open", "import", "ctypes.dlopen",
                      "ctypes.dlsym", "ctypes.cdata", "ctypes.string_at", "ctypes.wstring_at", "ctypes.addressof",
                      "ctypes.call_function", "ctypes.set_errno", "ctypes.get_errno"})


_STD_PATHS = frozenset({"/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2", "/proc/self/fd/1", "/proc/self/fd/2"})


# The builtins as the fork server loaded them, before any program: what every process of the
# program's starts with, and what the harness puts back (``restore_builtins``), held in tuples (a
# program reaches this module through ``sys.modules``: nothing of it that decides may be mutable).
_BUILTINS = vars(__import__("builtins"))
_PRISTINE_ITEMS = tuple(_BUILTINS.items())
_PRISTINE_KEYS, _PRISTINE_VALUES = tuple(_BUILTINS), tuple(_BUILTINS.values())
_TAG = version_tag(_BUILTINS)


def builtins_untouched(_tag=_TAG, _pristine=_TAG.value if _TAG is not None else None) -> bool:
    """Whether the builtins certainly are as the fork server loaded them: their dict has not
    changed since (its version tag); False where that cannot be told, or once anything changed
    them (even back). A program that rewrites the tag itself (ctypes) hides a patch from the
    flag, as one that undoes its patch before it ends does: the flag is evidence, never a verdict."""
    return _tag is not None and _tag.value == _pristine


def restore_builtins(_vars=_BUILTINS, _items=_PRISTINE_ITEMS, _clear=dict.clear, _update=dict.update,
                     _untouched=builtins_untouched) -> None:
    """Undo a program's changes to builtins before harness code runs again (nothing to do, and
    no builtin touched, where their dict has not changed since the fork server loaded them)."""
    if _untouched():
        return
    _clear(_vars)
    _update(_vars, _items)


class Monitor:
    """The program's process's view of its monitor (``install``): ``flag(name)`` writes a
    ``flag`` record once per name; ``check()`` flags patched builtins and standard modules;
    ``opened_std()`` says whether the program opened a writer of its own on a descriptor or on its
    stdout or stderr by name (``open(1, "w")``, ``os.fdopen(os.dup(1), "w")``: the interpreter
    flushes it at exit)."""

    __slots__ = ("check", "flag", "opened_std")

    def __init__(self, flag, check, opened_std):
        self.flag, self.check, self.opened_std = flag, check, opened_std


def install(report, _addaudithook=sys.addaudithook, _getframe=sys._getframe, _getpid=os.getpid,
            _getppid=os.getppid, _type=type, _str=str, _bytes=bytes, _getattr=getattr, _modules=sys.modules,
            _vars=vars, _len=len, _any=any, _map=map, _is_not=__import__("operator").is_not, _function=_FUNCTION,
            _builtins=_BUILTINS, _untouched=builtins_untouched, _pristine_keys=_PRISTINE_KEYS,
            _pristine_values=_PRISTINE_VALUES, _tuple=tuple, _get=dict.get) -> Monitor:
    """Install the audit hook of this process (it can never be removed) and return its ``Monitor``.

    The hook refuses (raises ``RuntimeError`` in the program) what hands the program harness code
    or another process's state: a frame of harness code (``sys._getframe``, a traceback's or a
    generator's frame), every thread's frames (``sys._current_frames``), trace and profile
    functions (they see every frame), the garbage collector's object lists, harness code objects,
    and changes to harness functions. It flags (``records.FLAGS``) each refusal, signals to other
    processes, reads of other processes' ``/proc`` files, modules written or imported from the
    working folder or /tmp, and ctypes. Requests made by harness code itself go through. Audit
    hooks: PEP 578.
    """
    seen, busy, imported, opened_std = set(), [False], set(), [False]

    def flag(name: str) -> None:
        if name not in seen:
            seen.add(name)
            report(FLAG, name=name)

    def is_harness(frame) -> bool:
        return frame is not None and frame.f_code.co_filename.startswith(HARNESS_DIR)

    def refuse(name: str, what: str):
        flag(name)
        return f"{what} is refused in the sandbox"

    def decide(event: str, args, requester) -> str | None:
        by_harness = is_harness(requester)  # the frame that made the audited request
        if event == "sys._getframe":
            if is_harness(args[0]) and not by_harness:
                return refuse("frame_inspection", "reaching a frame of the harness")
        elif event == "object.__getattr__":
            obj, name = args[0], args[1]
            if name in _FRAME_ATTRS:
                if not by_harness and is_harness(_getattr(obj, name)):
                    return refuse("frame_inspection", "reaching a frame of the harness")
            elif name == "f_code":
                if is_harness(obj) and not by_harness:
                    flag("frame_inspection")
            elif name in _CODE_ATTRS:
                code = _getattr(obj, name)
                if code is not None and code.co_filename.startswith(HARNESS_DIR) and not by_harness:
                    return refuse("test_tampering", "reading the harness's code objects")
        elif event == "object.__setattr__":
            if _type(args[0]) is _function and args[0].__code__.co_filename.startswith(HARNESS_DIR):
                return refuse("test_tampering", "changing a harness function")
        elif event in ("sys._current_frames", "sys.settrace", "sys.setprofile"):
            return refuse("frame_inspection", event)
        elif event.startswith("gc."):
            if not by_harness:  # (the harness flushes the program's writers at its exit: ``child._finish``)
                return refuse("gc_walk", event)
        elif event.startswith("ctypes."):
            if not by_harness:  # (the harness's own fork goes through ctypes: ``procs.fork_to_parent``)
                flag("ctypes")
        elif event == "open":
            path = args[0]
            if _type(path) is _bytes:
                path = path.decode("utf-8", "replace")
            writing = (_type(args[1]) is _str and any(c in args[1] for c in "wax+")) or \
                (_type(args[2]) is int and args[2] & (os.O_WRONLY | os.O_RDWR))
            if writing and (_type(path) is int or path in _STD_PATHS):  # a descriptor: a copy of stdout, maybe
                opened_std[0] = True
            if _type(path) is _str:
                if path.startswith("/proc/") and not path.startswith(("/proc/self/", "/proc/thread-self/",
                                                                      f"/proc/{_getpid()}/")):
                    flag("test_tampering")
                if writing and path.endswith(PLANTED_SUFFIXES):
                    flag("module_planted")
        elif event == "import":
            imported.add(args[0])
            where = args[1]
            if _type(where) is _str and not where.startswith(("/usr/", "/opt/sandbox/")):
                flag("module_planted")
        else:  # os.kill, os.killpg, signal.pthread_kill
            target = args[0]
            if event == "signal.pthread_kill" or target == _getppid() or target <= 1 or not _is_descendant(target):
                flag("parent_killed")
        return None

    def hook(event, args, _watched=_WATCHED) -> None:
        if event not in _watched or busy[0]:
            return
        busy[0] = True
        try:
            refusal = decide(event, args, _getframe(1))
        except BaseException:  # noqa: BLE001 - the hook itself never breaks the program's request
            refusal = None
        finally:
            busy[0] = False
        if refusal is not None:
            raise RuntimeError(refusal)

    def check(namespace: dict, done: bool = False, shadows: bool = True) -> None:
        """Flag builtins the program changed, or (``shadows``: its names are what tests use)
        shadowed in its globals (``namespace``) with functions of its own, and the standard modules
        it imported and patched (call before restoring builtins). After the program's top level in
        a zygote, and in a process of its own; not in a zygote's test processes (``done``): every
        object a check touches would cost such a process a page copy (its reference count is
        written)."""
        if done:
            return
        if not _untouched() and (_len(_builtins) != _len(_pristine_keys) or _any(
                _map(_is_not, _map(_builtins.get, _pristine_keys), _pristine_values))):
            flag("builtins_patched")
        for name in _tuple(namespace) if shadows else ():  # the program's few names, not every builtin's
            try:  # (an object of the program's may raise as it says its module: not flagged)
                if _type(name) is _str and name in _builtins and not name.startswith("__") \
                        and _getattr(_get(namespace, name), "__module__", None) in _PROGRAM_MODULES:
                    flag("builtins_patched")
            except BaseException:  # noqa: BLE001
                pass
        for name in (*_MONITORED_MODULES, *(m for m in _PRELOADED_MONITORED if m in imported)):
            module = _modules.get(name)
            if module is None:
                continue
            for value in _vars(module).values():
                kind = _type(value)
                owner = _getattr(value, "__module__", None) if kind is _function or kind is type \
                    else _getattr(kind, "__module__", None)
                if owner in _PROGRAM_MODULES:
                    flag("module_patched")
                    return

    def unraisable(info, _default=sys.unraisablehook) -> None:
        """An exception a destructor raised (it cannot propagate): ``SystemExit`` there is an
        attempt to end the process."""
        if isinstance(info.exc_value, SystemExit):
            flag("early_exit")
        _default(info)

    sys.unraisablehook = unraisable
    _addaudithook(hook)
    return Monitor(flag, check, lambda: opened_std[0])


def _is_descendant(pid: int) -> bool:
    """Whether process ``pid`` descends from this one (``/proc/PID/stat``)."""
    me = os.getpid()
    for _ in range(64):
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                pid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
        if pid == me:
            return True
        if pid <= 1:
            return False
    return False


# ------------------------------------------------------------------------------------------
