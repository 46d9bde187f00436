"""The runtimes' start-up state (``sandbox/inside/runtimes``): JVMs map the image's class-data sharing
archives, Node.js starts from the image's V8 snapshots, TypeScript compiles with a snapshot of tsc
whose declaration files are parsed already. What must not change with it: a fresh process per test
(nothing one test's process does is seen by the next), tsc's own diagnostics and exit status, and a
compile that runs out of its limits or crashes is the program's ``compile_error``, never a fault of
the next job."""

from __future__ import annotations

import pytest

from sandbox import Job, Limits, TestCase
from sandbox.inside import children, languages


def test_a_heap_size_without_a_snapshot_starts_node_cold(tmp_path, monkeypatch):
    monkeypatch.setattr(languages, "RUNTIMES", str(tmp_path))
    (tmp_path / "node-256.blob").write_bytes(b"snapshot")
    javascript = languages.LANGUAGES["javascript"]
    names = {"memory_mb": "256", **languages.runtime_names(256)}
    assert children.fill(javascript.run_command or (), names) == [
        "node", f"--snapshot-blob={tmp_path}/node-256.blob", "--max-old-space-size=256", "main.js"]
    names = {"memory_mb": "200", **languages.runtime_names(200)}
    assert children.fill(javascript.run_command or (), names) == ["node", "--max-old-space-size=200", "main.js"]


def _stdio(program: str, language: str, stdins: list[str], expected: str, limits: Limits | None = None) -> Job:
    return Job(program=program, language=language, limits=limits or Limits(),
               tests=tuple(TestCase(kind="stdio", stdin=s, expected_stdout=expected) for s in stdins))


# Each test's process changes what a process that ran the program before it would show: a static
# field, a static collection, a system property (Java); a global, a property of a built-in module and
# of a built-in prototype, the environment (JavaScript, TypeScript). Every test must see them unset.
STATE = {
    "java": """
import java.util.*;

public class Main {
    static int runs;
    static final List<String> seen = new ArrayList<>();

    public static void main(String[] args) {
        runs++;
        seen.add("x");
        String before = System.getProperty("grpo.seen", "unset");
        System.setProperty("grpo.seen", "set");
        System.out.println(runs + " " + seen.size() + " " + before);
    }
}
""",
    "javascript": """
globalThis.runs = (globalThis.runs || 0) + 1;
const fs = require('fs');
const before = [fs.grpoSeen, Array.prototype.grpoSeen, process.env.GRPO_SEEN].map(v => v || 'unset');
fs.grpoSeen = Array.prototype.grpoSeen = process.env.GRPO_SEEN = 'set';
console.log(globalThis.runs + ' ' + before.join(' '));
""",
}
STATE["typescript"] = "// @ts-nocheck\n" + STATE["javascript"]
FRESH = {"java": "1 1 unset\n", "javascript": "1 unset unset unset\n", "typescript": "1 unset unset unset\n"}


@pytest.mark.docker
@pytest.mark.parametrize("language", sorted(STATE))
def test_what_one_tests_process_sets_is_unset_in_the_next(solo_executor, language):
    verdict = solo_executor.run_one(_stdio(STATE[language], language, ["", "", ""], FRESH[language]))
    assert [t.status for t in verdict.test_results] == ["passed"] * 3, \
        (verdict.compile_output, [t.message for t in verdict.test_results])


MAPPED = """
import java.nio.file.*;

public class Main {
    public static void main(String[] args) throws Exception {
        String maps = new String(Files.readAllBytes(Paths.get("/proc/self/maps")));
        System.out.println(maps.contains("/opt/sandbox/runtimes/java.jsa"));
    }
}
"""
STARTED_FROM = "console.log(process.execArgv.filter(a => a.startsWith('--snapshot-blob')).join(' ') || 'cold');\n"


@pytest.mark.docker
def test_the_runtimes_start_from_the_images_start_up_state(executor):
    """The JVM maps the image's archive with the sandbox's own flags (a flag that made it unusable
    would fall back to a cold start silently), and Node.js starts from the snapshot of the task's
    heap size, or cold where the image has none (a snapshot built for another heap size would not
    load)."""
    heaps = [64, 128, 256, 512, 1024, 200]
    jobs_ = [_stdio(MAPPED, "java", [""], "true\n")]
    jobs_ += [_stdio(STARTED_FROM, language, [""], f"--snapshot-blob=/opt/sandbox/runtimes/node-{mb}.blob\n"
                     if mb != 200 else "cold\n", Limits(memory_limit_mb=mb))
              for language in ("javascript", "typescript") for mb in heaps]
    verdicts = executor.run(jobs_)
    assert [v.status for v in verdicts] == ["passed"] * len(jobs_), \
        [(v.status, v.compile_output, [t.message for t in v.test_results]) for v in verdicts]


# tsc's own messages, as a cold `tsc` of the image with the sandbox's arguments prints them (captured
# from one): a type error, a syntax error, an import and a reference of files that are not there, a
# type of @types/node (parsed by the snapshot).
TSC_MESSAGES = {
    "const x: number = 's';\nlet y = undefinedName + 1;\n":
        "main.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.\n"
        "main.ts(2,9): error TS2552: Cannot find name 'undefinedName'. Did you mean 'undefined'?\n",
    "function f( {\n  return 1;\n}\n":
        "main.ts(1,10): error TS2391: Function implementation is missing or not immediately following the "
        "declaration.\n"
        "main.ts(2,9): error TS2300: Duplicate identifier '(Missing)'.\n"
        "main.ts(2,9): error TS2842: '(Missing)' is an unused renaming of 'return'. Did you intend to use it as a type "
        "annotation?\n"
        "main.ts(2,10): error TS1005: ':' expected.\n"
        "main.ts(2,11): error TS2300: Duplicate identifier '(Missing)'.\n"
        "main.ts(2,11): error TS2842: '(Missing)' is an unused renaming of '1'. Did you intend to use it as a type "
        "annotation?\n"
        "main.ts(2,11): error TS1005: ':' expected.\n"
        "main.ts(4,1): error TS1005: ')' expected.\n",
    "import { helper } from './other';\nconsole.log(helper);\n":
        "main.ts(1,24): error TS2307: Cannot find module './other' or its corresponding type declarations.\n",
    "/// <reference path=\"/etc/passwd\" />\nconsole.log(1);\n":
        "main.ts(1,22): error TS6231: Could not resolve the path '/etc/passwd' with the extensions: '.ts', '.tsx', "
        "'.d.ts', '.cts', '.d.cts', '.mts', '.d.mts'.\n",
    "import * as fs from 'fs';\nconsole.log(fs.readFileSync(0, 'utf8').notAMethod());\n":
        "main.ts(2,40): error TS2339: Property 'notAMethod' does not exist on type 'string'.\n",
}


@pytest.mark.docker
def test_typescript_diagnostics_are_tscs_own(executor):
    programs = list(TSC_MESSAGES)
    verdicts = executor.run([_stdio(p, "typescript", [""], "") for p in programs])
    for program, verdict in zip(programs, verdicts, strict=True):
        assert verdict.status == "compile_error", (program, verdict.status)
        assert verdict.compile_output == TSC_MESSAGES[program], (program, verdict.compile_output)


@pytest.mark.docker
def test_typescript_that_names_a_library_the_snapshot_did_not_parse_compiles(executor):
    program = "/// <reference lib=\"dom\" />\nconst e: Event | null = null;\nconsole.log(typeof e);\n"
    verdict = executor.run_one(_stdio(program, "typescript", [""], "object\n"))
    assert verdict.passed, (verdict.compile_output, [t.message for t in verdict.test_results])


# A union of 10,000 string literals checked against another: about 3 s of tsc's CPU.
SLOW_TO_CHECK = """type D = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
type N = `${D}${D}${D}${D}`;
declare let a: N;
declare let b: Exclude<N, '0000'>;
a = b;
console.log(a);
"""
CRASHES_TSC = "const x = " + "(" * 20000 + "1" + ")" * 20000 + ";\nconsole.log(x);\n"


@pytest.mark.docker
def test_a_compile_that_runs_out_of_time_or_crashes_is_the_programs_compile_error(solo_executor):
    """Each compile is a fresh process under the job's compile limits: the next job, in the same
    container, compiles and runs as always."""
    good = _stdio("const n: number = 41;\nconsole.log(n + 1);\n", "typescript", [""], "42\n")
    slow = _stdio(SLOW_TO_CHECK, "typescript", [""], "", Limits(compile_time_limit_s=1.0))
    crash = _stdio(CRASHES_TSC, "typescript", [""], "")
    verdicts = [solo_executor.run_one(job) for job in (slow, good, crash, good)]
    assert [v.status for v in verdicts] == ["compile_error", "passed", "compile_error", "passed"], \
        [(v.status, v.compile_output[-300:]) for v in verdicts]
    # the compile's CPU limit: its RLIMIT_CPU (SIGXCPU) or the runner's watch of its processes
    assert "signal 24" in verdicts[0].compile_output or "timed out" in verdicts[0].compile_output
    assert "Maximum call stack size exceeded" in verdicts[2].compile_output
