import os


def read(path):
    with open(path) as f:
        return f.read()


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def listing(folder):
    return sorted(os.listdir(folder))


def here():
    return os.getcwd()
