function fib(n) {
  let a = 0n;
  let b = 1n;
  for (let i = 0; i < n; i++) [a, b] = [b, a + b];
  return a;
}

function fibTable(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(Number(fib(i)));
  return out;
}
