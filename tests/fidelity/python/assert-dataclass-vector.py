import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Vector:
    x: float
    y: float

    def __add__(self, other: "Vector") -> "Vector":
        return Vector(self.x + other.x, self.y + other.y)

    def scale(self, k: float) -> "Vector":
        return Vector(self.x * k, self.y * k)

    def norm(self) -> float:
        return math.hypot(self.x, self.y)
