const groupAnagrams = (strs) => {
  const groups = {};
  for (const s of strs) {
    const key = [...s].sort().join('');
    (groups[key] = groups[key] || []).push(s);
  }
  return Object.values(groups)
    .map((g) => g.sort())
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
};
