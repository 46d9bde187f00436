from dataclasses import dataclass, field
from typing import List


@dataclass(order=True)
class Player:
    sort_key: tuple = field(init=False, repr=False)
    name: str
    wins: int
    losses: int

    def __post_init__(self):
        self.sort_key = (-self.wins, self.losses, self.name)


def rank_players(rows: List[list]) -> List[str]:
    players = sorted(Player(name, wins, losses) for name, wins, losses in rows)
    return [p.name for p in players]
