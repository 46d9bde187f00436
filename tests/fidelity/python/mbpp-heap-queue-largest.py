import heapq as hq


def heap_queue_largest(nums, n):
    largest_nums = hq.nlargest(n, nums)
    return largest_nums


def heap_sort(iterable):
    h = []
    for value in iterable:
        hq.heappush(h, value)
    return [hq.heappop(h) for i in range(len(h))]
