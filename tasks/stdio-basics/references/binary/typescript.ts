import * as fs from 'fs';

const n = BigInt(fs.readFileSync(0, 'utf8').trim());
console.log(n.toString(2));
