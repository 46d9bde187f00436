import sys


class Report:
    def __init__(self):
        self.lines = []

    def __del__(self):
        sys.stdout.write("".join(self.lines))


reports = [Report()]
n = int(sys.stdin.readline())
for i in range(1, n + 1):
    reports[0].lines.append(f"{i}\n")
