const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
const xs = data.slice(1, 1 + n).map(Number);
const mean = xs.reduce((s, x) => s + x, 0) / n;
const std = Math.sqrt(xs.reduce((s, x) => s + (x - mean) * (x - mean), 0) / n);
console.log(mean.toFixed(9) + ' ' + std.toFixed(9));
