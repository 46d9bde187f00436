import heapq
class Solution:
    def mergeKLists(self, lists):
        ListNode.__lt__ = lambda a, b: a.val < b.val
        h = [l for l in lists if l]
        heapq.heapify(h)
        dummy = cur = ListNode()
        while h:
            node = heapq.heappop(h)
            cur.next = node
            cur = node
            if node.next:
                heapq.heappush(h, node.next)
        return dummy.next
