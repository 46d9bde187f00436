import * as fs from 'fs';

const r = Number(fs.readFileSync(0, 'utf8').trim());
console.log((Math.PI * r * r).toFixed(9) + ' ' + (2 * Math.PI * r).toFixed(9));
