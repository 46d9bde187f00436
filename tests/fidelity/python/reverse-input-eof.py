lines = []
while True:
    try:
        lines.append(input().rstrip("\r"))
    except EOFError:
        break
for line in lines[::-1]:
    print(line)
