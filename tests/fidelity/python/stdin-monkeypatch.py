import sys


def ask_age():
    return int(input("age? "))


def read_sum():
    a, b = map(int, sys.stdin.readline().split())
    return a + b


def read_all_words():
    return sys.stdin.read().split()
