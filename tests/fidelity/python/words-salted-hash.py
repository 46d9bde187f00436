import random
import sys

random.seed(12345)
SALT = random.getrandbits(32)  # anti-hash: keys are salted, so crafted inputs cannot collide


def main():
    counts = {}
    original = {}
    for w in sys.stdin.read().split():
        w = w.lower()
        key = hash(w) ^ SALT
        if key in counts and original[key] == w:
            counts[key] += 1
        elif key in counts:
            raise RuntimeError("collision")
        else:
            counts[key] = 1
            original[key] = w
    items = sorted(((original[k], c) for k, c in counts.items()), key=lambda x: (-x[1], x[0]))
    sys.stdout.write("".join(f"{w} {c}\n" for w, c in items))


main()
