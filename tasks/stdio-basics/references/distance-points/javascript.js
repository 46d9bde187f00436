const [x1, y1, x2, y2] = require('fs').readFileSync(0, 'utf8').trim().split(/\s+/).map(Number);
console.log(Math.hypot(x2 - x1, y2 - y1).toFixed(9));
