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
