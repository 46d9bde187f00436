const readline = require('readline');

const rl = readline.createInterface({ input: process.stdin, terminal: false });
const tokens = [];
rl.on('line', (line) => {
  for (const t of line.trim().split(/\s+/)) if (t) tokens.push(t);
});
rl.on('close', () => {
  const n = parseInt(tokens[0], 10);
  let total = 0;
  for (let i = 1; i <= n; i++) total += parseInt(tokens[i], 10);
  console.log(String(total));
});
