// The code of ours that runs inside the process of a JavaScript program (or a TypeScript program
// compiled to JavaScript) for a `call` test: the twin of program/child.py's `call`. It reads the call on
// stdin, loads the program (main.js in the current folder) as Node.js loads a CommonJS module,
// calls the function, and writes the returned value as JSON on the result channel. The runner
// compares it with the expected value, which never enters this process.
//
//   node [flags] program/driver.js       stdin: {"nonce": HEX, "fn_name": NAME, "args": [...]}
//                                        env:   GRPO_CODE_RESULT_FD (the result channel's fd)
//
// Every reference this file uses after the program's code has run is bound here first, before the
// program is loaded, and what it reads of a returned value it reads through property descriptors
// only, never through getters, proxies, toJSON or prototype methods: so a program that replaces
// JSON.stringify, console, process.stdout, Array.prototype or Object.prototype cannot change what
// is reported, and a returned value that is not plain JSON data fails the test. The nonce lives
// only in this file's closure (never on the command line or in the environment, which the program
// can read). What it cannot stop, as in Python: code that deliberately reverse-engineers the
// harness from inside the process (the inspector module, its own memory).
'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');
const Module = require('module');
const { types } = require('util');

const readFileSync = fs.readFileSync;
const writeSync = fs.writeSync;
const compileFunction = vm.compileFunction;
const createRequire = Module.createRequire;
const isProxy = types.isProxy;
const isNativeError = types.isNativeError;
const isPromise = types.isPromise;
const stringify = JSON.stringify;
const parse = JSON.parse;
const isArray = Array.isArray;
const getPrototypeOf = Object.getPrototypeOf;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const hasOwn = Object.hasOwn;
const ownKeys = Reflect.ownKeys;
const apply = Reflect.apply;
const stringSlice = String.prototype.slice;
const ArrayPrototype = Array.prototype;
const ObjectPrototype = Object.prototype;
const reallyExit = process.reallyExit;
const MESSAGE_LIMIT = 500;
const MAX_DEPTH = 200;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const regexpTest = RegExp.prototype.test;

const call = parse(readFileSync(0, 'utf8'));
const nonce = call.nonce;
const resultFd = +process.env.GRPO_CODE_RESULT_FD;
delete process.env.GRPO_CODE_RESULT_FD;

function clip(text) {
  return text.length <= MESSAGE_LIMIT ? text : apply(stringSlice, text, [0, MESSAGE_LIMIT - 3]) + '...';
}

// One record (sandbox/inside/messages.py): the program's answer, never a verdict (the runner
// reads the exit status from the kernel and compares the value itself).
function report(event, fields) {
  let line = '{"event": "' + event + '", "nonce": "' + nonce + '"';
  const names = ownKeys(fields);
  for (let i = 0; i < names.length; i++) line += ', "' + names[i] + '": ' + stringify(fields[names[i]]);
  line += '}\n';
  try {
    writeSync(resultFd, line);
  } catch (e) {
    // the program closed the channel: no record, the runner sees a test that did not answer
  }
}

function finish(code) {
  apply(reallyExit, process, [code]);
}

class NotPlainData {
  constructor(message) {
    this.message = message;
  }
}

// The data property `key` of `object`, read without running any of the program's code (a getter
// or a proxy trap); `missing` when there is none.
const missing = {};
function dataProperty(object, key) {
  const descriptor = getOwnPropertyDescriptor(object, key);
  if (descriptor === undefined) return missing;
  if (!hasOwn(descriptor, 'value')) throw new NotPlainData('returned a value with a getter, which is not plain JSON data');
  return descriptor.value;
}

// JSON text of a returned value, built with pristine references only: null, booleans, finite and
// non-finite numbers (NaN and Infinity, as Python's json writes them), strings, BigInts (as
// integers), dense arrays and plain objects of those.
function toJSON(value, depth) {
  if (depth > MAX_DEPTH) throw new NotPlainData('returned value is nested too deeply');
  const type = typeof value;
  if (value === null) return 'null';
  if (type === 'boolean') return value ? 'true' : 'false';
  if (type === 'string') return stringify(value);
  if (type === 'bigint') return '' + value;
  if (type === 'number') {
    if (value !== value) return 'NaN';
    if (value === Infinity) return 'Infinity';
    if (value === -Infinity) return '-Infinity';
    return '' + value;
  }
  if (type !== 'object') throw new NotPlainData(`returned ${type === 'undefined' ? 'undefined' : 'a ' + type}, which is not plain JSON data`);
  if (isProxy(value)) throw new NotPlainData('returned a Proxy, which is not plain JSON data');
  if (isPromise(value)) throw new NotPlainData('returned a Promise: return the value itself, call tests compare plain JSON data');
  const prototype = getPrototypeOf(value);
  if (isArray(value)) {
    if (prototype !== ArrayPrototype) throw new NotPlainData('returned an array of a subclass, which is not plain JSON data');
    const length = dataProperty(value, 'length');
    let text = '[';
    for (let i = 0; i < length; i++) {
      const item = dataProperty(value, i);
      if (item === missing) throw new NotPlainData('returned an array with holes, which is not plain JSON data');
      text += (i ? ', ' : '') + toJSON(item, depth + 1);
    }
    return text + ']';
  }
  if (prototype !== ObjectPrototype && prototype !== null) {
    throw new NotPlainData('returned an object that is not a plain object or array (a class instance, a Map, ' +
                           'a typed array, ...), which is not plain JSON data');
  }
  const keys = ownKeys(value);
  let text = '{';
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key !== 'string') throw new NotPlainData('returned an object with a symbol key, which is not plain JSON data');
    const descriptor = getOwnPropertyDescriptor(value, key);
    if (!descriptor.enumerable) continue;
    const item = dataProperty(value, key);
    text += (first ? '' : ', ') + stringify(key) + ': ' + toJSON(item, depth + 1);
    first = false;
  }
  return text + '}';
}

// `Name: message` of a thrown value, read through data properties only.
function describe(error) {
  try {
    if (isNativeError(error)) {
      let name = 'Error';
      for (let object = error; object !== null; object = getPrototypeOf(object)) {
        const descriptor = getOwnPropertyDescriptor(object, 'name');
        if (descriptor !== undefined && hasOwn(descriptor, 'value') && typeof descriptor.value === 'string') {
          name = descriptor.value;
          break;
        }
      }
      const message = getOwnPropertyDescriptor(error, 'message');
      const text = message !== undefined && hasOwn(message, 'value') && typeof message.value === 'string'
        ? message.value : '';
      return clip(text ? name + ': ' + text : name);
    }
    const type = typeof error;
    if (type === 'string' || type === 'number' || type === 'boolean') return clip('threw ' + stringify(error));
    return 'threw a value that is not an Error';
  } catch (e) {
    return 'threw a value that cannot be shown';
  }
}

function runtimeError(message) {
  report('raised', { kind: 'Error', message: clip(message) });
  try {
    writeSync(2, message + '\n');
  } catch (e) {
    // stderr closed by the program
  }
  finish(1);
}

function main() {
  const fnName = call.fn_name;
  const args = call.args;
  if (typeof fnName !== 'string' || !apply(regexpTest, IDENTIFIER, [fnName]) || !isArray(args)) {
    runtimeError(`the call test's fn_name ${stringify(fnName)} is not a JavaScript identifier`);
  }
  const file = path.resolve('main.js');
  let source;
  try {
    source = readFileSync(file, 'utf8');
  } catch (e) {
    runtimeError('the program main.js is missing');
  }
  // The program's top level runs as Node.js runs a CommonJS module; the line after it (the last
  // of the module's function) hands back the function it defines, whatever its kind of binding.
  const lookup = `\n;return (() => { try { return typeof ${fnName} === 'undefined' ? undefined : ${fnName}; } ` +
                 'catch (e) { return undefined; } })();\n';
  const module = new Module(file, null);
  module.filename = file;
  module.paths = Module._nodeModulePaths(path.dirname(file));
  const require = createRequire(file);
  let fn;
  try {
    const body = compileFunction(source + lookup, ['exports', 'require', 'module', '__filename', '__dirname'],
                                 { filename: file });
    fn = apply(body, module.exports, [module.exports, require, module, file, path.dirname(file)]);
    if (typeof fn !== 'function') {
      // or exported: module.exports.NAME (a data property of a plain exports object)
      const exported = dataProperty(module, 'exports');
      if (exported !== missing && exported !== null && typeof exported === 'object' && !isProxy(exported)) {
        const value = dataProperty(exported, fnName);
        if (value !== missing) fn = value;
      }
    }
  } catch (e) {
    if (e instanceof NotPlainData) runtimeError(e.message);
    runtimeError(describe(e));
  }
  if (typeof fn !== 'function') runtimeError(`${fnName} is not defined as a function by the program`);
  let value;
  try {
    value = apply(fn, undefined, args);
  } catch (e) {
    runtimeError(describe(e));
  }
  let text;
  try {
    text = toJSON(value, 0);
  } catch (e) {
    if (e instanceof NotPlainData) {
      report('not_plain', { message: clip(e.message) });
      finish(0);
    }
    runtimeError(describe(e));  // a stack overflow on a deep value
  }
  report('returned', { value: text });
  finish(0);
}

main();
