def parse_records(lines):
    """Yields (key, value) for each 'key = value' line; a line without '=' is an error."""
    for n, line in enumerate(lines, 1):
        if "=" not in line:
            raise ValueError(f"line {n}: no '='")
        key, value = line.split("=", 1)
        yield key.strip(), value.strip()
