import * as fs from 'fs';

const data: string[] = fs.readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
let total = 0;
for (let i = 1; i <= n; i++) total += Number(data[i]);
console.log((total / n).toFixed(9));
