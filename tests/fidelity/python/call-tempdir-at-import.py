import os
import tempfile

WORKDIR = tempfile.TemporaryDirectory()  # this module's scratch space, removed at exit


def roundtrip(name, text):
    path = os.path.join(WORKDIR.name, name)
    with open(path, "w") as f:
        f.write(text)
    with open(path) as f:
        return f.read()
