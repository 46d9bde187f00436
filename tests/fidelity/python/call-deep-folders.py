import os
import shutil


def build_tree(depth, files_per_level):
    root = "tree_data"
    shutil.rmtree(root, ignore_errors=True)
    path = root
    for level in range(depth):
        path = os.path.join(path, f"level{level}")
        os.makedirs(path)
        for i in range(files_per_level):
            with open(os.path.join(path, f"f{i}.txt"), "w") as f:
                f.write(str(level * files_per_level + i))
    count = total = 0
    for dirpath, _dirnames, filenames in os.walk(root):
        for name in filenames:
            with open(os.path.join(dirpath, name)) as f:
                total += int(f.read())
            count += 1
    return [count, total]
