"""JavaScript (Node.js 18) reference solutions of the stdio-basics problems, by problem name."""

REFERENCES = {
"sum-two": r"""
const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\s+/).map(BigInt);
console.log((a + b).toString());
""",
"sum-list": r"""
const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
let total = 0;
for (let i = 1; i <= n; i++) total += Number(data[i]);
console.log(String(total));
""",
"min-max": r"""
const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
let lo = Infinity;
let hi = -Infinity;
for (let i = 1; i <= n; i++) {
  const x = Number(data[i]);
  if (x < lo) lo = x;
  if (x > hi) hi = x;
}
console.log(lo + ' ' + hi);
""",
"reverse-words": r"""
const line = require('fs').readFileSync(0, 'utf8').split('\n')[0];
const words = line.split(' ').filter((w) => w.length > 0);
console.log(words.reverse().join(' '));
""",
"count-vowels": r"""
const line = require('fs').readFileSync(0, 'utf8').split('\n')[0];
let count = 0;
for (const ch of line) if ('aeiouAEIOU'.includes(ch)) count++;
console.log(count);
""",
"sort-numbers": r"""
const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
const xs = data.slice(1, 1 + n).map(Number);
xs.sort((a, b) => a - b);
console.log(xs.join(' '));
""",
"fizzbuzz": r"""
const n = Number(require('fs').readFileSync(0, 'utf8').trim());
const out = [];
for (let i = 1; i <= n; i++) {
  out.push(i % 15 === 0 ? 'FizzBuzz' : i % 3 === 0 ? 'Fizz' : i % 5 === 0 ? 'Buzz' : String(i));
}
console.log(out.join('\n'));
""",
"primes-up-to": r"""
const n = Number(require('fs').readFileSync(0, 'utf8').trim());
const composite = new Uint8Array(n + 1);
const primes = [];
for (let i = 2; i <= n; i++) {
  if (composite[i]) continue;
  primes.push(i);
  for (let j = i * i; j <= n; j += i) composite[j] = 1;
}
console.log(primes.join(' '));
""",
"matrix-transpose": r"""
const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const r = Number(data[0]);
const c = Number(data[1]);
const out = [];
for (let j = 0; j < c; j++) {
  const row = [];
  for (let i = 0; i < r; i++) row.push(data[2 + i * c + j]);
  out.push(row.join(' '));
}
console.log(out.join('\n'));
""",
"gcd-lcm": r"""
const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\s+/).map(BigInt);
let x = a;
let y = b;
while (y !== 0n) [x, y] = [y, x % y];
console.log(x + ' ' + (a / x) * b);
""",
"factorial-mod": r"""
const n = Number(require('fs').readFileSync(0, 'utf8').trim());
const MOD = 1000000007n;
let result = 1n;
for (let i = 2n; i <= BigInt(n); i++) result = (result * i) % MOD;
console.log(result.toString());
""",
"palindrome": r"""
const s = require('fs').readFileSync(0, 'utf8').trim();
console.log(s === s.split('').reverse().join('') ? 'YES' : 'NO');
""",
"letter-frequency": r"""
const line = require('fs').readFileSync(0, 'utf8').split('\n')[0];
const counts = new Array(26).fill(0);
for (const ch of line.toLowerCase()) {
  const k = ch.charCodeAt(0) - 97;
  if (k >= 0 && k < 26) counts[k]++;
}
const out = [];
for (let k = 0; k < 26; k++) if (counts[k] > 0) out.push(String.fromCharCode(97 + k) + ' ' + counts[k]);
if (out.length > 0) console.log(out.join('\n'));
""",
"binary": r"""
const n = BigInt(require('fs').readFileSync(0, 'utf8').trim());
console.log(n.toString(2));
""",
"word-count": r"""
const text = require('fs').readFileSync(0, 'utf8');
console.log(text.split(/\s+/).filter((w) => w.length > 0).length);
""",
"second-largest": r"""
const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
const values = [...new Set(data.slice(1, 1 + n).map(Number))].sort((a, b) => a - b);
console.log(values.length >= 2 ? String(values[values.length - 2]) : 'NONE');
""",
"fibonacci": r"""
const n = Number(require('fs').readFileSync(0, 'utf8').trim());
let a = 0n;
let b = 1n;
for (let i = 0; i < n; i++) [a, b] = [b, a + b];
console.log(a.toString());
""",
"leap-years": r"""
const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const t = Number(data[0]);
const out = [];
for (let i = 1; i <= t; i++) {
  const y = Number(data[i]);
  out.push(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 'YES' : 'NO');
}
console.log(out.join('\n'));
""",
"prefix-sums": r"""
const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
const out = [];
let total = 0;
for (let i = 1; i <= n; i++) {
  total += Number(data[i]);
  out.push(total);
}
console.log(out.join(' '));
""",
"anagram": r"""
const [a, b] = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const key = (w) => w.split('').sort().join('');
console.log(key(a) === key(b) ? 'YES' : 'NO');
""",
"digit-sum": r"""
const digits = require('fs').readFileSync(0, 'utf8').trim();
let total = 0;
for (const d of digits) total += d.charCodeAt(0) - 48;
console.log(total);
""",
"count-distinct": r"""
const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
console.log(new Set(data.slice(1, 1 + n).map(Number)).size);
""",
"collatz-steps": r"""
let n = Number(require('fs').readFileSync(0, 'utf8').trim());
let steps = 0;
while (n !== 1) {
  n = n % 2 === 0 ? n / 2 : 3 * n + 1;
  steps++;
}
console.log(steps);
""",
"max-subarray": r"""
const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
let best = Number(data[1]);
let current = best;
for (let i = 2; i <= n; i++) {
  const x = Number(data[i]);
  current = Math.max(x, current + x);
  best = Math.max(best, current);
}
console.log(String(best));
""",
"balanced-brackets": r"""
const s = require('fs').readFileSync(0, 'utf8').split('\n')[0].trim();
const pairs = { ')': '(', ']': '[', '}': '{' };
const stack = [];
let ok = true;
for (const ch of s) {
  if ('([{'.includes(ch)) stack.push(ch);
  else if (stack.length === 0 || stack.pop() !== pairs[ch]) {
    ok = false;
    break;
  }
}
console.log(ok && stack.length === 0 ? 'YES' : 'NO');
""",
"roman-numerals": r"""
let n = Number(require('fs').readFileSync(0, 'utf8').trim());
const table = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'],
  [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];
let out = '';
for (const [value, symbol] of table) {
  while (n >= value) {
    out += symbol;
    n -= value;
  }
}
console.log(out);
""",
"average": r"""
const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
let total = 0;
for (let i = 1; i <= n; i++) total += Number(data[i]);
console.log((total / n).toFixed(9));
""",
"distance-points": r"""
const [x1, y1, x2, y2] = require('fs').readFileSync(0, 'utf8').trim().split(/\s+/).map(Number);
console.log(Math.hypot(x2 - x1, y2 - y1).toFixed(9));
""",
"celsius-to-fahrenheit": r"""
const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
const out = [];
for (let i = 1; i <= n; i++) out.push((Number(data[i]) * 9 / 5 + 32).toFixed(9));
console.log(out.join('\n'));
""",
"circle": r"""
const r = Number(require('fs').readFileSync(0, 'utf8').trim());
console.log((Math.PI * r * r).toFixed(9) + ' ' + (2 * Math.PI * r).toFixed(9));
""",
"quadratic-roots": r"""
const [a, b, c] = require('fs').readFileSync(0, 'utf8').trim().split(/\s+/).map(Number);
const d = Math.sqrt(b * b - 4 * a * c);
// the numerically stable form: no cancellation between -b and d
const q = -0.5 * (b + (b < 0 ? -d : d));
const roots = [q / a, c / q].sort((x, y) => x - y);
console.log(roots[0].toFixed(9) + ' ' + roots[1].toFixed(9));
""",
"mean-stddev": r"""
const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
const xs = data.slice(1, 1 + n).map(Number);
const mean = xs.reduce((s, x) => s + x, 0) / n;
const std = Math.sqrt(xs.reduce((s, x) => s + (x - mean) * (x - mean), 0) / n);
console.log(mean.toFixed(9) + ' ' + std.toFixed(9));
""",
"swap-case": r"""
const line = require('fs').readFileSync(0, 'utf8').split('\n')[0];
let out = '';
for (const ch of line) {
  if (ch >= 'a' && ch <= 'z') out += ch.toUpperCase();
  else if (ch >= 'A' && ch <= 'Z') out += ch.toLowerCase();
  else out += ch;
}
console.log(out);
""",
"right-triangle": r"""
const n = Number(require('fs').readFileSync(0, 'utf8').trim());
const out = [];
for (let i = 1; i <= n; i++) out.push(' '.repeat(n - i) + '*'.repeat(i));
console.log(out.join('\n'));
""",
"diamond": r"""
const n = Number(require('fs').readFileSync(0, 'utf8').trim());
const out = [];
for (let k = 1; k <= n; k++) out.push(' '.repeat(n - k) + '*'.repeat(2 * k - 1));
for (let k = n - 1; k >= 1; k--) out.push(' '.repeat(n - k) + '*'.repeat(2 * k - 1));
console.log(out.join('\n'));
""",
"multiplication-table": r"""
const n = Number(require('fs').readFileSync(0, 'utf8').trim());
const width = String(n * n).length;
const out = [];
for (let i = 1; i <= n; i++) {
  const row = [];
  for (let j = 1; j <= n; j++) row.push(String(i * j).padStart(width));
  out.push(row.join(' '));
}
console.log(out.join('\n'));
""",
"score-table": r"""
const lines = require('fs').readFileSync(0, 'utf8').split('\n');
const n = Number(lines[0]);
const rows = lines.slice(1, 1 + n).map((line) => line.trim().split(/\s+/));
const w = Math.max(...rows.map(([name]) => name.length));
const v = Math.max(...rows.map(([, score]) => score.length));
console.log(rows.map(([name, score]) => name.padEnd(w) + ' | ' + score.padStart(v)).join('\n'));
""",
"caesar-cipher": r"""
const lines = require('fs').readFileSync(0, 'utf8').split('\n');
const k = Number(lines[0]);
let out = '';
for (const ch of lines[1]) {
  const code = ch.charCodeAt(0);
  if (ch >= 'a' && ch <= 'z') out += String.fromCharCode((code - 97 + k) % 26 + 97);
  else if (ch >= 'A' && ch <= 'Z') out += String.fromCharCode((code - 65 + k) % 26 + 65);
  else out += ch;
}
console.log(out);
""",
"greeting": r"""
const name = require('fs').readFileSync(0, 'utf8').split('\n')[0].replace(/\r$/, '');
process.stdout.write('Hello, ' + name + '!\n');
""",
"csv-join": r"""
const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
process.stdout.write(data.slice(1, 1 + n).join(',') + '\n');
""",
"seconds-to-clock": r"""
const s = Number(require('fs').readFileSync(0, 'utf8').trim());
const two = (x) => String(x).padStart(2, '0');
process.stdout.write(two(Math.floor(s / 3600)) + ':' + two(Math.floor(s / 60) % 60) + ':' + two(s % 60) + '\n');
""",
"date-iso": r"""
const [d, m, y] = require('fs').readFileSync(0, 'utf8').trim().split('/').map(Number);
const pad = (x, width) => String(x).padStart(width, '0');
process.stdout.write(pad(y, 4) + '-' + pad(m, 2) + '-' + pad(d, 2) + '\n');
""",
}
