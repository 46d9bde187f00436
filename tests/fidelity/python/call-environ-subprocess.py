import os
import subprocess
import sys

os.environ.setdefault("GREETING", "hello")

CHILD = "import os; print(os.environ['GREETING'] + ', ' + os.environ['NAME'])"


def greet(name):
    env = dict(os.environ, NAME=name)
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip()
