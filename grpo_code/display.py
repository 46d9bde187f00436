"""What ``grpo-code`` shows on the terminal (rich): tables, progress bars, the step line of a
training run. The command line's printing, kept apart from its parser; the library logs and
never prints, so no module of it imports this one (a script of one's own may: examples/train_trl.py
shows ``grpo-code train``'s progress with it).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import pairwise
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

# What a table may span where the output is no terminal: as wide as its rows, one line each.
UNBOUNDED = 1_000_000


def _stdout() -> Console:
    """The console of what a command prints. On a terminal it is the terminal's width; into a pipe
    or a file (``| grep``, ``> out.txt``), where rich would fit a table to 80 columns and cut its
    ids short, as wide as what it prints, unless ``COLUMNS`` names a width."""
    stdout = Console(soft_wrap=True)
    if not stdout.is_terminal and "COLUMNS" not in os.environ:
        stdout.width = UNBOUNDED
    return stdout


console = Console(stderr=True, soft_wrap=True)  # soft wrap: messages stay on one line for grep
out = _stdout()


def _add_id_column(table: Table, header: str) -> None:
    """A column of ids (suites, tasks, checks): never cut short with an ellipsis; folded onto the
    next lines only where a terminal is too narrow for the table."""
    table.add_column(header, overflow="fold")


def quiet_libraries() -> None:
    """Silence third-party progress bars (weight loading, shard writing, the one-time GGUF
    conversion), which would interleave with ours. Call before tqdm is first imported: tqdm
    reads TQDM_DISABLE then."""
    import importlib.util
    import os

    os.environ.setdefault("TQDM_DISABLE", "1")
    if importlib.util.find_spec("transformers") is None:
        return  # nothing to silence; a command that needs it names the extra to install
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()


def progress(*bars: tuple[str, int]):
    """A rich progress display with one bar per ``(description, total)``; returns it and one
    ``advance(n=1)`` function per bar."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    display = Progress(TextColumn("{task.description:<10}"), BarColumn(), MofNCompleteColumn(),
                       TimeRemainingColumn(), console=console, transient=False)
    ids = [display.add_task(description, total=total) for description, total in bars]
    return display, [lambda n=1, i=i: display.advance(i, n) for i in ids]


@contextmanager
def bar(description: str, total: int) -> Iterator[Callable[[int], None]]:
    """One progress bar, shown while the block runs; gives its ``advance(n)``."""
    display, (advance,) = progress((description, total))
    with display:
        yield advance


def error(message: str) -> None:
    """One red line on stderr (the message escaped: it is printed as it is)."""
    console.print(f"[red]{escape(message)}[/]", highlight=False)


def _fmt(value) -> str:
    return "-" if value is None else f"{value:.4f}" if isinstance(value, float) else str(value)


def _pct(value) -> str:
    return "-" if value is None else f"{value:.0%}"


def _with_se(summary: dict, key: str) -> str:
    value, se = summary.get(key), summary.get(f"{key}_se")
    return _fmt(value) + ("" if value is None or se is None else f" ± {se:.4f}")


def _ci(summary: dict, key: str) -> str:
    interval = (summary.get("ci") or {}).get(key)
    return "-" if not interval else f"[{interval[0]:.4f}, {interval[1]:.4f}]"


def print_summary(summary: dict, ks) -> None:
    """A run's summary (``results.summarize``): pass@k and pass^k with their standard errors and
    intervals, the statuses, the public/hidden gap, sandbox errors and the monitor's flags."""
    from grpo_code.analysis.results import summary_figures

    level = (summary.get("ci") or {}).get("level", 0.95)
    table = Table(title=f"{summary['suite']}: {summary['n_samples']} samples, {summary['n_tasks']} tasks",
                  caption=f"± standard error over tasks; [{level:.0%} interval]: bootstrap over tasks")
    table.add_column("")
    keys = summary_figures(ks)
    for key in keys:
        table.add_column(key.replace("_", " "), justify="right")
    table.add_row("estimate", *[_with_se(summary, key) for key in keys])
    table.add_row(f"{level:.0%} interval", *[_ci(summary, key) for key in keys])
    out.print(table)
    counts = ", ".join(f"{s} {n}" for s, n in summary["status_counts"].items())
    out.print(f"statuses: {counts}")
    missing = [k for k in ks if summary[f"pass@{k}"] is None]
    if missing:
        out.print(f"[yellow]pass@k and pass^k for k = {','.join(map(str, missing))} missing: some task has fewer "
                  "samples than k[/]")
    if summary.get("public_pass_rate") is not None:
        gap = summary.get("visibility_gap")
        out.print(f"public tests: pass rate {_fmt(summary['public_pass_rate'])}; hidden tests: "
                  f"{_fmt(summary.get('hidden_pass_rate'))}"
                  + (f"; gap {gap:+.4f} (public minus hidden, {summary['n_gap_samples']} samples)"
                     if gap is not None else ""))
    if summary.get("n_sandbox_errors"):
        out.print(f"[red]{summary['n_sandbox_errors']} sample(s) hit sandbox errors and were left out of pass@k[/]")
    if summary.get("flag_counts"):
        flags = ", ".join(f"{f} {n}" for f, n in summary["flag_counts"].items())
        out.print(f"[yellow]flagged by the reward-hacking monitor (samples): {flags}[/]")


def print_scored_file(scored, ks, as_json: bool, samples_path: str) -> None:
    """What ``grpo-code score`` says: the summary (or its JSON), where the files are, and each
    line that could not be scored (``scorefile.ScoredFile``)."""
    if as_json:
        out.print_json(json.dumps(scored.summary))
    else:
        print_summary(scored.summary, ks)
        if scored.n_scored:
            out.print(f"results: {scored.results_path}, summary: {scored.summary_path}")
    for e in scored.errors:
        error(f"{samples_path}:{e.line}: {e.message}")
    if scored.errors:
        console.print(f"[red]{len(scored.errors)} sample line(s) could not be scored; the other "
                      f"{scored.n_scored} were scored[/]")


def print_eval(result, ks, out_dir: Path) -> None:
    """What ``grpo-code eval`` says when done (``evaluate.EvalResult``): the summary, the
    throughput, the difficulty profile if any, the files."""
    s = result.summary
    print_summary(s, ks)
    gen = f"{s['generation_tokens_per_s']:.1f} tokens/s ({s['generated_samples']} samples)" \
        if s["generation_tokens_per_s"] else "nothing generated (resumed)"
    scored = f"{s['samples_scored_per_s']:.1f} samples/s" if s["samples_scored_per_s"] else "-"
    out.print(f"throughput: generation {gen}; scoring {scored}")
    if result.profile is not None:
        print_profile(result.profile)
    profile = ", profile.json" if result.profile is not None else ""
    out.print(f"outputs: {out_dir}/samples.jsonl, results.jsonl, summary.json, per_task.csv{profile}")


def print_profile(profile: dict) -> None:
    """The distribution of a difficulty profile: per reward, the tasks never, sometimes and always
    solved, a histogram of solve rates, the expected share of zero-variance groups."""
    s = profile["summary"]
    edges = [f"{e:g}".removeprefix("0") or "0" for e in s["fraction"]["histogram"]["edges"]]
    table = Table(title=f"difficulty profile: {s['n_tasks']} tasks, {profile['n']} samples each",
                  caption=f"solve rate: fraction, the mean pass rate; binary, the share passing every test. "
                          f"zero-var: expected share of groups of {s['group_size']} whose rewards are all equal")
    for col in ("reward", "never", "some", "always", *(f"{lo}-{hi}" for lo, hi in pairwise(edges)), "zero-var"):
        table.add_column(col, justify="left" if col == "reward" else "right")
    for mode in ("fraction", "binary"):
        m = s[mode]
        table.add_row(mode, str(m["never_solved"]), str(m["in_between"]), str(m["always_solved"]),
                      *map(str, m["histogram"]["counts"]), _pct(m["expected_zero_std"]))
    out.print(table)


def print_report(report) -> None:
    """Where ``grpo-code report`` wrote (``report.Report``), after its headline if any."""
    if report.headline:
        out.print(report.headline, markup=False, highlight=False)
    others = ", ".join(p.name for key, p in report.files.items() if key != "html")
    out.print(f"report: {report.files['html']} (and {others})")


@contextmanager
def build_lines() -> Iterator[Callable[[str], None]]:
    """A status line while the sandbox image builds; gives the function each build line goes to
    (steps and top-level lines are kept on the screen, dimmed)."""
    with console.status("building the sandbox image") as status:
        def progress(line: str) -> None:
            if line.startswith("Step ") or not line.startswith(" "):
                console.print(f"[dim]{line[:160]}[/]")
            status.update(line[:100])

        yield progress


def serving(settings) -> Callable[[], None]:
    """``grpo-code serve``'s words (``serve.ServeSettings``): a warning now if anyone who reaches the
    port may run programs; returns what to call once the server listens (its URLs)."""
    from grpo_code.service.serve import TOKEN_VARIABLE

    if settings.exposed:
        console.print(f"[yellow]warning:[/] serving on {escape(settings.host)} with no token: anyone who reaches "
                      f"this port can run programs in the sandbox (set {TOKEN_VARIABLE} or --token-file)")

    def ready() -> None:
        out.print(f"serving the sandbox on {settings.url} (/v1/jobs; SandboxFusion: {settings.url}/run_code)"
                  + ("; a bearer token is required" if settings.token else ""))

    return ready


def print_repair(built) -> None:
    """What ``grpo-code tasks repair`` built (``repair.RepairRun``) and how to train on it."""
    left = ", ".join(f"{reason} {n}" for reason, n in built.left_out.most_common()) or "none"
    out.print(f"{len(built.suite)} repair tasks from {built.n_results} results of {built.source_suite} -> "
              f"{built.folder} (left out: {left})")
    out.print(f"train on them: grpo-code train --suite {built.folder}")


def print_checks(checks, image: str | None) -> None:
    """The isolation checks of ``grpo-code sandbox check`` as a table, and the count."""
    table = Table(title=f"sandbox isolation ({image})")
    _add_id_column(table, "check")
    for col in ("expected", "observed", "ok"):
        table.add_column(col)
    for c in checks:
        table.add_row(c.name, c.expected, c.observed, "[green]yes[/]" if c.ok else "[red]NO[/]")
    out.print(table)
    failed = sum(not c.ok for c in checks)
    out.print(f"{len(checks) - failed} passed, {failed} failed")


def _short_path(text: str) -> str:
    """A path under the current folder, relative to it; anything else as it is."""
    try:
        return str(Path(text).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return text


def _test_counts(tasks) -> str:
    """``N (P public)``: the tests of ``tasks``, and how many may be shown to the model."""
    return f"{sum(len(t.tests) for t in tasks)} ({sum(len(t.public_tests) for t in tasks)} public)"


def _strength(figures) -> str:
    """``0.97 (0 cheated)``: a suite's mean mutation score and the tasks a cheat passes, by its
    audit (``strength.suite_strength``); ``-`` without one."""
    if figures is None:
        return "-"
    mean, cheated, covered = figures
    text = f"{_score(mean)} ({cheated} cheated" + (f", {covered} audited" if covered is not None else "") + ")"
    return f"[red]{text}[/]" if cheated else text


def print_suites(listed, adapters, strengths: dict | None = None) -> None:
    """``grpo-code tasks list``: ``(registry.SuiteRef, TaskSuite or the error that kept it from
    loading)`` per named suite, with its test strength where an audit exists (``strengths``: suite
    name -> ``strength.suite_strength``), then the other ways to name a suite (``adapters``)."""
    strengths = strengths or {}
    table = Table(title="task suites", caption="strength: the mean mutation score of the tasks its audit covers, "
                                               "and how many of them a cheat passes (grpo-code tasks audit)")
    _add_id_column(table, "suite")
    for col in ("tasks", "tests", "languages", "strength"):
        table.add_column(col)
    table.add_column("source", overflow="fold")  # a path, copied as it is
    for ref, suite in listed:
        if isinstance(suite, Exception):  # one broken suite must not hide the others
            table.add_row(escape(ref.name), "-", "-", "-", "-", f"[red]cannot load: {escape(str(suite))}[/]")
        else:
            figures = strengths.get(ref.name)
            covered = figures if figures is None or figures[2] < len(suite) else (*figures[:2], None)
            table.add_row(escape(ref.name), str(len(suite)), _test_counts(suite.tasks), ", ".join(suite.languages),
                          _strength(covered), escape(f"{ref.origin}: {_short_path(suite.source)}"))
    out.print(table)
    out.print(f"also: any suite folder or tasks .jsonl path, and hf:<dataset>?adapter=NAME ({', '.join(adapters)})")


def print_suite(suite, most: int) -> None:
    """``grpo-code tasks show SUITE``: its header, description and first ``most`` tasks."""
    out.print(f"[bold]{escape(suite.name)}[/] v{suite.version}: {len(suite)} tasks "
              f"({', '.join(suite.languages)}), license {suite.license or '-'}; from {suite.source}")
    if suite.description:
        out.print(suite.description, markup=False)
    for task in suite.tasks[:most]:
        tests = f"{len(task.tests)} test{'s' if len(task.tests) != 1 else ''} ({len(task.public_tests)} public)"
        out.print(f"  {escape(task.task_id)}  [dim]{tests}, {task.language}[/]")
    if len(suite) > most:
        out.print(f"  ... and {len(suite) - most} more (--max N)")


def print_validation(report) -> None:
    """``grpo-code tasks validate``'s findings (``validate.ValidationReport``)."""
    for task, verdict in report.failing:
        bad = next((r for r in verdict.test_results if r.status != "passed"), None)
        why = verdict.message or verdict.compile_output or (bad.message if bad else "")
        rate = "-" if verdict.pass_rate is None else f"{verdict.pass_rate:.2f}"
        out.print(f"[red]FAIL[/] {escape(task.task_id)}: {verdict.status} ({rate}) {escape(why[:200])}")
        if "non_finite" in verdict.flags:
            out.print('  its reference returns NaN or an infinity: if that is a right answer, set '
                      '"allow_non_finite": true in the task (docs/task-format.md)')
    out.print(f"{report.n_passing} references pass, {len(report.failing)} fail, "
              f"{len(report.no_reference)} tasks have no reference solution")
    for task, words in report.unchecked_answers:
        out.print(f"[yellow]NO CHECKER[/] {escape(task.task_id)}: its statement accepts several answers "
                  f"(\"{escape(words[:120])}\") and it is judged against one stored output: give it a checker "
                  "(docs/suites.md, \"Checkers\")")
    if report.n_with_checker:
        out.print(f"{report.n_with_checker} task(s) judged by their own checker (each reference solution went "
                  "through it)")
        for task, output, why in report.broken_checkers:
            out.print(f"[red]FAIL[/] {escape(task.task_id)}: its checker breaks on {output} output: "
                      f"{escape(why[:200])}")
        n_broken = len({t.task_id for t, _, _ in report.broken_checkers})
        out.print(f"{report.n_with_checker - n_broken} checker(s) survive malformed outputs, {n_broken} do not")
    if report.rule is not None:
        print_calibrations(report.calibrations, report.rule, report.repeats)
    if report.written_to is not None:
        out.print(f"wrote time_limit_s of {len(report.written)} task(s) into {report.written_to}")


def print_calibrations(calibrations, rule, repeats: int) -> None:
    """The tasks whose time limit the rule would change, and a count per status."""
    table = Table(title=f"time limits by the rule: the slowest of {repeats} runs of the reference x "
                        f"{rule.ac_to_time_limit:g}, rounded up to {rule.time_resolution_s:g} s, at least "
                        f"{rule.min_time_limit_s:g} s (CPU seconds per test)")
    _add_id_column(table, "task")
    for col in ("limit", "reference", "proposed", "status", "why"):
        table.add_column(col)
    shown = [c for c in calibrations if c.status not in ("ok", "no_reference")]
    for c in shown:
        table.add_row(escape(c.task_id), f"{c.current_s:g}", "-" if c.reference_s is None else f"{c.reference_s:.3f}",
                      "-" if c.proposed_s is None else f"{c.proposed_s:g}", c.status, escape(c.message))
    if shown:
        out.print(table)
    counts = Counter(c.status for c in calibrations)
    out.print("calibration: " + ", ".join(f"{status} {counts[status]}" for status in
                                          ("ok", "tight", "too_tight", "loose", "reference_fails", "no_reference")
                                          if counts[status]))


def step_line(step: int, logs: dict) -> str | None:
    """The line ``grpo-code train`` prints for a logged step: the pass-rate reward, the share of
    zero-variance groups, the loss, the step's and the sandbox's seconds (per node, with several),
    the most frequent statuses. None for a log without the reward (the run's last entry)."""
    from grpo_code.analysis.trainlog import (
        CHEAT_RATE_KEY,
        REWARD_KEY,
        STEP_TIME_KEY,
        ZERO_STD_KEY,
        node_seconds,
        sandbox_key,
    )
    from sandbox import STATUSES

    if REWARD_KEY not in logs:
        return None
    shares = {status: logs[sandbox_key(status)] for status in STATUSES if logs.get(sandbox_key(status))}
    top = ", ".join(f"{k} {v:.0%}" for k, v in sorted(shares.items(), key=lambda kv: -kv[1])[:4])
    if logs.get("completions/clipped_ratio") == 1:  # TRL's
        top += "; every completion hit max_completion_length"
    nodes = node_seconds(logs)
    per_node = f" [{', '.join(f'{n} {v:.2f}s' for n, v in sorted(nodes.items()))}]" if len(nodes) > 1 else ""
    zero_std = logs.get(ZERO_STD_KEY)
    cheats = logs.get(CHEAT_RATE_KEY)
    cheat = "" if cheats is None else f"  cheat {cheats:.0%}" + (" CHEATING" if cheats > 0 else "")
    return (f"step {step:>4}  reward {logs[REWARD_KEY]:.3f}  zero-std {'-' if zero_std is None else f'{zero_std:.0%}'}"
            f"{cheat}  loss {logs.get('loss', float('nan')):.4f}  step {logs.get(STEP_TIME_KEY, 0):.1f}s  "
            f"sandbox {logs.get(sandbox_key('seconds'), 0):.2f}s{per_node}  ({top})")


def progress_callback():
    """A transformers ``TrainerCallback`` that shows a live progress bar and one line per logged
    step (``step_line``), on the main process only."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from transformers import TrainerCallback

    class RichProgress(TrainerCallback):
        def __init__(self):
            self.progress = None
            self.task = None

        def on_train_begin(self, args, state, control, **kwargs):
            if state.is_world_process_zero:
                self.progress = Progress(TextColumn("GRPO"), BarColumn(), MofNCompleteColumn(),
                                         TextColumn("steps"), TimeRemainingColumn(), console=console)
                self.task = self.progress.add_task("train", total=state.max_steps, completed=state.global_step)
                self.progress.start()

        def on_step_end(self, args, state, control, **kwargs):
            if self.progress is not None:
                self.progress.update(self.task, completed=state.global_step)

        def on_log(self, args, state, control, logs=None, **kwargs):
            line = step_line(state.global_step, logs) if logs else None
            if self.progress is not None and line is not None:
                self.progress.console.print(line, markup=False, highlight=False)

        def on_train_end(self, args, state, control, **kwargs):
            if self.progress is not None:
                self.progress.stop()

    return RichProgress()


def print_train_start(plan) -> None:
    """What ``grpo-code train`` says before the model loads (``train.TrainingPlan``): what trains
    on what, what each filter kept and the canaries mixed in (``train.TaskSelection``)."""
    code_args, grpo_args, selection = plan.code_args, plan.grpo_args, plan.selection
    console.print(f"training [bold]{code_args.model}[/] on [bold]{code_args.suite}[/] for "
                  f"{grpo_args.max_steps} steps ({grpo_args.num_generations} completions per prompt) "
                  f"-> {grpo_args.output_dir}")
    for line in (selection.band and selection.band.describe(), selection.strength and selection.strength.describe(),
                 selection.describe_canaries()):
        if line:
            console.print(line, markup=False, highlight=False)


def print_train_result(result) -> None:
    """What ``grpo-code train`` says when done (``train.TrainResult``): the reward and the share
    of zero-variance groups early and late, the outputs, the report."""
    s = result.summary
    out.print(f"done: {s['steps']} steps in {s['seconds']:.0f} s; mean reward first quarter "
              f"{_fmt(s['reward_first_quarter'])}, last quarter {_fmt(s['reward_last_quarter'])}; share of "
              f"zero-variance groups first quarter {_pct(s['zero_std_first_quarter'])}, last quarter "
              f"{_pct(s['zero_std_last_quarter'])}")
    if s.get("canary_completions") is not None:
        passes, total = s["canary_passes"], s["canary_completions"]
        line = f"canaries: {passes} of {total} completions of canary tasks passed every test (cheat rate " \
               f"{_pct(s['cheat_rate'])})"
        if passes:
            console.print(f"[bold red]CHEATING: {line}. No honest program passes a canary: the policy games its "
                          "tests or the judge; read those completions (completions/*.parquet)[/]")
        else:
            out.print(line)
    out.print(f"outputs in {result.output_dir}/: the model, {', '.join(result.outputs())}")
    if result.report is not None:
        out.print(f"report: {result.report}")


@contextmanager
def phases() -> Iterator[Callable[[str, int], Callable[[int], None]]]:
    """Progress bars that come one per phase as a long job goes (audit's and validate's): gives the
    function that starts a bar for ``(phase, total)`` and returns its ``advance(n)``."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    display = Progress(TextColumn("{task.description:<28}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                       console=console, transient=False)

    def start(phase: str, total: int) -> Callable[[int], None]:
        bar_id = display.add_task(phase, total=total)

        def advance(n: int = 1) -> None:
            display.advance(bar_id, n)

        return advance

    with display:
        yield start


def _score(value) -> str:
    return "-" if value is None else f"{value:.2f}"


def audit_rows(audit, most: int) -> list:
    """The tasks an audit's table shows: the weak ones (those a cheat passes first), then the
    lowest mutation scores, ``most`` at most (``strength.TaskAudit``)."""
    def key(t):
        score = t.mutation_score
        return (not t.passing_cheats, not t.weak, 2.0 if score is None else score, t.task_id)

    return sorted(audit.tasks, key=key)[:most]


def print_audit(audit, most: int, files: list[Path]) -> None:
    """``grpo-code tasks audit``: the weakest tasks as a table, one surviving mutant in full with
    the test it fails, the suite's figures, the cost, and the files written
    (``strength.SuiteAudit``)."""
    from grpo_code.analysis.strength import WEAK_SCORE

    table = Table(title=f"test strength: {audit.suite} v{audit.version}, {len(audit.tasks)} tasks (the weakest "
                        f"{min(most, len(audit.tasks))})",
                  caption=f"mutation score = killed / (killed + survivors); a survivor passes every test and differs "
                          f"from the reference on a generated input; equivalent: no generated input told it from the "
                          f"reference; cheats: cheat programs that pass every test; best cheat: the highest pass rate "
                          f"of one; weak: a cheat passes, or a score below {WEAK_SCORE:g}")
    _add_id_column(table, "task")
    for col in ("score", "killed", "survived", "equivalent", "cheats", "best cheat"):
        table.add_column(col, justify="right", no_wrap=True)
    for t in audit_rows(audit, most):
        mark = "[red]" if t.weak else ""
        table.add_row(f"{mark}{escape(t.task_id)}", _score(t.mutation_score), str(t.killed), str(t.survived),
                      str(t.equivalent), f"[red]{len(t.passing_cheats)}[/]" if t.passing_cheats else "0",
                      _pct(t.best_cheat_pass_rate))
    out.print(table)
    shown = next((t for t in audit_rows(audit, len(audit.tasks)) if t.survivor), None)
    if shown is not None:
        mutant, test = shown.survivor["mutant"], shown.survivor.get("test") or {}
        out.print(f"a surviving mutant of [bold]{escape(shown.task_id)}[/] (line {mutant['line']}: "
                  f"`{escape(mutant['before'])}` -> `{escape(mutant['after'])}`, {mutant['operator']}); every test "
                  "passes it:")
        out.print(mutant["program"], markup=False, highlight=False)
        out.print("a test it fails, to add to the task:")
        out.print(json.dumps({k: v for k, v in test.items() if k != "status"}, ensure_ascii=False), markup=False,
                  highlight=False)
    broken = [t for t in audit.tasks if t.reference not in ("passed", "missing")]
    for t in broken:
        out.print(f"[red]{escape(t.task_id)}: its reference solution does not pass its tests ({t.reference}): no "
                  "mutant was counted[/]")
    without = [t.task_id for t in audit.tasks if t.reference == "missing"]
    if without:
        which = "no task has one" if len(without) == len(audit.tasks) else \
            f"{len(without)} task(s) have none: {', '.join(without[:5])}" + \
            (f" and {len(without) - 5} more" if len(without) > 5 else "")
        out.print(f"[yellow]no reference solution, no mutation score (-): a mutant is a changed reference "
                  f"solution, and {escape(which)}. Give each task its reference_solution (docs/task-format.md) "
                  "and audit again[/]")
    print_audit_summary(audit)
    out.print(f"{audit.jobs} sandbox jobs in {audit.seconds:.1f} s ({audit.jobs_per_second or 0:.1f} jobs/s; "
              f"{audit.dedup_hits} were copies of another and did not run)")
    if files:
        out.print("wrote " + ", ".join(escape(str(f)) for f in files))


def print_audit_summary(audit, note: str = "") -> None:
    """The figures of a suite's audit on one line, and the tasks a cheat passes."""
    cheated, weak = audit.cheated, audit.weak
    colour = "red" if cheated else "yellow" if weak else "green"
    out.print(f"[{colour}]test strength{note}: mean mutation score {_score(audit.mean_score)} over "
              f"{sum(t.mutation_score is not None for t in audit.tasks)} of {len(audit.tasks)} tasks; "
              f"{len(cheated)} task(s) a cheat passes; {len(weak)} weak[/]")
    for t in cheated:
        out.print(f"[red]CHEATED[/] {escape(t.task_id)}: passed by {', '.join(t.passing_cheats)}")


def print_audit_section(audit, stored: tuple[Path, object, list[str], list[str]] | None) -> None:
    """``grpo-code tasks validate``'s test-strength section: the audit it ran (``--audit``), else the
    suite's audit file as it stands (``(path, SuiteAudit of the current entries, missing ids,
    stale ids)``), else how to make one."""
    if audit is not None:
        print_audit_summary(audit)
        return
    if stored is None:
        out.print("test strength: no audit (grpo-code tasks audit SUITE --write, or tasks validate --audit)")
        return
    path, current, missing, stale = stored
    print_audit_summary(current, f" (from {_short_path(str(path))})")
    if missing or stale:
        out.print(f"[yellow]the audit lacks {len(missing)} task(s) and is stale for {len(stale)} (changed since): "
                  "grpo-code tasks audit SUITE --write[/]")
