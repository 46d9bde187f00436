"""The fidelity corpus: correct programs, written as people and models write them, with their tests.

A correct program's verdict through the judge must be the one it gets when run alone in the same
image; ``benchmarks/fidelity.py`` measures that agreement over this corpus, and
``tests/test_fidelity.py`` holds the judge to every program of it. The layout
(``tests/fidelity/README.md``): per language, a manifest ``tests/fidelity/<language>.yaml`` maps
each program's name to its idioms (``tags``) and its tests, and the program itself is the file
``tests/fidelity/<language>/<name>.<ext>``, which a person can open and run. A manifest entry
either names a shared ``stdio`` problem (``problem``: ``fidelity_problems``), whose statement
and tests it takes, or gives its own ``prompt`` and ``tests`` (docs/task-format.md), with an
``entry_point`` where it applies, a ``compare`` where the tests need one, ``allow_non_finite``
where NaN is a right answer, and ``differs`` (test index -> why) for a test whose verdict through
the judge differs from the plain run's by design (docs/architecture.md says which and why). Each program is a
task of its own (``grpo_code.suites.tasks.parse_task``): its program is the task's reference solution.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from fidelity_problems import problem
from grpo_code.suites.tasks import Task, parse_task

CORPUS_DIR = Path(__file__).resolve().parent / "fidelity"
EXTENSIONS = {"python": "py", "c": "c", "cpp": "cpp", "javascript": "js", "typescript": "ts", "java": "java",
              "rust": "rs", "go": "go"}
ENTRY_KEYS = {"tags", "problem", "prompt", "tests", "entry_point", "compare", "allow_non_finite", "differs"}


class CorpusError(ValueError):
    """A manifest entry or a program file of the corpus is malformed (the message names it)."""


class _UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key that a mapping gives twice (a program named twice)."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise CorpusError(f"line {key_node.start_mark.line + 1}: {key} is given twice")
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


@dataclass(frozen=True)
class Program:
    """One program of the corpus.

    Attributes:
        id: ``<language>/<name>``, unique in the corpus.
        language: a key of ``sandbox.inside.languages.LANGUAGES``.
        tags: the idioms it exercises.
        form: the kind of its tests: ``stdio``, ``call`` or ``assert``.
        program: its source text.
        task: the task whose reference solution is the program.
        differs: the tests whose verdict through the judge is known to differ from the plain run's,
            by index, with why (docs/architecture.md lists each such difference and its reason).
    """

    id: str
    language: str
    tags: tuple[str, ...]
    form: str
    program: str
    task: Task
    differs: dict[int, str] = field(default_factory=dict)


def _program(language: str, name: str, entry: object, where: str) -> Program:
    if not isinstance(entry, dict):
        raise CorpusError(f"{where}: an entry is a mapping of {', '.join(sorted(ENTRY_KEYS))}")
    unknown = sorted(set(entry) - ENTRY_KEYS)
    if unknown:
        raise CorpusError(f"{where}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(ENTRY_KEYS))}")
    tags = entry.get("tags")
    if not (isinstance(tags, list) and tags and all(isinstance(t, str) and t for t in tags)):
        raise CorpusError(f"{where}: 'tags' must be a non-empty list of idiom names")
    if ("problem" in entry) == ("tests" in entry):
        raise CorpusError(f"{where}: give 'problem' (a shared stdio problem) or 'tests', not both or neither")
    path = CORPUS_DIR / language / f"{name}.{EXTENSIONS[language]}"
    if not path.is_file():
        raise CorpusError(f"{where}: its program {path.relative_to(CORPUS_DIR.parent)} is missing")
    program = path.read_text(encoding="utf-8")
    task: dict = {"task_id": f"fidelity/{language}/{name}", "language": language, "reference_solution": program,
                  "metadata": {"tags": tags}}
    if "problem" in entry:
        try:
            shared = problem(entry["problem"])
        except KeyError:
            raise CorpusError(f"{where}: no shared problem is named {entry['problem']!r}") from None
        task.update(prompt=shared.statement, compare=shared.compare,
                    tests=[{"kind": "stdio", "stdin": i, "expected_stdout": o} for i, o in shared.tests])
        task["metadata"]["problem"] = entry["problem"]
    else:
        if not isinstance(entry.get("prompt"), str):
            raise CorpusError(f"{where}: an entry with its own tests needs a 'prompt' saying what the program does")
        task.update(prompt=entry["prompt"], tests=entry["tests"])
    for key in ("entry_point", "compare", "allow_non_finite"):
        if key in entry:
            task[key] = entry[key]
    differs = entry.get("differs", {})
    if not (isinstance(differs, dict) and all(isinstance(k, int) and isinstance(v, str) and v for k, v in
                                               differs.items())):
        raise CorpusError(f"{where}: 'differs' maps a test's index to why the judge's verdict differs")
    parsed = parse_task(task, path=CORPUS_DIR / f"{language}.yaml")
    kinds = {t.kind for t in parsed.tests}
    if len(kinds) != 1:
        raise CorpusError(f"{where}: the tests of one program are of one kind, got {', '.join(sorted(kinds))}")
    if any(not 0 <= i < len(parsed.tests) for i in differs):
        raise CorpusError(f"{where}: 'differs' names a test it does not have")
    return Program(f"{language}/{name}", language, tuple(tags), kinds.pop(), program, parsed, dict(differs))


def _languages(languages: Iterable[str] | None) -> list[str]:
    chosen = list(EXTENSIONS) if languages is None else list(languages)
    unknown = sorted(set(chosen) - set(EXTENSIONS))
    if unknown:
        raise CorpusError(f"no such language in the corpus: {', '.join(unknown)}; known: {', '.join(EXTENSIONS)}")
    return chosen


def _manifest(language: str) -> dict:
    """The manifest of ``language``: program name -> entry, each name with its program file."""
    manifest = CORPUS_DIR / f"{language}.yaml"
    if not manifest.is_file():
        raise CorpusError(f"the corpus has no manifest {manifest.relative_to(CORPUS_DIR.parent)} for {language}")
    try:
        entries = yaml.load(manifest.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader) or {}
    except CorpusError as e:
        raise CorpusError(f"{manifest.name}: {e}") from None
    if not isinstance(entries, dict):
        raise CorpusError(f"{manifest.name}: the manifest is a mapping of program names to entries")
    files = {p.stem for p in (CORPUS_DIR / language).glob(f"*.{EXTENSIONS[language]}")}
    orphans = sorted(files - set(entries))
    if orphans:
        raise CorpusError(f"{manifest.name}: no entry for the program(s) {', '.join(orphans)}")
    return entries


def program_ids(languages: Iterable[str] | None = None) -> list[str]:
    """The ids of the corpus's programs, in ``load_corpus``'s order, read from the manifests alone
    (no test is made: cheap enough for a test collection)."""
    return [f"{language}/{name}" for language in _languages(languages) for name in _manifest(language)]


def load_corpus(languages: Iterable[str] | None = None, ids: Iterable[str] | None = None) -> list[Program]:
    """The corpus's programs, by language (in ``EXTENSIONS`` order) and name.

    Args:
        languages: only these languages (default: all).
        ids: only the programs with these ids (``<language>/<name>``; default: all).

    Raises:
        CorpusError: a manifest entry, a program file or a requested id is missing or malformed.
        grpo_code.errors.TaskFormatError: a program's tests do not follow docs/task-format.md.
    """
    chosen = _languages(languages)
    wanted = None if ids is None else set(ids)
    if wanted is not None:
        missing = sorted(wanted - set(program_ids(chosen)))
        if missing:
            raise CorpusError(f"no such program(s) in the corpus: {', '.join(missing)}")
    return [_program(language, name, entry, f"{language}.yaml: {name}")
            for language in chosen for name, entry in _manifest(language).items()
            if wanted is None or f"{language}/{name}" in wanted]
