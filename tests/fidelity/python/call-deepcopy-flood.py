import copy
from collections import deque


def flood_fill(image, sr, sc, color):
    """Return [filled image, original image]: the input is not modified."""
    out = copy.deepcopy(image)
    start = out[sr][sc]
    if start == color:
        return [out, image]
    queue = deque([(sr, sc)])
    out[sr][sc] = color
    while queue:
        r, c = queue.popleft()
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nr < len(out) and 0 <= nc < len(out[0]) and out[nr][nc] == start:
                out[nr][nc] = color
                queue.append((nr, nc))
    return [out, image]
