from collections import defaultdict, deque
from typing import Dict, List, Optional


class Graph:
    def __init__(self) -> None:
        self.adj: Dict[str, List[str]] = defaultdict(list)

    def add_edge(self, a: str, b: str) -> None:
        self.adj[a].append(b)
        self.adj[b].append(a)

    def shortest_path(self, start: str, goal: str) -> Optional[List[str]]:
        prev: Dict[str, Optional[str]] = {start: None}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            if node == goal:
                path = []
                while node is not None:
                    path.append(node)
                    node = prev[node]
                return path[::-1]
            for nxt in self.adj[node]:
                if nxt not in prev:
                    prev[nxt] = node
                    queue.append(nxt)
        return None
