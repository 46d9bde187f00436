class Trie:
    def __init__(self):
        self.root = {}

    def insert(self, word):
        node = self.root
        for ch in word:
            node = node.setdefault(ch, {})
        node["$"] = True

    def _find(self, prefix):
        node = self.root
        for ch in prefix:
            if ch not in node:
                return None
            node = node[ch]
        return node

    def __contains__(self, word):
        node = self._find(word)
        return node is not None and "$" in node

    def starts_with(self, prefix):
        return self._find(prefix) is not None
