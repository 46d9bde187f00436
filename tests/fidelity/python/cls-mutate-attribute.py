class Playlist:
    def __init__(self, name):
        self.name = name
        self.songs = []
        self.meta = {}

    def total(self):
        return len(self.songs)

    def describe(self):
        genre = self.meta.get("genre", "any")
        return f"{self.name} ({genre})"


class Team:
    def __init__(self):
        self.members = set()

    def size(self):
        return len(self.members)
