import threading


def count_with_threads(workers, increments):
    total = 0
    lock = threading.Lock()

    def work():
        nonlocal total
        for _ in range(increments):
            with lock:
                total += 1

    threads = [threading.Thread(target=work) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return total
