import * as fs from 'fs';

const line = fs.readFileSync(0, 'utf8').split('\n')[0];
const counts: number[] = new Array(26).fill(0);
for (const ch of line.toLowerCase()) {
  const k = ch.charCodeAt(0) - 97;
  if (k >= 0 && k < 26) counts[k]++;
}
const out: string[] = [];
for (let k = 0; k < 26; k++) if (counts[k] > 0) out.push(String.fromCharCode(97 + k) + ' ' + counts[k]);
if (out.length > 0) console.log(out.join('\n'));
