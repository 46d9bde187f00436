import multiprocessing as mp


def _is_prime(n):
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True


def count_primes_parallel(limit, processes=2):
    with mp.Pool(processes) as pool:
        return sum(pool.map(_is_prime, range(limit), chunksize=500))
