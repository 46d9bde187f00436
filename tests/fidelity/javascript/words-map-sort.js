const text = require('fs').readFileSync(0, 'utf8');
const counts = new Map();
for (const raw of text.split(/\s+/)) {
  if (!raw) continue;
  const w = raw.toLowerCase();
  counts.set(w, (counts.get(w) || 0) + 1);
}
const entries = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
console.log(entries.map(([w, c]) => `${w} ${c}`).join('\n'));
