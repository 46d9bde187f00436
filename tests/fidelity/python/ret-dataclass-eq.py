from dataclasses import dataclass, field


@dataclass
class Point:
    x: int
    y: int


@dataclass
class Order:
    id: int
    items: list = field(default_factory=list)

    def total(self):
        return sum(price for _, price in self.items)


def parse_point(text):
    x, y = text.split(",")
    return Point(int(x), int(y))


def parse_order(line):
    head, *rest = line.split(";")
    items = []
    for part in rest:
        name, price = part.split("=")
        items.append((name.strip(), int(price)))
    return Order(int(head), items)
