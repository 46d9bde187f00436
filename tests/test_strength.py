"""The audit as a record (grpo_code.analysis.strength): audit.json, where it lives, what it keeps for
training; and the shipped audits of the bundled suites: current, and no bundled task weak. No Docker."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from grpo_code.analysis.strength import (
    AUDIT_FILE,
    WEAK_SCORE,
    AuditSettings,
    SuiteAudit,
    TaskAudit,
    audit_path,
    current,
    fingerprint,
    read_audit,
    select_strong,
    suite_strength,
    write_audit,
)
from grpo_code.errors import ConfigError
from grpo_code.suites.registry import bundled_suites, load_suite

SUITE = load_suite("warmup-python?limit=3")


def entry(task, killed=3, survived=1, cheats=(), **fields) -> TaskAudit:
    return TaskAudit(task.task_id, fingerprint(task), "passed", mutants=killed + survived, killed=killed,
                     survived=survived, passing_cheats=list(cheats), **fields)


def test_the_mutation_score_and_what_makes_a_task_weak():
    t = SUITE.tasks[0]
    assert entry(t, 3, 1).mutation_score == 0.75 and not entry(t, 3, 1).weak
    assert entry(t, 1, 3).weak and entry(t, 1, 3).mutation_score == 0.25 < WEAK_SCORE
    assert entry(t, 4, 0, cheats=["echo"]).weak  # a cheat passes: weak whatever the score
    none = entry(t, 0, 0, equivalent=2)
    assert none.mutation_score is None and not none.weak and not none.strong_enough(0.0)
    assert entry(t, 3, 1).strong_enough(0.75) and not entry(t, 3, 1).strong_enough(0.8)
    assert not entry(t, 4, 0, cheats=["nan"]).strong_enough(0.0)


def test_audit_json_round_trips_and_refuses_what_it_cannot_read(tmp_path):
    audit = SuiteAudit("warmup-python", 5, [entry(t) for t in SUITE], AuditSettings(8, 10, 3), 12.5, 100, 4)
    data = audit.to_dict()
    assert (data["n_tasks"], data["mean_mutation_score"], data["n_cheated"], data["n_weak"]) == (3, 0.75, 0, 0)
    assert data["tasks"][0]["mutation_score"] == 0.75
    back = SuiteAudit.from_dict(json.loads(json.dumps(data)))
    assert back == audit and back.jobs_per_second == 8.0
    path = tmp_path / "audit.json"
    path.write_text(json.dumps({**data, "format": 99}))
    with pytest.raises(ConfigError, match="audit format 99"):
        read_audit(path)
    path.write_text(json.dumps({**data, "tasks": [{"task_id": "x"}]}))
    with pytest.raises(ConfigError, match=r"tasks\[0\]: a task's audit needs fingerprint, reference"):
        read_audit(path)
    with pytest.raises(ConfigError, match="does not exist: make it with grpo-code tasks audit"):
        read_audit(tmp_path / "nothing.json")


def test_writing_merges_by_task_id(tmp_path):
    a, b, c = SUITE.tasks
    path = tmp_path / "audit.json"
    write_audit(SuiteAudit("s", 1, [entry(a, 1, 0), entry(b, 1, 0)]), path)
    written = write_audit(SuiteAudit("s", 2, [entry(b, 0, 1), entry(c, 2, 0)]), path)
    assert [(t.task_id, t.killed) for t in read_audit(path).tasks] == [(a.task_id, 1), (b.task_id, 0), (c.task_id, 2)]
    assert written.version == 2
    write_audit(SuiteAudit("s", 3, [entry(c, 5, 0)]), path, merge=False)
    assert [t.task_id for t in read_audit(path).tasks] == [c.task_id]


def test_an_entry_of_a_changed_task_is_stale(tmp_path):
    a, b, c = SUITE.tasks
    audit = SuiteAudit("s", 1, [entry(a), replace(entry(b), fingerprint="0" * 16)])
    found, missing, stale = current(audit, SUITE)
    assert (list(found), missing, stale) == ([a.task_id], [c.task_id], [b.task_id])
    changed = replace(a, tests=a.tests[:2])
    assert fingerprint(changed) != fingerprint(a)


def test_select_strong_keeps_what_no_cheat_passes_at_the_least_score(tmp_path):
    a, b, c = SUITE.tasks
    path = tmp_path / AUDIT_FILE
    write_audit(SuiteAudit("s", 1, [entry(a, 9, 1), entry(b, 9, 1, cheats=["lookup"]), entry(c, 1, 1)]), path)
    kept, account = select_strong(SUITE, path, 0.8)
    assert [t.task_id for t in kept] == [a.task_id]
    assert (account.kept, account.cheated, account.below) == ([a.task_id], [b.task_id], [c.task_id])
    assert account.describe().startswith("1 of 3 tasks kept by the audit")
    assert select_strong(SUITE, path, 0.5)[1].kept == [a.task_id, c.task_id]
    with pytest.raises(ConfigError, match="keeps none of the 3 tasks"):
        select_strong(SUITE, path, 1.0)
    with pytest.raises(ConfigError, match=r"within \[0, 1\]"):
        select_strong(SUITE, path, 1.5)
    write_audit(SuiteAudit("s", 1, [entry(a)]), path, merge=False)
    with pytest.raises(ConfigError, match=f"lacks 2 task\\(s\\) of warmup-python, the first {b.task_id}"):
        select_strong(SUITE, path, 0.5)


def test_where_an_audit_lives(tmp_path):
    assert audit_path("warmup-python?split=train") == bundled_suites()["warmup-python"] / AUDIT_FILE
    (tmp_path / "suite.yaml").write_text("name: mine\n")
    (tmp_path / "tasks.jsonl").write_text("")
    assert audit_path(str(tmp_path)) == tmp_path / AUDIT_FILE
    assert audit_path(str(tmp_path / "tasks.jsonl")) == tmp_path / "tasks.audit.json"
    assert audit_path("hf:mbpp?adapter=mbpp") is None and audit_path("harbor:x") is None
    assert audit_path("no-such-suite") is None


# -- the bundled suites' audits ------------------------------------------------------------------------

AUDITED = [name for name, folder in bundled_suites().items() if (folder / AUDIT_FILE).is_file()]


def test_the_audited_suites_are_the_bundled_ones_with_references():
    assert sorted(AUDITED) == ["humaneval", "stdio-basics", "warmup-python"]


@pytest.mark.parametrize("name", AUDITED)
def test_a_bundled_audit_covers_its_suite_as_it_is_and_finds_no_task_weak(name):
    suite = load_suite(name)
    audit = read_audit(audit_path(name) or Path())
    found, missing, stale = current(audit, suite)
    assert (missing, stale) == ([], [])
    assert [t.task_id for t in found.values() if t.reference != "passed"] == []
    assert [(t.task_id, t.passing_cheats) for t in found.values() if t.passing_cheats] == []
    assert [(t.task_id, t.mutation_score) for t in found.values() if t.weak] == []
    mean, cheated, covered = suite_strength(name, suite) or (None, None, None)
    assert cheated == 0 and covered == len(suite) and mean is not None and mean >= WEAK_SCORE


def test_the_audit_page_shows_the_weak_tasks_and_each_survivor(tmp_path):
    from grpo_code.analysis.auditpage import write_audit_page

    a, b, c = SUITE.tasks
    survivor = {"mutant": {"operator": "comparison", "line": 2, "before": "<", "after": "<=",
                           "program": "def f(x):\n    return x <= 1\n"},
                "test": {"kind": "assert", "code": "assert f(1) == False", "status": "failed"}}
    audit = SuiteAudit("s", 1, [entry(a, 9, 1, survivor=survivor), entry(b, cheats=["echo"]), entry(c, 1, 3)],
                       seconds=2.0, jobs=10)
    page = write_audit_page(audit, tmp_path / "audit.html").read_text()
    assert "Weak tasks (2)" in page and "3 tasks; mean mutation score 0.63; 1 task(s) a cheat passes; 2 weak" in page
    assert "return x &lt;= 1" in page and "assert f(1) == False" in page and "5.0 jobs/s" in page


def test_tasks_list_shows_each_audited_suite_s_strength():
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    listed = subprocess.run([sys.executable, "-m", "grpo_code.cli", "tasks", "list"], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(root), "COLUMNS": "300"}, timeout=300).stdout
    rows = {cells[1]: cells[2:] for cells in ([c.strip() for c in line.split("│")] for line in listed.splitlines())
            if len(cells) > 4}
    for name in AUDITED:
        score, _, cheated = rows[name][3].partition(" ")
        assert float(score) >= WEAK_SCORE and cheated == "(0 cheated)", (name, rows[name])
    assert rows["canaries"][3] == "-"
