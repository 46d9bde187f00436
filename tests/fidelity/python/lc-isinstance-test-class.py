class Solution:
    def depth(self, node):
        if not isinstance(node, TreeNode):
            return 0
        return 1 + max(self.depth(node.left), self.depth(node.right))
