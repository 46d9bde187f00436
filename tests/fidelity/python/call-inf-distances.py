import math


def bellman_ford(n, edges, source):
    dist = [math.inf] * n
    dist[source] = 0
    for _ in range(n - 1):
        for u, v, w in edges:
            if dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
    return dist


def min_cost(costs):
    best = float("inf")
    for c in costs:
        best = min(best, c)
    return best
