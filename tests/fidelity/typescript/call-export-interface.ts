export interface Interval {
  start: number;
  end: number;
}

function toIntervals(pairs: number[][]): Interval[] {
  return pairs.map(([start, end]) => ({ start, end }));
}

export function merge(pairs: number[][]): number[][] {
  const sorted = toIntervals(pairs).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const cur of sorted) {
    const last = out[out.length - 1];
    if (last && cur.start <= last.end) last.end = Math.max(last.end, cur.end);
    else out.push({ ...cur });
  }
  return out.map((i) => [i.start, i.end]);
}
