import * as fs from 'fs';

const input: string = fs.readFileSync(0, 'utf8');
const nums: number[] = input.trim().split(/\s+/).map(Number);
const n: number = nums[0];
let total = 0;
for (let i = 1; i <= n; i++) {
  total += nums[i];
}
console.log(total);
