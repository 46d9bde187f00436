import * as fs from 'fs';

const tokens: number[] = fs.readFileSync(0, 'utf8').split(/\s+/).filter((t) => t !== '').map((t) => +t);
let p = 0;
const n: number = tokens[p++];
const adj: number[][] = Array.from({ length: n + 1 }, () => []);
for (let i = 0; i < n - 1; i++) {
  const u = tokens[p++];
  const v = tokens[p++];
  adj[u].push(v);
  adj[v].push(u);
}
const dist: Int32Array = new Int32Array(n + 1).fill(-1);
const queue: number[] = [1];
dist[1] = 0;
let head = 0;
let best = 0;
while (head < queue.length) {
  const u = queue[head++];
  best = Math.max(best, dist[u]);
  for (const v of adj[u]) {
    if (dist[v] === -1) {
      dist[v] = dist[u] + 1;
      queue.push(v);
    }
  }
}
console.log(best);
