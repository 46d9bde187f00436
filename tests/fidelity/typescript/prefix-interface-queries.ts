import * as fs from 'fs';

interface Query {
  l: number;
  r: number;
}

function main(): void {
  const it: IterableIterator<string> = fs.readFileSync(0, 'utf8').split(/\s+/).filter(Boolean)[Symbol.iterator]();
  const next = (): number => Number(it.next().value);
  const n = next();
  const q = next();
  const prefix: number[] = [0];
  for (let i = 0; i < n; i++) prefix.push(prefix[i] + next());
  const queries: Query[] = [];
  for (let i = 0; i < q; i++) queries.push({ l: next(), r: next() });
  const out: string[] = queries.map(({ l, r }) => String(prefix[r] - prefix[l - 1]));
  process.stdout.write(out.join('\n') + '\n');
}

main();
