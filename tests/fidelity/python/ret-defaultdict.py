from collections import defaultdict


def group_by_first(words):
    groups = defaultdict(list)
    for w in words:
        groups[w[0]].append(w)
    return groups


def adjacency(edges):
    graph = defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
        graph[b].add(a)
    return graph


def count_by_len(words):
    counts = defaultdict(int)
    for w in words:
        counts[len(w)] += 1
    return counts
