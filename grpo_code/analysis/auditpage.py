"""A suite's test-strength audit as an HTML page, in the style of the run reports (``report.CSS``).

``write_audit_page(audit, path)`` writes one self-contained page: the suite's figures and the cost
of the audit, the weak tasks (those a cheat passes, then those whose mutation score is below
``strength.WEAK_SCORE``), a table of every task, and each task's surviving mutant in full with the
test it fails, for the suite's author to add.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from grpo_code.analysis.report import CSS
from grpo_code.analysis.strength import WEAK_SCORE, SuiteAudit, TaskAudit

METHOD = ("Each task's reference solution is mutated (operators, comparisons, constants and off-by-one, removed "
          "statements and branches, negated conditions, swapped arguments, early returns: on the syntax tree for "
          "Python, on tokens for the other languages) and each mutant, with a fixed set of cheat programs (a constant "
          "of each common type, the input echoed, the public tests' answers looked up, raising or exiting early, a "
          "NaN, printing nothing), runs through the same scoring path as training. A mutant that fails a test is "
          "killed; one that passes every test is a survivor when its output differs from the reference's on an "
          "input generated from the tests' own, else likely equivalent (counted nowhere). Mutation score = killed / "
          f"(killed + survivors). Weak: a cheat passes every test, or the score is below {WEAK_SCORE:g}.")


def _score(value) -> str:
    return "–" if value is None else f"{value:.2f}"


def _row(t: TaskAudit) -> list[str]:
    rate = "–" if t.best_cheat_pass_rate is None else f"{100 * t.best_cheat_pass_rate:.0f}%"
    return [t.task_id, _score(t.mutation_score), str(t.mutants), str(t.killed), str(t.survived), str(t.equivalent),
            str(t.stillborn), str(t.inputs), ", ".join(t.passing_cheats) or "–", rate,
            "weak" if t.weak else "" if t.reference in ("passed", "missing") else f"reference: {t.reference}"]


HEADER = ["task", "score", "mutants", "killed", "survived", "likely equivalent", "stillborn", "new inputs",
          "passing cheats", "best cheat's pass rate", ""]


def _table(rows: list[list[str]], weak: set[str]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in HEADER)
    body = "".join(f"<tr{' class=weak' if row[0] in weak else ''}>"
                   + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="tasks"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _survivor(t: TaskAudit) -> str:
    if not t.survivor:
        return ""
    mutant, test = t.survivor["mutant"], t.survivor.get("test") or {}
    head = (f"{t.task_id}: line {mutant['line']}, `{mutant['before']}` → `{mutant['after']}` "
            f"({mutant['operator'].replace('_', ' ')})")
    shown = json.dumps({k: v for k, v in test.items() if k != "status"}, ensure_ascii=False, indent=1)
    return (f"<h3>{html.escape(head)}</h3><pre>{html.escape(mutant['program'])}</pre>"
            f"<p>A test it fails (the reference's answer on a generated input):</p><pre>{html.escape(shown)}</pre>")


def write_audit_page(audit: SuiteAudit, path: str | Path) -> Path:
    """Write the audit's page to ``path`` (HTML, self-contained); returns the path."""
    path = Path(path)
    weak = sorted(audit.weak, key=lambda t: (not t.passing_cheats, t.mutation_score or 0.0, t.task_id))
    title = f"grpo-code test strength: {audit.suite} v{audit.version}"
    summary = (f"{len(audit.tasks)} tasks; mean mutation score {_score(audit.mean_score)}; {len(audit.cheated)} "
               f"task(s) a cheat passes; {len(audit.weak)} weak. {audit.jobs} sandbox jobs in {audit.seconds:.1f} s "
               f"({audit.jobs_per_second or 0:.1f} jobs/s). Settings: {audit.settings.max_mutants} mutants and "
               f"{audit.settings.max_inputs} new inputs per task at most, seed {audit.settings.seed}.")
    parts = [f"<p class='headline'>{html.escape(summary)}</p>"]
    if weak:
        parts.append(f"<h2>Weak tasks ({len(weak)})</h2>{_table([_row(t) for t in weak], set())}")
    parts.append(f"<h2>Every task</h2>{_table([_row(t) for t in audit.tasks], {t.task_id for t in weak})}")
    survivors = [t for t in sorted(audit.tasks, key=lambda t: (t.mutation_score or 0.0, t.task_id)) if t.survivor]
    if survivors:
        parts.append(f"<h2>Surviving mutants ({len(survivors)} tasks), the weakest first</h2>"
                     + "".join(_survivor(t) for t in survivors))
    parts.append(f"<p><small>{html.escape(METHOD)}</small></p>")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
                    f"<style>{CSS}tr.weak td{{background:#fde8e8}}</style></head><body><h1>{html.escape(title)}</h1>"
                    f"{''.join(parts)}</body></html>\n", encoding="utf-8")
    return path
