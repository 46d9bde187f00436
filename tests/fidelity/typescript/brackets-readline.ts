import * as readline from 'readline';

const PAIRS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

function isBalanced(s: string): boolean {
  const stack: string[] = [];
  for (const ch of s) {
    if (ch === '(' || ch === '[' || ch === '{') stack.push(ch);
    else if (ch in PAIRS) {
      if (stack.pop() !== PAIRS[ch]) return false;
    }
  }
  return stack.length === 0;
}

const rl = readline.createInterface({ input: process.stdin });
const answers: string[] = [];
rl.on('line', (line: string) => answers.push(isBalanced(line) ? 'YES' : 'NO'));
rl.on('close', () => console.log(answers.join('\n')));
