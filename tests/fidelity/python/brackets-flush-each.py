import sys

PAIRS = {")": "(", "]": "[", "}": "{"}


def balanced(s):
    stack = []
    for ch in s:
        if ch in "([{":
            stack.append(ch)
        elif not stack or stack.pop() != PAIRS[ch]:
            return False
    return not stack


for line in sys.stdin.read().splitlines():
    print("YES" if balanced(line.strip()) else "NO", flush=True)
