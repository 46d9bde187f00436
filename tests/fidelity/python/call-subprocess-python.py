import subprocess


def evaluate(expression: str) -> int:
    """Evaluate an integer expression in a separate interpreter."""
    out = subprocess.check_output(["python3", "-c", f"print({expression})"], text=True)
    return int(out.strip())
