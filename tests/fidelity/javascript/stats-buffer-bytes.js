const buf = require('fs').readFileSync(0);
let lines = 0;
let words = 0;
let inWord = false;
for (const b of buf) {
  if (b === 10) lines++;
  const space = b === 32 || b === 9 || b === 10 || b === 11 || b === 12 || b === 13;
  if (space) inWord = false;
  else if (!inWord) {
    inWord = true;
    words++;
  }
}
console.log(`${buf.length} ${lines} ${words}`);
