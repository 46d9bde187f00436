import sys
import threading

results = [0, 0]


def worker(index, values):
    results[index] = sum(values)


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    values = list(map(int, data[1:n + 1]))
    mid = len(values) // 2
    threads = [threading.Thread(target=worker, args=(0, values[:mid])),
               threading.Thread(target=worker, args=(1, values[mid:]))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(results[0] + results[1])


main()
