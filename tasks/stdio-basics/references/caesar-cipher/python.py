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
