const line = require('fs').readFileSync(0, 'utf8').split('\n')[0];
let count = 0;
for (const ch of line) if ('aeiouAEIOU'.includes(ch)) count++;
console.log(count);
