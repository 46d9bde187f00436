const wordPattern = (pattern: string, s: string): boolean => {
  const words = s.split(' ');
  if (words.length !== pattern.length) return false;
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  for (let i = 0; i < words.length; i++) {
    const c = pattern[i];
    const w = words[i];
    if ((forward.has(c) && forward.get(c) !== w) || (backward.has(w) && backward.get(w) !== c)) return false;
    forward.set(c, w);
    backward.set(w, c);
  }
  return true;
};
