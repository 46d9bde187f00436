import * as fs from 'fs';

const text = fs.readFileSync(0, 'utf8');
console.log(text.split(/\s+/).filter((w) => w.length > 0).length);
