import json
import statistics


def median_score(scores):
    return statistics.median(scores)


def parse_config(text):
    return json.loads(text)


def decode_name(raw):
    return raw.decode("utf-8")
