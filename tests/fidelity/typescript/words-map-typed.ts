import { readFileSync } from 'fs';

type Entry = [string, number];

function countWords(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of text.split(/\s+/)) {
    if (token.length === 0) continue;
    const word = token.toLowerCase();
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

const entries: Entry[] = Array.from(countWords(readFileSync(0, 'utf8')).entries());
entries.sort((a, b) => (b[1] - a[1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
process.stdout.write(entries.map(([w, c]) => `${w} ${c}\n`).join(''));
