import json


def deep_get(document: str, path: str):
    value = json.loads(document)
    for part in path.split("."):
        if isinstance(value, list):
            value = value[int(part)]
        else:
            value = value.get(part)
            if value is None:
                return None
    return value
