import * as fs from 'fs';

const digits = fs.readFileSync(0, 'utf8').trim();
let total = 0;
for (const d of digits) total += d.charCodeAt(0) - 48;
console.log(total);
