from collections import Counter

counts = Counter(ch.lower() for ch in input() if ch.isascii() and ch.isalpha())
for letter in sorted(counts):
    print(letter, counts[letter])
