const data: string = require('fs').readFileSync(0, 'utf-8');
const n: number = parseInt(data, 10);
const parts: string[] = [];
for (let i = 1; i <= n; i++) parts.push(String(i));
process.stdout.write(parts.join('\n') + '\n');
