def tally(c, words):
    for w in words:
        c[w] += 1
def group(g, pairs):
    for k, v in pairs:
        g[k].append(v)
def lru_touch(od, k):
    od.move_to_end(k)
    if len(od) > 2:
        od.popitem(last=False)
def reorder(d):
    v = d.pop('a')
    d['a'] = v
def bump_nested(rows):
    for c in rows:
        c['x'] += 1
def setdefault_lambda(d):
    d['new'].append(1)
