class InsufficientFundsError(Exception):
    pass


class BankAccount:
    interest_rate = 0.02

    def __init__(self, owner, balance=0):
        self.owner = owner
        self._balance = balance
        self.history = []

    @property
    def balance(self):
        return self._balance

    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("Deposit amount must be positive")
        self._balance += amount
        self.history.append(("deposit", amount))
        return self._balance

    def withdraw(self, amount):
        if amount > self._balance:
            raise InsufficientFundsError(f"Insufficient funds: balance {self._balance}, requested {amount}")
        self._balance -= amount
        self.history.append(("withdraw", amount))
        return self._balance

    def transfer(self, other, amount):
        self.withdraw(amount)
        other.deposit(amount)

    def __repr__(self):
        return f"BankAccount({self.owner!r}, {self._balance})"


class SavingsAccount(BankAccount):
    interest_rate = 0.05

    def add_interest(self):
        interest = round(self._balance * self.interest_rate, 2)
        return self.deposit(interest)
