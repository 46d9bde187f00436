const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const t = Number(data[0]);
const out = [];
for (let i = 1; i <= t; i++) {
  const y = Number(data[i]);
  out.push(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 'YES' : 'NO');
}
console.log(out.join('\n'));
