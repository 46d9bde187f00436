import subprocess


def word_count(text: str) -> int:
    result = subprocess.run(["wc", "-w"], input=text, capture_output=True, text=True, check=True)
    return int(result.stdout.split()[0])


def sorted_lines(text: str) -> list:
    result = subprocess.run(["sort"], input=text, capture_output=True, text=True, check=True,
                            env={"LC_ALL": "C"})
    return result.stdout.splitlines()
