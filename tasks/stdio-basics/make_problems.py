"""Generate problems.jsonl of the stdio-basics suite.

Each problem below has a statement and test inputs. Its reference solutions are files, one per
language, that a person can open and run: ``references/<problem>/<language>.<ext>`` (``LANGUAGES``
below gives each language's name in the prompt and its extension; ``references/sum-two/rust.rs``).
The suite has one task per problem and language. The expected outputs are the Python reference's
output on each input (run here, on the host); every other reference is checked against them in the
sandbox (``grpo-code tasks validate stdio-basics``).

    python tasks/stdio-basics/make_problems.py          # rewrites problems.jsonl beside this file

A reference is read as it is, byte for byte, into the task's ``reference_solution``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

SUITE = "stdio-basics"
HERE = Path(__file__).resolve().parent
REFERENCES = HERE / "references"
# language -> (its name in the prompt, the extension of its reference files), in the suite's order
LANGUAGES = {"python": ("Python", "py"), "c": ("C", "c"), "cpp": ("C++", "cpp"), "javascript": ("JavaScript", "js"),
             "typescript": ("TypeScript", "ts"), "java": ("Java", "java"), "rust": ("Rust", "rs"), "go": ("Go", "go")}
PROBLEMS: list[dict] = []

FLOAT_NOTE = "Answers with an absolute or relative error of at most 10^-6 are accepted."
LINES_NOTE = ("Spacing inside a line matters (the output is compared line by line); "
              "spaces at the end of a line are ignored.")
EXACT_NOTE = ("The output is compared byte for byte: print exactly this, ending with a single newline "
              "character, with no other spaces or blank lines.")


def problem(name: str, difficulty: str, tags: list[str], statement: str, tests: list[str], compare: str = "tokens",
            float_tolerance: float | None = None) -> None:
    """Add a problem: its statement (``{lang}`` and the notes are filled in per language) and the
    stdin of each test; its references are the files ``references/<name>/<language>.<ext>``."""
    PROBLEMS.append(dict(name=name, difficulty=difficulty, tags=tags, statement=textwrap.dedent(statement).strip(),
                         tests=tests, compare=compare, float_tolerance=float_tolerance))


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
)

problem(
    "count-vowels", "easy", ["strings"],
    """
    Write a {lang} program that counts the vowels in a line of text.

    Input: one line of ASCII text, at most 1000 characters (it may be empty).
    Output: the number of vowels in it: the letters a, e, i, o, u in lower or upper case.
    """,
    ["Hello World\n", "rhythm\n", "AEIOU aeiou\n", "\n", "Programming in C is fun, isn't it?\n"],
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
)

problem(
    "factorial-mod", "easy", ["math", "modular"],
    """
    Write a {lang} program that prints n! modulo 1000000007 (10^9 + 7).

    Input: an integer n (0 <= n <= 10^6).
    Output: n! mod 1000000007 (note that 0! = 1).
    """,
    ["5\n", "0\n", "1\n", "20\n", "1000000\n"],
)

problem(
    "palindrome", "easy", ["strings"],
    """
    Write a {lang} program that checks whether a word is a palindrome (reads the same backwards).

    Input: one word of 1 to 1000 lowercase letters.
    Output: YES if the word is a palindrome, NO otherwise.
    """,
    ["racecar\n", "hello\n", "a\n", "abba\n", "ab\n", "abcdefgfedcba\n"],
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
)

problem(
    "binary", "easy", ["math", "bits"],
    """
    Write a {lang} program that prints a non-negative integer in binary.

    Input: an integer n (0 <= n <= 10^18).
    Output: the binary representation of n without leading zeros ("0" for n = 0).
    """,
    ["5\n", "0\n", "1\n", "1024\n", "1000000000000000000\n"],
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
)

problem(
    "second-largest", "easy", ["arrays"],
    """
    Write a {lang} program that prints the second largest distinct value of a list of integers.

    Input: an integer n (1 <= n <= 10^5) on the first line, then n integers x_i (-10^9 <= x_i <= 10^9).
    Output: the largest value that is strictly smaller than the maximum, or NONE if all values are equal.
    """,
    ["5\n3 1 4 1 5\n", "3\n7 7 7\n", "1\n10\n", "4\n5 5 4 4\n", "3\n-1000000000 1000000000 -1000000000\n"],
)

problem(
    "fibonacci", "easy", ["math", "loops"],
    """
    Write a {lang} program that prints the n-th Fibonacci number.

    Input: an integer n (0 <= n <= 90).
    Output: F(n), where F(0) = 0, F(1) = 1 and F(k) = F(k-1) + F(k-2).
    """,
    ["10\n", "0\n", "1\n", "2\n", "90\n"],
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
)

problem(
    "count-distinct", "easy", ["arrays", "sorting"],
    """
    Write a {lang} program that counts the distinct values in a list of integers.

    Input: an integer n (1 <= n <= 10^5) on the first line, then n integers x_i (-10^9 <= x_i <= 10^9).
    Output: the number of distinct values among the x_i.
    """,
    ["6\n1 2 2 3 3 3\n", "1\n0\n", "4\n5 5 5 5\n", "5\n-1 1 -1 1 0\n", counted(ints(R, 2000, 1, 1000))],
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
    for key, value in (("lang", LANGUAGES[lang][0]), ("float_note", FLOAT_NOTE), ("lines_note", LINES_NOTE),
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
    """Problem name -> language -> its reference program, read from ``references/``.

    Raises:
        SystemExit: a reference file is missing, or ``references/`` holds one that no problem or
            language of ``LANGUAGES`` has (the message lists them).
    """
    wanted = {REFERENCES / p["name"] / f"{lang}.{ext}": (p["name"], lang)
              for p in PROBLEMS for lang, (_, ext) in LANGUAGES.items()}
    present = {path for path in REFERENCES.rglob("*") if path.is_file()}
    missing, unknown = sorted(set(wanted) - present), sorted(present - set(wanted))
    if missing or unknown:
        raise SystemExit("references/ does not match the problems and LANGUAGES: "
                         + "; ".join([*(f"missing {p.relative_to(HERE)}" for p in missing),
                                      *(f"unknown {p.relative_to(HERE)}" for p in unknown)]))
    out: dict[str, dict[str, str]] = {}
    for path, (name, lang) in wanted.items():
        out.setdefault(name, {})[lang] = path.read_text(encoding="utf-8")
    return out


def build() -> list[dict]:
    names = [p["name"] for p in PROBLEMS]
    assert len(names) == len(set(names)), "problem names must be unique"
    programs = references()
    rows = []
    for p in PROBLEMS:
        assert len(p["tests"]) >= 3, p["name"]
        tests = [{"kind": "stdio", "stdin": stdin, "expected_stdout": run_python(programs[p["name"]]["python"], stdin)}
                 for stdin in p["tests"]]
        tests[0]["visibility"] = "public"  # the prompt shows it as the example; the others are hidden
        for lang in LANGUAGES:
            row = {"task_id": f"{SUITE}/{p['name']}/{lang}", "prompt": prompt_for(p, lang, tests[0]),
                   "language": lang, "tests": tests, "reference_solution": programs[p["name"]][lang]}
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
