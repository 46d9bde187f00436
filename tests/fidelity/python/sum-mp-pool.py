import sys
from multiprocessing import Pool


def partial_sum(chunk):
    return sum(map(int, chunk))


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    values = data[1:n + 1]
    size = max(1, len(values) // 4)
    chunks = [values[i:i + size] for i in range(0, len(values), size)]
    with Pool(2) as pool:
        print(sum(pool.map(partial_sum, chunks)))


if __name__ == "__main__":
    main()
