def add(a, b):
    return a + b


def tiny():
    return 5e-324, -0.0, 1.7976931348623157e308


def average(nums):
    return sum(nums) / len(nums) if nums else 0.0
