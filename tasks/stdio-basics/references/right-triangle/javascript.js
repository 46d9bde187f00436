const n = Number(require('fs').readFileSync(0, 'utf8').trim());
const out = [];
for (let i = 1; i <= n; i++) out.push(' '.repeat(n - i) + '*'.repeat(i));
console.log(out.join('\n'));
