class Solution:
    def shift(self, p):
        return Point(p.x + 1, p.y + 1)
    def check(self, p):
        return isinstance(p, Point)
