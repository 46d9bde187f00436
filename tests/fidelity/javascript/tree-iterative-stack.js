const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((s) => s.length).map(Number);
const n = data[0];
const degree = new Int32Array(n + 2);
for (let i = 0; i < n - 1; i++) {
  degree[data[1 + 2 * i]]++;
  degree[data[2 + 2 * i]]++;
}
const start = new Int32Array(n + 2);
for (let v = 1; v <= n + 1; v++) start[v] = start[v - 1] + degree[v - 1];
const fill = start.slice();
const adj = new Int32Array(2 * (n - 1));
for (let i = 0; i < n - 1; i++) {
  const u = data[1 + 2 * i], v = data[2 + 2 * i];
  adj[fill[u]++] = v;
  adj[fill[v]++] = u;
}
const depth = new Int32Array(n + 1).fill(-1);
const stack = [1];
depth[1] = 0;
let best = 0;
while (stack.length) {
  const u = stack.pop();
  if (depth[u] > best) best = depth[u];
  for (let e = start[u]; e < start[u + 1]; e++) {
    const v = adj[e];
    if (depth[v] < 0) {
      depth[v] = depth[u] + 1;
      stack.push(v);
    }
  }
}
console.log(best);
