"""The program as a module the test imports: ``import main``, ``mock.patch("main.fetch")``.

The rule: the test sees the program's module as in one process, where ``import main`` (or the
task's module name: ``solution``) gives the program's own module: reading one of its names gives
the object it names now (a ``Remote``, or plain data), setting one sets the program's global (a
mock the test patches in is then what the program's code calls), ``from main import *`` binds its
public names. Each test's module talks to that test's program's process (``bind``).

Stdlib only, light: the fork server loads it (``judge``).
"""

from __future__ import annotations

import sys
import types

GLOBALS = ("m", "")  # the program's module's globals, as ``program.calls.Server.resolve`` reads the reference


class ProgramModule(types.ModuleType):
    """The program's module, as the test imports it."""

    def __getattr__(self, name: str):
        channel = self.__dict__.get("_channel")
        if channel is None or (name.startswith("__") and name != "__all__"):
            raise AttributeError(name)
        if name == "__all__":
            return channel.op("names", GLOBALS, (), self.__name__)
        error = self.__dict__["_classes"].get(name)
        if error is not None:  # an exception class of the program's the test catches: the judge's own
            return error
        return channel.op("global", GLOBALS, (name,), name)

    def __setattr__(self, name: str, value) -> None:
        channel = self.__dict__.get("_channel")
        if name.startswith("__") or channel is None:
            self.__dict__[name] = value
        else:
            channel.op("setglobal", GLOBALS, (name, value), name)

    def __delattr__(self, name: str) -> None:
        channel = self.__dict__.get("_channel")
        if name.startswith("__") or channel is None:
            del self.__dict__[name]
        else:
            channel.op("delglobal", GLOBALS, (name,), name)

    def __dir__(self):
        channel = self.__dict__.get("_channel")
        return [] if channel is None else list(channel.op("names", GLOBALS, (), self.__name__))


def bind(names: tuple[str, ...], channel, classes: dict | None = None) -> None:
    """Make ``names`` (``main`` and the task's own module name) the program's module for the test
    whose channel is ``channel``; ``classes``: the program's exception classes the test catches,
    as the judge made them (``asserts._classes``)."""
    for name in names:
        module = sys.modules.get(name)
        if type(module) is not ProgramModule:
            module = sys.modules[name] = ProgramModule(name)
        module.__dict__["_channel"] = channel
        module.__dict__["_classes"] = classes or {}
