import * as fs from 'fs';

const lines = fs.readFileSync(0, 'utf8').split('\n');
const k = Number(lines[0]);
let out = '';
for (const ch of lines[1]) {
  const code = ch.charCodeAt(0);
  if (ch >= 'a' && ch <= 'z') out += String.fromCharCode((code - 97 + k) % 26 + 97);
  else if (ch >= 'A' && ch <= 'Z') out += String.fromCharCode((code - 65 + k) % 26 + 65);
  else out += ch;
}
console.log(out);
