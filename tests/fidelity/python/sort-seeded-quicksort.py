import random
import sys

random.seed(2024)


def quicksort(a):
    if len(a) <= 16:
        return sorted(a)
    pivot = random.choice(a)
    less = [x for x in a if x < pivot]
    equal = [x for x in a if x == pivot]
    greater = [x for x in a if x > pivot]
    return quicksort(less) + equal + quicksort(greater)


data = sys.stdin.read().split()
n = int(data[0])
print(" ".join(map(str, quicksort([int(x) for x in data[1:n + 1]]))))
