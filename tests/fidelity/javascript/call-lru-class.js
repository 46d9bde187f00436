class LRUCache {
  constructor(capacity) {
    this.capacity = capacity;
    this.map = new Map();
  }

  get(key) {
    if (!this.map.has(key)) return -1;
    const value = this.map.get(key);
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  put(key, value) {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value);
  }
}

function simulate(capacity, operations) {
  const cache = new LRUCache(capacity);
  const results = [];
  for (const [op, key, value] of operations) {
    if (op === 'put') cache.put(key, value);
    else results.push(cache.get(key));
  }
  return results;
}
