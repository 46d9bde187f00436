import * as fs from 'fs';

const data: string[] = fs.readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
console.log(new Set(data.slice(1, 1 + n).map(Number)).size);
