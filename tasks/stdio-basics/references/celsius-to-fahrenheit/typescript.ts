import * as fs from 'fs';

const data: string[] = fs.readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
const out: string[] = [];
for (let i = 1; i <= n; i++) out.push((Number(data[i]) * 9 / 5 + 32).toFixed(9));
console.log(out.join('\n'));
