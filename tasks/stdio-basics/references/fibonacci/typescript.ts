import * as fs from 'fs';

const n = Number(fs.readFileSync(0, 'utf8').trim());
let a = 0n;
let b = 1n;
for (let i = 0; i < n; i++) [a, b] = [b, a + b];
console.log(a.toString());
