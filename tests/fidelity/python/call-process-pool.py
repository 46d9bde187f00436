from concurrent.futures import ProcessPoolExecutor


def collatz_length(n: int) -> int:
    steps = 1
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def longest_collatz(limit: int) -> list:
    numbers = range(1, limit + 1)
    with ProcessPoolExecutor(max_workers=2) as executor:
        lengths = list(executor.map(collatz_length, numbers, chunksize=256))
    best = max(range(len(lengths)), key=lambda i: (lengths[i], -i))
    return [best + 1, lengths[best]]
