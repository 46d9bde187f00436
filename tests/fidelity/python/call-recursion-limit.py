import sys

sys.setrecursionlimit(100000)


def max_depth(s: str) -> int:
    """Deepest nesting of a balanced string of parentheses, by recursive descent."""

    def parse(i):
        best = 0
        while i < len(s) and s[i] == "(":
            depth, i = parse(i + 1)
            i += 1  # the closing parenthesis
            best = max(best, depth + 1)
        return best, i

    return parse(0)[0]


def tower_depth(n: int) -> int:
    return max_depth("(" * n + ")" * n)
