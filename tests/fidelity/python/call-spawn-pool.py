import multiprocessing as mp


def square(x):
    return x * x


def squares(n):
    ctx = mp.get_context("spawn")  # the same start method on Linux, macOS and Windows
    with ctx.Pool(2) as pool:
        return pool.map(square, range(n))
