"""The documents the code points to exist and cover what the code accepts (no Docker)."""

from __future__ import annotations

import ast
import functools
import re
import shutil
from pathlib import Path

import pytest

from grpo_code.errors import TASK_FORMAT_DOC
from grpo_code.suites.registry import SUITE_KEYS
from grpo_code.suites.tasks import TASK_FIELDS
from sandbox.types import STATUSES

ROOT = Path(__file__).resolve().parent.parent
TASK_FORMAT = (ROOT / TASK_FORMAT_DOC).read_text(encoding="utf-8")


def test_messages_and_docstrings_point_to_documents_in_the_repository():
    old = "TASK_FORMAT" + ".md"  # the name of the guide outside the repository
    assert (ROOT / "docs" / "architecture.md").is_file() and (ROOT / "CONTRIBUTING.md").is_file()
    stale = [str(path.relative_to(ROOT)) for folder in ("grpo_code", "sandbox", "tests", "benchmarks")
             for path in (ROOT / folder).rglob("*.py") if old in path.read_text(encoding="utf-8")]
    stale += [name for name in ("README.md", "CONTRIBUTING.md", "Makefile", "Dockerfile")
              if old in (ROOT / name).read_text(encoding="utf-8")]
    assert stale == []


def test_every_task_field_suite_key_and_status_is_documented():
    fields = set(re.findall(r"^\| `(\w+)` \|", TASK_FORMAT, re.M))
    assert TASK_FIELDS - fields - {"canonical_solution"} == set()  # the alias is described with reference_solution
    assert "canonical_solution" in TASK_FORMAT
    assert all(re.search(rf"^#? ?{key}:", TASK_FORMAT, re.M) for key in SUITE_KEYS)
    assert all(f"`{status}`" in TASK_FORMAT for status in STATUSES)


# -- the map matches the ground ---------------------------------------------------------------

ARCHITECTURE = ROOT / "docs" / "architecture.md"
PACKAGES = ("sandbox", "grpo_code")


def layout_paths(text: str) -> set[str]:
    """The paths the "Layout" block of docs/architecture.md names: each entry (a name at the start
    of a line, indented two spaces per folder level) and, in a folder's description, each file name
    of that folder (``child.py``, ``driver.js``)."""
    block = re.search(r"^## Layout\n+```\n(.*?)^```", text, re.M | re.S)
    assert block, "docs/architecture.md has no Layout block"
    named: set[str] = set()
    folders: list[str] = []
    current = ""
    for line in block.group(1).splitlines():
        indent = len(line) - len(line.lstrip(" "))
        entry = re.match(r" *([\w.-]+/?)(?: {2,}|$)", line)
        if entry and indent <= 8:  # descriptions go on at column 13 or more
            depth = indent // 2
            folders = folders[:depth]
            current = "/".join([*folders, entry.group(1)])
            named.add(current.rstrip("/"))
            if current.endswith("/"):
                folders.append(entry.group(1).rstrip("/"))
            line = line[indent + len(entry.group(1)):]
        if current.endswith("/"):  # a folder's description names files of that folder
            named.update(current + name for name in re.findall(r"(?<![\w/.])(\w+\.(?:py|js))\b", line))
    return named


def package_files(root: Path) -> set[str]:
    """The modules (and other source files) of the packages, and their folders, relative to ``root``."""
    found = set()
    for package in PACKAGES:
        for path in (root / package).rglob("*"):
            if "__pycache__" in path.parts or path.name == "__init__.py":
                continue
            if path.is_dir() or path.suffix in (".py", ".js"):
                found.add(str(path.relative_to(root)))
    return found


def test_the_layout_names_every_module_and_every_module_it_names_exists():
    named = layout_paths(ARCHITECTURE.read_text(encoding="utf-8"))
    in_packages = {path for path in named if path.split("/")[0] in PACKAGES and "/" in path}
    missing = sorted(package_files(ROOT) - named)
    assert not missing, f"add a line for each to the Layout of docs/architecture.md: {missing}"
    gone = sorted(path for path in in_packages if not (ROOT / path).exists())
    assert not gone, f"the Layout of docs/architecture.md names what does not exist: {gone}"


def test_the_layout_check_sees_a_module_added_without_a_line(tmp_path):
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    named = layout_paths(ARCHITECTURE.read_text(encoding="utf-8"))
    assert package_files(tmp_path) <= named
    (tmp_path / "sandbox" / "inside" / "program" / "newcomer.py").write_text("")
    assert package_files(tmp_path) - named == {"sandbox/inside/program/newcomer.py"}


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of a source file (parsed once per test run)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def modules(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the packages (a package by its ``__init__``)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ours that module ``name`` imports: at its top, inside functions, for types
    only too (every arrow counts). A module's own package (its ``__init__``) is no arrow."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join([*package[:len(package) - node.level + 1], node.module or ""]).strip(".") \
                if node.level else node.module or ""
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                found.add(target)
    return found


def test_the_imports_point_one_way():
    """No two modules import each other, directly or round a longer circle."""
    known = modules(ROOT)
    graph = {name: imports(name, path, known) for name, path in known.items()}
    circles = []
    for start in graph:  # a depth-first search from each module back to itself
        stack, seen = [(start, [start])], set()
        while stack:
            node, trail = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    circles.append(" -> ".join([*trail, start]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*trail, nxt]))
    assert not circles, "\n".join(circles)
    assert not any(target.startswith("grpo_code") for name in graph if name.startswith("sandbox")
                   for target in graph[name])


def test_no_private_name_is_imported_from_another_module():
    private = []
    for folder in (*PACKAGES, "tests", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(parsed(path)):
                if isinstance(node, ast.ImportFrom):
                    private += [f"{path.relative_to(ROOT)}:{node.lineno}: {alias.name}" for alias in node.names
                                if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert not private, "private names imported from another module:\n" + "\n".join(private)


def test_the_host_side_arrows_of_the_sandbox_are_the_code_s_own():
    paragraph = re.search(r"^Within `sandbox` \(host side.*?\n\n", ARCHITECTURE.read_text(encoding="utf-8"),
                          re.M | re.S)
    assert paragraph, "docs/architecture.md lost its paragraph on the arrows within sandbox (host side)"
    documented = documented_arrows(paragraph.group(0))
    known = modules(ROOT)
    actual = {name.removeprefix("sandbox."): {t.removeprefix("sandbox.") for t in imports(name, path, known)}
              for name, path in known.items() if name.startswith("sandbox.") and not name.startswith("sandbox.inside")}
    assert documented == {name: targets for name, targets in actual.items() if targets}


WINGS = ("suites", "analysis", "score", "generate", "rl", "curate", "service")
TOP = {"cli", "display", "errors", "jsonl", "options"}  # the command line, and the ground every wing shares


def wing_of(name: str) -> str | None:
    """The wing (sub-package) of a ``grpo_code`` module, its own name for a module at the top,
    None outside ``grpo_code``."""
    parts = name.split(".")
    if parts[0] != "grpo_code" or len(parts) == 1:
        return None
    return parts[1]


def wing_arrows(root: Path) -> dict[str, set[str]]:
    """Wing (or module at the top) -> the wings it imports (every import counts)."""
    known = modules(root)
    arrows: dict[str, set[str]] = {}
    for name, path in known.items():
        source = wing_of(name)
        if source is None:
            continue
        for target in imports(name, path, known):
            wing = wing_of(target)
            if wing is not None and wing != source:
                arrows.setdefault(source, set()).add(wing)
    return arrows


def test_grpo_code_is_seven_wings_and_a_few_modules_at_the_top():
    found = {wing_of(name) for name in modules(ROOT)} - {None}
    assert found == set(WINGS) | TOP
    assert all((ROOT / "grpo_code" / wing / "__init__.py").is_file() for wing in WINGS)


def test_the_arrows_between_the_wings_are_the_code_s_own_and_run_down():
    paragraph = re.search(r"^Between the wings of `grpo_code`.*?\n\n", ARCHITECTURE.read_text(encoding="utf-8"),
                          re.M | re.S)
    assert paragraph, "docs/architecture.md lost its paragraph on the arrows between the wings"
    documented: dict[str, set[str]] = {}
    for source, targets in re.findall(r"`(\w+) ->\s*([\w,\s]+)`", paragraph.group(0)):
        documented.setdefault(source, set()).update(re.split(r",\s*", targets.strip()))
    actual = wing_arrows(ROOT)
    ground = TOP - {"cli", "display"}
    between = {wing: targets - ground for wing, targets in actual.items() if wing in WINGS and targets - ground}
    assert documented == between
    assert not any(targets & {"cli", "display"} for wing, targets in actual.items() if wing in WINGS)
    floors = re.search(r"floors,\s+from\s+the\s+ground\s+up:\s+(.*?);\s+no\s+wing", paragraph.group(0), re.S)
    assert floors, "docs/architecture.md lost the wings' floors"
    order = re.findall(r"`(\w+)`", floors.group(1))
    assert sorted(order) == sorted(WINGS)
    assert all(order.index(target) < order.index(wing) for wing, targets in between.items() for target in targets)


def documented_arrows(paragraph: str) -> dict[str, set[str]]:
    """The arrows a paragraph of docs/architecture.md states: each ```a, b -> c, d``` in it."""
    documented: dict[str, set[str]] = {}
    for sources, targets in re.findall(r"`([\w.,\s]+?) ->\s*([\w.,\s]+)`", paragraph):
        for source in re.split(r",\s*", sources.strip()):
            documented.setdefault(source, set()).update(re.split(r",\s*", targets.strip()))
    return documented


def test_the_arrows_within_sandbox_inside_are_the_code_s_own():
    paragraph = re.search(r"^Within `sandbox/inside` .*?\n\n", ARCHITECTURE.read_text(encoding="utf-8"), re.M | re.S)
    assert paragraph, "docs/architecture.md lost its paragraph on the arrows within sandbox/inside"
    known = modules(ROOT)
    inside = {name: path for name, path in known.items() if name.startswith("sandbox.inside.")}
    actual = {}
    for name, path in inside.items():
        targets = imports(name, path, known)
        if path.name == "__main__.py":  # it imports the package as the image names it: ``inside``
            targets = {f"sandbox.{node.module}" for node in ast.walk(parsed(path))
                       if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("inside.")}
        targets = {t.removeprefix("sandbox.inside.") for t in targets} - {"messages"}  # for annotations: below
        if targets:
            actual[name.removeprefix("sandbox.inside.")] = targets
    assert documented_arrows(paragraph.group(0)) == actual


def test_messages_are_imported_for_annotations_only():
    """No process loads ``messages``: every import of it is under ``if TYPE_CHECKING``."""
    at_run_time = []
    for path in sorted((ROOT / "sandbox").rglob("*.py")):
        checked: set[int] = set()
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                checked |= {id(child) for statement in node.body for child in ast.walk(statement)}
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.ImportFrom) and id(node) not in checked and (
                    (node.module or "").endswith("messages") or any(a.name == "messages" for a in node.names)):
                at_run_time.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not at_run_time, "messages imported at run time:\n" + "\n".join(at_run_time)


DOTTED = re.compile(r"``?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(\))?``?")
FILE_SUFFIXES = {"json", "jsonl", "png", "md", "html", "py", "js", "sh", "toml", "yaml", "csv", "parquet", "txt",
                 "jsa", "blob"}
# Dotted words that are neither ours nor a module: a task's metadata key, train's parsed options
# (``code_args.suite``), the cgroup's files (``memory.peak``), verl's configuration keys
# (``reward.sandbox_fusion.url``), a model's tokenizer (``tokenizer.chat_template``), JavaScript's
# objects (``JSON.stringify``, ``console.log``, ``process.stdout``).
NOT_CODE = {"metadata", "code_args", "memory", "reward", "tokenizer", "JSON", "console", "process"}


def docstrings(folders: tuple[str, ...]) -> list[tuple[str, str]]:
    """``(where, docstring)`` of every module, class and function under ``folders``."""
    found = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            nodes: list[ast.AST] = [parsed(path)]
            while nodes:  # statements only: no docstring is inside an expression
                node = nodes.pop()
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                    doc = ast.get_docstring(node, clean=False)
                    if doc:
                        found.append((f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 1)}", doc))
                nodes += [child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt)]
    return found


def resolves(dotted: str, known: dict[str, Path], classes: dict[str, list[str]]) -> bool | None:
    """Whether a dotted name of ours names something that exists (a module, a name in it, an
    attribute of a class: a dataclass field, or one its methods set on ``self``); None for a name
    that is not ours."""
    import importlib
    import inspect

    parts = dotted.split(".")
    candidates: list[tuple[str, list[str]]] = []
    for k in range(len(parts), 0, -1):  # the longest leading part that names a module of ours
        prefix = ".".join(parts[:k])
        candidates = [(m, parts[k:]) for m in known if m == prefix or m.endswith("." + prefix)]
        if candidates:
            break
    else:
        candidates = [(m, parts) for m in classes.get(parts[0], [])]
    if not candidates:
        return None
    for module, rest in candidates:
        obj: object = importlib.import_module(module)
        for attr in rest:
            if hasattr(obj, attr):
                obj = getattr(obj, attr)
            elif inspect.isclass(obj) and (attr in getattr(obj, "__dataclass_fields__", {})
                                           or re.search(rf"self\.{attr}\b\s*[:=]", inspect.getsource(obj))):
                obj = None
            else:
                break
        else:
            return True
    return False


def test_dotted_names_in_docstrings_and_the_architecture_name_what_exists():
    import importlib.util

    known = modules(ROOT)
    classes: dict[str, list[str]] = {}
    strings = set()
    for name, path in known.items():
        tree = parsed(path)
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, []).append(name)
        strings |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    texts = [*docstrings((*PACKAGES, "tests", "benchmarks", "examples")),
             *((str(page.relative_to(ROOT)), page.read_text(encoding="utf-8")) for page in PAGES)]
    wrong = []
    for where, text in texts:
        for dotted in sorted(set(DOTTED.findall(text))):
            if dotted.rpartition(".")[2] in FILE_SUFFIXES or dotted in strings:  # a file; an entry-point group
                continue
            found = resolves(dotted, known, classes)
            first = dotted.partition(".")[0]
            if found is False or (found is None and first not in NOT_CODE and importlib.util.find_spec(first) is None):
                wrong.append(f"{where}: {dotted}")
    assert not wrong, "names that do not exist:\n" + "\n".join(wrong)


# -- the pages: a map in the README, links that resolve, commands the command line takes ---------

PAGES = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")])


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)  # no code block
    return {slug(heading) for heading in re.findall(r"^#+ (.+)$", text, re.M)}


def test_the_readme_maps_every_page_and_every_link_between_pages_resolves():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    mapped = set(re.findall(r"^\| \[[\w.-]+\]\((docs/[\w.-]+\.md)\) \|", readme, re.M))
    assert mapped == {f"docs/{page.name}" for page in (ROOT / "docs").glob("*.md")}
    broken = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"\w+:", target):  # https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            where = (page.parent / path).resolve() if path else page
            if not where.exists() or (anchor and anchor not in anchors(where)):
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, "links that lead nowhere:\n" + "\n".join(broken)


def test_the_link_check_sees_a_missing_anchor(tmp_path):
    (tmp_path / "a.md").write_text("# A page\n\n## The demo: `make demo`\n\n```\n# not a heading\n```\n")
    assert anchors(tmp_path / "a.md") == {"a-page", "the-demo-make-demo"}


def commands(text: str) -> list[list[str]]:
    """Every ``grpo-code`` command in the text's shell code blocks, as its argument list (a line's
    comment dropped; commands joined by ``&&`` apart)."""
    import shlex

    found = []
    for block in re.findall(r"^```(?:bash|sh)\n(.*?)^```", text, re.M | re.S):
        for line in block.replace("\\\n", " ").splitlines():
            for part in re.split(r"\s&&\s", line):
                if part.strip().startswith("grpo-code "):
                    found.append(shlex.split(part, comments=True)[1:])
    return found


def test_every_command_the_pages_show_is_one_the_command_line_takes(tmp_path, monkeypatch):
    from grpo_code.cli import GLOBAL_FLAGS, build_parser
    from grpo_code.rl.train import parse_train_args

    training = (ROOT / "docs" / "training.md").read_text(encoding="utf-8")
    config = re.search(r"^```yaml\n# train.yaml\n(.*?)^```", training, re.M | re.S)
    assert config, "docs/training.md lost its train.yaml"
    (tmp_path / "train.yaml").write_text(config.group(1))  # the file `train --config train.yaml` reads
    monkeypatch.chdir(tmp_path)
    shown = [argv for page in PAGES for argv in commands(page.read_text(encoding="utf-8"))]
    assert len(shown) > 30 and {argv[0] for argv in shown} >= {"eval", "score", "train", "serve", "tasks", "report"}
    parser = build_parser()
    for argv in shown:
        while argv and argv[0] in GLOBAL_FLAGS:
            argv = argv[1:]
        if argv[:1] == ["train"]:
            parse_train_args(argv[1:])
        else:
            parser.parse_args(argv)


def command_paths(parser, path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every command of the parser as the words that name it (``("tasks", "audit")``), walked down
    its sub-parsers."""
    import argparse

    found = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= command_paths(sub, (*path, name)) or {(*path, name)}
    return found


def test_the_command_page_shows_every_command():
    from grpo_code.cli import build_parser

    every = command_paths(build_parser())
    assert ("tasks", "repair") in every and ("sandbox", "clean") in every and ("train",) in every
    shown = {tuple(argv[:len(path)]) for argv in commands((ROOT / "docs" / "commands.md").read_text(encoding="utf-8"))
             for path in every}
    assert sorted(every - shown) == [], "docs/commands.md shows no example of these commands"


def test_the_command_check_sees_an_option_the_command_line_lacks():
    from grpo_code.cli import build_parser
    from grpo_code.errors import ConfigError

    (argv,) = commands("```bash\ngrpo-code eval --suite humaneval --samples 10   # renamed: -n\n```\n")
    with pytest.raises(ConfigError, match="unrecognized arguments: --samples 10"):
        build_parser().parse_args(argv)


def test_every_make_target_the_pages_name_exists():
    targets = set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))
    named = {target for page in PAGES
             for target in re.findall(r"(?:`|^)make ([a-z][\w-]*)", page.read_text(encoding="utf-8"), re.M)}
    assert {"demo", "test", "lint", "test-fast"} <= named <= targets, sorted(named - targets)


# -- what the pages show a command print is what it prints today -------------------------------


def transcripts(text: str) -> list[tuple[str, list[str]]]:
    """Every block of a page that shows a ``$ grpo-code ...`` command and what it prints: the
    command and the lines shown (a line ``...`` for lines left out)."""
    found = []
    for block in re.findall(r"^```\n(\$ grpo-code .*?)^```", text, re.M | re.S):
        command, *shown = block.splitlines()
        found.append((command.removeprefix("$ "), shown))
    return found


def shows(printed: list[str], shown: list[str]) -> bool:
    """Whether ``printed`` holds the ``shown`` lines in their order, each run of them between two
    ``...`` lines consecutive, and the first (last) run at the start (end) unless ``...`` comes
    before (after) it."""
    runs: list[list[str]] = [[]]
    for line in shown:
        if line == "...":
            runs.append([])
        else:
            runs[-1].append(line)
    at = 0
    for i, run in enumerate(runs):
        if not run:
            continue
        starts = [j for j in range(at, len(printed) - len(run) + 1) if printed[j:j + len(run)] == run]
        if i == 0:
            starts = starts[:1] if starts[:1] == [0] else []  # no "..." before it: from the output's first line
        if not starts:
            return False
        at = starts[0] + len(run)
    return not runs[-1] or at == len(printed)  # no "..." after the last run: to the output's last line


def test_the_transcript_check_sees_a_changed_figure():
    printed = ["table", "score 0.67 over 20 tasks", "CHEATED a", "CHEATED b", "wrote x"]
    assert shows(printed, ["...", "score 0.67 over 20 tasks", "CHEATED a", "..."])
    assert shows(printed, ["...", "CHEATED b", "wrote x"]) and shows(printed, ["table", "..."])
    assert not shows(printed, ["...", "score 0.69 over 20 tasks", "CHEATED a", "..."])  # a stale figure
    assert not shows(printed, ["...", "score 0.67 over 20 tasks", "CHEATED b", "..."])  # a line left out unsaid
    assert not shows(printed, ["score 0.67 over 20 tasks", "..."]) and not shows(printed, ["...", "CHEATED b"])
    (command, shown), = transcripts("text\n\n```\n$ grpo-code tasks list\n...\nx\n```\n")
    assert command == "grpo-code tasks list" and shown == ["...", "x"]


@pytest.mark.docker
def test_every_command_output_the_pages_show_is_what_the_command_prints(tmp_path):
    import shlex
    import subprocess
    import sys

    shown = [(page, *transcript) for page in PAGES for transcript in transcripts(page.read_text(encoding="utf-8"))]
    assert shown, "no page shows a command's output any more: drop this test"
    for folder in ("tests", "tasks"):  # the paths the commands name, from a folder of their own
        (tmp_path / folder).symlink_to(ROOT / folder)
    for page, command, lines in shown:
        argv = shlex.split(command)
        proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", *argv[1:]], capture_output=True, text=True,
                              cwd=tmp_path, timeout=600)
        assert proc.returncode == 0, proc.stderr
        assert shows(proc.stdout.splitlines(), lines), \
            f"{page.relative_to(ROOT)} shows `{command}` printing what it no longer prints; it prints:\n{proc.stdout}"


# -- docs/benchmarks.md: one table of every benchmark's latest result, the history below ---------

BENCHMARK_HELPERS = {"fidelity_plain.py"}  # run inside the image by fidelity.py: no result of its own


def test_benchmarks_md_opens_with_one_table_of_every_benchmark_s_latest_result():
    text = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    head, _, history = text.partition("\n## History\n")
    assert history, "docs/benchmarks.md lost its History section"
    tables = re.findall(r"^\|.*\|$(?:\n^\|.*\|$)+", head, re.M)
    assert len(tables) == 1 and not re.search(r"^#{2,} ", head, re.M), "one table, before any section"
    header, _, *rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in tables[0].splitlines()]
    assert header == ["benchmark: what it measures", "peer", "ours", "ratio", "date", "command"]
    assert all(len(row) == len(header) and all(row) for row in rows)
    assert all(re.fullmatch(r"2\d{3}-\d\d-\d\d", row[4]) for row in rows), "a date per row, as YYYY-MM-DD"
    commands = " ".join(row[5] for row in rows)
    scripts = {path.name for path in (ROOT / "benchmarks").glob("*.py")} - BENCHMARK_HELPERS - {"demo_runs.py"}
    missing = sorted(name for name in scripts if f"benchmarks/{name}" not in commands)
    assert not missing, f"benchmarks with no row in docs/benchmarks.md's table: {missing}"
    assert "make demo" in commands  # the demo's runs (benchmarks/demo_runs.py runs several): training.md
    named = set(re.findall(r"benchmarks/(\w+\.py)", history)) - BENCHMARK_HELPERS
    assert named <= scripts, "the history names a script that is gone"
