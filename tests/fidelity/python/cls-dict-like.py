class CaseInsensitiveDict:
    def __init__(self, data=None):
        self._d = {}
        for k, v in (data or {}).items():
            self[k] = v

    def __setitem__(self, key, value):
        self._d[key.lower()] = (key, value)

    def __getitem__(self, key):
        return self._d[key.lower()][1]

    def __delitem__(self, key):
        del self._d[key.lower()]

    def __contains__(self, key):
        return key.lower() in self._d

    def __len__(self):
        return len(self._d)

    def __iter__(self):
        return (k for k, _ in self._d.values())

    def keys(self):
        return [k for k, _ in self._d.values()]

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default
