const input = require('fs').readFileSync(0, 'utf8');
const lines = input.split(/\r?\n/);
if (lines.length && lines[lines.length - 1] === '') lines.pop();
lines.reverse();
process.stdout.write(lines.map((l) => l + '\n').join(''));
