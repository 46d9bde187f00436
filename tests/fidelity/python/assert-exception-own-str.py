class ValidationError(Exception):
    def __init__(self, field, problem):
        super().__init__(field, problem)
        self.field = field
        self.problem = problem

    def __str__(self):
        return f"{self.field}: {self.problem}"


class EmptyField(ValidationError):
    def __init__(self, field):
        super().__init__(field, "must not be empty")


def validate_user(user: dict) -> bool:
    """True for a user with a name and an age in [0, 150]; else a ValidationError that says why."""
    if not user.get("name"):
        raise EmptyField("name")
    age = user.get("age")
    if not isinstance(age, int) or not 0 <= age <= 150:
        raise ValidationError("age", f"out of range: {age}")
    return True
