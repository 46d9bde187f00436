import copy
class Solution:
    def cloned(self, head):
        return copy.deepcopy(head)
