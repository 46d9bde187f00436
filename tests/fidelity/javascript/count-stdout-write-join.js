const n = parseInt(require('fs').readFileSync(0, 'utf8'), 10);
const lines = new Array(n);
for (let i = 0; i < n; i++) lines[i] = i + 1;
process.stdout.write(lines.join('\n') + '\n');
