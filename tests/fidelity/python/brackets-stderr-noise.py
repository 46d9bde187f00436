import sys


def debug(*args):
    print("[debug]", *args, file=sys.stderr)


def check(s):
    stack = []
    match = {")": "(", "]": "[", "}": "{"}
    for i, ch in enumerate(s):
        if ch in match:
            if not stack or stack[-1] != match[ch]:
                return False
            stack.pop()
        else:
            stack.append(ch)
    return len(stack) == 0


lines = sys.stdin.read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
debug("lines:", len(lines))
answers = []
for idx, line in enumerate(lines):
    line = line.rstrip("\r")
    ok = check(line)
    if idx % 100 == 0:
        debug("line", idx, repr(line[:20]), ok)
    answers.append("YES" if ok else "NO")
print("\n".join(answers))
