import os
import tempfile


def sort_via_files(words):
    with tempfile.TemporaryDirectory() as folder:
        for i, word in enumerate(words):
            with open(os.path.join(folder, f"{i:05d}.txt"), "w", encoding="utf-8") as f:
                f.write(word)
        collected = []
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                collected.append(f.read())
    return sorted(collected)
