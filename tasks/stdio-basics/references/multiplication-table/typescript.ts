import * as fs from 'fs';

const n = Number(fs.readFileSync(0, 'utf8').trim());
const width = String(n * n).length;
const out: string[] = [];
for (let i = 1; i <= n; i++) {
  const row: string[] = [];
  for (let j = 1; j <= n; j++) row.push(String(i * j).padStart(width));
  out.push(row.join(' '));
}
console.log(out.join('\n'));
