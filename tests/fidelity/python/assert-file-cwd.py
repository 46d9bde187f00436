import json


def save_scores(scores, path):
    with open(path, "w") as f:
        json.dump(scores, f, sort_keys=True)


def load_scores(path):
    with open(path) as f:
        return json.load(f)


def best(path):
    scores = load_scores(path)
    return max(scores, key=scores.get)
