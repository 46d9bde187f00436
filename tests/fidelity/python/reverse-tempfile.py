import os
import sys
import tempfile

data = sys.stdin.buffer.read()
fd, path = tempfile.mkstemp(suffix=".txt")
try:
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    with open(path, encoding="utf-8", newline=None) as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    sys.stdout.write("".join(line + "\n" for line in reversed(lines)))
finally:
    os.remove(path)
