const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\s+/).map(BigInt);
let x = a;
let y = b;
while (y !== 0n) [x, y] = [y, x % y];
console.log(x + ' ' + (a / x) * b);
