from multiprocessing import Pool


def _work(n):
    return sum(i * i for i in range(n))


def sum_of_squares_table(ns):
    with Pool(2) as pool:
        return pool.map(_work, ns)
