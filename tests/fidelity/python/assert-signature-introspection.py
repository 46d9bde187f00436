def area(width, height=1):
    """Area of a rectangle."""
    return width * height


def scale(values, *, factor: float = 2.0) -> list:
    return [v * factor for v in values]
