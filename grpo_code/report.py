"""Reports of one evaluation run, or two side by side (before and after training).

``write_report([dir1, dir2], out_dir)`` reads each run's ``summary.json`` and ``results.jsonl``
(as written by ``grpo-code eval`` or ``score``) and writes ``report.html`` (self-contained: the
plot is embedded), ``report.md`` and ``report.png``.
"""

from __future__ import annotations

import base64
import html
import json
from dataclasses import dataclass
from pathlib import Path

from grpo_code.errors import ConfigError
from grpo_code.jsonl import read_records
from grpo_code.results import per_task_table
from sandbox.types import STATUSES


@dataclass
class Run:
    """One evaluation run as read from its folder."""

    name: str
    summary: dict
    per_task: dict[str, dict]

    @property
    def ks(self) -> list[int]:
        return sorted(int(key.split("@")[1]) for key in self.summary if key.startswith("pass@"))


def load_run(folder: str | Path) -> Run:
    """Read a run folder; raises ConfigError naming what is missing."""
    folder = Path(folder)
    summary_path, results_path = folder / "summary.json", folder / "results.jsonl"
    for path in (summary_path, results_path):
        if not path.is_file():
            raise ConfigError(f"{path} does not exist: give a folder written by `grpo-code eval`")
    summary = json.loads(summary_path.read_text())
    results = read_records(results_path)
    ks = sorted(int(key.split("@")[1]) for key in summary if key.startswith("pass@"))
    rows = per_task_table(results, ks)
    return Run(name=folder.name, summary=summary, per_task={r["task_id"]: r for r in rows})


def _pct(value) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _delta(a, b) -> str:
    if a is None or b is None:
        return "–"
    return f"{100 * (b - a):+.1f} pts"


def overview_rows(runs: list[Run]) -> list[list[str]]:
    ks = sorted(set().union(*(r.ks for r in runs)))
    rows = []
    for key in [f"pass@{k}" for k in ks] + ["mean_pass_rate"]:
        values = [r.summary.get(key) for r in runs]
        row = [key.replace("_", " ")] + [_pct(v) for v in values]
        if len(runs) == 2:
            row.append(_delta(*values))
        rows.append(row)
    for key in ("n_tasks", "n_samples", "n_sandbox_errors"):
        row = [key.removeprefix("n_").replace("_", " ")] + [str(r.summary.get(key, "–")) for r in runs]
        rows.append(row + ([""] if len(runs) == 2 else []))
    model = ["model"] + [str(r.summary.get("model", "–")) for r in runs]
    return [model + ([""] if len(runs) == 2 else []), *rows]


def status_rows(runs: list[Run]) -> list[list[str]]:
    rows = []
    for status in STATUSES:
        counts = [r.summary.get("status_counts", {}).get(status, 0) for r in runs]
        if any(counts):
            rows.append([status] + [f"{c} ({c / max(1, r.summary.get('n_samples', 0)):.0%})"
                                    for c, r in zip(counts, runs)])
    return rows


def task_rows(runs: list[Run]) -> list[list[str]]:
    task_ids = list(dict.fromkeys(t for r in runs for t in r.per_task))
    rows = []
    for task_id in task_ids:
        cells, rates = [task_id], []
        for run in runs:
            row = run.per_task.get(task_id)
            rate = row["mean_pass_rate"] if row else None
            rates.append(rate)
            cells.append(f"{row['c']}/{row['n']} passed, pass rate {_pct(rate)}" if row else "–")
        if len(runs) == 2:
            a, b = rates
            cells.append("–" if a is None or b is None else "better" if b > a else "worse" if b < a else "same")
        rows.append(cells)
    return rows


def plot(runs: list[Run], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ks = sorted(set().union(*(r.ks for r in runs)))
    metrics = [f"pass@{k}" for k in ks] + ["mean_pass_rate"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8), dpi=110)
    width = 0.8 / len(runs)
    for i, run in enumerate(runs):
        values = [run.summary.get(m) or 0.0 for m in metrics]
        left.bar([x + i * width for x in range(len(metrics))], values, width, label=run.name)
    left.set_xticks([x + width * (len(runs) - 1) / 2 for x in range(len(metrics))],
                    [m.replace("_", " ") for m in metrics])
    left.set_ylim(0, 1)
    left.set_title("pass@k (unbiased) and mean pass rate")
    left.legend(fontsize=8)
    statuses = [s for s in STATUSES if any(r.summary.get("status_counts", {}).get(s) for r in runs)]
    bottoms = [0.0] * len(runs)
    for status in statuses:
        shares = [r.summary.get("status_counts", {}).get(status, 0) / max(1, r.summary.get("n_samples", 0))
                  for r in runs]
        right.bar(range(len(runs)), shares, bottom=bottoms, label=status)
        bottoms = [b + s for b, s in zip(bottoms, shares)]
    right.set_xticks(range(len(runs)), [r.name for r in runs])
    right.set_ylim(0, 1)
    right.set_title("verdicts")
    right.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _html_table(header: list[str], rows: list[list[str]], css_class: str) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="{css_class}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(lines)


CSS = """body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:4px 10px;text-align:left}th{background:#f3f3f3}
table.tasks td:first-child{font-family:monospace}img{max-width:100%}"""


def write_report(folders: list[str | Path], out_dir: str | Path | None = None) -> dict[str, Path]:
    """Write report.html, report.md and report.png; returns their paths.

    Args:
        folders: one or two run folders (two: side by side, with the change).
        out_dir: where to write; default the last run's folder.
    """
    if not 1 <= len(folders) <= 2:
        raise ConfigError("give one run folder, or two to compare")
    runs = [load_run(f) for f in folders]
    if len(runs) == 2 and runs[0].name == runs[1].name:
        runs[0].name, runs[1].name = str(folders[0]), str(folders[1])
    out = Path(out_dir or folders[-1])
    out.mkdir(parents=True, exist_ok=True)
    paths = {"html": out / "report.html", "md": out / "report.md", "png": out / "report.png"}
    plot(runs, paths["png"])
    names = [r.name for r in runs]
    extra = ["change"] if len(runs) == 2 else []
    tables = [("Summary", ["", *names, *(["change"] if len(runs) == 2 else [])], overview_rows(runs), "overview"),
              ("Verdicts", ["status", *names], status_rows(runs), "statuses"),
              ("Per task", ["task", *names, *extra], task_rows(runs), "tasks")]
    title = f"grpo-code report: {' vs '.join(names)} ({runs[-1].summary.get('suite', '')})"
    image = base64.b64encode(paths["png"].read_bytes()).decode()
    body = "".join(f"<h2>{html.escape(name)}</h2>{_html_table(header, rows, css)}"
                   for name, header, rows, css in tables)
    paths["html"].write_text(
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>"
        f"<img alt='pass@k and verdicts' src='data:image/png;base64,{image}'>{body}"
        f"<p>pass@k: the unbiased estimator of Chen et al. (2021); a k above a task's n has no value (–).</p>"
        f"</body></html>\n", encoding="utf-8")
    paths["md"].write_text(f"# {title}\n\n![pass@k and verdicts]({paths['png'].name})\n\n" + "\n\n".join(
        f"## {name}\n\n{_md_table(header, rows)}" for name, header, rows, _ in tables) + "\n", encoding="utf-8")
    return paths
