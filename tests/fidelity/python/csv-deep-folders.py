import os
import sys
from collections import defaultdict

ROOT = os.path.join("work", "by", "name", "first", "letter")


def path_for(name):
    folder = os.path.join(ROOT, *name[:2], "scores")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, name + ".txt")


def main():
    lines = sys.stdin.read().splitlines()
    scores = defaultdict(list)
    for line in lines[1:]:
        if line.strip():
            name, score = line.split(",")
            scores[name.strip()].append(score.strip())
    for name, values in scores.items():
        with open(path_for(name), "w") as f:
            f.write("\n".join(values) + "\n")
    averages = {}
    for dirpath, dirnames, filenames in os.walk(ROOT):
        for filename in filenames:
            name = filename[:-len(".txt")]
            if name in scores:
                with open(os.path.join(dirpath, filename)) as f:
                    values = [int(x) for x in f.read().split()]
                averages[name] = sum(values) / len(values)
    for name in sorted(averages):
        print("%s %.2f" % (name, averages[name]))


main()
