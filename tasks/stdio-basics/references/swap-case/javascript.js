const line = require('fs').readFileSync(0, 'utf8').split('\n')[0];
let out = '';
for (const ch of line) {
  if (ch >= 'a' && ch <= 'z') out += ch.toUpperCase();
  else if (ch >= 'A' && ch <= 'Z') out += ch.toLowerCase();
  else out += ch;
}
console.log(out);
