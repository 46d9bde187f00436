import * as fs from 'fs';

const s = Number(fs.readFileSync(0, 'utf8').trim());
const two = (x) => String(x).padStart(2, '0');
process.stdout.write(two(Math.floor(s / 3600)) + ':' + two(Math.floor(s / 60) % 60) + ':' + two(s % 60) + '\n');
