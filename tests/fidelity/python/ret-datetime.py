from datetime import date, datetime, timedelta


def next_monday(d):
    return d + timedelta(days=(7 - d.weekday()) % 7 or 7)


def parse_ts(text):
    return datetime.strptime(text, "%Y-%m-%d %H:%M")


def elapsed(start, end):
    fmt = "%H:%M"
    return datetime.strptime(end, fmt) - datetime.strptime(start, fmt)


def month_starts(year):
    return [date(year, m, 1) for m in range(1, 13)]
