import sys

sys.set_int_max_str_digits(0)  # 3.11 refuses to print integers over 4300 digits by default

n = int(input())
print(2 ** n)
