class ValidationError(Exception):
    def __init__(self, errors):
        self.errors = errors
        super().__init__(f"{len(errors)} validation error(s)")

    def __repr__(self):
        return f"ValidationError(errors={self.errors!r})"


def validate(user):
    errors = []
    if not user.get("name"):
        errors.append("name is required")
    if user.get("age", 0) < 0:
        errors.append("age must be >= 0")
    if errors:
        raise ValidationError(errors)
    return True


def load_all(rows):
    problems = []
    for i, row in enumerate(rows):
        try:
            int(row)
        except ValueError as e:
            e.add_note(f"row {i}")
            problems.append(e)
    if problems:
        raise ExceptionGroup("bad rows", problems)
    return [int(r) for r in rows]
