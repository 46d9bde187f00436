import unicodedata


def normalize(s):
    return unicodedata.normalize("NFC", s)


def reverse_words(s):
    return " ".join(reversed(s.split()))


def char_names(s):
    return [unicodedata.name(c, "?") for c in s]
