from decimal import Decimal, ROUND_HALF_UP


def add_money(*amounts):
    return sum((Decimal(a) for a in amounts), Decimal("0"))


def with_tax(amount, rate="0.08"):
    total = Decimal(amount) * (1 + Decimal(rate))
    return total.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def split_bill(total, people):
    share = (Decimal(total) / people).quantize(Decimal("0.01"))
    return [share] * people
