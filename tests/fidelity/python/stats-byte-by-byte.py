import sys

WHITESPACE = b" \t\n\x0b\x0c\r"
stream = sys.stdin.buffer
nbytes = lines = words = 0
in_word = False
while True:
    b = stream.read(1)
    if not b:
        break
    nbytes += 1
    if b == b"\n":
        lines += 1
    if b in WHITESPACE:
        in_word = False
    elif not in_word:
        in_word = True
        words += 1
print(nbytes, lines, words)
