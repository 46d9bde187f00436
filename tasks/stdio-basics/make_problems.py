"""Generate problems.jsonl of the stdio-basics suite.

Each problem below has a statement, test inputs and three reference solutions (Python, C, C++);
``references/`` holds its reference solutions in JavaScript, TypeScript, Java, Rust and Go, one
module per language. The suite has one task per problem and language. The expected outputs are the
Python reference's output on each input (run here, on the host); every other reference is checked
against them in the sandbox (``grpo-code tasks validate stdio-basics``).

    python tasks/stdio-basics/make_problems.py          # rewrites problems.jsonl beside this file
"""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

SUITE = "stdio-basics"
HERE = Path(__file__).resolve().parent
LANGS = {"python": "Python", "c": "C", "cpp": "C++", "javascript": "JavaScript", "typescript": "TypeScript",
         "java": "Java", "rust": "Rust", "go": "Go"}
INLINE = ("python", "c", "cpp")  # given with each problem below; the others in references/<language>.py
PROBLEMS: list[dict] = []

FLOAT_NOTE = "Answers with an absolute or relative error of at most 10^-6 are accepted."
LINES_NOTE = ("Spacing inside a line matters (the output is compared line by line); "
              "spaces at the end of a line are ignored.")
EXACT_NOTE = ("The output is compared byte for byte: print exactly this, ending with a single newline "
              "character, with no other spaces or blank lines.")


def problem(name: str, difficulty: str, tags: list[str], statement: str, tests: list[str], python: str, c: str,
            cpp: str, compare: str = "tokens", float_tolerance: float | None = None) -> None:
    PROBLEMS.append(dict(name=name, difficulty=difficulty, tags=tags, statement=textwrap.dedent(statement).strip(),
                         tests=tests, python=textwrap.dedent(python).lstrip(), c=textwrap.dedent(c).lstrip(),
                         cpp=textwrap.dedent(cpp).lstrip(), compare=compare, float_tolerance=float_tolerance))


def ints(rng: random.Random, n: int, lo: int, hi: int) -> str:
    return " ".join(str(rng.randint(lo, hi)) for _ in range(n))


def counted(values: str) -> str:
    """``n`` on the first line, the values on the second."""
    return f"{len(values.split())}\n{values}\n"


R = random.Random(20240601)

# ---------------------------------------------------------------------------------------------
# Integers and simple loops (tokens)
# ---------------------------------------------------------------------------------------------

problem(
    "sum-two", "easy", ["math", "io"],
    """
    Write a {lang} program that reads two integers a and b and prints their sum a + b.

    Input: two integers a and b separated by whitespace, -10^18 <= a, b <= 10^18.
    Output: one integer, a + b.
    """,
    ["3 4\n", "-5 5\n", "1000000000000000000 1000000000000000000\n", "-1000000000000000000 -999999999999999999\n",
     "0 0\n"],
    """
    a, b = map(int, input().split())
    print(a + b)
    """,
    """
    #include <stdio.h>

    int main(void) {
        long long a, b;
        if (scanf("%lld %lld", &a, &b) != 2) return 1;
        printf("%lld\\n", a + b);
        return 0;
    }
    """,
    """
    #include <iostream>

    int main() {
        long long a, b;
        std::cin >> a >> b;
        std::cout << a + b << "\\n";
        return 0;
    }
    """,
)

problem(
    "sum-list", "easy", ["math", "arrays"],
    """
    Write a {lang} program that reads a list of integers and prints their sum.

    Input: an integer n (0 <= n <= 10^5) on the first line, then n integers x_i (-10^9 <= x_i <= 10^9)
    separated by whitespace.
    Output: one integer, the sum of the n integers (0 when n = 0).
    """,
    ["5\n1 2 3 4 5\n", "0\n", "1\n-7\n", counted(ints(R, 1000, 10**9 - 1000, 10**9)),
     counted(ints(R, 2000, -10**9, 10**9))],
    """
    import sys

    data = sys.stdin.read().split()
    n = int(data[0])
    print(sum(int(x) for x in data[1:1 + n]))
    """,
    """
    #include <stdio.h>

    int main(void) {
        int n;
        long long sum = 0, x;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) {
            scanf("%lld", &x);
            sum += x;
        }
        printf("%lld\\n", sum);
        return 0;
    }
    """,
    """
    #include <iostream>

    int main() {
        int n;
        std::cin >> n;
        long long sum = 0, x;
        for (int i = 0; i < n; i++) {
            std::cin >> x;
            sum += x;
        }
        std::cout << sum << "\\n";
        return 0;
    }
    """,
)

problem(
    "min-max", "easy", ["arrays"],
    """
    Write a {lang} program that reads a list of integers and prints its smallest and its largest value.

    Input: an integer n (1 <= n <= 10^5) on the first line, then n integers x_i (-10^9 <= x_i <= 10^9).
    Output: the minimum and the maximum, separated by a space, on one line.
    """,
    ["5\n3 1 4 1 5\n", "1\n42\n", "4\n-3 -3 -3 -3\n", "3\n-1000000000 0 1000000000\n",
     counted(ints(R, 500, -10**9, 10**9))],
    """
    import sys

    data = sys.stdin.read().split()
    n = int(data[0])
    xs = [int(x) for x in data[1:1 + n]]
    print(min(xs), max(xs))
    """,
    """
    #include <stdio.h>

    int main(void) {
        int n;
        long long x, lo, hi;
        if (scanf("%d", &n) != 1) return 1;
        scanf("%lld", &x);
        lo = hi = x;
        for (int i = 1; i < n; i++) {
            scanf("%lld", &x);
            if (x < lo) lo = x;
            if (x > hi) hi = x;
        }
        printf("%lld %lld\\n", lo, hi);
        return 0;
    }
    """,
    """
    #include <algorithm>
    #include <iostream>
    #include <vector>

    int main() {
        int n;
        std::cin >> n;
        std::vector<long long> xs(n);
        for (auto &x : xs) std::cin >> x;
        auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
        std::cout << *lo << " " << *hi << "\\n";
        return 0;
    }
    """,
)

problem(
    "reverse-words", "easy", ["strings"],
    """
    Write a {lang} program that reads a line of words and prints the words in reverse order.

    Input: one line of at most 1000 words separated by spaces; a word is a run of non-space characters,
    at most 100 characters long.
    Output: the same words in reverse order, separated by single spaces, on one line.
    """,
    ["the quick brown fox\n", "hello\n", "  spaces   around   words  \n", "a b c d e f g h i j\n",
     "Don't panic! 42 is the answer.\n"],
    """
    words = input().split()
    print(" ".join(reversed(words)))
    """,
    """
    #include <stdio.h>

    static char words[1000][101];

    int main(void) {
        int n = 0;
        while (n < 1000 && scanf("%100s", words[n]) == 1) n++;
        for (int i = n - 1; i >= 0; i--) printf("%s%s", words[i], i ? " " : "");
        printf("\\n");
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <string>
    #include <vector>

    int main() {
        std::vector<std::string> words;
        std::string w;
        while (std::cin >> w) words.push_back(w);
        for (std::size_t i = words.size(); i-- > 0;) std::cout << words[i] << (i ? " " : "");
        std::cout << "\\n";
        return 0;
    }
    """,
)

problem(
    "count-vowels", "easy", ["strings"],
    """
    Write a {lang} program that counts the vowels in a line of text.

    Input: one line of ASCII text, at most 1000 characters (it may be empty).
    Output: the number of vowels in it: the letters a, e, i, o, u in lower or upper case.
    """,
    ["Hello World\n", "rhythm\n", "AEIOU aeiou\n", "\n", "Programming in C is fun, isn't it?\n"],
    """
    import sys

    line = sys.stdin.readline()
    print(sum(1 for ch in line if ch in "aeiouAEIOU"))
    """,
    """
    #include <ctype.h>
    #include <stdio.h>
    #include <string.h>

    int main(void) {
        int ch, count = 0;
        while ((ch = getchar()) != EOF && ch != '\\n') {
            if (ch && strchr("aeiou", tolower(ch))) count++;
        }
        printf("%d\\n", count);
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <string>

    int main() {
        std::string line;
        std::getline(std::cin, line);
        int count = 0;
        for (char ch : line) {
            if (std::string("aeiouAEIOU").find(ch) != std::string::npos) count++;
        }
        std::cout << count << "\\n";
        return 0;
    }
    """,
)

problem(
    "sort-numbers", "easy", ["sorting", "arrays"],
    """
    Write a {lang} program that sorts a list of integers in ascending order.

    Input: an integer n (1 <= n <= 10^5) on the first line, then n integers x_i (-10^9 <= x_i <= 10^9).
    Output: the n integers in ascending order, separated by spaces, on one line.
    """,
    ["5\n5 3 1 4 2\n", "1\n7\n", "6\n2 -1 2 -1 0 0\n", "4\n1000000000 -1000000000 999999999 -999999999\n",
     counted(ints(R, 1000, -10**9, 10**9))],
    """
    import sys

    data = sys.stdin.read().split()
    n = int(data[0])
    print(*sorted(int(x) for x in data[1:1 + n]))
    """,
    """
    #include <stdio.h>
    #include <stdlib.h>

    static int cmp(const void *a, const void *b) {
        long long x = *(const long long *)a, y = *(const long long *)b;
        return (x > y) - (x < y);
    }

    int main(void) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        long long *xs = malloc(sizeof *xs * n);
        for (int i = 0; i < n; i++) scanf("%lld", &xs[i]);
        qsort(xs, n, sizeof *xs, cmp);
        for (int i = 0; i < n; i++) printf("%lld%c", xs[i], i + 1 < n ? ' ' : '\\n');
        free(xs);
        return 0;
    }
    """,
    """
    #include <algorithm>
    #include <iostream>
    #include <vector>

    int main() {
        int n;
        std::cin >> n;
        std::vector<long long> xs(n);
        for (auto &x : xs) std::cin >> x;
        std::sort(xs.begin(), xs.end());
        for (int i = 0; i < n; i++) std::cout << xs[i] << (i + 1 < n ? ' ' : '\\n');
        return 0;
    }
    """,
)

problem(
    "fizzbuzz", "easy", ["loops"],
    """
    Write a {lang} program that plays FizzBuzz up to n.

    Input: an integer n (1 <= n <= 10^4).
    Output: n lines; line i (1 <= i <= n) is "FizzBuzz" if i is divisible by 15, "Fizz" if i is divisible
    by 3, "Buzz" if i is divisible by 5, and the number i otherwise.
    """,
    ["15\n", "1\n", "5\n", "100\n"],
    """
    n = int(input())
    for i in range(1, n + 1):
        print("FizzBuzz" if i % 15 == 0 else "Fizz" if i % 3 == 0 else "Buzz" if i % 5 == 0 else i)
    """,
    """
    #include <stdio.h>

    int main(void) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 1; i <= n; i++) {
            if (i % 15 == 0) puts("FizzBuzz");
            else if (i % 3 == 0) puts("Fizz");
            else if (i % 5 == 0) puts("Buzz");
            else printf("%d\\n", i);
        }
        return 0;
    }
    """,
    """
    #include <iostream>

    int main() {
        int n;
        std::cin >> n;
        for (int i = 1; i <= n; i++) {
            if (i % 15 == 0) std::cout << "FizzBuzz\\n";
            else if (i % 3 == 0) std::cout << "Fizz\\n";
            else if (i % 5 == 0) std::cout << "Buzz\\n";
            else std::cout << i << "\\n";
        }
        return 0;
    }
    """,
)

problem(
    "primes-up-to", "medium", ["math", "sieve"],
    """
    Write a {lang} program that lists the prime numbers up to n.

    Input: an integer n (1 <= n <= 10^6).
    Output: all primes p with p <= n in increasing order, separated by spaces, on one line (an empty line
    if there are none).
    """,
    ["10\n", "1\n", "2\n", "30\n", "1000\n"],
    """
    n = int(input())
    sieve = bytearray([1]) * (n + 1)
    sieve[0] = 0
    if n >= 1:
        sieve[1] = 0
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytearray(len(range(i * i, n + 1, i)))
    print(*(i for i in range(n + 1) if sieve[i]))
    """,
    """
    #include <stdio.h>
    #include <stdlib.h>

    int main(void) {
        int n, first = 1;
        if (scanf("%d", &n) != 1) return 1;
        char *composite = calloc(n + 1, 1);
        for (long long i = 2; i <= n; i++) {
            if (composite[i]) continue;
            printf(first ? "%lld" : " %lld", i);
            first = 0;
            for (long long j = i * i; j <= n; j += i) composite[j] = 1;
        }
        printf("\\n");
        free(composite);
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <vector>

    int main() {
        int n;
        std::cin >> n;
        std::vector<bool> composite(n + 1, false);
        bool first = true;
        for (long long i = 2; i <= n; i++) {
            if (composite[i]) continue;
            std::cout << (first ? "" : " ") << i;
            first = false;
            for (long long j = i * i; j <= n; j += i) composite[j] = true;
        }
        std::cout << "\\n";
        return 0;
    }
    """,
)


def matrix(rng: random.Random, r: int, c: int) -> str:
    return f"{r} {c}\n" + "".join(ints(rng, c, -99, 99) + "\n" for _ in range(r))


problem(
    "matrix-transpose", "easy", ["arrays", "matrices"],
    """
    Write a {lang} program that prints the transpose of a matrix.

    Input: two integers r and c (1 <= r, c <= 100) on the first line, then r lines of c integers each
    (absolute value at most 10^9): the matrix, row by row.
    Output: the transposed matrix: c lines of r integers each, separated by spaces.
    """,
    ["2 3\n1 2 3\n4 5 6\n", "1 1\n-5\n", "1 4\n1 2 3 4\n", "3 1\n7\n8\n9\n", matrix(R, 7, 5)],
    """
    import sys

    data = sys.stdin.read().split()
    r, c = int(data[0]), int(data[1])
    m = [data[2 + i * c: 2 + (i + 1) * c] for i in range(r)]
    for j in range(c):
        print(" ".join(m[i][j] for i in range(r)))
    """,
    """
    #include <stdio.h>

    static long long m[100][100];

    int main(void) {
        int r, c;
        if (scanf("%d %d", &r, &c) != 2) return 1;
        for (int i = 0; i < r; i++)
            for (int j = 0; j < c; j++) scanf("%lld", &m[i][j]);
        for (int j = 0; j < c; j++)
            for (int i = 0; i < r; i++) printf("%lld%c", m[i][j], i + 1 < r ? ' ' : '\\n');
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <vector>

    int main() {
        int r, c;
        std::cin >> r >> c;
        std::vector<std::vector<long long>> m(r, std::vector<long long>(c));
        for (auto &row : m)
            for (auto &x : row) std::cin >> x;
        for (int j = 0; j < c; j++)
            for (int i = 0; i < r; i++) std::cout << m[i][j] << (i + 1 < r ? ' ' : '\\n');
        return 0;
    }
    """,
)

problem(
    "gcd-lcm", "easy", ["math"],
    """
    Write a {lang} program that prints the greatest common divisor and the least common multiple of two
    positive integers.

    Input: two integers a and b (1 <= a, b <= 10^9).
    Output: gcd(a, b) and lcm(a, b), separated by a space.
    """,
    ["12 18\n", "7 13\n", "1 1\n", "1000000000 999999999\n", "48 48\n"],
    """
    from math import gcd

    a, b = map(int, input().split())
    g = gcd(a, b)
    print(g, a // g * b)
    """,
    """
    #include <stdio.h>

    static long long gcd(long long a, long long b) {
        while (b) {
            long long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    int main(void) {
        long long a, b;
        if (scanf("%lld %lld", &a, &b) != 2) return 1;
        long long g = gcd(a, b);
        printf("%lld %lld\\n", g, a / g * b);
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <numeric>

    int main() {
        long long a, b;
        std::cin >> a >> b;
        long long g = std::gcd(a, b);
        std::cout << g << " " << a / g * b << "\\n";
        return 0;
    }
    """,
)

problem(
    "factorial-mod", "easy", ["math", "modular"],
    """
    Write a {lang} program that prints n! modulo 1000000007 (10^9 + 7).

    Input: an integer n (0 <= n <= 10^6).
    Output: n! mod 1000000007 (note that 0! = 1).
    """,
    ["5\n", "0\n", "1\n", "20\n", "1000000\n"],
    """
    MOD = 10**9 + 7
    n = int(input())
    result = 1
    for i in range(2, n + 1):
        result = result * i % MOD
    print(result)
    """,
    """
    #include <stdio.h>

    int main(void) {
        const long long MOD = 1000000007LL;
        int n;
        if (scanf("%d", &n) != 1) return 1;
        long long result = 1;
        for (long long i = 2; i <= n; i++) result = result * i % MOD;
        printf("%lld\\n", result);
        return 0;
    }
    """,
    """
    #include <iostream>

    int main() {
        const long long MOD = 1000000007LL;
        int n;
        std::cin >> n;
        long long result = 1;
        for (long long i = 2; i <= n; i++) result = result * i % MOD;
        std::cout << result << "\\n";
        return 0;
    }
    """,
)

problem(
    "palindrome", "easy", ["strings"],
    """
    Write a {lang} program that checks whether a word is a palindrome (reads the same backwards).

    Input: one word of 1 to 1000 lowercase letters.
    Output: YES if the word is a palindrome, NO otherwise.
    """,
    ["racecar\n", "hello\n", "a\n", "abba\n", "ab\n", "abcdefgfedcba\n"],
    """
    s = input().strip()
    print("YES" if s == s[::-1] else "NO")
    """,
    """
    #include <stdio.h>
    #include <string.h>

    int main(void) {
        static char s[1001];
        if (scanf("%1000s", s) != 1) return 1;
        size_t n = strlen(s);
        for (size_t i = 0; i < n / 2; i++) {
            if (s[i] != s[n - 1 - i]) {
                puts("NO");
                return 0;
            }
        }
        puts("YES");
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <string>

    int main() {
        std::string s;
        std::cin >> s;
        std::cout << (std::string(s.rbegin(), s.rend()) == s ? "YES" : "NO") << "\\n";
        return 0;
    }
    """,
)

problem(
    "letter-frequency", "easy", ["strings", "counting"],
    """
    Write a {lang} program that prints a frequency table of the letters in a line of text.

    Input: one line of ASCII text, at most 1000 characters.
    Output: for each letter that occurs in the text (upper and lower case count as the same letter), in
    alphabetical order, one line holding the letter in lower case and the number of times it occurs,
    separated by a space. Characters that are not letters are ignored; print nothing if there are no
    letters.
    """,
    ["hello world\n", "AaBbA\n", "123 !?\n", "The quick brown fox jumps over the lazy dog\n", "zzz\n"],
    """
    from collections import Counter

    counts = Counter(ch.lower() for ch in input() if ch.isascii() and ch.isalpha())
    for letter in sorted(counts):
        print(letter, counts[letter])
    """,
    """
    #include <ctype.h>
    #include <stdio.h>

    int main(void) {
        int counts[26] = {0}, ch;
        while ((ch = getchar()) != EOF && ch != '\\n') {
            if (isalpha(ch)) counts[tolower(ch) - 'a']++;
        }
        for (int i = 0; i < 26; i++) {
            if (counts[i]) printf("%c %d\\n", 'a' + i, counts[i]);
        }
        return 0;
    }
    """,
    """
    #include <cctype>
    #include <iostream>
    #include <map>
    #include <string>

    int main() {
        std::string line;
        std::getline(std::cin, line);
        std::map<char, int> counts;
        for (unsigned char ch : line) {
            if (std::isalpha(ch)) counts[static_cast<char>(std::tolower(ch))]++;
        }
        for (const auto &[letter, count] : counts) std::cout << letter << " " << count << "\\n";
        return 0;
    }
    """,
)

problem(
    "binary", "easy", ["math", "bits"],
    """
    Write a {lang} program that prints a non-negative integer in binary.

    Input: an integer n (0 <= n <= 10^18).
    Output: the binary representation of n without leading zeros ("0" for n = 0).
    """,
    ["5\n", "0\n", "1\n", "1024\n", "1000000000000000000\n"],
    """
    print(bin(int(input()))[2:])
    """,
    """
    #include <stdio.h>

    int main(void) {
        unsigned long long n;
        char buf[65];
        int len = 0;
        if (scanf("%llu", &n) != 1) return 1;
        do {
            buf[len++] = (char)('0' + (n & 1));
            n >>= 1;
        } while (n);
        while (len) putchar(buf[--len]);
        putchar('\\n');
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <string>

    int main() {
        unsigned long long n;
        std::cin >> n;
        std::string bits;
        do {
            bits.insert(bits.begin(), static_cast<char>('0' + (n & 1)));
            n >>= 1;
        } while (n);
        std::cout << bits << "\\n";
        return 0;
    }
    """,
)

problem(
    "word-count", "easy", ["strings", "counting"],
    """
    Write a {lang} program that counts the words in its input.

    Input: any number of lines of ASCII text (possibly none), at most 10^5 characters in all.
    Output: the number of words: maximal runs of characters that are not whitespace (spaces, tabs, line
    breaks).
    """,
    ["hello world\n", "", "  one\ttwo  \n\nthree four five\n   \n", "a\nb\nc\nd\n", "single"],
    """
    import sys

    print(len(sys.stdin.read().split()))
    """,
    """
    #include <ctype.h>
    #include <stdio.h>

    int main(void) {
        int ch, in_word = 0;
        long count = 0;
        while ((ch = getchar()) != EOF) {
            if (isspace(ch)) {
                in_word = 0;
            } else if (!in_word) {
                in_word = 1;
                count++;
            }
        }
        printf("%ld\\n", count);
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <string>

    int main() {
        std::string w;
        long count = 0;
        while (std::cin >> w) count++;
        std::cout << count << "\\n";
        return 0;
    }
    """,
)

problem(
    "second-largest", "easy", ["arrays"],
    """
    Write a {lang} program that prints the second largest distinct value of a list of integers.

    Input: an integer n (1 <= n <= 10^5) on the first line, then n integers x_i (-10^9 <= x_i <= 10^9).
    Output: the largest value that is strictly smaller than the maximum, or NONE if all values are equal.
    """,
    ["5\n3 1 4 1 5\n", "3\n7 7 7\n", "1\n10\n", "4\n5 5 4 4\n", "3\n-1000000000 1000000000 -1000000000\n"],
    """
    import sys

    data = sys.stdin.read().split()
    n = int(data[0])
    values = sorted(set(int(x) for x in data[1:1 + n]))
    print(values[-2] if len(values) >= 2 else "NONE")
    """,
    """
    #include <stdio.h>

    int main(void) {
        int n, have_second = 0;
        long long x, first, second = 0;
        if (scanf("%d", &n) != 1) return 1;
        scanf("%lld", &first);
        for (int i = 1; i < n; i++) {
            scanf("%lld", &x);
            if (x > first) {
                second = first;
                first = x;
                have_second = 1;
            } else if (x < first && (!have_second || x > second)) {
                second = x;
                have_second = 1;
            }
        }
        if (have_second) printf("%lld\\n", second);
        else puts("NONE");
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <set>

    int main() {
        int n;
        std::cin >> n;
        std::set<long long> values;
        for (int i = 0; i < n; i++) {
            long long x;
            std::cin >> x;
            values.insert(x);
        }
        if (values.size() < 2) std::cout << "NONE\\n";
        else std::cout << *std::next(values.rbegin()) << "\\n";
        return 0;
    }
    """,
)

problem(
    "fibonacci", "easy", ["math", "loops"],
    """
    Write a {lang} program that prints the n-th Fibonacci number.

    Input: an integer n (0 <= n <= 90).
    Output: F(n), where F(0) = 0, F(1) = 1 and F(k) = F(k-1) + F(k-2).
    """,
    ["10\n", "0\n", "1\n", "2\n", "90\n"],
    """
    n = int(input())
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    print(a)
    """,
    """
    #include <stdio.h>

    int main(void) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        long long a = 0, b = 1;
        for (int i = 0; i < n; i++) {
            long long t = a + b;
            a = b;
            b = t;
        }
        printf("%lld\\n", a);
        return 0;
    }
    """,
    """
    #include <iostream>

    int main() {
        int n;
        std::cin >> n;
        long long a = 0, b = 1;
        for (int i = 0; i < n; i++) {
            long long t = a + b;
            a = b;
            b = t;
        }
        std::cout << a << "\\n";
        return 0;
    }
    """,
)

problem(
    "leap-years", "easy", ["math", "conditions"],
    """
    Write a {lang} program that tells whether years are leap years in the Gregorian calendar.

    Input: an integer t (1 <= t <= 1000) on the first line, then t years y (1 <= y <= 10^9), one per line.
    Output: t lines, YES if the year is a leap year (divisible by 4, except years divisible by 100 that
    are not divisible by 400), NO otherwise.
    """,
    ["4\n2024\n1900\n2000\n2023\n", "1\n4\n", "3\n100\n400\n1\n", "2\n999999600\n999999900\n"],
    """
    import sys

    data = sys.stdin.read().split()
    for y in map(int, data[1:1 + int(data[0])]):
        print("YES" if y % 4 == 0 and (y % 100 != 0 or y % 400 == 0) else "NO")
    """,
    """
    #include <stdio.h>

    int main(void) {
        int t;
        long long y;
        if (scanf("%d", &t) != 1) return 1;
        while (t-- > 0 && scanf("%lld", &y) == 1) {
            puts(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) ? "YES" : "NO");
        }
        return 0;
    }
    """,
    """
    #include <iostream>

    int main() {
        int t;
        std::cin >> t;
        while (t-- > 0) {
            long long y;
            std::cin >> y;
            std::cout << (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) ? "YES" : "NO") << "\\n";
        }
        return 0;
    }
    """,
)

problem(
    "prefix-sums", "easy", ["arrays"],
    """
    Write a {lang} program that prints the running (prefix) sums of a list of integers.

    Input: an integer n (1 <= n <= 10^5) on the first line, then n integers x_i (-10^9 <= x_i <= 10^9).
    Output: n integers on one line separated by spaces: x_1, x_1 + x_2, ..., x_1 + ... + x_n.
    """,
    ["4\n1 2 3 4\n", "1\n-5\n", "3\n1000000000 1000000000 1000000000\n", "5\n3 -3 3 -3 3\n",
     counted(ints(R, 300, -10**9, 10**9))],
    """
    import sys
    from itertools import accumulate

    data = sys.stdin.read().split()
    n = int(data[0])
    print(*accumulate(int(x) for x in data[1:1 + n]))
    """,
    """
    #include <stdio.h>

    int main(void) {
        int n;
        long long x, sum = 0;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) {
            scanf("%lld", &x);
            sum += x;
            printf("%lld%c", sum, i + 1 < n ? ' ' : '\\n');
        }
        return 0;
    }
    """,
    """
    #include <iostream>

    int main() {
        int n;
        std::cin >> n;
        long long x, sum = 0;
        for (int i = 0; i < n; i++) {
            std::cin >> x;
            sum += x;
            std::cout << sum << (i + 1 < n ? ' ' : '\\n');
        }
        return 0;
    }
    """,
)

problem(
    "anagram", "easy", ["strings", "counting"],
    """
    Write a {lang} program that checks whether two words are anagrams of each other (the same letters,
    each the same number of times, in any order).

    Input: two words of 1 to 1000 lowercase letters each, separated by whitespace.
    Output: YES if they are anagrams, NO otherwise.
    """,
    ["listen silent\n", "abc abd\n", "a a\n", "ab abb\n", "evil\nvile\n", "aabbcc abcabc\n"],
    """
    import sys

    a, b = sys.stdin.read().split()
    print("YES" if sorted(a) == sorted(b) else "NO")
    """,
    """
    #include <stdio.h>

    int main(void) {
        static char a[1001], b[1001];
        int counts[26] = {0};
        if (scanf("%1000s %1000s", a, b) != 2) return 1;
        for (char *p = a; *p; p++) counts[*p - 'a']++;
        for (char *p = b; *p; p++) counts[*p - 'a']--;
        for (int i = 0; i < 26; i++) {
            if (counts[i]) {
                puts("NO");
                return 0;
            }
        }
        puts("YES");
        return 0;
    }
    """,
    """
    #include <algorithm>
    #include <iostream>
    #include <string>

    int main() {
        std::string a, b;
        std::cin >> a >> b;
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        std::cout << (a == b ? "YES" : "NO") << "\\n";
        return 0;
    }
    """,
)

problem(
    "digit-sum", "easy", ["strings", "math"],
    """
    Write a {lang} program that prints the sum of the decimal digits of a (possibly very large)
    non-negative integer.

    Input: a non-negative integer with 1 to 1000 digits (no leading zeros, except for 0 itself).
    Output: the sum of its digits.
    """,
    ["12345\n", "0\n", "9\n", "99999999999999999999999999999999999999999\n",
     R.choice("123456789") + "".join(R.choice("0123456789") for _ in range(999)) + "\n"],
    """
    print(sum(int(d) for d in input().strip()))
    """,
    """
    #include <ctype.h>
    #include <stdio.h>

    int main(void) {
        int ch, sum = 0;
        while ((ch = getchar()) != EOF) {
            if (isdigit(ch)) sum += ch - '0';
        }
        printf("%d\\n", sum);
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <string>

    int main() {
        std::string s;
        std::cin >> s;
        int sum = 0;
        for (char ch : s) sum += ch - '0';
        std::cout << sum << "\\n";
        return 0;
    }
    """,
)

problem(
    "count-distinct", "easy", ["arrays", "sorting"],
    """
    Write a {lang} program that counts the distinct values in a list of integers.

    Input: an integer n (1 <= n <= 10^5) on the first line, then n integers x_i (-10^9 <= x_i <= 10^9).
    Output: the number of distinct values among the x_i.
    """,
    ["6\n1 2 2 3 3 3\n", "1\n0\n", "4\n5 5 5 5\n", "5\n-1 1 -1 1 0\n", counted(ints(R, 2000, 1, 1000))],
    """
    import sys

    data = sys.stdin.read().split()
    print(len(set(int(x) for x in data[1:1 + int(data[0])])))
    """,
    """
    #include <stdio.h>
    #include <stdlib.h>

    static int cmp(const void *a, const void *b) {
        long long x = *(const long long *)a, y = *(const long long *)b;
        return (x > y) - (x < y);
    }

    int main(void) {
        int n, distinct = 0;
        if (scanf("%d", &n) != 1) return 1;
        long long *xs = malloc(sizeof *xs * n);
        for (int i = 0; i < n; i++) scanf("%lld", &xs[i]);
        qsort(xs, n, sizeof *xs, cmp);
        for (int i = 0; i < n; i++) {
            if (i == 0 || xs[i] != xs[i - 1]) distinct++;
        }
        printf("%d\\n", distinct);
        free(xs);
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <set>

    int main() {
        int n;
        std::cin >> n;
        std::set<long long> values;
        for (int i = 0; i < n; i++) {
            long long x;
            std::cin >> x;
            values.insert(x);
        }
        std::cout << values.size() << "\\n";
        return 0;
    }
    """,
)

problem(
    "collatz-steps", "easy", ["math", "loops"],
    """
    Write a {lang} program that counts the steps of the Collatz sequence.

    Input: an integer n (1 <= n <= 10^6).
    Output: the number of steps needed to reach 1 from n, where one step replaces n by n / 2 if n is even
    and by 3n + 1 if n is odd (0 for n = 1). Intermediate values may exceed 2^31.
    """,
    ["6\n", "1\n", "27\n", "837799\n", "113383\n"],
    """
    n = int(input())
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    print(steps)
    """,
    """
    #include <stdio.h>

    int main(void) {
        long long n;
        int steps = 0;
        if (scanf("%lld", &n) != 1) return 1;
        while (n != 1) {
            n = n % 2 == 0 ? n / 2 : 3 * n + 1;
            steps++;
        }
        printf("%d\\n", steps);
        return 0;
    }
    """,
    """
    #include <iostream>

    int main() {
        long long n;
        std::cin >> n;
        int steps = 0;
        while (n != 1) {
            n = n % 2 == 0 ? n / 2 : 3 * n + 1;
            steps++;
        }
        std::cout << steps << "\\n";
        return 0;
    }
    """,
)

problem(
    "max-subarray", "medium", ["arrays", "dynamic-programming"],
    """
    Write a {lang} program that finds the largest sum of a non-empty contiguous subarray.

    Input: an integer n (1 <= n <= 10^5) on the first line, then n integers x_i (-10^9 <= x_i <= 10^9).
    Output: the maximum of x_i + x_(i+1) + ... + x_j over all 1 <= i <= j <= n.
    """,
    ["9\n-2 1 -3 4 -1 2 1 -5 4\n", "1\n-7\n", "3\n-3 -1 -2\n", "4\n1000000000 1000000000 -1 1000000000\n",
     counted(ints(R, 1000, -10**9, 10**9))],
    """
    import sys

    data = sys.stdin.read().split()
    xs = [int(x) for x in data[1:1 + int(data[0])]]
    best = current = xs[0]
    for x in xs[1:]:
        current = max(x, current + x)
        best = max(best, current)
    print(best)
    """,
    """
    #include <stdio.h>

    int main(void) {
        int n;
        long long x, best, current;
        if (scanf("%d", &n) != 1) return 1;
        scanf("%lld", &x);
        best = current = x;
        for (int i = 1; i < n; i++) {
            scanf("%lld", &x);
            current = current + x > x ? current + x : x;
            if (current > best) best = current;
        }
        printf("%lld\\n", best);
        return 0;
    }
    """,
    """
    #include <algorithm>
    #include <iostream>

    int main() {
        int n;
        std::cin >> n;
        long long x, best, current;
        std::cin >> x;
        best = current = x;
        for (int i = 1; i < n; i++) {
            std::cin >> x;
            current = std::max(x, current + x);
            best = std::max(best, current);
        }
        std::cout << best << "\\n";
        return 0;
    }
    """,
)

problem(
    "balanced-brackets", "medium", ["strings", "stack"],
    """
    Write a {lang} program that checks whether a string of brackets is balanced: every opening bracket is
    closed by the matching closing bracket of the same type, in the right order.

    Input: one line holding a string of 0 to 10^5 characters, each one of ()[]{} (the line may be empty).
    Output: YES if the string is balanced, NO otherwise.
    """,
    ["([]{})\n", "([)]\n", "\n", "(((\n", "}\n", "{[()()]}[]\n", "(" * 500 + ")" * 500 + "\n"],
    """
    import sys

    s = sys.stdin.readline().strip()
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    ok = True
    for ch in s:
        if ch in "([{":
            stack.append(ch)
        elif not stack or stack.pop() != pairs[ch]:
            ok = False
            break
    print("YES" if ok and not stack else "NO")
    """,
    """
    #include <stdio.h>

    static char stack[100001];

    int main(void) {
        int ch, top = 0, ok = 1;
        while ((ch = getchar()) != EOF && ch != '\\n') {
            if (ch == '(' || ch == '[' || ch == '{') {
                stack[top++] = (char)ch;
            } else if (ch == ')' || ch == ']' || ch == '}') {
                char open = ch == ')' ? '(' : ch == ']' ? '[' : '{';
                if (top == 0 || stack[--top] != open) {
                    ok = 0;
                    break;
                }
            }
        }
        puts(ok && top == 0 ? "YES" : "NO");
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <string>

    int main() {
        std::string s, stack;
        std::getline(std::cin, s);
        bool ok = true;
        for (char ch : s) {
            if (ch == '(' || ch == '[' || ch == '{') {
                stack.push_back(ch);
            } else if (ch == ')' || ch == ']' || ch == '}') {
                char open = ch == ')' ? '(' : ch == ']' ? '[' : '{';
                if (stack.empty() || stack.back() != open) {
                    ok = false;
                    break;
                }
                stack.pop_back();
            }
        }
        std::cout << (ok && stack.empty() ? "YES" : "NO") << "\\n";
        return 0;
    }
    """,
)

problem(
    "roman-numerals", "medium", ["strings", "math"],
    """
    Write a {lang} program that converts an integer to Roman numerals.

    Input: an integer n (1 <= n <= 3999).
    Output: n in standard Roman numerals (I, V, X, L, C, D, M, with subtractive forms such as IV, IX, XL,
    XC, CD and CM), e.g. 1994 is MCMXCIV.
    """,
    ["1994\n", "1\n", "4\n", "3999\n", "2024\n", "444\n"],
    """
    n = int(input())
    table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
             (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = []
    for value, symbol in table:
        while n >= value:
            out.append(symbol)
            n -= value
    print("".join(out))
    """,
    """
    #include <stdio.h>

    int main(void) {
        static const int values[] = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
        static const char *symbols[] = {"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"};
        int n;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < 13; i++) {
            while (n >= values[i]) {
                fputs(symbols[i], stdout);
                n -= values[i];
            }
        }
        putchar('\\n');
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <string>
    #include <utility>

    int main() {
        const std::pair<int, const char *> table[] = {{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"},
                                                      {100, "C"},  {90, "XC"},  {50, "L"},  {40, "XL"},
                                                      {10, "X"},   {9, "IX"},   {5, "V"},   {4, "IV"},
                                                      {1, "I"}};
        int n;
        std::cin >> n;
        std::string out;
        for (const auto &[value, symbol] : table) {
            while (n >= value) {
                out += symbol;
                n -= value;
            }
        }
        std::cout << out << "\\n";
        return 0;
    }
    """,
)

# ---------------------------------------------------------------------------------------------
# Floats (tokens with float_tolerance)
# ---------------------------------------------------------------------------------------------

problem(
    "average", "easy", ["math", "floats"],
    """
    Write a {lang} program that prints the average (arithmetic mean) of a list of integers.

    Input: an integer n (1 <= n <= 10^5) on the first line, then n integers x_i (-10^6 <= x_i <= 10^6).
    Output: the average of the x_i as a decimal number. {float_note}
    """,
    ["3\n1 2 4\n", "1\n-5\n", "2\n2 4\n", "3\n1000000 1000000 999999\n", "4\n-1 -2 -3 -3\n",
     counted(ints(R, 777, -10**6, 10**6))],
    """
    import sys

    data = sys.stdin.read().split()
    xs = [int(x) for x in data[1:1 + int(data[0])]]
    average = sum(xs) / len(xs)
    print(f"{average:.9f}")
    """,
    """
    #include <stdio.h>

    int main(void) {
        int n;
        long long x, sum = 0;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) {
            scanf("%lld", &x);
            sum += x;
        }
        printf("%.9f\\n", (double)sum / n);
        return 0;
    }
    """,
    """
    #include <cstdio>
    #include <iostream>

    int main() {
        int n;
        std::cin >> n;
        long long x, sum = 0;
        for (int i = 0; i < n; i++) {
            std::cin >> x;
            sum += x;
        }
        std::printf("%.9f\\n", static_cast<double>(sum) / n);
        return 0;
    }
    """,
    float_tolerance=1e-6,
)

problem(
    "distance-points", "easy", ["math", "floats", "geometry"],
    """
    Write a {lang} program that prints the Euclidean distance between two points in the plane.

    Input: four real numbers x1 y1 x2 y2 (absolute value at most 10^4): the points (x1, y1) and (x2, y2).
    Output: the distance between the two points. {float_note}
    """,
    ["0 0 3 4\n", "1 1 1 1\n", "-1.5 2.25 3.5 -0.75\n", "10000 10000 -10000 -10000\n", "0.1 0.2 0.3 0.4\n"],
    """
    import math

    x1, y1, x2, y2 = map(float, input().split())
    distance = math.hypot(x2 - x1, y2 - y1)
    print(f"{distance:.9f}")
    """,
    """
    #include <math.h>
    #include <stdio.h>

    int main(void) {
        double x1, y1, x2, y2;
        if (scanf("%lf %lf %lf %lf", &x1, &y1, &x2, &y2) != 4) return 1;
        printf("%.9f\\n", sqrt((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)));
        return 0;
    }
    """,
    """
    #include <cmath>
    #include <iomanip>
    #include <iostream>

    int main() {
        double x1, y1, x2, y2;
        std::cin >> x1 >> y1 >> x2 >> y2;
        std::cout << std::fixed << std::setprecision(9) << std::hypot(x2 - x1, y2 - y1) << "\\n";
        return 0;
    }
    """,
    float_tolerance=1e-6,
)

problem(
    "celsius-to-fahrenheit", "easy", ["math", "floats"],
    """
    Write a {lang} program that converts temperatures from degrees Celsius to degrees Fahrenheit
    (F = C * 9 / 5 + 32).

    Input: an integer n (1 <= n <= 1000) on the first line, then n real numbers, the temperatures in
    Celsius (absolute value at most 10^4).
    Output: n lines, the temperatures in Fahrenheit, in the input order. {float_note}
    """,
    ["3\n0\n100\n-40\n", "1\n36.6\n", "4\n-273.15 21.5 0.001 -17.7777777\n", "2\n10000 -10000\n"],
    """
    import sys

    data = sys.stdin.read().split()
    for c in map(float, data[1:1 + int(data[0])]):
        f = c * 9 / 5 + 32
        print(f"{f:.9f}")
    """,
    """
    #include <stdio.h>

    int main(void) {
        int n;
        double c;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) {
            scanf("%lf", &c);
            printf("%.9f\\n", c * 9.0 / 5.0 + 32.0);
        }
        return 0;
    }
    """,
    """
    #include <iomanip>
    #include <iostream>

    int main() {
        int n;
        std::cin >> n;
        std::cout << std::fixed << std::setprecision(9);
        for (int i = 0; i < n; i++) {
            double c;
            std::cin >> c;
            std::cout << c * 9.0 / 5.0 + 32.0 << "\\n";
        }
        return 0;
    }
    """,
    float_tolerance=1e-6,
)

problem(
    "circle", "easy", ["math", "floats", "geometry"],
    """
    Write a {lang} program that prints the area and the circumference of a circle.

    Input: a real number r (0 < r <= 10^4), the radius.
    Output: the area pi * r^2 and the circumference 2 * pi * r, separated by a space. {float_note}
    """,
    ["1\n", "2.5\n", "0.001\n", "10000\n", "7\n"],
    """
    import math

    r = float(input())
    area = math.pi * r * r
    circumference = 2 * math.pi * r
    print(f"{area:.9f} {circumference:.9f}")
    """,
    """
    #include <math.h>
    #include <stdio.h>

    int main(void) {
        double r;
        if (scanf("%lf", &r) != 1) return 1;
        printf("%.9f %.9f\\n", M_PI * r * r, 2 * M_PI * r);
        return 0;
    }
    """,
    """
    #include <cmath>
    #include <iomanip>
    #include <iostream>

    int main() {
        const double pi = std::acos(-1.0);
        double r;
        std::cin >> r;
        std::cout << std::fixed << std::setprecision(9) << pi * r * r << " " << 2 * pi * r << "\\n";
        return 0;
    }
    """,
    float_tolerance=1e-6,
)

problem(
    "quadratic-roots", "medium", ["math", "floats"],
    """
    Write a {lang} program that solves a quadratic equation a*x^2 + b*x + c = 0 that has two distinct real
    roots.

    Input: three integers a, b, c (-1000 <= a, b, c <= 1000, a != 0, b^2 - 4ac > 0).
    Output: the two roots in increasing order, separated by a space. {float_note}
    """,
    ["1 -3 2\n", "1 0 -2\n", "-2 3 5\n", "1 1000 1\n", "3 -7 -1000\n", "1000 -1 0\n"],
    """
    import math

    a, b, c = map(int, input().split())
    d = math.sqrt(b * b - 4 * a * c)
    # the numerically stable form: no cancellation between -b and d
    q = -0.5 * (b + math.copysign(d, b))  # never 0, since d > 0
    x1, x2 = sorted((q / a, c / q))
    print(f"{x1:.9f} {x2:.9f}")
    """,
    """
    #include <math.h>
    #include <stdio.h>

    int main(void) {
        long long a, b, c;
        if (scanf("%lld %lld %lld", &a, &b, &c) != 3) return 1;
        double d = sqrt((double)(b * b - 4 * a * c));
        double x1 = (-b - d) / (2.0 * a), x2 = (-b + d) / (2.0 * a);
        if (x1 > x2) {
            double t = x1;
            x1 = x2;
            x2 = t;
        }
        printf("%.9f %.9f\\n", x1, x2);
        return 0;
    }
    """,
    """
    #include <algorithm>
    #include <cmath>
    #include <iomanip>
    #include <iostream>

    int main() {
        long long a, b, c;
        std::cin >> a >> b >> c;
        double d = std::sqrt(static_cast<double>(b * b - 4 * a * c));
        double x1 = (-b - d) / (2.0 * a), x2 = (-b + d) / (2.0 * a);
        if (x1 > x2) std::swap(x1, x2);
        std::cout << std::fixed << std::setprecision(9) << x1 << " " << x2 << "\\n";
        return 0;
    }
    """,
    float_tolerance=1e-6,
)

problem(
    "mean-stddev", "medium", ["math", "floats", "statistics"],
    """
    Write a {lang} program that prints the mean and the population standard deviation of a list of
    integers.

    Input: an integer n (1 <= n <= 10^5) on the first line, then n integers x_i (-10^6 <= x_i <= 10^6).
    Output: the mean m = (x_1 + ... + x_n) / n and the standard deviation sqrt(((x_1 - m)^2 + ... +
    (x_n - m)^2) / n), separated by a space. {float_note}
    """,
    ["4\n2 4 4 6\n", "1\n7\n", "3\n5 5 5\n", "5\n-1000000 1000000 0 3 -3\n", counted(ints(R, 500, -10**6, 10**6))],
    """
    import math
    import sys

    data = sys.stdin.read().split()
    xs = [int(x) for x in data[1:1 + int(data[0])]]
    mean = sum(xs) / len(xs)
    std = math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))
    print(f"{mean:.9f} {std:.9f}")
    """,
    """
    #include <math.h>
    #include <stdio.h>
    #include <stdlib.h>

    int main(void) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        double *xs = malloc(sizeof *xs * n), sum = 0, sq = 0;
        for (int i = 0; i < n; i++) {
            scanf("%lf", &xs[i]);
            sum += xs[i];
        }
        double mean = sum / n;
        for (int i = 0; i < n; i++) sq += (xs[i] - mean) * (xs[i] - mean);
        printf("%.9f %.9f\\n", mean, sqrt(sq / n));
        free(xs);
        return 0;
    }
    """,
    """
    #include <cmath>
    #include <iomanip>
    #include <iostream>
    #include <vector>

    int main() {
        int n;
        std::cin >> n;
        std::vector<double> xs(n);
        double sum = 0, sq = 0;
        for (auto &x : xs) {
            std::cin >> x;
            sum += x;
        }
        double mean = sum / n;
        for (double x : xs) sq += (x - mean) * (x - mean);
        std::cout << std::fixed << std::setprecision(9) << mean << " " << std::sqrt(sq / n) << "\\n";
        return 0;
    }
    """,
    float_tolerance=1e-6,
)

# ---------------------------------------------------------------------------------------------
# Spacing matters (lines)
# ---------------------------------------------------------------------------------------------

problem(
    "swap-case", "easy", ["strings"],
    """
    Write a {lang} program that swaps the case of the letters in a line of text.

    Input: one line of printable ASCII text, at most 1000 characters.
    Output: the same line with every lower-case letter turned to upper case and every upper-case letter to
    lower case; every other character (spaces included) is printed unchanged. {lines_note}
    """,
    ["Hello World\n", "ABC def 123\n", "  two  spaces   here\n", "x\n", "MiXeD-CaSe_with.Punct!  ?\n"],
    """
    line = input()
    print(line.swapcase())
    """,
    """
    #include <ctype.h>
    #include <stdio.h>

    int main(void) {
        int ch;
        while ((ch = getchar()) != EOF && ch != '\\n') {
            if (islower(ch)) ch = toupper(ch);
            else if (isupper(ch)) ch = tolower(ch);
            putchar(ch);
        }
        putchar('\\n');
        return 0;
    }
    """,
    """
    #include <cctype>
    #include <iostream>
    #include <string>

    int main() {
        std::string line;
        std::getline(std::cin, line);
        for (char &ch : line) {
            unsigned char u = static_cast<unsigned char>(ch);
            if (std::islower(u)) ch = static_cast<char>(std::toupper(u));
            else if (std::isupper(u)) ch = static_cast<char>(std::tolower(u));
        }
        std::cout << line << "\\n";
        return 0;
    }
    """,
    compare="lines",
)

problem(
    "right-triangle", "easy", ["loops", "patterns"],
    """
    Write a {lang} program that draws a right-aligned triangle of asterisks.

    Input: an integer n (1 <= n <= 100).
    Output: n lines; line i (1 <= i <= n) holds n - i spaces followed by i asterisks (*), so that the right
    edge is straight. {lines_note}
    """,
    ["4\n", "1\n", "2\n", "10\n"],
    """
    n = int(input())
    for i in range(1, n + 1):
        print(" " * (n - i) + "*" * i)
    """,
    """
    #include <stdio.h>

    int main(void) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 1; i <= n; i++) {
            for (int j = 0; j < n - i; j++) putchar(' ');
            for (int j = 0; j < i; j++) putchar('*');
            putchar('\\n');
        }
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <string>

    int main() {
        int n;
        std::cin >> n;
        for (int i = 1; i <= n; i++) std::cout << std::string(n - i, ' ') << std::string(i, '*') << "\\n";
        return 0;
    }
    """,
    compare="lines",
)

problem(
    "diamond", "easy", ["loops", "patterns"],
    """
    Write a {lang} program that draws a diamond of asterisks.

    Input: an integer n (1 <= n <= 50).
    Output: 2n - 1 lines. For k = 1, 2, ..., n, then k = n - 1, ..., 1, print a line holding n - k spaces
    followed by 2k - 1 asterisks (*). {lines_note}
    """,
    ["3\n", "1\n", "2\n", "6\n"],
    """
    n = int(input())
    for k in list(range(1, n + 1)) + list(range(n - 1, 0, -1)):
        print(" " * (n - k) + "*" * (2 * k - 1))
    """,
    """
    #include <stdio.h>

    static void row(int n, int k) {
        for (int j = 0; j < n - k; j++) putchar(' ');
        for (int j = 0; j < 2 * k - 1; j++) putchar('*');
        putchar('\\n');
    }

    int main(void) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        for (int k = 1; k <= n; k++) row(n, k);
        for (int k = n - 1; k >= 1; k--) row(n, k);
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <string>

    int main() {
        int n;
        std::cin >> n;
        for (int step = 1; step <= 2 * n - 1; step++) {
            int k = step <= n ? step : 2 * n - step;
            std::cout << std::string(n - k, ' ') << std::string(2 * k - 1, '*') << "\\n";
        }
        return 0;
    }
    """,
    compare="lines",
)

problem(
    "multiplication-table", "easy", ["loops", "formatting"],
    """
    Write a {lang} program that prints an n by n multiplication table with aligned columns.

    Input: an integer n (1 <= n <= 30).
    Output: n lines; line i holds the products i*1, i*2, ..., i*n. Every product is right-aligned in a
    field as wide as the number of digits of n*n (padded with spaces on the left), and the fields are
    separated by a single space. {lines_note}
    """,
    ["4\n", "1\n", "3\n", "10\n", "12\n"],
    """
    n = int(input())
    width = len(str(n * n))
    for i in range(1, n + 1):
        print(" ".join(str(i * j).rjust(width) for j in range(1, n + 1)))
    """,
    """
    #include <stdio.h>

    int main(void) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        int width = 0;
        for (int v = n * n; v > 0; v /= 10) width++;
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++) printf("%*d%c", width, i * j, j < n ? ' ' : '\\n');
        return 0;
    }
    """,
    """
    #include <iomanip>
    #include <iostream>
    #include <string>

    int main() {
        int n;
        std::cin >> n;
        int width = static_cast<int>(std::to_string(n * n).size());
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++) std::cout << std::setw(width) << i * j << (j < n ? ' ' : '\\n');
        return 0;
    }
    """,
    compare="lines",
)

problem(
    "score-table", "medium", ["strings", "formatting"],
    """
    Write a {lang} program that prints names and scores as an aligned two-column table.

    Input: an integer n (1 <= n <= 100) on the first line, then n lines each holding a name (1 to 20 letters)
    and a score (an integer, 0 <= score <= 10^9), separated by a space.
    Output: n lines, one per input row, in the input order. Let W be the length of the longest name and V
    the number of digits of the longest score. Each line is the name padded on the right with spaces to
    width W, then " | " (space, vertical bar, space), then the score padded on the left with spaces to
    width V. {lines_note}
    """,
    ["3\nAlice 90\nBob 100\nChristina 7\n", "1\nZed 0\n", "2\nab 5\ncd 6\n",
     "4\nx 1000000000\nLongestNameHereOk 1\nmid 12345\ny 0\n"],
    """
    import sys

    lines = sys.stdin.read().split("\\n")
    n = int(lines[0])
    rows = [line.split() for line in lines[1:1 + n]]
    w = max(len(name) for name, _ in rows)
    v = max(len(score) for _, score in rows)
    for name, score in rows:
        print(f"{name:<{w}} | {score:>{v}}")
    """,
    """
    #include <stdio.h>
    #include <string.h>

    static char names[100][21], scores[100][11];

    int main(void) {
        int n, w = 0, v = 0;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) {
            scanf("%20s %10s", names[i], scores[i]);
            if ((int)strlen(names[i]) > w) w = (int)strlen(names[i]);
            if ((int)strlen(scores[i]) > v) v = (int)strlen(scores[i]);
        }
        for (int i = 0; i < n; i++) printf("%-*s | %*s\\n", w, names[i], v, scores[i]);
        return 0;
    }
    """,
    """
    #include <algorithm>
    #include <iomanip>
    #include <iostream>
    #include <string>
    #include <vector>

    int main() {
        int n;
        std::cin >> n;
        std::vector<std::string> names(n), scores(n);
        std::size_t w = 0, v = 0;
        for (int i = 0; i < n; i++) {
            std::cin >> names[i] >> scores[i];
            w = std::max(w, names[i].size());
            v = std::max(v, scores[i].size());
        }
        for (int i = 0; i < n; i++) {
            std::cout << std::left << std::setw(static_cast<int>(w)) << names[i] << " | " << std::right
                      << std::setw(static_cast<int>(v)) << scores[i] << "\\n";
        }
        return 0;
    }
    """,
    compare="lines",
)

problem(
    "caesar-cipher", "easy", ["strings"],
    """
    Write a {lang} program that encrypts a line of text with a Caesar cipher.

    Input: an integer k (0 <= k <= 25) on the first line, then one line of printable ASCII text (at most
    1000 characters).
    Output: the text with every letter shifted k places forward in the alphabet, wrapping around from z to a
    (upper-case letters stay upper case, lower-case stay lower case); every other character, spaces
    included, is printed unchanged. {lines_note}
    """,
    ["3\nHello, World!\n", "0\nabc XYZ\n", "25\nbcd  a\n", "13\nWhy  did the chicken cross the road?\n",
     "1\nzZ 9 yY\n"],
    """
    k = int(input())
    text = input()
    out = []
    for ch in text:
        if "a" <= ch <= "z":
            ch = chr((ord(ch) - ord("a") + k) % 26 + ord("a"))
        elif "A" <= ch <= "Z":
            ch = chr((ord(ch) - ord("A") + k) % 26 + ord("A"))
        out.append(ch)
    print("".join(out))
    """,
    """
    #include <stdio.h>

    int main(void) {
        int k, ch;
        if (scanf("%d", &k) != 1) return 1;
        while ((ch = getchar()) != EOF && ch != '\\n') {
        }
        while ((ch = getchar()) != EOF && ch != '\\n') {
            if (ch >= 'a' && ch <= 'z') ch = (ch - 'a' + k) % 26 + 'a';
            else if (ch >= 'A' && ch <= 'Z') ch = (ch - 'A' + k) % 26 + 'A';
            putchar(ch);
        }
        putchar('\\n');
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <string>

    int main() {
        int k;
        std::string text;
        std::cin >> k;
        std::getline(std::cin, text);  // the rest of the first line
        std::getline(std::cin, text);
        for (char &ch : text) {
            if (ch >= 'a' && ch <= 'z') ch = static_cast<char>((ch - 'a' + k) % 26 + 'a');
            else if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>((ch - 'A' + k) % 26 + 'A');
        }
        std::cout << text << "\\n";
        return 0;
    }
    """,
    compare="lines",
)

# ---------------------------------------------------------------------------------------------
# Byte-exact output (exact)
# ---------------------------------------------------------------------------------------------

problem(
    "greeting", "easy", ["strings", "formatting"],
    """
    Write a {lang} program that greets someone by name.

    Input: one line holding a name (1 to 100 printable ASCII characters; it may contain spaces but does not
    start or end with one). The line may or may not end with a line break.
    Output: "Hello, " followed by the name and "!", e.g. "Hello, Ada Lovelace!". {exact_note}
    """,
    ["World\n", "Ada Lovelace\n", "x", "Jean-Luc Picard\n", "R2-D2, C-3PO\n"],
    """
    import sys

    name = sys.stdin.readline().rstrip("\\r\\n")
    print(f"Hello, {name}!")
    """,
    """
    #include <stdio.h>
    #include <string.h>

    int main(void) {
        char name[256] = "";
        if (!fgets(name, sizeof name, stdin)) return 1;
        name[strcspn(name, "\\r\\n")] = '\\0';
        printf("Hello, %s!\\n", name);
        return 0;
    }
    """,
    """
    #include <iostream>
    #include <string>

    int main() {
        std::string name;
        std::getline(std::cin, name);
        if (!name.empty() && name.back() == '\\r') name.pop_back();
        std::cout << "Hello, " << name << "!\\n";
        return 0;
    }
    """,
    compare="exact",
)

problem(
    "csv-join", "easy", ["arrays", "formatting"],
    """
    Write a {lang} program that prints a list of integers as one comma-separated line.

    Input: an integer n (1 <= n <= 1000) on the first line, then n integers x_i (-10^9 <= x_i <= 10^9).
    Output: the n integers in the input order, separated by commas with no spaces, e.g. "3,-1,4". {exact_note}
    """,
    ["3\n3 -1 4\n", "1\n0\n", "5\n1\n2\n3\n4\n5\n", "2\n-1000000000 1000000000\n", counted(ints(R, 50, -99, 99))],
    """
    import sys

    data = sys.stdin.read().split()
    print(",".join(data[1:1 + int(data[0])]))
    """,
    """
    #include <stdio.h>

    int main(void) {
        int n;
        long long x;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) {
            scanf("%lld", &x);
            printf(i ? ",%lld" : "%lld", x);
        }
        printf("\\n");
        return 0;
    }
    """,
    """
    #include <iostream>

    int main() {
        int n;
        std::cin >> n;
        for (int i = 0; i < n; i++) {
            long long x;
            std::cin >> x;
            if (i) std::cout << ",";
            std::cout << x;
        }
        std::cout << "\\n";
        return 0;
    }
    """,
    compare="exact",
)

problem(
    "seconds-to-clock", "easy", ["math", "formatting"],
    """
    Write a {lang} program that converts a number of seconds to a clock reading HH:MM:SS.

    Input: an integer s (0 <= s <= 359999).
    Output: s as hours, minutes and seconds, each written with exactly two digits (with a leading zero when
    below 10) and separated by colons, e.g. 3725 is "01:02:05". {exact_note}
    """,
    ["3725\n", "0\n", "359999\n", "59\n", "86400\n"],
    """
    s = int(input())
    print(f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}")
    """,
    """
    #include <stdio.h>

    int main(void) {
        int s;
        if (scanf("%d", &s) != 1) return 1;
        printf("%02d:%02d:%02d\\n", s / 3600, s / 60 % 60, s % 60);
        return 0;
    }
    """,
    """
    #include <iomanip>
    #include <iostream>

    int main() {
        int s;
        std::cin >> s;
        std::cout << std::setfill('0') << std::setw(2) << s / 3600 << ":" << std::setw(2) << s / 60 % 60 << ":"
                  << std::setw(2) << s % 60 << "\\n";
        return 0;
    }
    """,
    compare="exact",
)

problem(
    "date-iso", "easy", ["strings", "formatting"],
    """
    Write a {lang} program that rewrites a date from day/month/year form to the ISO 8601 form YYYY-MM-DD.

    Input: a date D/M/Y, where the day D and the month M have one or two digits and the year Y has one to four
    digits (1 <= Y <= 9999).
    Output: the date as YYYY-MM-DD: the year with four digits, the month and the day with two digits each,
    zero-padded, separated by hyphens, e.g. 7/3/2024 is "2024-03-07". {exact_note}
    """,
    ["7/3/2024\n", "31/12/1999\n", "1/1/1\n", "29/02/2000\n", "05/11/955\n"],
    """
    d, m, y = map(int, input().strip().split("/"))
    print(f"{y:04d}-{m:02d}-{d:02d}")
    """,
    """
    #include <stdio.h>

    int main(void) {
        int d, m, y;
        if (scanf("%d/%d/%d", &d, &m, &y) != 3) return 1;
        printf("%04d-%02d-%02d\\n", y, m, d);
        return 0;
    }
    """,
    """
    #include <cstdio>
    #include <iostream>

    int main() {
        int d, m, y;
        char slash;
        std::cin >> d >> slash >> m >> slash >> y;
        std::printf("%04d-%02d-%02d\\n", y, m, d);
        return 0;
    }
    """,
    compare="exact",
)


# ---------------------------------------------------------------------------------------------
# Build problems.jsonl
# ---------------------------------------------------------------------------------------------


def run_python(program: str, stdin: str) -> str:
    done = subprocess.run([sys.executable, "-c", program], input=stdin, capture_output=True, text=True,
                          timeout=60, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"reference failed on {stdin[:60]!r}: {done.stderr}")
    return done.stdout


def prompt_for(p: dict, lang: str, first_test: dict) -> str:
    body = p["statement"]
    for key, value in (("lang", LANGS[lang]), ("float_note", FLOAT_NOTE), ("lines_note", LINES_NOTE),
                       ("exact_note", EXACT_NOTE)):
        body = body.replace("{" + key + "}", value)
    lines: list[str] = []  # unwrap the source's line breaks, keeping paragraphs and Input:/Output: lines
    for line in body.split("\n"):
        if lines and lines[-1] and line and not line.startswith(("Input:", "Output:")):
            lines[-1] += " " + line
        else:
            lines.append(line)
    body = "\n".join(lines)
    example_in = first_test["stdin"] if first_test["stdin"].endswith("\n") else first_test["stdin"] + "\n"
    return (f"{body}\n\nExample input:\n```\n{example_in}```\nExample output:\n```\n"
            f"{first_test['expected_stdout']}```\n")


def references() -> dict[str, dict[str, str]]:
    """Language -> problem name -> program, for the languages of ``references/``."""
    sys.path.insert(0, str(HERE / "references"))
    try:
        return {lang: importlib.import_module(lang).REFERENCES for lang in LANGS if lang not in INLINE}
    finally:
        sys.path.pop(0)


def build() -> list[dict]:
    names = [p["name"] for p in PROBLEMS]
    assert len(names) == len(set(names)), "problem names must be unique"
    more = references()
    for lang, programs in more.items():
        assert set(programs) == set(names), f"references/{lang}.py: {sorted(set(names) ^ set(programs))}"
    rows = []
    for p in PROBLEMS:
        assert len(p["tests"]) >= 3, p["name"]
        tests = [{"kind": "stdio", "stdin": stdin, "expected_stdout": run_python(p["python"], stdin)}
                 for stdin in p["tests"]]
        tests[0]["visibility"] = "public"  # the prompt shows it as the example; the others are hidden
        for lang in LANGS:
            row = {"task_id": f"{SUITE}/{p['name']}/{lang}", "prompt": prompt_for(p, lang, tests[0]),
                   "language": lang, "tests": tests,
                   "reference_solution": p[lang] if lang in INLINE else more[lang][p["name"]].lstrip("\n")}
            if p["compare"] != "tokens":
                row["compare"] = p["compare"]
            if p["float_tolerance"] is not None:
                row["float_tolerance"] = p["float_tolerance"]
            row["metadata"] = {"problem": p["name"], "difficulty": p["difficulty"], "tags": p["tags"]}
            rows.append(row)
    return rows


def main() -> None:
    rows = build()
    out = HERE / "problems.jsonl"
    with out.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} tasks ({len(PROBLEMS)} problems) to {out}")


if __name__ == "__main__":
    main()
