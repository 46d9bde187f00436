"""The fixed set of cheat programs: wrong programs that weak tests pay.

Each is a program that solves nothing, in the task's language and of the shape its tests call,
so that it goes through the same scoring path as a policy's answer (``grpo_code.score.scoring``). A
task whose tests one of them passes pays a policy for not solving it; reported hacks of code RL
found each of these (field notes: "Weak tests are a reward hack the judge cannot see"):

- ``constant_*`` (``CONSTANTS``): the same value whatever the input: 0, 1, -1, the empty string,
  list and dict, True, False, None (``stdio``: prints 0, 1 or -1);
- ``echo``: the input given back (a function's first argument; a program's stdin);
- ``lookup``: the public tests' answers looked up by their input (what a policy that was shown
  them can special-case), and the first of them for any other input;
- ``raise``: an exception for every call (``stdio``: the looked-up answer, then exit status 1);
- ``exit``: ``sys.exit(0)`` in the function; ``exit_at_import``: ``os._exit(0)`` as the program
  starts (tests that catch everything, or read a clean exit as a pass);
- ``nan``: a NaN (passes ``not abs(r - y) > eps``; ``stdio``: prints ``nan``);
- ``print_nothing`` (``stdio``): no output at all, exit status 0.

Function tasks (``call``, ``assert``, ``pytest`` and ``unittest`` tests in Python; ``call`` tests
in JavaScript and TypeScript) get a function with the entry point's name (and, in Python, the
reference's parameters), in the form the tests call it (``inputs.method_class``): a top-level function, or a
method of the class the tests make an object of (LeetCode's ``class Solution``, whose tests call
``Solution().twoSum(...)``: a top-level function there would fail every test for want of the
class, and so say nothing of the tests); ``stdio`` tasks a program in their language that reads
all of stdin.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass

from grpo_code.curate.inputs import NO_VALUE, Call, function_name, method_class, observed_calls, to_source
from grpo_code.suites.tasks import Task

CONSTANTS = {"0": 0, "1": 1, "-1": -1, "empty_string": "", "empty_list": [], "empty_dict": {}, "true": True,
             "false": False, "none": None}
STDIO_CONSTANTS = {"0": "0\n", "1": "1\n", "-1": "-1\n"}


@dataclass(frozen=True)
class Cheat:
    """One cheat program for one task.

    Attributes:
        name: what it does (``constant_0``, ``echo``, ``lookup``, ...).
        program: the whole program.
    """

    name: str
    program: str


# The test kinds whose tests reach the program's functions by name (the cheats are functions, or
# methods of the class the tests use): ``call`` and ``assert``, and the test files that import the
# program as a module or use its names (``pytest``, ``unittest``: KodCode's, BigCodeBench's).
FUNCTION_KINDS = frozenset({"call", "assert", "pytest", "unittest"})


def cheats(task: Task) -> list[Cheat]:
    """The cheat programs for ``task``, in a fixed order (see the module docstring); [] for a
    task whose tests neither call a function nor read stdin (none such exists)."""
    kinds = {t.kind for t in task.tests}
    if kinds == {"stdio"}:
        return _stdio_cheats(task)
    name = function_name(task)
    if name is None or not kinds <= FUNCTION_KINDS:
        return []
    if task.language == "python":
        return _python_cheats(task, name)
    if task.language in ("javascript", "typescript"):
        return _js_cheats(task, name)
    return []


def _lookup_table(task: Task) -> tuple[list[Call], Call | None]:
    """The public calls with a stated answer (each input once, first answer kept), and the first."""
    table: dict[str, Call] = {}
    for call in observed_calls(task):
        if call.public and call.expected is not NO_VALUE and call.key not in table:
            table[call.key] = call
    calls = list(table.values())
    return calls, (calls[0] if calls else None)


# -- Python functions ------------------------------------------------------------------------------


def _python_signature(task: Task, name: str, method: bool) -> str:
    """The parameters of ``name`` in the reference (or the prompt), without annotations (and,
    for a ``method``, without its first: ``self``); ``*args, **kwargs`` when neither defines it."""
    for source in (task.reference_solution, task.prompt):
        try:
            tree = ast.parse(source or "")
        except (SyntaxError, ValueError, RecursionError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                args = node.args
                if method:
                    if args.posonlyargs:
                        args.posonlyargs = args.posonlyargs[1:]
                    elif args.args:
                        args.args = args.args[1:]
                for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
                    if arg is not None:
                        arg.annotation = None
                return ast.unparse(args)
    return "*args, **kwargs"


def _shape(name: str, cls: str | None):
    """The function that writes a cheat's program in the task's form: ``(parameters, body, head)``
    -> ``head`` then a function ``name``, or a class ``cls`` with that method."""
    def write(signature: str, body: str, head: str = "") -> str:
        if cls is None:
            return f"{head}def {name}({signature}):\n    {body}\n"
        parameters = f"self, {signature}" if signature else "self"
        return f"{head}class {cls}:\n    def {name}({parameters}):\n        {body}\n"
    return write


def _first_parameter(signature: str) -> str:
    try:
        args = ast.parse(f"def f({signature}): pass").body[0].args  # type: ignore[attr-defined]
    except (SyntaxError, IndexError):
        return "None"
    named = [*args.posonlyargs, *args.args]
    if named:
        return named[0].arg
    return f"{args.vararg.arg}[0]" if args.vararg else "None"


def _python_cheats(task: Task, name: str) -> list[Cheat]:
    cls = method_class(task)
    signature = _python_signature(task, name, method=cls is not None)
    write = _shape(name, cls)

    def function(body: str, head: str = "") -> str:
        return write(signature, body, head)

    out = [Cheat(f"constant_{label}", function(f"return {to_source(value)}")) for label, value in CONSTANTS.items()]
    out.append(Cheat("echo", function(f"return {_first_parameter(signature)}")))
    calls, first = _lookup_table(task)
    if first is not None:
        table = "{" + ", ".join(f"{c.key!r}: {to_source(c.expected)}" for c in calls) + "}"
        out.append(Cheat("lookup", write(
            "*args, **kwargs", "key = repr((args, sorted(kwargs.items())))\n" + ("        " if cls else "    ")
            + f"return _SHOWN[key] if key in _SHOWN else {to_source(first.expected)}", head=f"_SHOWN = {table}\n\n\n")))
    out.append(Cheat("raise", function('raise ValueError("no answer")')))
    out.append(Cheat("exit", function("sys.exit(0)", head="import sys\n\n\n")))
    out.append(Cheat("exit_at_import", "import os\n\nos._exit(0)\n" + function("return None", head="\n\n")))
    out.append(Cheat("nan", function('return float("nan")')))
    return out


# -- JavaScript and TypeScript functions (call tests) -------------------------------------------------


def _js_cheats(task: Task, name: str) -> list[Cheat]:
    typed = task.language == "typescript"
    params = "...args: any[]" if typed else "...args"
    result = ": any" if typed else ""

    def function(body: str, head: str = "") -> str:
        return f"{head}function {name}({params}){result} {{\n  {body}\n}}\n"

    out = [Cheat(f"constant_{label}", function(f"return {json.dumps(value)};")) for label, value in CONSTANTS.items()
           if label != "none"]
    out.append(Cheat("constant_none", function("return null;")))
    out.append(Cheat("echo", function("return args[0];")))
    calls, first = _lookup_table(task)
    if first is not None:
        table = ", ".join(f"[{json.dumps(json.dumps(list(c.args)))}, {json.dumps(c.expected)}]" for c in calls)
        out.append(Cheat("lookup", function(f"const key = JSON.stringify(args); return shown.has(key) ? "
                                            f"shown.get(key) : {json.dumps(first.expected)};",
                                            head=f"const shown = new Map{'<string, any>' if typed else ''}"
                                                 f"([{table}]);\n")))
    out.append(Cheat("raise", function('throw new Error("no answer");')))
    out.append(Cheat("exit", function("process.exit(0);")))
    out.append(Cheat("nan", function("return NaN;")))
    return out


# -- stdio programs, one template per language ----------------------------------------------------------


def _stdio_cheats(task: Task) -> list[Cheat]:
    """Each stdio cheat is one program shape: read all of stdin; print the answer a table gives
    for it, else a default (a fixed text, or the input itself); exit with a status."""
    shown = {t.stdin: t.expected_stdout or "" for t in reversed(task.tests) if t.visibility == "public"}
    public = [t for t in task.tests if t.visibility == "public"]
    first = public[0].expected_stdout if public else None
    write = _TEMPLATES[task.language]
    out = [Cheat("print_nothing", write({}, "", 0))]
    out += [Cheat(f"constant_{label}", write({}, text, 0)) for label, text in STDIO_CONSTANTS.items()]
    out.append(Cheat("echo", write({}, None, 0)))
    if first is not None:
        out.append(Cheat("lookup", write(shown, first, 0)))
        out.append(Cheat("raise", write(shown, first, 1)))
    else:
        out.append(Cheat("raise", write({}, None, 1)))
    out.append(Cheat("nan", write({}, "nan\n", 0)))
    return out


def _c_string(text: str) -> str:
    """A C/C++ string literal of ``text`` (its UTF-8 bytes; octal escapes for anything but
    printable ASCII)."""
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= byte < 0x7F and char != "?":
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def _rust_string(text: str) -> str:
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{{{ord(char):x}}}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _json_string(text: str) -> str:  # JavaScript, TypeScript, Go (raw UTF-8 is fine there)
    return json.dumps(text, ensure_ascii=False)


def _java_string(text: str) -> str:  # ASCII only: non-BMP characters as the surrogate pairs Java's strings hold
    return json.dumps(text, ensure_ascii=True)


def _python(table: dict[str, str], default: str | None, status: int) -> str:
    return ("import sys\n\n"
            f"SHOWN = {table!r}\n"
            "data = sys.stdin.read()\n"
            f"out = SHOWN.get(data, {'data' if default is None else repr(default)})\n"
            "sys.stdout.write(out)\n"
            "sys.stdout.flush()\n"
            f"sys.exit({status})\n")


def _c(table: dict[str, str], default: str | None, status: int) -> str:
    keys = ", ".join([*(_c_string(k) for k in table), "0"])
    values = ", ".join([*(_c_string(v) for v in table.values()), "0"])
    return ("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
            f"static const char *keys[] = {{{keys}}};\n"
            f"static const char *values[] = {{{values}}};\n\n"
            "int main(void) {\n"
            "    size_t cap = 1 << 16, n = 0, got;\n"
            "    char *data = malloc(cap + 1);\n"
            "    while ((got = fread(data + n, 1, cap - n, stdin)) > 0) {\n"
            "        n += got;\n"
            "        if (n == cap) { cap *= 2; data = realloc(data, cap + 1); }\n"
            "    }\n"
            "    data[n] = 0;\n"
            f"    const char *out = {'0' if default is None else _c_string(default)};\n"
            "    for (int i = 0; keys[i]; i++) if (strcmp(data, keys[i]) == 0) { out = values[i]; break; }\n"
            "    if (out) fputs(out, stdout); else fwrite(data, 1, n, stdout);\n"
            "    fflush(stdout);\n"
            f"    return {status};\n"
            "}\n")


def _cpp(table: dict[str, str], default: str | None, status: int) -> str:
    pairs = ", ".join(f"{{{_c_string(k)}, {_c_string(v)}}}" for k, v in table.items())
    return ("#include <iostream>\n#include <iterator>\n#include <map>\n#include <string>\n\n"
            "int main() {\n"
            "    std::string data((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());\n"
            f"    std::map<std::string, std::string> shown = {{{pairs}}};\n"
            f"    std::string out = {'data' if default is None else _c_string(default)};\n"
            "    if (shown.count(data)) out = shown[data];\n"
            "    std::cout << out << std::flush;\n"
            f"    return {status};\n"
            "}\n")


def _java(table: dict[str, str], default: str | None, status: int) -> str:
    puts = "".join(f"        shown.put({_java_string(k)}, {_java_string(v)});\n" for k, v in table.items())
    return ("import java.nio.charset.StandardCharsets;\nimport java.util.HashMap;\n\n"
            "public class Main {\n"
            "    public static void main(String[] args) throws Exception {\n"
            "        String data = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);\n"
            "        HashMap<String, String> shown = new HashMap<>();\n"
            f"{puts}"
            f"        String out = shown.getOrDefault(data, {'data' if default is None else _java_string(default)});\n"
            "        System.out.print(out);\n"
            "        System.out.flush();\n"
            f"        System.exit({status});\n"
            "    }\n"
            "}\n")


def _javascript(table: dict[str, str], default: str | None, status: int, typed: bool = False) -> str:
    pairs = ", ".join(f"[{_json_string(k)}, {_json_string(v)}]" for k, v in table.items())
    head = "import * as fs from 'fs';\n\n" if typed else "const fs = require('fs');\n\n"
    kind = "<string, string>" if typed else ""
    return (head
            + "const data = fs.readFileSync(0, 'utf8');\n"
            f"const shown = new Map{kind}([{pairs}]);\n"
            f"const out = shown.has(data) ? shown.get(data) : {'data' if default is None else _json_string(default)};\n"
            "process.stdout.write(String(out));\n"
            f"process.exitCode = {status};\n")


def _go(table: dict[str, str], default: str | None, status: int) -> str:
    pairs = "".join(f"\t\t{_json_string(k)}: {_json_string(v)},\n" for k, v in table.items())
    return ("package main\n\nimport (\n\t\"io\"\n\t\"os\"\n)\n\n"
            "func main() {\n"
            "\tb, _ := io.ReadAll(os.Stdin)\n"
            "\tdata := string(b)\n"
            f"\tshown := map[string]string{{\n{pairs}\t}}\n"
            "\tout, ok := shown[data]\n"
            f"\tif !ok {{\n\t\tout = {'data' if default is None else _json_string(default)}\n\t}}\n"
            "\tos.Stdout.WriteString(out)\n"
            f"\tos.Exit({status})\n"
            "}\n")


def _rust(table: dict[str, str], default: str | None, status: int) -> str:
    pairs = ", ".join(f"({_rust_string(k)}, {_rust_string(v)})" for k, v in table.items())
    fallback = "data.clone()" if default is None else f"{_rust_string(default)}.to_string()"
    return ("use std::io::{self, Read, Write};\n\n"
            "fn main() {\n"
            "    let mut data = String::new();\n"
            "    io::stdin().read_to_string(&mut data).unwrap();\n"
            f"    let shown: Vec<(&str, &str)> = vec![{pairs}];\n"
            "    let out = match shown.iter().find(|(k, _)| *k == data.as_str()) {\n"
            "        Some((_, v)) => v.to_string(),\n"
            f"        None => {fallback},\n"
            "    };\n"
            "    io::stdout().write_all(out.as_bytes()).unwrap();\n"
            "    io::stdout().flush().unwrap();\n"
            f"    std::process::exit({status});\n"
            "}\n")


_TEMPLATES = {
    "python": _python, "c": _c, "cpp": _cpp, "java": _java, "javascript": _javascript,
    "typescript": lambda table, default, status: _javascript(table, default, status, typed=True),
    "go": _go, "rust": _rust,
}
