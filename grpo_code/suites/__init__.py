"""Suite data: tasks and suites (the data contract of docs/task-format.md), where suites come from
(bundled, paths, ``hf:`` data sets through the adapters, Harbor task folders, entry points),
public and hidden tests, and the program a completion holds (``extract``). The ground floor of
the wings: it imports no other wing."""
