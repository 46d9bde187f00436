from functools import total_ordering


@total_ordering
class Version:
    def __init__(self, text):
        self.parts = tuple(int(p) for p in text.split("."))

    def __eq__(self, other):
        return self.parts == other.parts

    def __lt__(self, other):
        return self.parts < other.parts

    def __hash__(self):
        return hash(self.parts)

    def __str__(self):
        return ".".join(map(str, self.parts))


def parse_all(texts):
    return [Version(t) for t in texts]


def newest(texts):
    return str(max(parse_all(texts)))
