let answer = '';
process.on('exit', () => {
  console.log(answer);
});

const n = Number(require('fs').readFileSync(0, 'utf8'));
let f = 1n;
for (let i = 2; i <= n; i++) f *= BigInt(i);
answer = f.toString();
