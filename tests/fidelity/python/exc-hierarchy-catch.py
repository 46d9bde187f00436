class BankError(Exception):
    """Base class of this module's errors."""


class InsufficientFunds(BankError):
    def __init__(self, needed):
        super().__init__(f"need {needed} more")
        self.needed = needed


class AccountNotFound(BankError, KeyError):
    pass


ACCOUNTS = {"ann": 100, "bob": 5}


def withdraw(name, amount):
    if name not in ACCOUNTS:
        raise AccountNotFound(name)
    if ACCOUNTS[name] < amount:
        raise InsufficientFunds(amount - ACCOUNTS[name])
    ACCOUNTS[name] -= amount
    return ACCOUNTS[name]
