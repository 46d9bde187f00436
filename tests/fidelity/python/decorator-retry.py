import functools


def retry(times, exceptions=(Exception,)):
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            last = None
            for _ in range(times):
                try:
                    return fn(*args, **kwargs)
                except exceptions as e:
                    last = e
            raise last
        return wrapper
    return decorate


def apply_twice(f, x):
    return f(f(x))
