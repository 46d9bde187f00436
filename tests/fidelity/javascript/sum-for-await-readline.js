const readline = require('readline');

async function main() {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  const values = [];
  for await (const line of rl) {
    for (const token of line.split(/\s+/)) {
      if (token !== '') values.push(Number(token));
    }
  }
  const n = values[0];
  let sum = 0;
  for (let i = 1; i <= n; i++) sum += values[i];
  console.log(sum);
}

main();
