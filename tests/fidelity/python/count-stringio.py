import sys
from io import StringIO

buf = StringIO()
n = int(sys.stdin.readline())
for i in range(1, n + 1):
    buf.write(str(i))
    buf.write("\n")
sys.stdout.write(buf.getvalue())
