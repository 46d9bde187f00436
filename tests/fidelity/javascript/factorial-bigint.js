const n = BigInt(require('fs').readFileSync(0, 'utf8').trim());
let f = 1n;
for (let i = 2n; i <= n; i++) f *= i;
console.log(f.toString());
