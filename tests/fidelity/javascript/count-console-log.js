const input = require('fs').readFileSync('/dev/stdin', 'utf8');
const n = Number(input.trim());
for (let i = 1; i <= n; i++) {
  console.log(i);
}
