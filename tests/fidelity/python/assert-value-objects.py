from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    x: int
    y: int

    def __format__(self, spec):
        return f"({self.x:{spec}}, {self.y:{spec}})"
