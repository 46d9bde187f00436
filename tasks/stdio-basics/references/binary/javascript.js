const n = BigInt(require('fs').readFileSync(0, 'utf8').trim());
console.log(n.toString(2));
