import re

EMAIL = re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b")


def extract_emails(text):
    seen = []
    for match in EMAIL.finditer(text):
        address = match.group(0).lower()
        if address not in seen:
            seen.append(address)
    return seen
