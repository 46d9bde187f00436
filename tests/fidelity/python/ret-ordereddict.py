from collections import OrderedDict


def first_seen(words):
    od = OrderedDict()
    for w in words:
        od[w] = od.get(w, 0) + 1
    return od


def lru_order(capacity, accesses):
    cache = OrderedDict()
    for key in accesses:
        if key in cache:
            cache.move_to_end(key)
        cache[key] = True
        if len(cache) > capacity:
            cache.popitem(last=False)
    return cache
