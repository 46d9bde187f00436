class Config:
    def __init__(self, **values):
        self.__dict__.update(values)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return None


class Record:
    def __init__(self, **fields):
        self.fields = fields

    def __getattr__(self, name):
        try:
            return self.fields[name]
        except KeyError:
            raise AttributeError(f"no field {name!r}") from None
