class Solution:
    def total(self, ll):
        ll.append(4)
        return ll.total() + len(ll.items())
    def sizes(self, ll):
        return ll.size, LinkedList.kind, LinkedList.empty().size
