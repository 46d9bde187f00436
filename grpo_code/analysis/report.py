"""Reports of evaluation runs (one, or two side by side) and of a training run.

``write_report(folders, out_dir, train_dir)`` reads each evaluation run's ``summary.json`` and
``results.jsonl`` (as written by ``grpo-code eval`` or ``score``) and, from a training run folder,
its own logs (``grpo_code.analysis.trainlog``), and writes ``report.html`` (self-contained: the plots are
embedded), ``report.md``, ``report.png`` (evaluations) and ``training.png`` (training).

Every figure carries its interval over tasks; two runs are compared by the paired test over the
tasks both have, and each change is labelled "better", "worse" or "within noise"
(``grpo_code.analysis.comparison``, ``grpo_code.analysis.stats``: Efron & Tibshirani 1993, Fisher 1935, Holm 1979,
Miller 2024).
"""

from __future__ import annotations

import base64
import html
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grpo_code.analysis import stats
from grpo_code.analysis.comparison import Comparison, compare
from grpo_code.analysis.difficulty import PROFILE_FILE, SOLVE_RATE_KEYS, SOLVE_RATE_WORDS, read_profile
from grpo_code.analysis.results import per_task_table, summary_figures, summary_ks, uncertainty
from grpo_code.analysis.trainlog import TrainingRun, is_training_run, load_training_run, quarter_means
from grpo_code.errors import ConfigError
from grpo_code.jsonl import read_records
from sandbox.types import STATUSES

SMOKE_RUN = "smoke run: too short to show learning"


@dataclass
class Run:
    """One evaluation run as read from its folder."""

    name: str
    summary: dict
    per_task: dict[str, dict]
    results: list[dict] = field(default_factory=list, repr=False)

    @property
    def ks(self) -> list[int]:
        """The k of every ``pass@K`` in the run's summary, in order."""
        return summary_ks(self.summary)


def load_run(folder: str | Path) -> Run:
    """Read an evaluation run folder; raises ConfigError naming what is missing."""
    folder = Path(folder)
    summary_path, results_path = folder / "summary.json", folder / "results.jsonl"
    for path in (summary_path, results_path):
        if not path.is_file():
            raise ConfigError(f"{path} does not exist: give a folder written by `grpo-code eval` "
                              "(or a training run folder written by `grpo-code train`)")
    summary = json.loads(summary_path.read_text())
    results = read_records(results_path)
    if "ci" not in summary:  # written before summaries carried their uncertainty
        summary.update(uncertainty(results, summary_ks(summary)))
    rows = per_task_table(results, summary_ks(summary))
    return Run(name=folder.name, summary=summary, per_task={r["task_id"]: r for r in rows}, results=results)


# -- formatting -------------------------------------------------------------------------


def _pct(value) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _interval(interval) -> str:
    return "" if not interval else f" [{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]"


def _pts(value) -> str:
    return "–" if value is None else f"{100 * value:+.1f} pts"


def _p(value: float | None, equals: bool = False) -> str:
    """A p-value: ``< 0.001`` or ``0.123`` (``= 0.123`` with ``equals``, to follow a "p"); ``–`` for None."""
    if value is None:
        return "–"
    if value < 0.001:
        return "< 0.001"
    return f"= {value:.3f}" if equals else f"{value:.3f}"


def _metric_name(metric: str) -> str:
    return metric.replace("_", " ")


def figure_cell(summary: dict, metric: str) -> str:
    """``34.6% [21.0, 48.3]``: a summary figure with its interval (percent) when it has one."""
    return _pct(summary.get(metric)) + _interval((summary.get("ci") or {}).get(metric))


def headline(comparison: Comparison, names: list[str], trained: bool) -> str:
    """One sentence: the change of the mean pass rate (and pass@1), its interval, its p-value and
    label; with a training run that shows no change beyond noise, the smoke-run notice."""
    main = comparison.figure("mean_pass_rate")
    if main is None:
        return "The two runs share no scored task: nothing to compare."
    t = main.test
    text = (f"{names[0]} → {names[1]}: mean pass rate {_pct(main.before)} → {_pct(main.after)}, "
            f"{_pts(t.difference)} ({t.level:.0%} interval {_pts(t.low)} to {_pts(t.high)}; {t.method}, "
            f"p {_p(t.p_value, equals=True)}): {t.label}.")
    first = comparison.figure("pass@1")
    if first is not None:
        text += f" pass@1 {_pct(first.before)} → {_pct(first.after)}: {first.test.label}."
    if trained and t.label == "within noise":
        text += f" {SMOKE_RUN.capitalize()}: the change is within noise by this test."
    return text


def overview_rows(runs: list[Run], comparison: Comparison | None) -> list[list[str]]:
    """The overview table: a row per figure (the model, each pass@k, the mean pass rate), a column
    per run, and with a comparison the change, its p-value and label."""
    ks = sorted(set().union(*(r.ks for r in runs)))
    extra = 3 if comparison else 0
    rows = [["model"] + [str(r.summary.get("model", "–")) for r in runs] + [""] * extra]
    for metric in summary_figures(ks):
        row = [_metric_name(metric)] + [figure_cell(r.summary, metric) for r in runs]
        if comparison:
            change = comparison.figure(metric)
            row += ["–", "–", "–"] if change is None else [
                _pts(change.test.difference) + f" [{100 * change.test.low:+.1f}, {100 * change.test.high:+.1f}]",
                _p(change.test.p_value), change.test.label]
        rows.append(row)
    for key in ("n_tasks", "n_samples", "n_sandbox_errors"):
        rows.append([key.removeprefix("n_").replace("_", " ")] + [str(r.summary.get(key, "–")) for r in runs]
                    + [""] * extra)
    return rows


def status_rows(runs: list[Run]) -> list[list[str]]:
    """The status table: a row per verdict status that any run has, its count and share per run."""
    rows = []
    for status in STATUSES:
        counts = [r.summary.get("status_counts", {}).get(status, 0) for r in runs]
        if any(counts):
            rows.append([status] + [f"{c} ({c / max(1, r.summary.get('n_samples', 0)):.0%})"
                                    for c, r in zip(counts, runs, strict=True)])
    return rows


def _task_cell(side) -> str:
    if side is None:
        return "–"
    n, c, rate = side
    return f"{c}/{n} passed, pass rate {_pct(rate)}"


def task_rows(runs: list[Run], comparison: Comparison | None) -> list[list[str]]:
    """The per-task table: one run's passes and pass rate, or two runs' with each task's change,
    its Holm-adjusted p-value and label."""
    if comparison is None:
        return [[t, f"{row['c']}/{row['n']} passed, pass rate {_pct(row['mean_pass_rate'])}"]
                for t, row in runs[0].per_task.items()]
    return [[t.task_id, _task_cell(t.before), _task_cell(t.after), _pts(t.difference), _p(t.p_value), t.label]
            for t in comparison.tasks]


def training_rows(run: TrainingRun) -> list[list[str]]:
    """The training table: steps logged, the model and suite, wall time, the mean pass rate of the
    first and the last quarter of the steps, the canaries' cheat rate (``cheat_sentence``), the
    public/hidden gap, the tasks kept, and the mean seconds per step (whole, sandbox)."""
    s, c = run.summary, run.curves
    quarters = quarter_means([r for r in c.pass_rate if r is not None])
    sandbox = [v for v in c.sandbox_s if v is not None]
    step_s = [v for v in c.step_s if v is not None]
    rows = [["steps logged", f"{len(c.steps)} (last step {c.steps[-1] if c.steps else '–'})"]]
    if s:
        rows.append(["model, suite", f"{s.get('model', '–')} on {s.get('suite', '–')}"])
        rows.append(["wall time", f"{s.get('seconds', 0):.0f} s"])
    if quarters:
        rows.append(["mean pass rate, first quarter of steps → last quarter",
                     f"{_pct(quarters[0])} → {_pct(quarters[1])}"])
    flat = quarter_means([v for v in c.zero_std if v is not None])
    if flat:
        rows.append(["share of zero-variance groups (all rewards equal: nothing learned), first quarter of steps "
                     "→ last quarter", f"{_pct(flat[0])} → {_pct(flat[1])}"])
    cheats = cheat_sentence(run)
    if cheats:
        rows.append(["canaries: cheat rate (completions of tasks no honest program passes that passed)", cheats])
    gap = s.get("mean_visibility_gap") if s else None
    if gap is not None:
        rows.append(["public minus hidden pass rate (mean over steps)", f"{100 * gap:+.1f} pts"])
    band = s.get("task_filter") if s else None
    if band:
        rows.append(["tasks trained on", filter_sentence(band)])
    strength = s.get("test_strength") if s else None
    if strength:
        rows.append(["tasks trained on, by test strength",
                     f"{strength['kept']} of {strength['tasks_in_suite']} kept by the audit {strength['audit']}: "
                     f"no cheat passes them and their mutation score is at least {strength['min_test_strength']:g} "
                     f"({len(strength['cheated'])} dropped for a passing cheat, {len(strength['below'])} for a lower "
                     "score)"])
    if step_s:
        rows.append(["seconds per step (mean)", f"{sum(step_s) / len(step_s):.1f} s"])
    if sandbox:
        rows.append(["sandbox seconds per step (mean)", f"{sum(sandbox) / len(sandbox):.2f} s"])
    return rows


def cheat_sentence(run: TrainingRun) -> str | None:
    """``0 of 24 (0.0%)``: the completions of canary tasks that passed every test, over the run
    (``trainlog.Curves.cheats``), with a warning when any did; None for a run without canaries."""
    counts = run.curves.cheats()
    if counts is None:
        return None
    passes, total = counts
    text = f"{passes} of {total} ({_pct(passes / total if total else None)})"
    return text + (": CHEATING, the policy games its tests or the judge" if passes else "")


def filter_sentence(band: dict) -> str:
    """A run's ``task_filter`` (``difficulty.SolveRateBand.to_dict``) in words."""
    words = SOLVE_RATE_WORDS.get(band["solve_rate"], band["solve_rate"])
    text = (f"{band['kept']} of {band['tasks_in_suite']} tasks kept by the profile {band['profile']}: {words} in "
            f"[{band['min_solve_rate']:g}, {band['max_solve_rate']:g}] ({band['below_band']} below, "
            f"{band['above_band']} above)")
    before, after = band.get("expected_zero_std_all_tasks"), band.get("expected_zero_std_kept_tasks")
    if before is not None and after is not None:
        text += (f"; expected share of zero-variance groups of {band['group_size']}, by the profile: "
                 f"{_pct(before)} on all the tasks, {_pct(after)} on the kept ones")
    return text


def profile_rows(profile: dict) -> list[list[str]]:
    """A profile's distribution (``difficulty.profile_summary``): per reward, the tasks never,
    sometimes and always solved, and the expected share of zero-variance groups."""
    s = profile["summary"]
    return [[mode, SOLVE_RATE_WORDS[s[mode]["solve_rate"]], str(s[mode]["never_solved"]), str(s[mode]["in_between"]),
             str(s[mode]["always_solved"]), _pct(s[mode]["expected_zero_std"])] for mode in SOLVE_RATE_KEYS]


PROFILE_HEADER = ["reward", "solve rate", "never solved", "sometimes", "always solved", "zero-variance groups"]


def _profile_plot(profiles, group_size: int, mode: str, path: Path, band: tuple[float, float] | None) -> Path:
    """Draw a profile (``plots.plot_profile``) for ``mode``'s solve rate into ``path``; returns it."""
    from grpo_code.analysis.plots import plot_profile

    plot_profile([p.solve_rate(mode) for p in profiles], [p.zero_std(mode, group_size) for p in profiles], path,
                 group_size, band=band, label=SOLVE_RATE_WORDS[SOLVE_RATE_KEYS[mode]])
    return path


# -- output: one list of sections, rendered as HTML and as markdown ---------------------------


@dataclass(frozen=True)
class Text:
    """A paragraph; ``style`` ``headline`` (the result in one sentence), ``small`` (the methods) or
    ``cheating`` (a canary passed: read loud)."""

    text: str
    style: str = ""


@dataclass(frozen=True)
class Heading:
    """A heading of ``level`` 2 or 3 (the report's title is the one of level 1)."""

    text: str
    level: int = 2


@dataclass(frozen=True)
class Table:
    """A table: a header row, rows of cells, and its HTML class (the stylesheet's)."""

    header: list[str]
    rows: list[list[str]]
    css_class: str


@dataclass(frozen=True)
class Image:
    """A figure written beside the report: embedded in the HTML, linked from the markdown."""

    alt: str
    path: Path


@dataclass(frozen=True)
class Example:
    """A logged completion (``trainlog``'s), with its step, task, status, reward and advantage."""

    completion: Any


Section = Text | Heading | Table | Image | Example


def _example_head(c) -> tuple[str, str]:
    """A completion's heading: where it is from, and what it got."""
    return f"step {c.step}, {c.task}", (f"{c.status} ({c.tests_passed} tests), reward "
                                        f"{'–' if c.reward is None else f'{c.reward:.2f}'}, advantage "
                                        f"{'–' if c.advantage is None else f'{c.advantage:+.2f}'}")


def to_html(section: Section) -> str:
    """A section as HTML (text escaped; an image embedded as base64)."""
    if isinstance(section, Text):
        text = html.escape(section.text)
        return {"headline": f"<p class='headline'>{text}</p>", "small": f"<p><small>{text}</small></p>",
                "cheating": f"<p class='cheating'>{text}</p>"}.get(section.style, f"<p>{text}</p>")
    if isinstance(section, Heading):
        return f"<h{section.level}>{html.escape(section.text)}</h{section.level}>"
    if isinstance(section, Table):
        head = "".join(f"<th>{html.escape(h)}</th>" for h in section.header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in section.rows)
        return f'<table class="{section.css_class}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    if isinstance(section, Image):
        image = base64.b64encode(section.path.read_bytes()).decode()
        return f"<img alt='{html.escape(section.alt)}' src='data:image/png;base64,{image}'>"
    c = section.completion
    where, what = _example_head(c)
    return f"<h4>{html.escape(f'{where}: {what}')}</h4><pre>{html.escape(c.completion[:1200])}</pre>"


def to_markdown(section: Section) -> str:
    """A section as markdown (a table's cells with ``|`` escaped; an image linked by its file name)."""
    if isinstance(section, Text):
        return f"**{section.text}**" if section.style == "cheating" else section.text
    if isinstance(section, Heading):
        return f"{'#' * section.level} {section.text}"
    if isinstance(section, Table):
        lines = ["| " + " | ".join(section.header) + " |", "|" + "---|" * len(section.header)]
        lines += ["| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in row) + " |"
                  for row in section.rows]
        return "\n".join(lines)
    if isinstance(section, Image):
        return f"![{section.alt}]({section.path.name})"
    c = section.completion
    fence = "~~~~" if "~~~~" not in c.completion else "`````"
    where, what = _example_head(c)
    return f"**{where}**: {what}\n\n{fence}\n{c.completion[:1200]}\n{fence}"


CSS = """body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:4px 10px;text-align:left}th{background:#f3f3f3}
table.tasks td:first-child{font-family:monospace}img{max-width:100%}p.headline{font-size:1.1em}
pre{background:#f7f7f7;padding:8px;white-space:pre-wrap;max-height:20em;overflow:auto}
p.cheating{color:#fff;background:#b00020;padding:8px;font-weight:bold}"""

METHODS = ("pass@k: the unbiased estimator of Chen et al. (2021); pass^k, all k of k samples pass: the unbiased "
           "estimator C(c, k) / C(n, k) (Yao et al. 2024, τ-bench); a k above a task's n has no value (–). "
           f"Intervals [low, high] of a run's figure: {stats.LEVEL:.0%} percentile bootstrap over tasks "
           "(Efron & Tibshirani 1993). A change: the mean over the tasks both runs have of after - before, "
           "tested with the paired sign-flip permutation test (Fisher 1935; the per-task paired design of "
           "Miller 2024, arXiv 2411.00640), its interval being the shifts that test does not reject; 'better' "
           f"or 'worse' when p ≤ {1 - stats.LEVEL:.2g}, else 'within noise'. A task: two-sample permutation "
           "test of its samples' pass rates, p-values Holm-adjusted over the tasks (Holm 1979).")


@dataclass
class Report:
    """What ``write_report`` wrote.

    Attributes:
        files: ``"html"``, ``"md"``, and ``"png"`` (evaluations) / ``"training_png"`` (training);
            ``"profile_png"`` for a difficulty profile (an evaluation's, or the one a training run's
            tasks were filtered by).
        headline: the one-sentence result of two runs compared (see ``headline``), else None.
    """

    files: dict[str, Path]
    headline: str | None = None


def split_folders(folders: list[str | Path], train_dir: str | Path | None) -> tuple[list[Path], Path | None]:
    """Evaluation run folders and the training run folder among ``folders`` (a folder with
    ``summary.json`` and ``results.jsonl`` is an evaluation; one with a log history, training).

    Raises:
        ConfigError: more than two evaluation runs, more than one training run, or none at all.
    """
    evals: list[Path] = []
    trains = [Path(train_dir)] if train_dir else []
    for folder in map(Path, folders):
        is_eval = (folder / "summary.json").is_file() and (folder / "results.jsonl").is_file()
        (trains if not is_eval and is_training_run(folder) else evals).append(folder)
    if len(evals) > 2:
        raise ConfigError(f"give one evaluation run folder, or two to compare (got {len(evals)})")
    if len(trains) > 1:
        raise ConfigError(f"give one training run folder (got {', '.join(map(str, trains))})")
    if not evals and not trains:
        raise ConfigError("give one or two evaluation run folders and/or a training run folder")
    return evals, trains[0] if trains else None


def write_report(folders: list[str | Path], out_dir: str | Path | None = None,
                 train_dir: str | Path | None = None) -> Report:
    """Write report.html and report.md, with report.png (evaluations) and training.png (training).

    Args:
        folders: one or two evaluation run folders (two: side by side, with the paired change),
            and/or a training run folder (recognised by its ``trainer_state.json``).
        out_dir: where to write; default the last evaluation folder, else the training folder.
        train_dir: a training run folder given explicitly (``--train``).

    Returns:
        A ``Report``: the files written and, with two evaluation runs, the headline sentence.

    Raises:
        ConfigError: a folder lacks the files of a run (the message names the file), or there
            are too many folders or none.
    """
    from grpo_code.analysis.plots import ChangeFigure, EvalFigure, plot_eval, plot_training

    eval_dirs, train_path = split_folders(folders, train_dir)
    runs = [load_run(f) for f in eval_dirs]
    training = load_training_run(train_path) if train_path else None
    if len(runs) == 2 and runs[0].name == runs[1].name:
        runs[0].name, runs[1].name = str(eval_dirs[0]), str(eval_dirs[1])
    folder = eval_dirs[-1] if eval_dirs else train_path  # split_folders gives one at least
    out = Path(out_dir) if out_dir else Path(str(folder))
    out.mkdir(parents=True, exist_ok=True)
    paths = {"html": out / "report.html", "md": out / "report.md"}
    names = [r.name for r in runs]
    comparison = compare(runs[0].results, runs[1].results, sorted(set(runs[0].ks) & set(runs[1].ks))) \
        if len(runs) == 2 else None

    sections: list[Section] = []
    sentence = None
    suite = (runs[-1].summary if runs else training.summary if training else {}).get("suite", "")
    parts = [" vs ".join(names)] if names else []
    parts += [f"training run {train_path.name}"] if train_path else []
    title = f"grpo-code report: {', '.join(parts)}" + (f" ({suite})" if suite else "")  # a TRL script's run names none
    if comparison:
        sentence = headline(comparison, names, trained=training is not None)
        sections.append(Text(sentence, "headline"))
    if runs:
        paths["png"] = out / "report.png"
        changes = [ChangeFigure(f.metric, f.test.difference, f.test.low, f.test.high, f.test.label)
                   for f in comparison.figures] if comparison else []
        plot_eval([EvalFigure(r.name, {m: r.summary.get(m) for m in summary_figures(r.ks)},
                              {m: tuple(v) for m, v in (r.summary.get("ci") or {}).items()
                               if isinstance(v, list)},
                              {s: c / max(1, r.summary.get("n_samples", 0))
                               for s, c in r.summary.get("status_counts", {}).items()}) for r in runs],
                  paths["png"], changes)
        sections.append(Image("pass@k, changes and verdicts", paths["png"]))
        change_cols = [f"change [{stats.LEVEL:.0%} interval]", "p", "verdict"] if comparison else []
        sections += [Heading("Summary"), Table(["", *names, *change_cols], overview_rows(runs, comparison), "overview"),
                     Heading("Verdicts"), Table(["status", *names], status_rows(runs), "statuses"),
                     Heading("Per task"),
                     Table(["task", *names, *(["change", "p (Holm)", "verdict"] if comparison else [])],
                           task_rows(runs, comparison), "tasks")]
        for folder, run in zip(eval_dirs, runs, strict=True):
            if (folder / PROFILE_FILE).is_file():
                record, profiles = read_profile(folder)
                paths["profile_png"] = out / f"profile-{run.name}.png"
                sections += [Heading(f"Difficulty profile: {run.name} ({len(profiles)} tasks, {record['n']} samples "
                                     "each)"),
                             Table(PROFILE_HEADER, profile_rows(record), "profile"),
                             Image("difficulty profile", _profile_plot(profiles, record["group_size"], "fraction",
                                                                       paths["profile_png"], None))]
        if comparison and comparison.n_paired < max(len(r.per_task) for r in runs):
            sections.append(Text(f"Changes are over the {comparison.n_paired} tasks both runs scored."))
    if training:
        sections.append(Heading(f"Training: {train_path}"))
        c = training.curves
        if c.steps:
            paths["training_png"] = out / "training.png"
            plot_training(c.steps, c.pass_rate, paths["training_png"], reward=c.reward, statuses=c.statuses,
                          sandbox_s=c.sandbox_s, step_s=c.step_s, zero_std=c.zero_std)
            sections.append(Image("training curves", paths["training_png"]))
        cheats = cheat_sentence(training)
        if cheats and "CHEATING" in cheats:
            sections.append(Text(f"Canary tasks passed: {cheats}. No honest program passes a canary; read those "
                                 "completions (their task_id starts with canaries/).", "cheating"))
        sections.append(Table(["", "value"], training_rows(training), "training"))
        band = training.summary.get("task_filter")
        if band and Path(band["profile"]).exists():  # the profile as the run read it, the kept band shaded
            record, profiles = read_profile(band["profile"])
            mode = next(m for m, key in SOLVE_RATE_KEYS.items() if key == band["solve_rate"])
            paths["profile_png"] = out / "profile.png"
            sections.append(Image("the training suite by difficulty", _profile_plot(
                profiles, band["group_size"], mode, paths["profile_png"],
                (band["min_solve_rate"], band["max_solve_rate"]))))
        for when, examples in (("early", training.early), ("late", training.late)):
            if examples:
                sections.append(Heading(f"Completions, {when} (step {examples[0].step})", level=3))
                sections += [Example(e) for e in examples]
    sections.append(Text(METHODS, "small"))
    paths["html"].write_text(
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>{''.join(map(to_html, sections))}"
        "</body></html>\n", encoding="utf-8")
    paths["md"].write_text(f"# {title}\n\n" + "\n\n".join(map(to_markdown, sections)) + "\n", encoding="utf-8")
    return Report(paths, sentence)
