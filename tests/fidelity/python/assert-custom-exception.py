import re


class ParseError(ValueError):
    pass


_UNITS = {"h": 3600, "m": 60, "s": 1}
_PART = re.compile(r"(\d+)([hms])")


def parse_duration(text: str) -> int:
    """'1h30m' -> 5400 seconds."""
    text = text.strip()
    if not text or _PART.sub("", text):
        raise ParseError(f"bad duration: {text!r}")
    return sum(int(n) * _UNITS[u] for n, u in _PART.findall(text))
