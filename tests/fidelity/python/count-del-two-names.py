import sys


class Report:
    def __init__(self):
        self.lines = []

    def __del__(self):
        sys.stdout.write("".join(self.lines))


report = Report()
current = report
n = int(sys.stdin.readline())
for i in range(1, n + 1):
    current.lines.append(f"{i}\n")
