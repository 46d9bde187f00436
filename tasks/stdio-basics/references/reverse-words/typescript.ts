import * as fs from 'fs';

const line = fs.readFileSync(0, 'utf8').split('\n')[0];
const words = line.split(' ').filter((w) => w.length > 0);
console.log(words.reverse().join(' '));
