import * as fs from 'fs';

const n = Number(fs.readFileSync(0, 'utf8').trim());
const MOD = 1000000007n;
let result = 1n;
for (let i = 2n; i <= BigInt(n); i++) result = (result * i) % MOD;
console.log(result.toString());
