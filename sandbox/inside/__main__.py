"""The image's entry point: ``python3 -I /opt/sandbox/inside runner`` (the container's PID 1) or
``... forkserver`` (started by the runner). The folder above this one goes on ``sys.path`` so
that this folder imports as the package ``inside``."""

import os
import sys

sys.path[0] = os.path.dirname(os.path.abspath(sys.path[0]))
if sys.argv[1:] == ["runner"]:
    from inside.runner import main  # type: ignore[import-not-found]  # the package as the image names it
elif sys.argv[1:] == ["forkserver"]:
    from inside.forkserver import main  # type: ignore[import-not-found]
else:
    sys.exit("usage: python3 -I /opt/sandbox/inside runner|forkserver")
main()
