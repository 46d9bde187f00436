// The V8 start-up snapshot of the TypeScript compiler that compiles each TypeScript job (build.sh:
// `node --snapshot-blob tsc.blob --build-snapshot tsc_main.js`).
//
// A cold `tsc` spends seconds on loading the compiler and parsing and binding the same declaration
// files (the es2022 library, @types/node) for every job. Here the compiler (Debian's tsc.js, less its
// last lines, which run a compile at once) is loaded, and one warm-up compile parses and binds those
// files, while the snapshot is built; `ts.createSourceFile`, through which tsc's own compiler host
// parses every file, then hands back the parsed file whenever a compile asks again for a file of the
// image (under /usr/share/nodejs/) with the same name, text and parse options. At run time,
// `node --snapshot-blob tsc.blob <tsc.js> ARGS...` deserializes all that and runs tsc.js's own last
// lines: tsc's own command-line compile, with its own diagnostics, output files and exit status. Each
// compile is still a fresh process with the job's compile limits; it holds nothing of another job's
// program, and it never runs the program.
'use strict';

const fs = require('fs');
const path = require('path');
const v8 = require('v8');
const vm = require('vm');

const TSC = '/usr/share/nodejs/typescript/lib/tsc.js';
const IMAGE_FILES = '/usr/share/nodejs/';
const LAST_LINES = '// This file actually uses arguments passed on commandline and executes it\n';

const source = fs.readFileSync(TSC, 'utf8');
const cut = source.indexOf(LAST_LINES);
if (cut < 0 || source.indexOf(LAST_LINES, cut + 1) >= 0) {
  throw new Error(`${TSC} does not end as tsc.js 4.x does: update tsc_main.js for this TypeScript`);
}
// tsc.js is a script whose top-level `var ts` holds the compiler; its last lines run tsc on process.argv.
// Compiled under tsc.js's own name, so that a crash's stack trace names tsc.js's lines as a cold tsc's does.
const ts = vm.compileFunction(source.slice(0, cut) + '\nreturn ts;', ['require', '__filename', '__dirname'],
                              { filename: TSC })(require, TSC, path.dirname(TSC));
const runTsc = vm.compileFunction(source.slice(cut), ['ts'], { filename: TSC, lineOffset: source.slice(0, cut).split('\n').length - 1 });

// Parsed declaration files of the image, by name: [text, languageVersion, impliedNodeFormat, setParentNodes, file].
const parsed = new Map();
const stats = { parsed: 0, reused: 0 };
const createSourceFile = ts.createSourceFile;
ts.createSourceFile = function (fileName, text, languageVersionOrOptions, setParentNodes, scriptKind) {
  if (typeof fileName !== 'string' || !fileName.startsWith(IMAGE_FILES) || scriptKind !== undefined) {
    return createSourceFile.apply(this, arguments);
  }
  const options = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
  const known = parsed.get(fileName);
  if (known !== undefined && known[0] === text && known[1] === options.languageVersion
      && known[2] === options.impliedNodeFormat && known[3] === !!setParentNodes) {
    stats.reused++;
    return known[4];
  }
  const file = createSourceFile.apply(this, arguments);
  parsed.set(fileName, [text, options.languageVersion, options.impliedNodeFormat, !!setParentNodes, file]);
  stats.parsed++;
  return file;
};

// The warm-up: compile a small program with the arguments the sandbox uses (argv after this file),
// through a system that keeps what tsc writes and its exit status (nothing reaches stdout here).
function compile(args) {
  let written = '';
  let status;
  const system = Object.assign(Object.create(ts.sys), {
    write: (text) => { written += text; },
    writeOutputIsTTY: () => false,
    exit: (code) => { status = code; },
  });
  ts.executeCommandLine(system, ts.noop, args);
  return { status, written };
}

const warmDir = fs.mkdtempSync('/tmp/tsc-warm-');
fs.writeFileSync(path.join(warmDir, 'main.ts'), [
  "import * as fs from 'fs';",
  "const lines: string[] = fs.readFileSync(0, 'utf8').split('\\n');",
  'const counts = new Map<string, number>();',
  'for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);',
  'class Point { constructor(public x: number, public y: number) {} norm(): number { return Math.hypot(this.x, this.y); } }',
  'const best = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k.trim().toUpperCase());',
  'console.log(best.join(" "), new Point(3, 4).norm(), BigInt(2) ** 64n, JSON.stringify({ a: [1, 2] }));',
  'process.stdout.write(String(Number.parseInt("42", 10)) + "\\n");',
  '',
].join('\n'));
const args = process.argv.slice(2);
const cwd = process.cwd();
process.chdir(warmDir);
for (const round of [1, 2]) {
  const before = { ...stats };
  const { status, written } = compile([...args, 'main.ts']);
  if (status !== 0 || !fs.existsSync('main.js')) {
    throw new Error(`the warm-up compile failed (status ${status}):\n${written}`);
  }
  // the second compile must reuse every declaration file the first one parsed
  if (round === 2 && (stats.parsed !== before.parsed || stats.reused - before.reused !== parsed.size)) {
    throw new Error(`the second warm-up compile parsed ${stats.parsed - before.parsed} declaration files again`);
  }
}
process.chdir(cwd);
fs.rmSync(warmDir, { recursive: true });

v8.startupSnapshot.setDeserializeMainFunction(() => {
  ts.sys.args = process.argv.slice(2);  // as tsc.js: its own file is argv[1]
  runTsc(ts);
});
