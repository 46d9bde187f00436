let n = Number(require('fs').readFileSync(0, 'utf8').trim());
const table = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'],
  [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];
let out = '';
for (const [value, symbol] of table) {
  while (n >= value) {
    out += symbol;
    n -= value;
  }
}
console.log(out);
