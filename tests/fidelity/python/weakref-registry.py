import weakref


class Widget:
    def __init__(self, name):
        self.name = name


class Registry:
    def __init__(self):
        self._items = weakref.WeakSet()

    def add(self, widget):
        self._items.add(widget)

    def names(self):
        return sorted(w.name for w in self._items)

    def __len__(self):
        return len(self._items)


_cache = weakref.WeakValueDictionary()


def intern_widget(name):
    w = _cache.get(name)
    if w is None:
        w = Widget(name)
        _cache[name] = w
    return w


def cached_count():
    return len(_cache)
