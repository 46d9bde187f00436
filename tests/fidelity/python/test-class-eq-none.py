class Solution:
    def count(self, head):
        n = 0
        while head != None:
            n += 1
            head = head.next
        return n
    def same(self, a, b):
        return a == b
