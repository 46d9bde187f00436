const s = require('fs').readFileSync(0, 'utf8').trim();
console.log(s === s.split('').reverse().join('') ? 'YES' : 'NO');
