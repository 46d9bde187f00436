const s = require('fs').readFileSync(0, 'utf8').split('\n')[0].trim();
const pairs = { ')': '(', ']': '[', '}': '{' };
const stack = [];
let ok = true;
for (const ch of s) {
  if ('([{'.includes(ch)) stack.push(ch);
  else if (stack.length === 0 || stack.pop() !== pairs[ch]) {
    ok = false;
    break;
  }
}
console.log(ok && stack.length === 0 ? 'YES' : 'NO');
