def windows(nums, k):
    buf = []
    for x in nums:
        buf.append(x)
        if len(buf) > k:
            buf.pop(0)
        if len(buf) == k:
            yield buf


def permutations(items):
    path, used = [], [False] * len(items)

    def backtrack():
        if len(path) == len(items):
            yield path
            return
        for i, x in enumerate(items):
            if not used[i]:
                used[i] = True
                path.append(x)
                yield from backtrack()
                path.pop()
                used[i] = False

    yield from backtrack()
