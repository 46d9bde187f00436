let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  input += chunk;
});
process.stdin.on('end', () => {
  const pairs = { ')': '(', ']': '[', '}': '{' };
  const lines = input.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const out = lines.map((raw) => {
    const line = raw.replace(/\r$/, '');
    const stack = [];
    for (const ch of line) {
      if ('([{'.includes(ch)) stack.push(ch);
      else if (stack.pop() !== pairs[ch]) return 'NO';
    }
    return stack.length === 0 ? 'YES' : 'NO';
  });
  process.stdout.write(out.join('\n') + '\n');
  process.exit(0);
});
