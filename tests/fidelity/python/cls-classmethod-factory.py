from datetime import date


class Person:
    population = 0

    def __init__(self, name, born):
        self.name = name
        self.born = born
        Person.population += 1

    @classmethod
    def from_string(cls, text):
        name, year = text.split("-")
        return cls(name, int(year))

    @staticmethod
    def is_adult_age(age):
        return age >= 18

    def age_in(self, year):
        return year - self.born


class Pizza:
    def __init__(self, ingredients):
        self.ingredients = ingredients

    @classmethod
    def margherita(cls):
        return cls(["mozzarella", "tomatoes"])
