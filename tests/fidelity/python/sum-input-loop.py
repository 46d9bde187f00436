n = int(input())
nums = []
while len(nums) < n:
    try:
        line = input()
    except EOFError:
        break
    nums += [int(x) for x in line.split()]
print(sum(nums))
