"""The image's entry point: ``python3 -I /opt/sandbox/inside runner`` (the container's PID 1),
``... forkserver`` (started by the runner), or the two commands of a Harbor verifier container
(``harbor-init``, ``harbor-verify``; see ``harbor_verifier``). The folder above this one goes on ``sys.path`` so
that this folder imports as the package ``inside``."""

import os
import sys

sys.path[0] = os.path.dirname(os.path.abspath(sys.path[0]))
if sys.argv[1:] == ["runner"]:
    from inside.runner import main  # type: ignore[import-not-found]  # the package as the image names it
elif sys.argv[1:] == ["forkserver"]:
    from inside.forkserver import main  # type: ignore[import-not-found]
elif sys.argv[1:2] == ["harbor-init"]:  # PID 1 of a Harbor verifier container; Harbor's own command follows, ignored
    from inside.harbor_verifier import init_main as main  # type: ignore[import-not-found]
elif sys.argv[1:2] == ["harbor-verify"]:
    from inside.harbor_verifier import verify_main

    def main():
        """``harbor-verify JOB PROGRAM``: hand the job to the box's runner, write the reward."""
        verify_main(sys.argv[2:])
else:
    sys.exit("usage: python3 -I /opt/sandbox/inside runner|forkserver|harbor-init|harbor-verify JOB PROGRAM")
main()
