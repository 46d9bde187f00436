import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor


def count_chunk(lines):
    c = Counter()
    for line in lines:
        c.update(w.lower() for w in line.split())
    return c


def main():
    lines = sys.stdin.read().splitlines()
    chunks = [lines[i:i + 2000] for i in range(0, len(lines), 2000)]
    total = Counter()
    with ThreadPoolExecutor(max_workers=4) as ex:
        for part in ex.map(count_chunk, chunks):
            total += part
    out = [f"{w} {c}" for w, c in sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))]
    print("\n".join(out))


main()
