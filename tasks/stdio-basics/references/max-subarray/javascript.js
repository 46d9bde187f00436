const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
let best = Number(data[1]);
let current = best;
for (let i = 2; i <= n; i++) {
  const x = Number(data[i]);
  current = Math.max(x, current + x);
  best = Math.max(best, current);
}
console.log(String(best));
