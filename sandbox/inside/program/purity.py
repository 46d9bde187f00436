"""Whether a generator of the program's may run ahead of the test: its next step is pure.

The judge takes a generator's items as the test takes them; running the generator ahead (items
taken before the test asks for them) is exact only where nothing can tell: the step from one
``yield`` to the next reads nothing that could change meanwhile and changes nothing anyone could
see. ``pure_step`` says so, conservatively, from two facts that no code of the program's can
bend while the step runs:

- its code (``gi_code``) is pure: only operations on values, jumps, loops, ``yield`` (no
  ``yield from``, no closures, no global, attribute or name stores, no imports, no functions or
  classes made), global names only of builtins that compute (``range``, ``len``, ``abs``, ...; not
  ``print``, ``input``, ``open``) that the program's module does not shadow, and attributes only
  of public names other than ``encode``/``decode`` (methods of the values it holds: a string's ``split``);
- what its frame holds now (its locals and its value stack, as the garbage collector sees them)
  is values that cannot change: None, numbers, strings, bytes, ranges, tuples and frozensets of
  them, and the iterators of those (``range``'s, a tuple's, a string's, ``enumerate``, ``zip``,
  ``reversed``); never a list, a dict, an object of the program's or of the test's, a function or
  a frame.

So the step computes from immutable values with builtins that only compute: it touches no state
of the program's or the test's, prints nothing, calls back nothing, and gives the same items
whenever it runs. Nothing here is trusted: it runs in the program's process, and what it decides
changes only how many of the program's items cross at once, never what they are.
"""

from __future__ import annotations

import builtins
import gc
import itertools
import opcode

# The builtins this module uses: a program that replaces one (``builtins.isinstance = ...``)
# changes nothing of what this module reads.
from builtins import (  # noqa: UP029 - bound once, as the fork server loaded them
    all,
    getattr,
    len,
    range,
    type,
)
from typing import Any

_OP = opcode.opmap
_PURE_OPS = frozenset(_OP[name] for name in (
    "NOP", "CACHE", "RESUME", "POP_TOP", "PUSH_NULL", "COPY", "SWAP", "LOAD_FAST", "STORE_FAST", "DELETE_FAST",
    "LOAD_CONST", "RETURN_VALUE", "RETURN_GENERATOR", "YIELD_VALUE", "GET_ITER", "FOR_ITER", "JUMP_FORWARD",
    "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_TRUE",
    "POP_JUMP_BACKWARD_IF_FALSE", "POP_JUMP_BACKWARD_IF_TRUE", "POP_JUMP_FORWARD_IF_NONE",
    "POP_JUMP_FORWARD_IF_NOT_NONE", "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE",
    "JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP", "BINARY_OP", "BINARY_SUBSCR", "STORE_SUBSCR", "DELETE_SUBSCR",
    "BUILD_SLICE", "COMPARE_OP", "IS_OP", "CONTAINS_OP", "UNARY_NEGATIVE", "UNARY_NOT", "UNARY_INVERT",
    "UNARY_POSITIVE", "BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_MAP", "BUILD_CONST_KEY_MAP", "LIST_APPEND",
    "SET_ADD", "MAP_ADD", "LIST_EXTEND", "SET_UPDATE", "DICT_UPDATE", "DICT_MERGE", "LIST_TO_TUPLE", "BUILD_STRING",
    "FORMAT_VALUE", "UNPACK_SEQUENCE", "UNPACK_EX", "PRECALL", "CALL", "CALL_FUNCTION_EX", "KW_NAMES",
    "PUSH_EXC_INFO", "POP_EXCEPT", "RERAISE", "CHECK_EXC_MATCH", "RAISE_VARARGS", "LOAD_ASSERTION_ERROR")
    if name in _OP)
# Of those, what may leave a value that can change in the frame (a list, a dict, a caught exception),
# or an attribute's value: a code without any of them keeps a frame of values that cannot change so
# (``CLOSED``: its state is looked at once, not at each step).
_OPEN_OPS = frozenset(_OP[name] for name in (
    "BUILD_LIST", "BUILD_SET", "BUILD_MAP", "BUILD_CONST_KEY_MAP", "LIST_APPEND", "SET_ADD", "MAP_ADD", "LIST_EXTEND",
    "SET_UPDATE", "DICT_UPDATE", "DICT_MERGE", "LIST_TO_TUPLE", "STORE_SUBSCR", "DELETE_SUBSCR", "UNPACK_EX",
    "PUSH_EXC_INFO", "POP_EXCEPT", "RERAISE", "CHECK_EXC_MATCH", "RAISE_VARARGS", "LOAD_ASSERTION_ERROR")
    if name in _OP)
_LOAD_GLOBAL, _LOAD_ATTR, _LOAD_METHOD = _OP["LOAD_GLOBAL"], _OP["LOAD_ATTR"], _OP.get("LOAD_METHOD", -1)
_EXTENDED_ARG = opcode.EXTENDED_ARG
_IMPURE_METHODS = frozenset({"encode", "decode"})  # a codec lookup may run a search function of the program's
# Builtins that only compute on the values a pure step holds: their names, and the objects as the
# fork server loaded them (a name the test patched for the request, or the program shadows, is not).
_PURE_BUILTINS: dict = {name: getattr(builtins, name) for name in (
    "abs", "all", "any", "ascii", "bin", "bool", "chr", "complex", "dict", "divmod", "enumerate", "filter",
    "float", "format", "frozenset", "hash", "hex", "int", "isinstance", "issubclass", "iter", "len", "list", "map",
    "max", "min", "next", "oct", "ord", "pow", "range", "repr", "reversed", "round", "set", "slice", "sorted", "str",
    "sum", "tuple", "zip")}
_PURE_BUILTINS.update({name: value for name, value in vars(builtins).items()
                       if type(value) is type and issubclass(value, BaseException)})
# Those whose value, made from values that cannot change, cannot change either.
_CLOSED_BUILTINS = frozenset({
    "abs", "all", "any", "ascii", "bin", "bool", "chr", "complex", "divmod", "enumerate", "float", "format",
    "frozenset", "hash", "hex", "int", "isinstance", "issubclass", "len", "max", "min", "next", "oct", "ord", "pow",
    "range", "repr", "reversed", "round", "str", "sum", "tuple", "zip"})
_BUILTINS = vars(builtins)
_SCALARS = frozenset({type(None), bool, int, float, complex, str, bytes, range, type(...)})
_ITERATORS = frozenset({type(iter(range(0))), type(iter(range(1 << 70))), type(iter(())), type(iter("")),
                        type(iter("\u00e9")), type(iter(b"")), type(reversed(())), type(iter(frozenset())),
                        enumerate, zip, itertools.count, itertools.repeat})
_HOLDING_INTS = frozenset({type(iter(range(0))), type(iter(range(1 << 70))), type(iter("")), type(iter("\u00e9")),
                           type(iter(b""))})  # iterators that hold only what cannot change: not looked into
_SEQUENCES = frozenset({tuple, frozenset})
_FUNCTION = type(lambda: None)
_CODE = type((lambda: None).__code__)
_GENERATOR: Any = type((lambda: (yield))())
_HELD_LIMIT = 256  # objects of a frame's state looked at, at most: beyond, not pure

PURE, CLOSED = 1, 2  # what ``pure_code`` says of a generator's code (0: not pure)
_codes: dict = {}  # code object -> (PURE or CLOSED, the builtin names it reads), or None (kept alive: ids stay theirs)


def _pure_code(code) -> tuple[int, frozenset] | None:
    """Whether a generator's code is pure (``PURE``, ``CLOSED``), with the builtin names it reads;
    None where it is not."""
    if code in _codes:
        return _codes[code]
    names: set[str] = set()
    result: tuple[int, frozenset] | None = None
    if not (code.co_freevars or code.co_cellvars):  # a closure's cells: shared with other functions
        raw, co_names, extended, closed = code.co_code, code.co_names, 0, True
        for i in range(0, len(raw), 2):
            op, arg = raw[i], raw[i + 1] | extended
            extended = arg << 8 if op == _EXTENDED_ARG else 0
            if op in _PURE_OPS or op == _EXTENDED_ARG:
                closed = closed and op not in _OPEN_OPS
            elif op == _LOAD_GLOBAL and co_names[arg >> 1] in _PURE_BUILTINS:
                names.add(co_names[arg >> 1])
                closed = closed and co_names[arg >> 1] in _CLOSED_BUILTINS
            elif op in (_LOAD_ATTR, _LOAD_METHOD) and not co_names[arg].startswith("_") \
                    and co_names[arg] not in _IMPURE_METHODS:
                closed = False
            else:
                break
        else:
            result = (CLOSED if closed else PURE, frozenset(names))
    _codes[code] = result
    return result


def _immutable(obj, budget: list) -> bool:
    """Whether ``obj`` is a value that cannot change, or an iterator of such values."""
    budget[0] -= 1
    if budget[0] < 0:
        return False
    kind = type(obj)
    if kind in _SCALARS or kind in _HOLDING_INTS:
        return True
    if kind in _SEQUENCES or kind in _ITERATORS:
        return all(_immutable(item, budget) for item in (obj if kind in _SEQUENCES else gc.get_referents(obj)))
    return False


def pure_code(generator, namespace: dict) -> int:
    """Whether ``generator`` is a suspended generator of the program's module (``namespace``) whose
    code is pure (the module docstring), the part of its purity no step of a pure code can change:
    ``CLOSED`` where no step can leave a value that may change in its frame either (check its
    state once, ``pure_state``), ``PURE`` (check its state before each step), or 0."""
    if type(generator) is not _GENERATOR or generator.gi_running:
        return 0
    held = gc.get_referents(generator)  # its code, name, qualname; its frame's function, code, locals, stack
    if not held or type(held[0]) is not _CODE:
        return 0
    found = _pure_code(held[0])
    if found is None:
        return 0
    functions = [obj for obj in held if type(obj) is _FUNCTION]
    if len(functions) != 1 or getattr(functions[0], "__module__", None) != namespace.get("__name__"):
        return 0  # a function to call, or not a generator of the program's module: its globals are another's
    # each builtin it reads: the program does not shadow it, nor did the test patch it for this request
    kind, names = found
    return kind if all(name not in namespace and _BUILTINS.get(name) is _PURE_BUILTINS[name] for name in names) else 0


def pure_state(generator) -> bool:
    """Whether what ``generator``'s frame holds now is values that cannot change (the module
    docstring), and one function: its own."""
    functions, budget = 0, [_HELD_LIMIT]
    for obj in gc.get_referents(generator):
        kind = type(obj)
        if kind in _SCALARS or kind is _CODE:
            continue
        if kind is _FUNCTION:
            functions += 1
            if functions > 1:
                return False
        elif not _immutable(obj, budget):
            return False
    return True
