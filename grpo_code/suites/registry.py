"""Where task suites come from, by name.

``load_suite(spec)`` accepts:

- a bundled suite name: a folder under the project's ``tasks/`` (``humaneval``, ``warmup-python``),
  which an installed wheel carries as ``grpo_code/suites/bundled/``;
  options after ``?`` go to its loader (``humaneval?form=whole``), except three that work on every
  suite: ``split=NAME`` (tasks whose ``metadata.split`` is NAME), ``language=NAME`` (its tasks in
  that language, ``TaskSuite.for_language``) and ``limit=N`` (the first N);
- a path: a suite folder (suite.yaml + problems.jsonl) or a plain JSONL file of tasks; a folder
  without suite.yaml that is a Harbor task folder, or holds some, is read as ``harbor:PATH``;
- ``harbor:PATH``: Harbor task folders that grpo-code wrote (``grpo_code.suites.harbor``; a Harbor task
  whose tests grpo-code cannot judge is refused, named);
- ``hf:<hub-name-or-local-path>?adapter=mbpp&split=test[&config=NAME][&language=NAME][&packages=PINS]``: a
  Hugging Face data set read through ``datasets`` and a named adapter
  (``grpo_code.suites.adapters.RECORD_ADAPTERS``); ``split`` means the same here (the tasks of that
  split): it is the data set split that is read (default ``test``), and each task's
  ``metadata.split`` records it; ``packages`` (``numpy==2.2.6,pandas==2.3.3``) names the
  third-party packages its code imports, as suite.yaml's ``packages`` does;
- the name of an entry point in the group ``grpo_code.suites`` (other packages' suites): it
  loads to a ``TaskSuite``, a callable returning one, or a path to a suite folder.

Unknown names fail loudly with "did you mean ...".
"""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path
from urllib.parse import parse_qsl

import yaml

from grpo_code.errors import (
    TASK_FORMAT_DOC,
    ConfigError,
    GrpoCodeError,
    TaskFormatError,
    UnknownSuiteError,
    require_modules,
    yaml_problem,
)
from grpo_code.jsonl import read_jsonl
from grpo_code.suites.adapters import PACKAGE_LOADERS, RECORD_ADAPTERS
from grpo_code.suites.tasks import (
    DEFAULT_TEMPLATE,
    TEMPLATE_FIELDS,
    Task,
    TaskSuite,
    check_defaults,
    check_imports,
    parse_task,
)
from sandbox import TestCase
from sandbox.image import check_pin, check_pins

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent  # grpo_code/suites
# Where the bundled suites are: inside the installed package (the wheel maps the repository's
# tasks/ there, see pyproject.toml), else the top-level tasks/ of a source checkout.
BUNDLED_DIRS = (HERE / "bundled", HERE.parent.parent / "tasks")
ENTRY_POINT_GROUP = "grpo_code.suites"
SUITE_KEYS = {"name", "description", "version", "license", "defaults", "prompt_template", "source",
              "loader", "options", "extra_tests", "packages"}


@dataclass(frozen=True)
class SuiteRef:
    """A suite that can be loaded: its name and where it comes from (for ``tasks list``)."""

    name: str
    origin: str
    spec: str


def _split_spec(spec: str) -> tuple[str, dict[str, str]]:
    base, _, query = spec.partition("?")
    return base, dict(parse_qsl(query, keep_blank_values=True))


def _key_line(path: Path, key: str) -> int | None:
    for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text.startswith(f"{key}:"):
            return i
    return None


def _packages(pins, meta_path: Path) -> tuple[str, ...]:
    """suite.yaml's ``packages``: a list of exact pins (``sandbox.image.check_pins``), sorted.

    Raises:
        TaskFormatError: not a list, a pin that is not exact (its own line), a package named twice.
    """
    if not isinstance(pins, list):
        raise TaskFormatError("expected a list of pinned packages, e.g. [numpy==2.2.6, pandas==2.3.3]", path=meta_path,
                              line=_key_line(meta_path, "packages"), field="packages")
    for i, pin in enumerate(pins):
        try:
            check_pin(pin)
        except ValueError as e:  # the line is looked up only when there is an error to point at
            raise TaskFormatError(str(e), path=meta_path, line=_item_line(meta_path, "packages", i),
                                  field=f"packages[{i}]") from None
    try:
        return check_pins(pins)
    except ValueError as e:
        raise TaskFormatError(str(e), path=meta_path, line=_key_line(meta_path, "packages"), field="packages") from None


def _item_line(path: Path, key: str, index: int) -> int | None:
    """The line of item ``index`` of the list under ``key`` in a YAML file (else the key's line)."""
    node = yaml.compose(path.read_text(encoding="utf-8"))
    items: list = next((v.value for k, v in getattr(node, "value", []) if k.value == key), [])
    return items[index].start_mark.line + 1 if index < len(items) else _key_line(path, key)


def load_suite_dir(path: str | Path, options: dict | None = None) -> TaskSuite:
    """A suite folder: ``suite.yaml`` plus ``problems.jsonl`` (or a ``loader:``).

    Raises:
        TaskFormatError: naming the file, line and field.
    """
    folder = Path(path)
    meta_path = folder / "suite.yaml"
    if not meta_path.is_file():
        raise TaskFormatError(f"a suite folder needs a suite.yaml (see {TASK_FORMAT_DOC})", path=meta_path)
    try:
        meta = yaml.safe_load(meta_path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        line, problem = yaml_problem(e)
        raise TaskFormatError(problem, path=meta_path, line=line) from None
    if not isinstance(meta, dict):
        raise TaskFormatError("expected a mapping of suite fields", path=meta_path, line=1)
    for key in sorted(set(meta) - SUITE_KEYS):
        close = difflib.get_close_matches(key, sorted(SUITE_KEYS), n=1)
        raise TaskFormatError("unknown suite field" + (f"; did you mean {close[0]!r}?" if close else ""),
                              path=meta_path, line=_key_line(meta_path, key), field=key)
    name = meta.get("name", folder.name)
    if not isinstance(name, str) or not name:
        raise TaskFormatError("expected a non-empty string", path=meta_path, line=_key_line(meta_path, "name"),
                              field="name")
    defaults = meta.get("defaults") or {}
    if not isinstance(defaults, dict):
        raise TaskFormatError("expected a mapping of task fields", path=meta_path,
                              line=_key_line(meta_path, "defaults"), field="defaults")
    try:
        check_defaults(defaults, meta_path)
    except TaskFormatError as e:  # the line is looked up only when there is an error to point at
        raise TaskFormatError(e.reason, path=meta_path, line=_key_line(meta_path, "defaults"), field=e.field) from None
    packages = _packages(meta["packages"], meta_path) if meta.get("packages") is not None else ()
    template = meta.get("prompt_template", DEFAULT_TEMPLATE)
    placeholders = set(re.findall(r"\{(\w+)\}", template)) if isinstance(template, str) else set()
    unknown = placeholders - set(TEMPLATE_FIELDS)
    if not isinstance(template, str) or "prompt" not in placeholders or unknown:
        raise TaskFormatError("expected a string containing {prompt} (and optionally {language}, {public_tests}); "
                              f"unknown placeholder(s): {', '.join(sorted(unknown)) or 'none'}",
                              path=meta_path, line=_key_line(meta_path, "prompt_template"), field="prompt_template")
    loader = meta.get("loader")
    if loader is not None:
        if loader not in PACKAGE_LOADERS:
            raise TaskFormatError(f"unknown loader {loader!r}; known: {', '.join(sorted(PACKAGE_LOADERS))}",
                                  path=meta_path, line=_key_line(meta_path, "loader"), field="loader")
        try:
            tasks = PACKAGE_LOADERS[loader]({**(meta.get("options") or {}), **(options or {})})
        except ValueError as e:  # the spec's ?options are the user's; suite.yaml's are the suite's
            if options:
                raise ConfigError(f"suite {name!r}: {e}") from None
            raise TaskFormatError(str(e), path=meta_path, field="options") from None
        source = f"{loader} loader"
    else:
        if options:
            raise ConfigError(f"suite {name!r} takes no options but split and limit, got {sorted(options)}")
        problems = folder / meta.get("source", "problems.jsonl")
        if not problems.is_file():
            raise TaskFormatError(f"the suite's tasks file {problems.name} does not exist", path=meta_path,
                                  line=_key_line(meta_path, "source"), field="source")
        tasks = _parse_tasks(problems, defaults, packages)
        source = str(problems)
    if meta.get("extra_tests") is not None:
        tasks = _with_extra_tests(tasks, folder, meta["extra_tests"], meta_path, packages)
    return TaskSuite(name=name, tasks=tuple(tasks), version=meta.get("version", 1),
                     description=str(meta.get("description", "")).strip(), license=str(meta.get("license", "")),
                     prompt_template=template, source=source, packages=packages)


def _with_extra_tests(tasks: list[Task], folder: Path, name, meta_path: Path,
                      packages: tuple[str, ...] = ()) -> list[Task]:
    """``tasks`` with the tests of the suite's ``extra_tests`` file added (each line: a task id and
    tests, docs/task-format.md), after their own: tests a suite adds to the tasks a loader reads
    (as EvalPlus adds to HumanEval's), where the data set's own are too weak.

    Raises:
        TaskFormatError: the file is missing, or a line is malformed, names no task of the suite or
            holds a test the sandbox cannot run (file, line and field).
    """
    if not isinstance(name, str) or not (folder / name).is_file():
        raise TaskFormatError(f"expected the name of a tests file in {folder}, got {name!r}", path=meta_path,
                              line=_key_line(meta_path, "extra_tests"), field="extra_tests")
    path = folder / name

    def bad_line(lineno: int, message: str):
        raise TaskFormatError(message, path=path, line=lineno)

    by_id = {t.task_id: t for t in tasks}
    for lineno, obj in read_jsonl(path, on_error=bad_line):
        if not isinstance(obj, dict) or set(obj) != {"task_id", "tests"} or not isinstance(obj["tests"], list):
            raise TaskFormatError('expected {"task_id": ..., "tests": [...]}', path=path, line=lineno)
        task = by_id.get(obj["task_id"])
        if task is None:
            raise TaskFormatError(f"no task {obj['task_id']!r} in the suite", path=path, line=lineno, field="task_id")
        added = []
        for i, raw in enumerate(obj["tests"]):
            try:
                added.append(TestCase.from_dict(raw))
            except (ValueError, TypeError) as e:
                raise TaskFormatError(str(e), path=path, line=lineno, field=f"tests[{i}]") from None
        extended = replace(task, tests=(*task.tests, *added))
        try:
            extended.job("")  # the sandbox's rules: a test it cannot run is refused here, named
        except ValueError as e:
            raise TaskFormatError(str(e), path=path, line=lineno, field=getattr(e, "field", None)) from None
        check_imports(replace(task, tests=tuple(added)), packages, path, lineno)  # tests[i]: the line's own
        by_id[task.task_id] = extended
    return [by_id[t.task_id] for t in tasks]


def _parse_tasks(path: Path, defaults: dict | None, packages: tuple[str, ...] = ()) -> list:
    """Every task of a JSONL file (its code may import the standard library and ``packages``); a
    repeated task_id names both lines."""
    def bad_line(lineno: int, message: str):
        raise TaskFormatError(message, path=path, line=lineno)

    tasks: list[Task] = []
    first_line: dict[str, int] = {}
    for lineno, obj in read_jsonl(path, on_error=bad_line):
        task = parse_task(obj, defaults, path, lineno, packages)
        if task.task_id in first_line:
            raise TaskFormatError(f"task_id {task.task_id!r} appears twice (first on line {first_line[task.task_id]})",
                                  path=path, line=lineno, field="task_id")
        first_line[task.task_id] = lineno
        tasks.append(task)
    return tasks


def load_jsonl_suite(path: str | Path, name: str | None = None) -> TaskSuite:
    """A plain JSONL file of tasks (no suite.yaml): the suite is named after the file."""
    path = Path(path)
    tasks = _parse_tasks(path, None)
    if not tasks:
        raise TaskFormatError("the file holds no tasks", path=path)
    return TaskSuite(name=name or path.stem, tasks=tuple(tasks), source=str(path))


def load_hf_suite(target: str, options: dict[str, str]) -> TaskSuite:
    """``hf:<name-or-path>?adapter=...&split=...&config=...&packages=...`` through ``datasets`` and
    an adapter.

    ``split`` (default ``test``) is read from the data set, and each task's ``metadata.split``
    says which it came from, so ``?split=`` means what it means for every suite. ``packages``
    names the suite's third-party packages, pinned and comma-separated (``TaskSuite.packages``):
    its programs and tests run in their image, and a record whose code imports a module that
    neither they nor the standard library provide is refused, named.

    Raises:
        ConfigError: no or an unknown adapter, an unknown option, a bad limit, a pin that is not
            exact.
        UnknownSuiteError: the data set (or that split of it) cannot be read.
        TaskFormatError: a record does not fit the adapter's schema, or imports what the packages
            do not provide (names the record).
        MissingExtraError: ``datasets`` is not installed.
    """
    options = dict(options)
    adapter_name = options.pop("adapter", None)
    if adapter_name not in RECORD_ADAPTERS:
        raise ConfigError(f"hf: suites need ?adapter=NAME, one of {', '.join(sorted(RECORD_ADAPTERS))}; "
                          f"got {adapter_name!r}")
    split = options.pop("split", "test")
    config = options.pop("config", None)
    limit = _limit(options.pop("limit", None))
    language = options.pop("language", None)
    packages = _hf_packages(options.pop("packages", None))
    if options:
        raise ConfigError(f"unknown hf: option(s) {sorted(options)}; known: adapter, split, config, limit, language, "
                          "packages")
    require_modules("an hf: suite", "datasets")
    try:
        with _without_progress_bars():  # datasets' "Generating test split" bar: the library never prints
            records = _read_hf(target, split, config)
    except GrpoCodeError:
        raise
    except (OSError, ValueError, KeyError) as e:  # datasets' not-found, offline and bad-split errors
        raise UnknownSuiteError(
            f"cannot read hf:{target} (split {split!r}): {type(e).__name__}: {e}. Without network access, "
            "point hf: at a local .jsonl/.parquet file or a folder saved with Dataset.save_to_disk") from e
    if limit is not None:
        records = records.select(range(min(limit, len(records))))
    adapter = RECORD_ADAPTERS[adapter_name]
    if hasattr(adapter, "prepare"):  # what the adapter computes once for every record (evalplus's answers)
        records = list(records)
        adapter.prepare(records)
    tasks = []
    where = f"hf:{target}[{split}]"
    for i, record in enumerate(records):
        try:
            task = adapter.task_from_record(record, i)
        except (KeyError, ValueError, TypeError) as e:
            raise TaskFormatError(f"record does not fit the {adapter_name} schema: {type(e).__name__}: {e}",
                                  path=where, line=i + 1) from None
        if task is not None:  # None: a record the adapter leaves out (an interactive problem)
            check_imports(task, packages, where, i + 1, where="the hf: spec (&packages={pin})")
            tasks.append(replace(task, metadata={**task.metadata, "split": split}))
    if len(tasks) < len(records):
        log.info("hf:%s: %d of %d records left out by the %s adapter", target, len(records) - len(tasks),
                 len(records), adapter_name)
    name = f"{Path(target).name or target}-{split}"
    suite = TaskSuite(name=name, tasks=tuple(tasks), source=f"hf:{target} ({adapter_name}, {split})",
                      prompt_template=adapter.PROMPT_TEMPLATE, packages=packages,
                      description=(adapter.__doc__ or "").strip().partition("\n")[0])
    return suite if language is None else in_language(suite, language)


def _hf_packages(value: str | None) -> tuple[str, ...]:
    """The ``?packages=`` option of an hf: spec: pins, comma-separated (``sandbox.image.check_pins``).

    Raises:
        ConfigError: a pin that is not exact, or a package named twice.
    """
    if value is None:
        return ()
    try:
        return check_pins(pin for pin in value.split(",") if pin.strip())
    except ValueError as e:
        raise ConfigError(f"?packages=: {e}") from None


def in_language(suite: TaskSuite, language: str) -> TaskSuite:
    """``suite.for_language(language)`` (``--language``, ``?language=``).

    Raises:
        ConfigError: the suite has no task in that language (the message lists its languages).
    """
    try:
        return suite.for_language(language)
    except ValueError as e:
        raise ConfigError(str(e)) from None


@contextmanager
def _without_progress_bars() -> Iterator[None]:
    """``datasets``' progress bars off while the block runs, as they were after it."""
    from datasets.utils import are_progress_bars_disabled, disable_progress_bars, enable_progress_bars

    shown = not are_progress_bars_disabled()
    disable_progress_bars()
    try:
        yield
    finally:
        if shown:
            enable_progress_bars()


def _read_hf(target: str, split: str, config: str | None):
    import datasets

    path = Path(target)
    if path.is_dir() and (path / "dataset_dict.json").exists():
        return datasets.load_from_disk(str(path))[split]
    if path.is_dir() and (path / "dataset_info.json").exists():
        return datasets.load_from_disk(str(path))
    if path.is_file():
        kind = {".jsonl": "json", ".json": "json", ".parquet": "parquet", ".csv": "csv"}.get(path.suffix)
        if kind is None:
            raise ConfigError(f"hf:{path}: cannot read a {path.suffix or 'suffix-less'} file; use .jsonl, .json, "
                              ".parquet or .csv")
        return datasets.load_dataset(kind, data_files={split: str(path)}, split=split)
    return datasets.load_dataset(target, name=config, split=split)


def bundled_suites() -> dict[str, Path]:
    """Bundled suites: the folders that hold a suite.yaml in the first of ``BUNDLED_DIRS`` that exists."""
    folder = next((d for d in BUNDLED_DIRS if d.is_dir()), None)
    if folder is None:
        return {}
    return {p.name: p for p in sorted(folder.iterdir()) if (p / "suite.yaml").is_file()}


def entry_point_suites() -> dict[str, metadata.EntryPoint]:
    """Suite name -> its entry point, for the installed packages' ``grpo_code.suites`` group."""
    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def available_suites() -> list[SuiteRef]:
    """Every named suite: bundled ones, then other packages' entry points."""
    refs = [SuiteRef(name, "bundled", name) for name in bundled_suites()]
    bundled = {r.name for r in refs}
    for name, ep in entry_point_suites().items():
        if name in bundled:
            raise TaskFormatError(f"registers suite {name!r}, which is bundled already: give it another name",
                                  path=f"entry point {ep.value}")
        refs.append(SuiteRef(name, f"entry point {ep.value}", name))
    return refs


def load_available() -> list[tuple[SuiteRef, TaskSuite | GrpoCodeError]]:
    """Every named suite (``available_suites``) loaded, or the error that kept it from loading:
    one broken suite does not hide the others (``grpo-code tasks list``)."""
    loaded: list[tuple[SuiteRef, TaskSuite | GrpoCodeError]] = []
    for ref in available_suites():
        try:
            loaded.append((ref, load_suite(ref.spec)))
        except GrpoCodeError as e:
            loaded.append((ref, e))
    return loaded


def _load_entry_point(ep: metadata.EntryPoint, options: dict) -> TaskSuite:
    obj = ep.load()
    if callable(obj) and not isinstance(obj, TaskSuite):
        obj = obj(**options) if options else obj()
    elif options:
        raise ConfigError(f"suite {ep.name!r} takes no options but split and limit, got {sorted(options)}")
    if isinstance(obj, (str, Path)):
        return load_suite_dir(obj)
    if not isinstance(obj, TaskSuite):
        raise TaskFormatError(f"gave {type(obj).__name__}, not a TaskSuite or a path to a suite folder",
                              path=f"entry point {ep.value}")
    return obj


def load_suite(spec: str) -> TaskSuite:
    """Load a suite by name, path, ``hf:`` spec or entry point (see the module docstring).

    Raises:
        UnknownSuiteError: no such suite (with close matches).
        ConfigError: a bad ``?option`` (its name or value).
        TaskFormatError: the suite's files are malformed (file, line, field).

    Example:
        >>> from grpo_code import load_suite
        >>> suite = load_suite("warmup-python?split=train&limit=3")
        >>> [task.task_id for task in suite]
        ['warmup-python/add', 'warmup-python/square', 'warmup-python/is_even']
        >>> task = suite.get("warmup-python/add")
        >>> task.entry_point, len(task.tests), len(task.public_tests), task.limits.time_limit_s
        ('add', 4, 1, 2.0)
    """
    if spec.startswith("hf:"):
        target, options = _split_spec(spec[3:])
        return load_hf_suite(target, options)
    harbor = spec.startswith("harbor:")
    base, options = _split_spec(spec[7:] if harbor else spec)
    split, limit, language = options.pop("split", None), options.pop("limit", None), options.pop("language", None)
    suite = _load_harbor(base, options) if harbor else _load_named(base, options)
    return _filter(suite if language is None else in_language(suite, language), split, limit)


def _filter(suite: TaskSuite, split: str | None, limit: str | None) -> TaskSuite:
    """``?split=NAME``: the tasks whose ``metadata.split`` is NAME; ``?limit=N``: the first N.

    Raises:
        ConfigError: no task of that split, or a limit that is not a positive whole number.
    """
    ids = [t.task_id for t in suite]
    if split is not None:
        ids = [t.task_id for t in suite if t.metadata.get("split") == split]
        if not ids:
            splits = sorted({str(t.metadata.get("split")) for t in suite if "split" in t.metadata})
            raise ConfigError(f"suite {suite.name!r} has no tasks with metadata.split == {split!r}; "
                              f"its splits: {', '.join(splits) or 'none'}")
    count = _limit(limit)
    if count is not None:
        ids = ids[:count]
    return suite if len(ids) == len(suite) else suite.select(ids)


def _limit(value: str | None) -> int | None:
    """The ``?limit=`` option: a positive whole number (None: no limit); raises ConfigError."""
    if value is None:
        return None
    if not value.isdigit() or int(value) < 1:
        raise ConfigError(f"?limit= takes a positive whole number, got {value!r}")
    return int(value)


def _load_harbor(base: str, options: dict) -> TaskSuite:
    """``harbor:PATH``: Harbor task folders (``grpo_code.suites.harbor``)."""
    from grpo_code.suites.harbor import load_harbor_suite

    if not Path(base).exists():
        raise UnknownSuiteError(f"no such file or folder: {base!r} (harbor:PATH takes a Harbor task folder or a "
                                "folder of them)")
    return load_harbor_suite(base, options)


def _load_named(base: str, options: dict) -> TaskSuite:
    path = Path(base)
    if path.is_dir():
        if not (path / "suite.yaml").is_file():
            from grpo_code.suites.harbor import is_harbor_tree

            if is_harbor_tree(path):
                return _load_harbor(base, options)
        return load_suite_dir(path, options)
    if path.is_file():
        if options:
            raise ConfigError(f"a JSONL suite takes no options but split and limit, got {sorted(options)}")
        return load_jsonl_suite(path)
    bundled = bundled_suites()
    if base in bundled:
        return load_suite_dir(bundled[base], options)
    entry_points = entry_point_suites()
    if base in entry_points:
        return _load_entry_point(entry_points[base], options)
    known = sorted(set(bundled) | set(entry_points))
    close = difflib.get_close_matches(base, known, n=3, cutoff=0.5)
    hint = f"did you mean {', '.join(repr(c) for c in close)}? " if close else ""
    raise UnknownSuiteError(
        f"no suite named {base!r} and no such file or folder. {hint}Known suites: {', '.join(known) or 'none'}; "
        "a path to a suite folder or tasks .jsonl file, or hf:<dataset>?adapter=NAME also work.")
