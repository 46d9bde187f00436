class Solution:
    def count(self, root):
        total, stack = 0, [root]
        while stack:
            node = stack.pop()
            total += 1
            stack.extend(node.children)
        return total
    def graft(self, root, node):
        root.children.append(node)
