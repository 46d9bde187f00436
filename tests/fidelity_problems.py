"""The shared ``stdio`` problems of the fidelity corpus: a statement and its tests per problem.

Many programs of the corpus (``tests/fidelity/``, read by ``fidelity_corpus``) solve the same
problem, each in its own language and idioms, so the tests are made once here: small inputs
written out, and large ones (near the judge's default limits: 2 MB of input, 0.9 MiB of output)
generated from a fixed seed, their expected outputs computed by a plain Python oracle. Inputs
come in the odd shapes programs meet: no trailing newline, CRLF line ends, extra blank space,
empty input. Every input and output is ASCII unless a test says otherwise.
"""

from __future__ import annotations

import functools
import random
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One shared problem.

    Attributes:
        statement: what a program must do (the prompt of its tasks).
        tests: ``(stdin, expected_stdout)`` pairs.
        compare: the ``stdio`` comparison its tests need (docs/task-format.md).
    """

    statement: str
    tests: tuple[tuple[str, str], ...]
    compare: str = "tokens"


def _lines(values, per_line: int, end: str = "\n") -> str:
    values = [str(v) for v in values]
    return "".join(" ".join(values[i:i + per_line]) + end for i in range(0, len(values), per_line))


def _sum_ints() -> Problem:
    rng = random.Random(1)
    big = [rng.randint(-10**9, 10**9) for _ in range(200_000)]
    return Problem(
        "The first number is n; n integers follow, separated by any whitespace (spaces, newlines, CRLF). "
        "Print their sum (it fits in 64 bits).",
        (("5\n1 2 3 4 5\n", "15\n"),
         (f"{len(big)}\n" + _lines(big, 10), f"{sum(big)}\n"),
         ("3\n10 20 30", "60\n"),  # no newline at the end
         ("4\r\n1 2\r\n3 4\r\n", "10\n"),
         ("  3\n\n -7   9 \n\n  1000000000\n", "1000000002\n")))


def _prefix_queries() -> Problem:
    rng = random.Random(2)
    n, q = 100_000, 70_000
    a = [rng.randint(0, 10**6) for _ in range(n)]
    queries = []
    for _ in range(q):
        lo = rng.randint(1, n)
        queries.append((lo, rng.randint(lo, n)))
    prefix = [0]
    for x in a:
        prefix.append(prefix[-1] + x)
    return Problem(
        "The first line holds n and q; the second n integers a_1..a_n; then q lines of l r (1 <= l <= r <= n). "
        "For each query print a_l + ... + a_r on a line of its own.",
        (("5 3\n1 2 3 4 5\n1 5\n2 3\n4 4\n", "15\n5\n4\n"),
         ("3 2\r\n7 8 9\r\n1 2\r\n3 3\r\n", "15\n9\n"),
         (f"{n} {q}\n" + " ".join(map(str, a)) + "\n" + "".join(f"{lo} {hi}\n" for lo, hi in queries),
          "".join(f"{prefix[hi] - prefix[lo - 1]}\n" for lo, hi in queries))))


def _count_up() -> Problem:
    # 150000 lines: 938,895 bytes, 0.90 MiB of the 1 MiB default output limit
    return Problem(
        "Read n and print the numbers 1 to n, one per line.",
        (("3\n", "1\n2\n3\n"), ("1", "1\n"), ("150000\n", "".join(f"{i}\n" for i in range(1, 150_001)))))


VOCABULARY = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu",
              "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega", "the", "a",
              "of", "and", "to", "in", "is", "it", "that", "was", "for", "on", "are", "with", "as")


def _word_freq_answer(text: str) -> str:
    counts = Counter(word.lower() for word in text.split())
    return "".join(f"{w} {c}\n" for w, c in sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _word_freq() -> Problem:
    rng = random.Random(3)
    words = [w.upper() if rng.random() < 0.1 else w.capitalize() if rng.random() < 0.2 else w
             for w in (rng.choice(VOCABULARY) + rng.choice(("", "", "", "s")) for _ in range(120_000))]
    big = "".join(" ".join(words[i:i + 12]) + "\n" for i in range(0, len(words), 12))
    small = "the cat and the hat\nThe end\n"
    crlf = "b a\r\nB c  a\r\n\r\nA\r\n"
    no_newline = "one two\ntwo three three"
    return Problem(
        "Read text until the end of input. Words are maximal runs of non-whitespace, compared in lower case. "
        "Print each distinct word and its count, one per line, most frequent first, ties in alphabetical order.",
        tuple((text, _word_freq_answer(text)) for text in (small, crlf, no_newline, big)))


def _reverse_lines_answer(text: str) -> str:
    return "".join(line + "\n" for line in reversed(text.splitlines()))


def _reverse_lines() -> Problem:
    rng = random.Random(4)
    big = "".join(" ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(0, 9))) + "\n" for _ in range(20_000))
    tests = ("first line\nsecond  line, two spaces\n\nfourth after a blank\n",
             "no newline at the end\nlast",
             "crlf one\r\ncrlf  two\r\n",
             "héllo wörld\n世界 🌍\nascii\n",
             big)
    return Problem(
        "Print the lines of the input in reverse order (the last line first). A line ends at \\n or \\r\\n or "
        "the end of input; its text is kept as it is, spaces included.",
        tuple((text, _reverse_lines_answer(text.replace("\r\n", "\n"))) for text in tests),
        compare="lines")


def _char_stats_answer(data: bytes) -> str:
    newlines = data.count(b"\n")
    return f"{len(data)} {newlines} {len(data.split())}\n"


def _char_stats() -> Problem:
    rng = random.Random(5)
    big = "".join(rng.choice(VOCABULARY) + rng.choice(("  ", " ", " ", "\n", "\t", "\r\n")) for _ in range(20_000))
    tests = ("hello world\n", "héllo wörld 世界\n", "a b\r\nc\r\n", "one two  three", "", "\n\n  \t\n", big)
    return Problem(
        "Read the whole input as bytes and print three numbers, like wc: the number of bytes, the number of "
        "newline bytes, and the number of words (maximal runs of bytes that are not ASCII whitespace: "
        "space, \\t, \\n, \\v, \\f, \\r).",
        tuple((text, _char_stats_answer(text.encode())) for text in tests))


def _sort_numbers() -> Problem:
    rng = random.Random(6)
    big = [rng.randint(-10**6, 10**6) for _ in range(80_000)]
    return Problem(
        "The first number is n; n integers follow. Print them in ascending order on one line, separated by spaces.",
        (("5\n3 1 2 5 4\n", "1 2 3 4 5\n"),
         ("4\r\n-1 10\r\n-20 0\r\n", "-20 -1 0 10\n"),
         ("1\n42", "42\n"),
         (f"{len(big)}\n" + _lines(big, 20), " ".join(map(str, sorted(big))) + "\n")))


def _tree_height_answer(n: int, edges: list[tuple[int, int]]) -> str:
    adjacent: list[list[int]] = [[] for _ in range(n + 1)]
    for u, v in edges:
        adjacent[u].append(v)
        adjacent[v].append(u)
    depth = [-1] * (n + 1)
    depth[1] = 0
    stack = [1]
    while stack:
        u = stack.pop()
        for v in adjacent[u]:
            if depth[v] < 0:
                depth[v] = depth[u] + 1
                stack.append(v)
    return f"{max(depth)}\n"


def _tree_input(n: int, edges: list[tuple[int, int]]) -> tuple[str, str]:
    return f"{n}\n" + "".join(f"{u} {v}\n" for u, v in edges), _tree_height_answer(n, edges)


def _tree_height() -> Problem:
    rng = random.Random(7)
    n = 100_000
    labels = [1, *rng.sample(range(2, n + 1), n - 1)]  # a path from node 1 through every node
    path = [(labels[i], labels[i + 1]) if rng.random() < 0.5 else (labels[i + 1], labels[i]) for i in range(n - 1)]
    rng.shuffle(path)
    bushy = [(rng.randint(max(1, v - 50), v - 1), v) for v in range(2, n + 1)]
    rng.shuffle(bushy)
    return Problem(
        "A tree of n nodes (numbered 1 to n) is given as n and then n - 1 lines u v, its edges, in any order. "
        "Print its height from node 1: the largest number of edges on a path from node 1 down to a node.",
        (("1\n", "0\n"),
         _tree_input(5, [(1, 2), (1, 3), (3, 4), (4, 5)]),
         _tree_input(n, path),  # depth 99999: recursion goes 10^5 deep
         _tree_input(n, bushy)))


def _islands_answer(grid: list[str]) -> str:
    rows, cols = len(grid), len(grid[0])
    seen = [[False] * cols for _ in range(rows)]
    count = 0
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] == "#" and not seen[r][c]:
                count += 1
                seen[r][c] = True
                stack = [(r, c)]
                while stack:
                    y, x = stack.pop()
                    for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                        if 0 <= ny < rows and 0 <= nx < cols and grid[ny][nx] == "#" and not seen[ny][nx]:
                            seen[ny][nx] = True
                            stack.append((ny, nx))
    return f"{count}\n"


def _grid_islands() -> Problem:
    rng = random.Random(8)
    big = ["".join("#" if rng.random() < 0.45 else "." for _ in range(300)) for _ in range(300)]
    small = ["##..#", "#...#", "..#..", "....."]
    snake = ["#" * 40] + ["".join("#" if (c == 39 if r % 4 == 1 else c == 0) or r % 2 == 0 else "." for c in range(40))
                          for r in range(1, 40)]
    return Problem(
        "The first line holds R and C; R lines of C characters follow, '#' for land and '.' for water. "
        "Print the number of islands: groups of land cells joined through their four neighbours.",
        (("4 5\n" + "\n".join(small) + "\n", _islands_answer(small)),
         ("4 5\r\n" + "\r\n".join(small) + "\r\n", _islands_answer(small)),
         ("40 40\n" + "\n".join(snake) + "\n", _islands_answer(snake)),
         ("300 300\n" + "\n".join(big) + "\n", _islands_answer(big))))


def _primes_answer(n: int) -> str:
    sieve = bytearray([1]) * (n + 1)
    sieve[:2] = b"\0\0"[: n + 1]
    for i in range(2, int(n**0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytes(len(range(i * i, n + 1, i)))
    primes = [str(i) for i in range(n + 1) if sieve[i]]
    return f"{len(primes)}\n" + (" ".join(primes) + "\n" if primes else "")


def _primes() -> Problem:
    return Problem(
        "Read n (1 <= n <= 10^6). Print the number of primes up to n on the first line, and the primes up to n "
        "in ascending order, separated by spaces, on the second (nothing when there is none).",
        tuple((f"{n}\n", _primes_answer(n)) for n in (10, 1, 2, 1_000_000)))


def _brackets_answer(line: str) -> str:
    pairs = {")": "(", "]": "[", "}": "{"}
    stack: list[str] = []
    for ch in line:
        if ch in "([{":
            stack.append(ch)
        elif not stack or stack.pop() != pairs[ch]:
            return "NO"
    return "NO" if stack else "YES"


def _brackets() -> Problem:
    rng = random.Random(9)

    def balanced(n: int) -> str:
        if n == 0:
            return ""
        inner = rng.randint(0, n - 1)
        open_, close = rng.choice(("()", "[]", "{}"))
        return open_ + balanced(inner) + close + balanced(n - 1 - inner)

    lines = []
    for _ in range(5000):
        text = balanced(rng.randint(1, 20))
        if rng.random() < 0.5:  # break it: drop or swap a character
            i = rng.randrange(len(text))
            text = text[:i] + text[i + 1:] if rng.random() < 0.5 else text[:i] + rng.choice("([{}])") + text[i + 1:]
        lines.append(text)
    small = ["([]{})", "(]", "((", "", "{[()()]}"]
    return Problem(
        "Each line of the input is a string of the characters ()[]{} (possibly empty). For each line print YES if "
        "its brackets are balanced and NO if not.",
        (("\n".join(small) + "\n", "".join(_brackets_answer(s) + "\n" for s in small)),
         ("()\r\n)(\r\n[()]", "YES\nNO\nYES\n"),
         ("\n".join(lines) + "\n", "".join(_brackets_answer(s) + "\n" for s in lines))))


def _factorial() -> Problem:
    import math

    return Problem(
        "Read n (0 <= n <= 1000) and print n! exactly, in decimal.",
        tuple((f"{n}\n", f"{math.factorial(n)}\n") for n in (0, 5, 25, 1000)))


def _float_stats() -> Problem:
    rng = random.Random(10)
    big = [round(rng.uniform(0, 1000), 3) for _ in range(100_000)]
    small = [1.5, 2.5, 3.5, 4.5]

    def answer(xs: list[float]) -> str:
        return f"{statistics.fmean(xs):.6f} {statistics.pstdev(xs):.6f}\n"

    return Problem(
        "The first number is n; n decimal numbers follow. Print their mean and their population standard "
        "deviation, separated by a space, with 6 digits after the point.",
        (("4\n" + " ".join(map(str, small)) + "\n", answer(small)),
         ("1\n-7.25", "-7.250000 0.000000\n"),
         (f"{len(big)}\n" + _lines(big, 8), answer(big))))


def _matrix_mult() -> Problem:
    rng = random.Random(11)

    def case(n: int) -> tuple[str, str]:
        a = [[rng.randint(-100, 100) for _ in range(n)] for _ in range(n)]
        b = [[rng.randint(-100, 100) for _ in range(n)] for _ in range(n)]
        c = [[sum(a[i][k] * b[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
        rows = "".join(" ".join(map(str, row)) + "\n" for row in a + b)
        return f"{n}\n{rows}", "".join(" ".join(map(str, row)) + "\n" for row in c)

    return Problem(
        "Read n, then two n x n integer matrices A and B (n lines of n numbers each). Print the product A B, "
        "one row per line.",
        (case(2), case(1), case(60)))


def _csv_average_answer(text: str) -> str:
    scores: dict[str, list[int]] = {}
    for line in text.splitlines()[1:]:
        if line.strip():
            name, score = line.split(",")
            scores.setdefault(name.strip(), []).append(int(score))
    return "".join(f"{name} {sum(s) / len(s):.2f}\n" for name, s in sorted(scores.items()))


def _csv_average() -> Problem:
    rng = random.Random(12)
    names = ["ann", "bob", "cy", "dora", "eve", "fox", "gus"]
    big = "name,score\n" + "".join(f"{rng.choice(names)},{rng.randint(0, 100)}\n" for _ in range(20_000))
    tests = ("name,score\nann,90\nbob,70\nann,81\n", "name,score\r\nzed,1\r\namy,2\r\nzed,4\r\n",
             "name,score\nsolo,100", big)
    return Problem(
        "The input is a CSV file with a header line 'name,score' and then lines name,score (an integer). Print each "
        "name with its average score, to 2 decimals, one per line, names in alphabetical order.",
        tuple((text, _csv_average_answer(text)) for text in tests))


def _power_of_two() -> Problem:
    import decimal

    def answer(n: int) -> str:  # (str(2**n) refuses more than 4300 digits: sys.get_int_max_str_digits)
        with decimal.localcontext(decimal.Context(prec=n // 3 + 10)):
            return f"{decimal.Decimal(2) ** n}\n"

    return Problem(
        "Read n (0 <= n <= 20000) and print 2 to the power n exactly, in decimal.",
        tuple((f"{n}\n", answer(n)) for n in (0, 10, 100, 15_000)))  # 4516 digits


def _seeded_randint() -> Problem:
    def answer(n: int) -> str:
        rng = random.Random(7)  # the algorithm of random.seed(7), random.randint(1, 100): CPython's
        return " ".join(str(rng.randint(1, 100)) for _ in range(n)) + "\n"

    return Problem(
        "Read n and print, on one line, the first n numbers random.randint(1, 100) gives after random.seed(7) "
        "(Python's random module).",
        tuple((f"{n}\n", answer(n)) for n in (5, 1, 1000)))


MAKERS: dict[str, Callable[[], Problem]] = {
    "sum-ints": _sum_ints,
    "prefix-queries": _prefix_queries,
    "count-up": _count_up,
    "word-freq": _word_freq,
    "reverse-lines": _reverse_lines,
    "char-stats": _char_stats,
    "sort-numbers": _sort_numbers,
    "tree-height": _tree_height,
    "grid-islands": _grid_islands,
    "primes": _primes,
    "brackets": _brackets,
    "factorial": _factorial,
    "float-stats": _float_stats,
    "matrix-mult": _matrix_mult,
    "csv-average": _csv_average,
    "power-of-two": _power_of_two,
    "seeded-randint": _seeded_randint,
}


@functools.cache
def problem(name: str) -> Problem:
    """The shared problem ``name`` (made once per process).

    Raises:
        KeyError: no problem is named so.
    """
    return MAKERS[name]()
