import * as fs from 'fs';

const lines = fs.readFileSync(0, 'utf8').split('\n');
const n = Number(lines[0]);
const rows = lines.slice(1, 1 + n).map((line) => line.trim().split(/\s+/));
const w = Math.max(...rows.map(([name]) => name.length));
const v = Math.max(...rows.map(([, score]) => score.length));
console.log(rows.map(([name, score]) => name.padEnd(w) + ' | ' + score.padStart(v)).join('\n'));
