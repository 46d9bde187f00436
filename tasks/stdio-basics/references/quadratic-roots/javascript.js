const [a, b, c] = require('fs').readFileSync(0, 'utf8').trim().split(/\s+/).map(Number);
const d = Math.sqrt(b * b - 4 * a * c);
// the numerically stable form: no cancellation between -b and d
const q = -0.5 * (b + (b < 0 ? -d : d));
const roots = [q / a, c / q].sort((x, y) => x - y);
console.log(roots[0].toFixed(9) + ' ' + roots[1].toFixed(9));
