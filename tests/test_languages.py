"""Every exec'd language in the real sandbox: compile once, a fresh process per test, each status.

One program per language reads a mode on its first input line and behaves accordingly (so one
compile covers every status): ``sum A B`` prints A + B, ``exit`` exits with status 3, ``throw``
raises an uncaught exception (a panic), ``loop`` never ends, ``alloc N`` holds N MiB (touched),
``flood`` writes output forever, ``echo`` writes the rest of its input back (UTF-8).
"""

from __future__ import annotations

import pytest

from sandbox import Job, Limits, TestCase

pytestmark = pytest.mark.docker

PROGRAMS = {
    "javascript": r"""
const fs = require('fs');
const input = fs.readFileSync(0, 'utf8');
const p = input.split('\n')[0].split(' ');
if (p[0] === 'sum') console.log(Number(p[1]) + Number(p[2]));
else if (p[0] === 'exit') process.exit(3);
else if (p[0] === 'throw') throw new Error('boom');
else if (p[0] === 'loop') { for (;;) {} }
else if (p[0] === 'alloc') {
  const keep = [];
  for (let i = 0; i < Number(p[1]); i++) keep.push(new Array(131072).fill(i + 0.5));
  console.log(keep.length);
} else if (p[0] === 'buffers') {
  const keep = [];
  for (let i = 0; i < Number(p[1]); i++) keep.push(Buffer.alloc(1 << 20, i + 1));
  console.log(keep.length);
} else if (p[0] === 'flood') { for (;;) fs.writeSync(1, 'y'.repeat(1000) + '\n'); }
else if (p[0] === 'echo') process.stdout.write(input.slice(5));
""",
    "typescript": r"""
import * as fs from 'fs';
const input: string = fs.readFileSync(0, 'utf8');
const p: string[] = input.split('\n')[0].split(' ');
if (p[0] === 'sum') console.log(Number(p[1]) + Number(p[2]));
else if (p[0] === 'exit') process.exit(3);
else if (p[0] === 'throw') throw new Error('boom');
else if (p[0] === 'loop') { for (;;) {} }
else if (p[0] === 'alloc') {
  const keep: number[][] = [];
  for (let i = 0; i < Number(p[1]); i++) keep.push(new Array<number>(131072).fill(i + 0.5));
  console.log(keep.length);
} else if (p[0] === 'buffers') {
  const keep: Buffer[] = [];
  for (let i = 0; i < Number(p[1]); i++) keep.push(Buffer.alloc(1 << 20, i + 1));
  console.log(keep.length);
} else if (p[0] === 'flood') { for (;;) fs.writeSync(1, 'y'.repeat(1000) + '\n'); }
else if (p[0] === 'echo') process.stdout.write(input.slice(5));
""",
    "java": r"""
import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        String input = new String(System.in.readAllBytes(), "UTF-8");
        String[] p = input.split("\n", 2)[0].split(" ");
        if (p[0].equals("sum")) System.out.println(Long.parseLong(p[1]) + Long.parseLong(p[2]));
        else if (p[0].equals("exit")) System.exit(3);
        else if (p[0].equals("throw")) throw new IllegalStateException("boom");
        else if (p[0].equals("loop")) { long x = 0; while (true) x++; }
        else if (p[0].equals("alloc")) {
            List<long[]> keep = new ArrayList<>();
            for (int i = 0; i < Integer.parseInt(p[1]); i++) { long[] b = new long[131072]; Arrays.fill(b, i + 1); keep.add(b); }
            System.out.println(keep.size());
        } else if (p[0].equals("flood")) { String y = "y".repeat(1000); while (true) System.out.println(y); }
        else if (p[0].equals("echo")) { PrintStream out = new PrintStream(System.out, true, "UTF-8"); out.print(input.substring(5)); }
    }
}
""",
    "rust": r"""
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let line = input.lines().next().unwrap_or("");
    let p: Vec<&str> = line.split(' ').collect();
    match p[0] {
        "sum" => { let a: i64 = p[1].parse().unwrap(); let b: i64 = p[2].parse().unwrap(); println!("{}", a + b); }
        "exit" => std::process::exit(3),
        "throw" => panic!("boom"),
        "loop" => { let mut x: u64 = 1; loop { x = x.wrapping_mul(3); if x == 0 { println!("{}", x); } } }
        "alloc" => {
            let n: usize = p[1].parse().unwrap();
            let mut keep: Vec<Vec<u8>> = Vec::new();
            for i in 0..n { keep.push(vec![(i % 250) as u8 + 1; 1 << 20]); }
            println!("{}", keep.len());
        }
        "flood" => { let out = io::stdout(); let mut l = out.lock(); loop { l.write_all(&[b'y'; 1000]).unwrap(); l.write_all(b"\n").unwrap(); } }
        "echo" => print!("{}", &input[5..]),
        _ => {}
    }
}
""",
    "go": r"""
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() {
	data, _ := io.ReadAll(os.Stdin)
	input := string(data)
	p := strings.Split(strings.SplitN(input, "\n", 2)[0], " ")
	switch p[0] {
	case "sum":
		a, _ := strconv.ParseInt(p[1], 10, 64)
		b, _ := strconv.ParseInt(p[2], 10, 64)
		fmt.Println(a + b)
	case "exit":
		os.Exit(3)
	case "throw":
		panic("boom")
	case "loop":
		x := 1
		for {
			x *= 3
		}
	case "alloc":
		n, _ := strconv.Atoi(p[1])
		keep := [][]byte{}
		for i := 0; i < n; i++ {
			b := make([]byte, 1<<20)
			for j := range b {
				b[j] = byte(i + 1)
			}
			keep = append(keep, b)
		}
		fmt.Println(len(keep))
	case "flood":
		w := bufio.NewWriter(os.Stdout)
		for {
			w.WriteString(strings.Repeat("y", 1000) + "\n")
		}
	case "echo":
		fmt.Print(input[5:])
	}
}
""",
}

SYNTAX_ERRORS = {
    "javascript": ("function f( {\n  return 1;\n}\n", "SyntaxError"),
    "typescript": ("const x: number = 'not a number';\nconsole.log(x);\n", "TS2322"),
    "java": ("public class Main {\n    public static void main(String[] a) {\n        int x = 1\n    }\n}\n",
             "';' expected"),
    "rust": ("fn main() {\n    let x: i32 = \"s\";\n}\n", "mismatched types"),
    "go": ("package main\n\nfunc main() {\n\tx := 1\n}\n", "declared but not used"),
}

UTF8 = "héllo, wörld: 世界 🌍 — ✓\nsecond line ünïcödé\n"
LIMITS = Limits(time_limit_s=1.0, memory_limit_mb=128)
CASES = [  # (stdin, expected stdout, status)
    ("sum 3 4\n", "7\n", "passed"),
    ("sum -1000000000000 1\n", "-999999999999\n", "passed"),
    ("exit\n", "", "runtime_error"),
    ("throw\n", "", "runtime_error"),
    ("loop\n", "", "timeout"),
    ("alloc 1024\n", "", "memory_limit"),
    ("alloc 48\n", "48\n", "passed"),  # well within the limit: a correct program is not killed
    ("flood\n", "", "output_limit"),
    ("echo " + UTF8, UTF8, "passed"),
]
ERROR_WORDS = {"javascript": "boom", "typescript": "boom", "java": "IllegalStateException: boom",
               "rust": "boom", "go": "panic: boom"}


def _job(language: str, program: str, cases=CASES, limits: Limits = LIMITS) -> Job:
    return Job(program=program, tests=tuple(TestCase(kind="stdio", stdin=i, expected_stdout=o) for i, o, _ in cases),
               language=language, limits=limits, compare="exact")


@pytest.fixture(scope="module")
def verdicts(executor):
    languages = sorted(PROGRAMS)
    jobs = [_job(lang, PROGRAMS[lang]) for lang in languages]
    jobs += [_job(lang, SYNTAX_ERRORS[lang][0], CASES[:1]) for lang in languages]
    got = executor.run(jobs)
    return dict(zip(languages, got[:len(languages)], strict=True)), dict(zip(languages, got[len(languages):], strict=True))


@pytest.mark.parametrize("language", sorted(PROGRAMS))
def test_each_status_in_its_own_process(verdicts, language):
    verdict = verdicts[0][language]
    assert verdict.compile_output is not None and verdict.status != "compile_error", verdict.compile_output
    got = [t.status for t in verdict.test_results]
    assert got == [status for _, _, status in CASES], [(t.status, t.message, t.time_s, t.cpu_time_s)
                                                          for t in verdict.test_results]
    exit_test, throw_test = verdict.test_results[2], verdict.test_results[3]
    assert "exit status 3" in exit_test.message
    assert ERROR_WORDS[language] in throw_test.message, throw_test.message
    if language == "java":  # the JVM's start-up is not the program's time: 0.5 s CPU more, 1.5 s wall
        assert "(1.5 s CPU, 5.5 s wall)" in verdict.test_results[4].message, verdict.test_results[4].message
    assert verdict.compile_time_s > 0


@pytest.mark.parametrize("language", sorted(SYNTAX_ERRORS))
def test_a_compile_failure_is_compile_error_with_the_compilers_message(verdicts, language):
    verdict = verdicts[1][language]
    assert verdict.status == "compile_error" and verdict.test_results == ()
    assert SYNTAX_ERRORS[language][1] in verdict.compile_output, verdict.compile_output
    assert verdict.pass_rate == 0.0


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_memory_outside_the_runtime_heap_is_caught_by_the_cgroup_poll(executor, language):
    # Buffers live outside V8's heap (--max-old-space-size does not bound them), and no address-space
    # limit is set: only the runner's poll of the container's resident memory stops them.
    cases = [("buffers 1024\n", "", "memory_limit"), ("buffers 32\n", "32\n", "passed")]
    verdict = executor.run_one(_job(language, PROGRAMS[language], cases))
    assert [t.status for t in verdict.test_results] == ["memory_limit", "passed"], [t.message for t in verdict.test_results]
    assert "resident memory" in verdict.test_results[0].message


def test_java_file_and_class_follow_the_public_class(executor):
    program = "public class Solution {\n    public static void main(String[] a) {\n        System.out.println(42);\n    }\n}\n"
    job = _job("java", program, [("", "42\n", "passed")])
    assert executor.run_one(job).passed
    plain = "class Helper {}\nclass Main {\n    public static void main(String[] a) {\n        System.out.println(42);\n    }\n}\n"
    assert executor.run_one(_job("java", plain, [("", "42\n", "passed")])).passed


# -- call tests of JavaScript and TypeScript --------------------------------------------------

CALLS = """
function add(a, b) { return a + b; }
const shape = (n) => ({n: n, list: [1, 2.5, null, true, 'é'], nested: {deep: [[n]]}});
let big = () => 2n ** 70n;
var nothing = function () {};
class Point { constructor() { this.x = 1; } }
const instance = () => new Point();
const proxy = () => new Proxy([1, 2], {});
const getter = () => ({ get x() { return 1; } });
const promise = async () => 1;
const thrower = () => { throw new TypeError('bad input'); };
const nan = () => [NaN, Infinity];
function sparse() { const a = [1]; a[3] = 4; return a; }
module.exports.exported = () => 'from exports';
"""


def _call(fn_name, args, expected):
    return TestCase(kind="call", fn_name=fn_name, args=args, expected=expected)


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_call_tests_compare_plain_json_returned_values(executor, language):
    tests = [
        _call("add", [2, 3], 5), _call("add", ["a", "b"], "ab"), _call("add", [2, 3], 6),
        _call("shape", [7], {"n": 7, "list": [1, 2.5, None, True, "é"], "nested": {"deep": [[7]]}}),
        _call("big", [], 2 ** 70), _call("nan", [], [float("nan"), float("inf")]), _call("exported", [], "from exports"),
        _call("nothing", [], None), _call("instance", [], {"x": 1}), _call("proxy", [], [1, 2]),
        _call("getter", [], {"x": 1}), _call("promise", [], 1), _call("sparse", [], [1, None, None, 4]),
        _call("thrower", [], 1), _call("missing", [], 1),
    ]
    program = CALLS if language == "javascript" else "// @ts-nocheck\n" + CALLS
    verdict = executor.run_one(Job(program=program, tests=tuple(tests), language=language))
    got = [(t.status, t.message) for t in verdict.test_results]
    assert [s for s, _ in got] == ["passed", "passed", "failed", "passed", "passed", "failed", "passed",
                                   "failed", "failed", "failed", "failed", "failed", "failed",
                                   "runtime_error", "runtime_error"], got
    assert "NaN or an infinity" in got[5][1] and "non_finite" in verdict.flags  # unless the task allows them:
    allowed = executor.run_one(Job(program=program, tests=(tests[5],), language=language, allow_non_finite=True))
    assert allowed.passed, allowed.test_results
    messages = dict(zip([t.fn_name for t in tests], [m for _, m in got], strict=True))
    assert "expected 6, got 5" in got[2][1]
    assert "undefined" in messages["nothing"] and "Proxy" in messages["proxy"] and "getter" in messages["getter"]
    assert "Promise" in messages["promise"] and "holes" in messages["sparse"]
    assert messages["thrower"] == "TypeError: bad input"
    assert "missing is not defined" in messages["missing"]


TAMPER = """
const fs = require('fs');
const realWrite = fs.writeSync;
// a writer that rewrites whatever record it is handed (it would see the nonce) into a forged one
fs.writeSync = (fd, data, ...rest) => realWrite(fd, typeof data === 'string'
  ? data.replace(/"value": "[^"]*"/, '"value": "[1, 2, 3]"') : data, ...rest);
JSON.stringify = () => '"forged"';
JSON.parse = () => ({});
console.log = () => {};
process.stdout.write = () => true;
Object.getOwnPropertyDescriptor = () => ({value: 'forged', enumerable: true});
Object.getPrototypeOf = () => Object.prototype;
Reflect.ownKeys = () => ['forged'];
Array.isArray = () => true;
Array.prototype.push = () => 0;
String.prototype.slice = () => 'forged';
Object.defineProperty(Object.prototype, 'value', {get() { return 'forged'; }, configurable: true});
process.reallyExit = () => {};
process.exit = () => {};
// a forged record on every descriptor the program can open: without the nonce it counts for nothing
for (let fd = 100; fd < 1024; fd++) {  // the result channel is one of them (node's own are below)
  try { realWrite(fd, '{"event": "returned", "nonce": "0", "value": "[1, 2, 3]"}\\n'); } catch (e) {}
}
function answer(n) { return [n, n + 1]; }
function greet(name) { return 'hi ' + name; }
"""


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_a_program_that_replaces_globals_cannot_change_or_forge_the_report(executor, language):
    program = TAMPER if language == "javascript" else "// @ts-nocheck\n" + TAMPER
    tests = [_call("answer", [1], [1, 2]), _call("answer", [5], [1, 2, 3]), _call("answer", [5], "forged"),
             _call("greet", ["ü"], "hi ü"), _call("greet", ["x"], "forged")]
    verdict = executor.run_one(Job(program=program, tests=tuple(tests), language=language))
    assert [t.status for t in verdict.test_results] == ["passed", "failed", "failed", "passed", "failed"], \
        [t.message for t in verdict.test_results]
    assert "got [5, 6]" in verdict.test_results[1].message


def test_the_nonce_is_not_on_the_command_line_nor_in_the_environment(executor):
    # The driver reads its nonce on stdin before the program is loaded; the program can read its
    # own command line and environment, which must not hold it.
    spy = """
const fs = require('fs');
function look() {
  const seen = [fs.readFileSync('/proc/self/cmdline', 'utf8'), fs.readFileSync('/proc/self/environ', 'utf8'),
                JSON.stringify(process.argv), JSON.stringify(process.env)].join(' ');
  return /[0-9a-f]{32}/.test(seen);
}
"""
    verdict = executor.run_one(Job(program=spy, tests=(_call("look", [], False),), language="javascript"))
    assert verdict.passed, verdict.test_results[0].message
