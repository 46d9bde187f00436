"""The monitor's check of the builtins (``program.monitor``) and their restoring: exact, and at
no cost while the builtins' dict has not changed (its version tag): a test process that leaves
them alone touches none of them, so a fork copies none of their pages. Each case runs in a fresh
interpreter (an audit hook, once installed, stays)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

PRELUDE = """
import builtins
from sandbox.inside.dicttag import version_tag
from sandbox.inside.program import monitor
flags = []
check = monitor.install(lambda event, **fields: flags.append(fields.get("name"))).check
tag = version_tag(vars(builtins))
assert tag is not None and monitor.builtins_untouched()
"""

CASES = {
    "untouched builtins: no flag, and restoring rewrites nothing": """
        before = tag.value
        check({})
        monitor.restore_builtins()
        assert flags == [] and tag.value == before
    """,
    "a builtin replaced: flagged, then restored (each time: the tag never counts as pristine again)": """
        builtins.abs = lambda x: 0
        assert not monitor.builtins_untouched()
        check({})
        assert flags == ["builtins_patched"]
        monitor.restore_builtins()
        assert builtins.abs(-2) == 2 and not monitor.builtins_untouched()
        builtins.abs = lambda x: 0
        monitor.restore_builtins()
        assert builtins.abs(-2) == 2
    """,
    "a builtin added and removed again: not flagged (what is there is pristine)": """
        builtins.extra = 1
        del builtins.extra
        assert not monitor.builtins_untouched()
        check({})
        assert flags == []
    """,
    "nothing a program reaches through sys.modules decides (the snapshot and the tag are immutable)": """
        import sys
        m = sys.modules["sandbox.inside.program.monitor"]
        builtins.abs = lambda x: 0
        for name, value in vars(m).items():
            if value is not vars(builtins) and not name.startswith("__") \
                    and isinstance(value, (list, dict, set, bytearray)):
                raise AssertionError(f"{name} is mutable")
        check({})
        monitor.restore_builtins()
        assert flags == ["builtins_patched"] and builtins.abs(-2) == 2
    """,
    "a builtin set to itself: nothing changed": """
        builtins.len = len
        assert monitor.builtins_untouched()
    """,
    "a builtin shadowed by a function of the program's, among odd names": """
        namespace = {"__name__": "main", 1: "not a name", "x": 2}
        exec("def sorted(x):\\n    return x\\n", namespace)
        check(namespace, shadows=False)
        assert flags == []
        check(namespace)
        assert flags == ["builtins_patched"]
    """,
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_builtins_check_and_restore(case):
    code = PRELUDE + textwrap.dedent(CASES[case]) + "print('ok')\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout == "ok\n", result.stderr[-2000:]
