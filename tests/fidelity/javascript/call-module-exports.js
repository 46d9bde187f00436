'use strict';

const memo = new Map();

function ways(n) {
  if (n <= 1) return 1;
  if (memo.has(n)) return memo.get(n);
  const result = ways(n - 1) + ways(n - 2);
  memo.set(n, result);
  return result;
}

function climbStairs(n) {
  return ways(n);
}

module.exports = { climbStairs };
