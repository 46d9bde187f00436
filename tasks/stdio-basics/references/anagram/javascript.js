const [a, b] = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const key = (w) => w.split('').sort().join('');
console.log(key(a) === key(b) ? 'YES' : 'NO');
