"""Suite files: validation errors name file, line and field (no Docker)."""

from __future__ import annotations

import json

import pytest

from grpo_code.errors import ConfigError, TaskFormatError, UnknownSuiteError, UnknownTaskError
from grpo_code.suites.registry import load_suite
from grpo_code.suites.tasks import parse_task

GOOD = {"task_id": "t/1", "prompt": "Add.", "entry_point": "add",
        "tests": [{"kind": "assert", "code": "assert add(1, 2) == 3"}],
        "reference_solution": "def add(a, b):\n    return a + b\n"}


def write_jsonl(path, objs):
    path.write_text("".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objs), encoding="utf-8")
    return path


STDIO = {"task_id": "t/1", "prompt": "Echo a line.", "reference_solution": "print(input())\n",
         "tests": [{"kind": "stdio", "stdin": "a\n", "expected_stdout": "a\n"}]}


@pytest.mark.parametrize("bad, field, words", [
    ({**GOOD, "tests": []}, "tests", "at least one test case is needed"),
    ({**GOOD, "tests": [{"kind": "asert", "code": "x"}]}, "tests[0]", "kind must be one of"),
    ({**GOOD, "tests": [{"kind": "stdio", "stdin": "1"}]}, "tests[0]", "expected_stdout"),
    ({**GOOD, "time_limit_s": "2"}, "time_limit_s", "a number of seconds"),
    ({**GOOD, "time_limit_s": 0}, "time_limit_s", "> 0"),
    ({**GOOD, "language": "cobol"}, "language", "unknown language"),
    ({**GOOD, "language": ["python"]}, "language", "expected a language name, got list"),
    ({**GOOD, "float_tolerance": -1}, "float_tolerance", "float_tolerance must be >= 0, got -1"),
    ({**GOOD, "tests": [{"kind": "assert", "code": "assert add(1, 2) == 3"}, {"kind": "assert", "code": "f("}]},
     "tests[1]", "the judge cannot run this assert test: the test code does not compile"),
    ({**GOOD, "compare": "fuzzy"}, "compare", "tokens, lines, exact, got 'fuzzy'"),
    ({**GOOD, "language": "c"}, "tests[0].kind", "c programs take stdio tests, not 'assert'"),
    ({k: v for k, v in GOOD.items() if k != "prompt"}, "prompt", "required"),
    ({**GOOD, "entry_point": "not a name"}, "entry_point", "function name"),
    ({**GOOD, "language": "javascript", "tests": [{"kind": "call", "fn_name": "f", "args": [], "kwargs": {"a": 1},
                                                   "expected": 1}]}, "tests[0].kwargs", "positional arguments only"),
    ({**GOOD, "language": "typescript", "tests": [{"kind": "call", "fn_name": "fü", "expected": 1}]},
     "tests[0].fn_name", "typescript function name"),
    ({**STDIO, "reference_solutions": {"cobol": "x"}}, "reference_solutions.cobol", "unknown language"),
    ({**STDIO, "reference_solutions": {"python": "x"}}, "reference_solutions.python", "own language"),
    ({**STDIO, "reference_solutions": {"rust": 3}}, "reference_solutions.rust", "a string"),
    ({**GOOD, "reference_solutions": {"rust": "fn main() {}"}}, "reference_solutions.rust",
     "rust programs take stdio tests"),
    ({**STDIO, "checker": "def check(input, output, expected)\n    return True\n"}, "checker",
     "does not compile: expected ':' (line 1 of the checker)"),
    ({**STDIO, "checker": "def judge(i, o, e):\n    return True\n"}, "checker", "must define check("),
    ({**STDIO, "checker": "def check(output, expected):\n    return True\n"}, "checker", "three arguments"),
    ({**STDIO, "checker": 5}, "checker", "a string of Python code"),
    ({**GOOD, "checker": "def check(i, o, e):\n    return True\n"}, "checker",
     "a checker judges stdio tests, and there are none"),
    # a call test with no expected value would pay a function whose body is `pass` (None == None)
    ({**GOOD, "tests": [{"kind": "call", "fn_name": "add", "args": [1, 2]}]}, "tests[0]",
     "a call test needs 'expected': the value the call must return"),
    ({**GOOD, "tests": [{"kind": "call", "fn_name": "add", "args": [1, 2], "expected": 3, "atol": -1}]}, "tests[0]",
     "'atol' must be a number >= 0, got -1"),
    ({**GOOD, "test_setup": "def helper(:\n    pass\n"}, "test_setup", "the test setup does not compile"),
    ({**GOOD, "test_setup": ["import math"]}, "test_setup", "expected a string of Python code, got list"),
])
def test_errors_name_file_line_and_field(tmp_path, bad, field, words):
    path = write_jsonl(tmp_path / "suite.jsonl", [GOOD | {"task_id": "t/0"}, bad])
    with pytest.raises(TaskFormatError) as err:
        load_suite(str(path))
    assert err.value.line == 2 and err.value.field == field
    assert str(err.value).startswith(f"{path}:2: field '{field}'")
    assert words in str(err.value)


def test_unknown_field_suggests_the_right_one(tmp_path):
    path = write_jsonl(tmp_path / "s.jsonl", [{**GOOD, "entrypoint": "add"}])
    with pytest.raises(TaskFormatError,
                       match=r"s.jsonl:1: unknown field\(s\) 'entrypoint' \(did you mean 'entry_point'\?\)"):
        load_suite(str(path))


def test_bad_json_line(tmp_path):
    path = write_jsonl(tmp_path / "s.jsonl", [GOOD, '{"task_id": "t/2",'])
    with pytest.raises(TaskFormatError, match=r"s.jsonl:2: invalid JSON"):
        load_suite(str(path))


def test_duplicate_ids(tmp_path):
    with pytest.raises(TaskFormatError, match="appears twice"):
        load_suite(str(write_jsonl(tmp_path / "s.jsonl", [GOOD, GOOD])))


def test_canonical_solution_alias_and_defaults():
    task = parse_task({k: v for k, v in GOOD.items() if k != "reference_solution"} | {"canonical_solution": "x = 1"},
                      defaults={"time_limit_s": 5, "memory_limit_mb": 128})
    assert task.reference_solution == "x = 1" and task.limits.time_limit_s == 5.0 and task.limits.memory_limit_mb == 128


def test_unknown_task_and_suite_names_get_close_matches(tmp_path):
    suite = load_suite(str(write_jsonl(tmp_path / "s.jsonl", [GOOD])))
    with pytest.raises(UnknownTaskError, match=r"did you mean 't/1'"):
        suite.get("t/l")
    with pytest.raises(UnknownSuiteError, match=r"did you mean 'humaneval'"):
        load_suite("humaneva")


def test_suite_yaml_errors_name_the_line(tmp_path):
    folder = tmp_path / "mysuite"
    folder.mkdir()
    write_jsonl(folder / "problems.jsonl", [GOOD])
    (folder / "suite.yaml").write_text("name: mysuite\ndescription: x\nprompt_templte: '{prompt}'\n")
    with pytest.raises(TaskFormatError, match=r"suite.yaml:3: field 'prompt_templte': unknown suite field; "
                                              r"did you mean 'prompt_template'"):
        load_suite(str(folder))
    (folder / "suite.yaml").write_text("name: mysuite\ndefaults: [1, 2\n")
    with pytest.raises(TaskFormatError, match=r"suite.yaml:\d+: invalid YAML"):
        load_suite(str(folder))


@pytest.mark.parametrize("spec, words", [
    ("warmup-python?split=nosuch", "no tasks with metadata.split == 'nosuch'; its splits: heldout, train"),
    ("warmup-python?limit=0", "?limit= takes a positive whole number, got '0'"),
    ("warmup-python?limit=many", "?limit= takes a positive whole number, got 'many'"),
    ("warmup-python?form=whole", "suite 'warmup-python' takes no options but split and limit, got ['form']"),
])
def test_bad_suite_options_are_config_errors(spec, words):
    with pytest.raises(ConfigError) as err:
        load_suite(spec)
    assert words in str(err.value)


def test_split_and_limit_work_on_every_suite():
    train = load_suite("warmup-python?split=train")
    assert len(train) == 128 and {t.metadata["split"] for t in train} == {"train"}
    assert [t.task_id for t in load_suite("warmup-python?split=heldout&limit=3")] == \
        [t.task_id for t in load_suite("warmup-python") if t.metadata["split"] == "heldout"][:3]


def test_humaneval_suite_loads_both_forms():
    per_assert = load_suite("humaneval")
    whole = load_suite("humaneval?form=whole")
    assert len(per_assert) == len(whole) == 164
    assert per_assert.get("HumanEval/0").task_id == "HumanEval/0"
    # one test per task, and the extra tests the suite adds (tasks/humaneval/extra_tests.jsonl) to both forms
    assert {t.task_id: len(t.tests) for t in whole if len(t.tests) != 1} == {"HumanEval/34": 3, "HumanEval/40": 3}
    assert [len(per_assert.get(t).tests) for t in ("HumanEval/34", "HumanEval/40")] == [3, 11]
    assert sum(len(t.tests) for t in per_assert) > 1000
    with pytest.raises(ConfigError, match="suite 'humaneval': humaneval form must be one of"):
        load_suite("humaneval?form=halves")  # the user's option, not the suite's file


def test_suites_from_other_packages_entry_points(tmp_path, monkeypatch):
    # A real installed-distribution layout on sys.path: importlib.metadata finds its entry points.
    pkg = tmp_path / "plugin_suites"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from grpo_code.suites.tasks import TaskSuite, parse_task\n"
        f"TASK = {GOOD!r}\n"
        "def make(limit=None):\n"
        "    return TaskSuite(name='plugin-suite', tasks=(parse_task(TASK),), source='plugin')\n")
    dist = tmp_path / "plugin_suites-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: plugin-suites\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[grpo_code.suites]\nplugin-suite = plugin_suites:make\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from grpo_code.suites.registry import available_suites

    assert ("plugin-suite", "entry point plugin_suites:make") in [(r.name, r.origin) for r in available_suites()]
    suite = load_suite("plugin-suite")
    assert suite.name == "plugin-suite" and [t.task_id for t in suite] == ["t/1"]


def _suite_folder(tmp_path, yaml_text, tasks=(GOOD,)):
    folder = tmp_path / "s"
    folder.mkdir(exist_ok=True)
    write_jsonl(folder / "problems.jsonl", list(tasks))
    (folder / "suite.yaml").write_text(yaml_text)
    return folder


@pytest.mark.parametrize("yaml_text, line, field, words", [
    ("name: s\ndefaults:\n  time_limt: 5.0\n", 2, "defaults.time_limt", "did you mean 'time_limit_s'"),
    ("name: s\ndefaults: {language: pyhton}\n", 2, "defaults.language", "unknown language 'pyhton'"),
    ("name: s\ndefaults: {memory_limit_mb: 8}\n", 2, "defaults.memory_limit_mb", "at least 16"),
    ("name: s\nprompt_template: '{prmpt} go'\n", 2, "prompt_template", "unknown placeholder(s): prmpt"),
    ("name: s\nprompt_template: 'no placeholder'\n", 2, "prompt_template", "containing {prompt}"),
])
def test_suite_yaml_values_are_checked_in_suite_yaml(tmp_path, yaml_text, line, field, words):
    folder = _suite_folder(tmp_path, yaml_text)
    with pytest.raises(TaskFormatError) as err:
        load_suite(str(folder))
    assert err.value.path == folder / "suite.yaml" and err.value.line == line and err.value.field == field
    assert words in str(err.value)


def test_template_may_use_language_and_literal_braces(tmp_path):
    folder = _suite_folder(tmp_path, "name: s\nprompt_template: '{prompt} in {language}, JSON like {\"a\": 1}'\n")
    suite = load_suite(str(folder))
    assert suite.format_prompt(suite.get("t/1")) == 'Add. in python, JSON like {"a": 1}'


def test_duplicate_task_ids_name_both_lines(tmp_path):
    path = write_jsonl(tmp_path / "s.jsonl", [GOOD, {**GOOD, "task_id": "t/2"}, GOOD])
    with pytest.raises(TaskFormatError,
                       match=r"s.jsonl:3: field 'task_id': task_id 't/1' appears twice \(first on line 1\)"):
        load_suite(str(path))


def test_bad_json_column_is_where_the_line_breaks(tmp_path):
    text = json.dumps(GOOD)[:-1]  # the closing brace is missing
    path = write_jsonl(tmp_path / "s.jsonl", [text])
    with pytest.raises(TaskFormatError, match=rf"column {len(text) + 1}\)"):
        load_suite(str(path))


def test_test_case_field_typo_suggests_the_field(tmp_path):
    bad = {**GOOD, "tests": [{"kind": "stdio", "stdin": "", "expected_stdot": "1\n"}]}
    with pytest.raises(TaskFormatError,
                       match=r"unknown test case field 'expected_stdot' \(did you mean 'expected_stdout'\?\)"):
        load_suite(str(write_jsonl(tmp_path / "s.jsonl", [bad])))


PERMUTATION_CHECKER = """
def check(input, output, expected):
    n = int(input.split()[0])
    got = output.split()
    return sorted(got, key=int) == [str(i) for i in range(1, n + 1)] if len(got) == n else False
"""


def test_a_checker_and_references_in_other_languages_round_trip(tmp_path):
    row = {**STDIO, "checker": PERMUTATION_CHECKER,
           "reference_solutions": {"javascript": "console.log(require('fs').readFileSync(0, 'utf8').trim());\n",
                                   "rust": "fn main() {}\n"}}
    task = load_suite(str(write_jsonl(tmp_path / "s.jsonl", [row]))).tasks[0]
    assert task.checker == PERMUTATION_CHECKER and set(task.reference_solutions) == {"javascript", "rust"}
    assert parse_task(task.to_dict()) == task
    assert parse_task({**STDIO, "checker": "def check(i, o, e, *, strict=False):\n    return 1.0\n"}).checker


def test_for_language_picks_the_problems_with_a_reference_in_that_language(tmp_path):
    rows = [{**STDIO, "task_id": "p/1", "reference_solutions": {"javascript": "js 1", "java": "java 1"},
             "prelude": "import sys"},
            {**STDIO, "task_id": "p/2", "reference_solutions": {"javascript": "js 2"}},
            {**STDIO, "task_id": "p/3/go", "language": "go", "reference_solution": "package main"}]
    suite = load_suite(str(write_jsonl(tmp_path / "s.jsonl", rows)))
    js = suite.for_language("javascript")
    assert js.name == "s-javascript"
    assert [(t.task_id, t.language, t.reference_solution) for t in js] == [
        ("p/1", "javascript", "js 1"), ("p/2", "javascript", "js 2")]
    assert js.tasks[0].prelude is None
    assert js.tasks[0].reference_solutions == {"java": "java 1", "python": "print(input())\n"}
    assert js.tasks[0].tests == suite.tasks[0].tests
    assert [t.task_id for t in suite.for_language("go")] == ["p/3/go"]
    assert suite.for_language("python").tasks == suite.tasks[:2]
    with pytest.raises(ValueError, match="has no task in rust; its languages: go, java, javascript, python"):
        suite.for_language("rust")
    with pytest.raises(ValueError, match="unknown language 'cobol'"):
        suite.for_language("cobol")


def test_the_documented_checkers_accept_every_right_answer_and_reject_wrong_ones():
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "suites.md").read_text(encoding="utf-8")
    section = page.split("## Checkers", 1)[1].split("\n## ", 1)[0]
    permutation, floats = re.findall(r"```python\n(.*?)```", section, re.S)
    checks = []
    for code in (permutation, floats):
        task = parse_task({**STDIO, "checker": code})  # a valid task checker
        namespace: dict = {}
        assert task.checker is not None
        exec(task.checker, namespace)
        checks.append(namespace["check"])
    perm, close = checks
    assert all(perm("3\n", out, "1 2 3\n") for out in ("1 2 3\n", "3 2 1\n", "2\n1\n3"))
    assert not any(perm("3\n", out, "1 2 3\n") for out in ("1 2\n", "1 1 2\n", "0 1 2\n", "1 2 3 4\n", ""))
    assert close("", "0.3333333\n", "0.333333333\n") == 1.0 and close("", "1e3 2\n", "1000.0000001 2.0\n") == 1.0
    assert close("", "0.5 0.25\n", "0.5 0.3\n") == 0.5  # partial credit per number
    assert close("", "0.5\n", "0.5 0.3\n") is False and close("", "abc\n", "0.5\n") is False


def test_a_suite_s_extra_tests_join_its_tasks_and_a_bad_line_is_named(tmp_path):
    folder = tmp_path / "plus"
    folder.mkdir()
    (folder / "problems.jsonl").write_text(json.dumps({"task_id": "p/add", "prompt": "add", "tests": [
        {"kind": "assert", "code": "assert add(1, 2) == 3"}]}) + "\n")
    (folder / "suite.yaml").write_text("name: plus\nextra_tests: more.jsonl\n")
    (folder / "more.jsonl").write_text(json.dumps({"task_id": "p/add", "tests": [
        {"kind": "assert", "code": "assert add(-1, 1) == 0"}]}) + "\n")
    task = load_suite(str(folder)).get("p/add")
    assert [t.code for t in task.tests] == ["assert add(1, 2) == 3", "assert add(-1, 1) == 0"]
    assert task.tests[1].visibility == "hidden"
    (folder / "more.jsonl").write_text(json.dumps({"task_id": "p/sub", "tests": []}) + "\n")
    with pytest.raises(TaskFormatError, match=r"more.jsonl:1: field 'task_id': no task 'p/sub' in the suite"):
        load_suite(str(folder))
    (folder / "more.jsonl").write_text(json.dumps({"task_id": "p/add", "tests": [{"kind": "assert"}]}) + "\n")
    with pytest.raises(TaskFormatError, match=r"more.jsonl:1: field 'tests\[0\]': an assert test needs 'code'"):
        load_suite(str(folder))
    (folder / "suite.yaml").write_text("name: plus\nextra_tests: missing.jsonl\n")
    with pytest.raises(TaskFormatError, match=r"suite.yaml:2: field 'extra_tests': expected the name of a tests file"):
        load_suite(str(folder))


def test_a_call_test_without_expected_is_refused_in_extra_tests_too(tmp_path):
    folder = tmp_path / "plus"
    folder.mkdir()
    (folder / "problems.jsonl").write_text(json.dumps({**GOOD, "task_id": "p/add"}) + "\n")
    (folder / "suite.yaml").write_text("name: plus\nextra_tests: more.jsonl\n")
    (folder / "more.jsonl").write_text(json.dumps({"task_id": "p/add", "tests": [
        {"kind": "call", "fn_name": "add", "args": [2, 2], "expected": 4},
        {"kind": "call", "fn_name": "add", "args": [2, 3]}]}) + "\n")
    with pytest.raises(TaskFormatError, match=r"more.jsonl:1: field 'tests\[1\]': a call test needs 'expected'"):
        load_suite(str(folder))


def test_a_task_s_own_test_setup_is_what_the_judge_runs_in_place_of_the_default():
    task = parse_task({**GOOD, "prelude": "import math\n\ndef helper(x):\n    return x\n",
                       "prompt": "def shown(x):\n    return x + 1\n"})
    default = task.job("").test_setup or ""
    assert "def helper" in default and "def shown" in default  # the prelude, then the prompt's helpers
    own = parse_task({**task.to_dict(), "test_setup": "import math\n"})
    assert own.test_setup == "import math\n" and own.job("").test_setup == "import math\n"
    assert own.to_dict()["test_setup"] == "import math\n" and "test_setup" not in task.to_dict()
    assert parse_task(own.to_dict()) == own
    # the names it binds are the judge's; every other name the test reads is the program's
    helper = parse_task({**GOOD, "prelude": "def helper(x):\n    return x\n",
                         "tests": [{"kind": "assert", "code": "assert add(helper(1), 2) == 3"}]})
    from sandbox.inside.guard import plan_assert, setup_names

    assert plan_assert(helper.tests[0].code or "", setup_names(helper.job("").test_setup or ""))[1] == ("add",)
    program_side = parse_task({**helper.to_dict(), "test_setup": "import math\n"})
    assert plan_assert(program_side.tests[0].code or "", setup_names(program_side.job("").test_setup or ""))[1] \
        == ("add", "helper")
    assert parse_task({**GOOD, "language": "javascript", "test_setup": "x = 1",
                       "tests": [{"kind": "stdio", "stdin": "", "expected_stdout": ""}]}).job("").test_setup is None
