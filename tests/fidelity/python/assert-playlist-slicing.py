class Playlist:
    def __init__(self, songs):
        self._songs = list(songs)

    def __len__(self):
        return len(self._songs)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return Playlist(self._songs[index])
        return self._songs[index]

    def titles(self):
        return list(self._songs)
