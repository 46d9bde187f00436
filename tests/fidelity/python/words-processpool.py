import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor


def count_words(text):
    return Counter(text.lower().split())


def main():
    lines = sys.stdin.read().splitlines()
    step = max(1, len(lines) // 2)
    parts = ["\n".join(lines[i:i + step]) for i in range(0, len(lines), step)]
    total = Counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        for c in pool.map(count_words, parts):
            total.update(c)
    for word, count in sorted(total.items(), key=lambda item: (-item[1], item[0])):
        print(word, count)


if __name__ == "__main__":
    main()
