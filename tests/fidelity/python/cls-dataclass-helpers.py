from dataclasses import dataclass, field


@dataclass(order=True)
class Task:
    priority: int
    name: str = field(compare=False)
    tags: list = field(default_factory=list, compare=False)

    def __post_init__(self):
        if self.priority < 0:
            raise ValueError("priority must be >= 0")


@dataclass(frozen=True)
class Coord:
    lat: float
    lon: float


def make_task(name, priority=0):
    return Task(priority, name)
