const name = require('fs').readFileSync(0, 'utf8').split('\n')[0].replace(/\r$/, '');
process.stdout.write('Hello, ' + name + '!\n');
