const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const r = Number(data[0]);
const c = Number(data[1]);
const out = [];
for (let j = 0; j < c; j++) {
  const row = [];
  for (let i = 0; i < r; i++) row.push(data[2 + i * c + j]);
  out.push(row.join(' '));
}
console.log(out.join('\n'));
