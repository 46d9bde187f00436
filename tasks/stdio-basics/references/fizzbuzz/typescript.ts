import * as fs from 'fs';

const n = Number(fs.readFileSync(0, 'utf8').trim());
const out: string[] = [];
for (let i = 1; i <= n; i++) {
  out.push(i % 15 === 0 ? 'FizzBuzz' : i % 3 === 0 ? 'Fizz' : i % 5 === 0 ? 'Buzz' : String(i));
}
console.log(out.join('\n'));
