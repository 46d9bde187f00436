'use strict';
const data = require('fs').readFileSync(0);
let pos = 0;

function nextInt() {
  while (data[pos] < 48 || data[pos] > 57) {
    if (data[pos] === 45) break;
    pos++;
  }
  let neg = false;
  if (data[pos] === 45) {
    neg = true;
    pos++;
  }
  let x = 0;
  while (pos < data.length && data[pos] >= 48 && data[pos] <= 57) x = x * 10 + (data[pos++] - 48);
  return neg ? -x : x;
}

const n = nextInt();
const q = nextInt();
const pre = new Float64Array(n + 1);
for (let i = 1; i <= n; i++) pre[i] = pre[i - 1] + nextInt();
const out = [];
for (let k = 0; k < q; k++) {
  const l = nextInt();
  const r = nextInt();
  out.push(pre[r] - pre[l - 1]);
}
process.stdout.write(out.join('\n') + '\n');
