"""The code of ours that shares a process with a program, and nothing else.

Stdlib only, and light (no ``ast``, ``json`` or ``re``): the fork server loads it, and everything
loaded there is copied into every test process. It is imported before any program runs, so the
references it binds (builtins, the C JSON string encoder) are pristine; but a program can rebind
anything here once its own code runs, so nothing this package writes is believed: it writes the
program's answers (a ``call`` test's value, the calls it serves for the judge), synchronisation
points and the monitor's flags, which trusted code reads strictly (``records.read_records``,
``values.decode_value``). It never holds a test's code or expected value.

Modules:
    ``child``: ``child_main``, what a process the fork server forks runs (exec, a Python test, a
        zygote); ``zygote``: a zygote's loop; ``calls``: serving the judge's calls (remote
        handles to the program's objects, callbacks into the judge); ``encode``: the writer of
        values (tagged JSON); ``monitor``: the audit hook and the checks of builtins and modules;
        ``errors``: exception text. ``driver.js`` is the JavaScript twin of ``child``'s ``call``.
"""
