from datetime import date, timedelta


def days_between(d1, d2):
    return abs((d2 - d1).days)


def weekday_name(d):
    return d.strftime("%A")


def is_weekend(d: date) -> bool:
    return d.weekday() >= 5


def add_business_days(start, n):
    d = start
    while n > 0:
        d += timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d.isoformat()
