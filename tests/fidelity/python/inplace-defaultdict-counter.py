def add_edge(graph, u, v):
    graph[u].append(v)
    graph[v].append(u)
def count_words(counter, text):
    for w in text.split():
        counter[w] += 1
