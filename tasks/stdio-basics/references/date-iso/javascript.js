const [d, m, y] = require('fs').readFileSync(0, 'utf8').trim().split('/').map(Number);
const pad = (x, width) => String(x).padStart(width, '0');
process.stdout.write(pad(y, 4) + '-' + pad(m, 2) + '-' + pad(d, 2) + '\n');
