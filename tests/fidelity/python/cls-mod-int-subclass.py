class Mod7(int):
    def __eq__(self, other):
        return (int(self) - int(other)) % 7 == 0

    __hash__ = int.__hash__

    def __add__(self, other):
        return Mod7((int(self) + int(other)) % 7)
