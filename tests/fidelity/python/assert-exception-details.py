class InsufficientFunds(ValueError):
    def __init__(self, balance, amount):
        super().__init__(f"cannot withdraw {amount}: balance is {balance}")
        self.balance = balance
        self.amount = amount


class Account:
    def __init__(self, balance=0):
        self.balance = balance

    def withdraw(self, amount):
        if amount > self.balance:
            raise InsufficientFunds(self.balance, amount)
        self.balance -= amount
        return self.balance
