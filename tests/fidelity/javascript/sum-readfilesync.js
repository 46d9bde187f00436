const fs = require('fs');

const tokens = fs.readFileSync(0, 'utf8').split(/\s+/).filter(Boolean).map(Number);
const n = tokens[0];
let sum = 0;
for (let i = 1; i <= n; i++) sum += tokens[i];
console.log(sum);
