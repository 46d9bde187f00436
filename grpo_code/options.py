"""Command-line options as data, each table owned by the module whose settings it sets.

An ``Option`` names a flag, the setting it fills (``dest``: a field of a settings class or a
parameter of the function that reads the options), its type and help. The default is not in
the table: it is the owner's own (the field's or the parameter's), so it has one owner. The CLI
adds a table's options to a parser (``add_options``) and hands their values back (``values``).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple


class Option(NamedTuple):
    """One option: ``flag`` fills ``dest``; ``kind`` converts its text (``bool``: a switch)."""

    flag: str
    dest: str
    kind: type
    help: str
    metavar: str | None = None


def defaults_of(owner: type | Callable) -> dict[str, Any]:
    """The defaults of a dataclass's fields, or of a function's parameters, by name."""
    if dataclasses.is_dataclass(owner):
        return {f.name: f.default for f in dataclasses.fields(owner) if f.default is not dataclasses.MISSING}
    return {name: p.default for name, p in inspect.signature(owner).parameters.items()
            if p.default is not inspect.Parameter.empty}


def add_options(parser, options: Iterable[Option], owner: type | Callable) -> None:
    """Add ``options`` to an ``argparse`` parser, each with its owner's default for its ``dest``
    (``%(default)s`` in a help text shows it; None where the owner has none)."""
    defaults = defaults_of(owner)
    for option in options:
        if option.kind is bool:
            parser.add_argument(option.flag, dest=option.dest, action="store_true", help=option.help)
        else:
            parser.add_argument(option.flag, dest=option.dest, type=option.kind, default=defaults.get(option.dest),
                                metavar=option.metavar, help=option.help)


def values(args, options: Iterable[Option]) -> dict[str, Any]:
    """The parsed values of ``options``, by ``dest`` (the owner's keyword arguments)."""
    return {option.dest: getattr(args, option.dest) for option in options}


def spelled(setting: str, names: Mapping[str, str] | None) -> str:
    """How a caller's users write the setting ``setting`` (``names``: setting -> its option, such as
    ``{"mode": "--reward_mode"}``), for a message; the setting's own name where ``names`` has none."""
    return (names or {}).get(setting, setting)
