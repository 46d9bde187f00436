class Solution:
    def depth(self, node):
        if not isinstance(node, TreeNode):
            return 0
        return 1 + max(self.depth(node.left), self.depth(node.right))
    def make(self, xs):
        class Tagged(TreeNode):
            def __init__(self, v):
                super().__init__(v)
                self.tag = 'x'
        return [Tagged(x) for x in xs]
    def name(self, node):
        return type(node).__name__, issubclass(TreeNode, object), isinstance(TreeNode, type)
