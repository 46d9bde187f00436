import * as fs from 'fs';

const n = Number(fs.readFileSync(0, 'utf8').trim());
const out: string[] = [];
for (let k = 1; k <= n; k++) out.push(' '.repeat(n - k) + '*'.repeat(2 * k - 1));
for (let k = n - 1; k >= 1; k--) out.push(' '.repeat(n - k) + '*'.repeat(2 * k - 1));
console.log(out.join('\n'));
