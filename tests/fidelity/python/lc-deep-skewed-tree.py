class Solution:
    def maxDepth(self, root):
        depth, level = 0, [root] if root else []
        while level:
            depth += 1
            level = [c for n in level for c in (n.left, n.right) if c]
        return depth
    def rightmost(self, root):
        while root.right:
            root = root.right
        return root
