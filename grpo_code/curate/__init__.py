"""Suite tools: a suite checked in the sandbox (``validate``, ``calibrate``), repair suites built
from a run's results (``repair``) and a suite written as Harbor task folders (``export``)."""
