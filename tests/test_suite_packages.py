"""A suite's packages (suite.yaml ``packages``): exact pins, checked where the suite loads, and the
static rule that a test or reference imports nothing the suite does not name (no Docker needed).
The image of the packages is tests/test_suite_image.py's."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from grpo_code.errors import ConfigError, TaskFormatError
from grpo_code.rl.rewards import PassRateReward
from grpo_code.score.scoring import check_executor
from grpo_code.suites.packages import imported_modules, modules_of, package_of
from grpo_code.suites.registry import load_suite
from grpo_code.suites.tasks import Task, TaskSuite
from sandbox import TestCase, make_executor
from sandbox.ray_executor import RayExecutor


def write_suite(folder, yaml_text: str, tasks: list[dict]):
    folder.mkdir(exist_ok=True)
    (folder / "suite.yaml").write_text(yaml_text)
    (folder / "problems.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks))
    return folder


def task(test_code: str = "assert f() == 1", reference: str | None = None, task_id: str = "t") -> dict:
    d = {"task_id": task_id, "prompt": "Write f.", "entry_point": "f",
         "tests": [{"kind": "assert", "code": "assert f() is not None"}, {"kind": "assert", "code": test_code}]}
    if reference is not None:
        d["reference_solution"] = reference
    return d


def test_packages_are_exact_pins_sorted_and_named_as_pip_names_them(tmp_path):
    folder = write_suite(tmp_path / "s", "name: s\npackages:\n  - Pandas==2.3.3\n  - more_itertools==10.5.0\n"
                                         "  - NumPy==2.2.6\n", [task("import numpy\nassert f() == 1")])
    suite = load_suite(str(folder))
    assert suite.packages == ("more-itertools==10.5.0", "numpy==2.2.6", "pandas==2.3.3")
    assert load_suite(f"{folder}?limit=1").packages == suite.packages  # carried by a selection
    assert suite.select(["t"]).packages == suite.packages


@pytest.mark.parametrize(("yaml_text", "line", "field", "words"), [
    ("name: s\npackages:\n  - numpy==2.2.6\n  - pandas>=2\n", 4, "packages[1]", "got 'pandas>=2'"),
    ("name: s\npackages: [numpy==2.2.6, pandas]\n", 2, "packages[1]", "got 'pandas'"),
    ("name: s\npackages:\n  - numpy==2.*\n", 3, "packages[0]", "got 'numpy==2.*'"),
    ("name: s\npackages:\n  - pandas[excel]==2.3.3\n", 3, "packages[0]", "got 'pandas[excel]==2.3.3'"),
    ("name: s\npackages:\n  - https://example.org/x.whl\n", 3, "packages[0]", "exact pin"),
    ("name: s\ndescription: x\npackages:\n  - 3\n", 4, "packages[0]", "got int 3"),
    ("name: s\npackages: numpy==2.2.6\n", 2, "packages", "expected a list of pinned packages"),
    ("name: s\npackages: [numpy==2.2.6, NumPy==2.2.5]\n", 2, "packages", "numpy pinned to more than one version"),
])
def test_a_bad_pin_is_refused_at_load_naming_suite_yaml_and_its_line(tmp_path, yaml_text, line, field, words):
    folder = write_suite(tmp_path / "s", yaml_text, [task()])
    with pytest.raises(TaskFormatError) as e:
        load_suite(str(folder))
    assert (e.value.path, e.value.line, e.value.field) == (folder / "suite.yaml", line, field)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_a_test_importing_a_package_the_suite_does_not_name_is_refused_with_file_line_and_package(tmp_path):
    tasks = [task(task_id="ok"),
             task("import math\nfrom sklearn.linear_model import Ridge\nassert f() == 1", task_id="x")]
    folder = write_suite(tmp_path / "s", "name: s\npackages: [numpy==2.2.6]\n", tasks)
    with pytest.raises(TaskFormatError) as e:
        load_suite(str(folder))
    assert (e.value.path, e.value.line, e.value.field) == (folder / "problems.jsonl", 2, "tests[1]")
    assert "imports sklearn (its line 2)" in str(e.value) and "scikit-learn==VERSION" in str(e.value)
    (folder / "suite.yaml").write_text("name: s\npackages: [numpy==2.2.6, scikit-learn==1.6.1]\n")
    assert load_suite(str(folder)).packages == ("numpy==2.2.6", "scikit-learn==1.6.1")


@pytest.mark.parametrize(("field", "data"), [
    ("reference_solution", {"reference_solution": "def f():\n    import pandas as pd\n    return 1\n"}),
    ("prelude", {"prelude": "import yaml\n"}),
    ("checker", {"checker": "import numpy\ndef check(i, o, e):\n    return True\n",
                 "tests": [{"kind": "stdio", "stdin": "", "expected_stdout": "1"}]}),
    ("prompt", {"prompt": "import numpy as np\n\ndef f():\n    \"\"\"Return 1.\"\"\"\n"}),
])
def test_a_reference_prelude_checker_or_the_prompt_s_code_is_held_to_the_same_rule(tmp_path, field, data):
    folder = write_suite(tmp_path / "s", "name: s\n", [{**task(), **data}])
    with pytest.raises(TaskFormatError) as e:
        load_suite(str(folder))
    assert (e.value.line, e.value.field) == (1, field)


def test_defaults_may_import_the_suite_s_packages(tmp_path):
    yaml_text = "name: s\npackages: [numpy==2.2.6]\ndefaults:\n  prelude: |\n    import numpy\n"
    folder = write_suite(tmp_path / "s", yaml_text, [task()])
    assert load_suite(str(folder)).get("t").prelude == "import numpy\n"
    (folder / "suite.yaml").write_text("name: s\ndefaults:\n  prelude: |\n    import numpy\n")
    with pytest.raises(TaskFormatError) as e:
        load_suite(str(folder))
    assert (e.value.path, e.value.line, e.value.field) == (folder / "problems.jsonl", 1, "prelude")


def test_what_is_no_need_is_not_refused(tmp_path):
    code = ("try:\n    import numpy\nexcept ImportError:\n    numpy = None\n"  # an optional import
            "import importlib, os.path\nmod = importlib.import_module('numpy')\n"  # a dynamic one
            "if False:\n    from . import sibling\n"  # a relative one
            "assert f() == 1")
    folder = write_suite(tmp_path / "s", "name: s\n", [task(code)])
    assert len(load_suite(str(folder))) == 1
    js = {"task_id": "j", "prompt": "p", "language": "javascript", "tests": [
        {"kind": "stdio", "stdin": "", "expected_stdout": "1"}], "reference_solution": "import x from 'numpy';\n"}
    assert len(load_suite(str(write_suite(tmp_path / "js", "name: js\n", [js])))) == 1  # Python's rule only


def test_the_imports_read_statically():
    code = ("import os, numpy.linalg as la\nfrom pandas import DataFrame\nfrom . import sibling\n"
            "def g():\n    import scipy\ntry:\n    import torch\nexcept (ValueError, ModuleNotFoundError):\n    pass\n"
            "try:\n    import jax\nexcept ValueError:\n    import flax\n")
    assert imported_modules(code) == (("os", 1), ("numpy", 1), ("pandas", 2), ("scipy", 5), ("jax", 11),
                                      ("flax", 13))
    assert imported_modules("def (:") == ()
    assert modules_of("scikit-learn==1.6.1") == ("sklearn",) and modules_of("More_Itertools") == ("more_itertools",)
    assert package_of("PIL") == "pillow" and package_of("more_itertools") == "more-itertools"


def test_a_suite_built_in_python_is_held_to_it_too():
    probe = Task(task_id="p", prompt="", tests=(TestCase(kind="assert", code="import numpy\nassert True"),))
    with pytest.raises(TaskFormatError, match="imports numpy"):
        TaskSuite(name="mine", tasks=(probe,), source="adapter")
    with pytest.raises(TaskFormatError, match="exact pin"):
        TaskSuite(name="mine", tasks=(probe,), packages=("numpy>=2",))
    assert TaskSuite(name="mine", tasks=(probe,), packages=("NumPy==2.2.6",)).packages == ("numpy==2.2.6",)


def test_an_extra_tests_file_is_held_to_the_suite_s_packages(tmp_path):
    folder = write_suite(tmp_path / "s", "name: s\nextra_tests: extra.jsonl\npackages: [numpy==2.2.6]\n", [task()])
    (folder / "extra.jsonl").write_text(json.dumps({"task_id": "t", "tests": [
        {"kind": "assert", "code": "import numpy\nassert f() == 1"}]}) + "\n" + json.dumps({"task_id": "t", "tests": [
        {"kind": "assert", "code": "import scipy\nassert f() == 1"}]}) + "\n")
    with pytest.raises(TaskFormatError) as e:
        load_suite(str(folder))
    assert (e.value.path, e.value.line, e.value.field) == (folder / "extra.jsonl", 2, "tests[0]")


def test_an_executor_whose_image_lacks_the_suite_s_packages_is_refused(tmp_path):
    suite = load_suite(str(write_suite(tmp_path / "s", "name: s\npackages: [more-itertools==10.5.0]\n", [task()])))
    with pytest.raises(ConfigError, match=r"lacks more-itertools==10.5.0: make it with make_executor\(packages="):
        check_executor(make_executor(concurrency=1), suite)
    check_executor(make_executor(concurrency=1, packages=suite.packages), suite)
    check_executor(make_executor(concurrency=1, packages=["More_Itertools==10.5.0", "numpy==2.2.6"]), suite)
    check_executor(make_executor(concurrency=1), load_suite("warmup-python?limit=1"))
    with pytest.raises(ConfigError, match=r"lacks more-itertools==10\.5\.0"):  # the reward of a script of one's own
        PassRateReward(suite, make_executor(concurrency=1))
    assert PassRateReward(suite, make_executor(concurrency=1, packages=suite.packages)).suite is suite
    assert RayExecutor(concurrency=1, packages=suite.packages).packages == suite.packages  # each node's pool
    with pytest.raises(ValueError, match="exact pin"):
        make_executor(concurrency=1, packages=["numpy"])


def test_the_command_line_refuses_a_bad_pin_or_a_test_s_import_in_one_line(tmp_path):
    folder = write_suite(tmp_path / "s", "name: s\npackages:\n  - numpy~=2.2\n", [task()])
    for args in (["tasks", "validate", str(folder)], ["sandbox", "build", "--suite", str(folder)]):
        proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", *args], capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr + proc.stdout
        assert proc.stderr.strip().splitlines() == [
            f"error: {folder}/suite.yaml:3: field 'packages[0]': expected an exact pin, name==version (e.g. "
            "numpy==2.2.6; no range, wildcard, extra, marker or URL), got 'numpy~=2.2'"]
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "sandbox", "build", "--packages", "numpy"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.startswith("error: --packages: expected an exact pin")
    folder = write_suite(tmp_path / "i", "name: i\n", [task("import more_itertools\nassert f() == 1")])
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "tasks", "validate", str(folder)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.strip().splitlines() == [
        f"error: {folder}/problems.jsonl:1: field 'tests[1]': task 't': the test imports more_itertools (its line 1), "
        "which neither the standard library nor the suite's packages provide: name its package, pinned, in suite.yaml "
        "(packages: [more-itertools==VERSION])"]


def test_a_test_file_may_import_the_program_by_its_module_name_and_pytest_but_no_other_package(tmp_path):
    file_task: dict[str, Any] = {"task_id": "k", "prompt": "Write f.", "entry_point": "f", "tests": [
        {"kind": "pytest", "module": "answer", "code": "import pytest\nfrom answer import f\n\n"
                                                       "def test_f():\n    assert f() == 1\n"},
        {"kind": "unittest", "code": "import unittest\nimport main\nfrom solution import f\n\n"
                                     "class T(unittest.TestCase):\n    def test_f(self):\n"
                                     "        self.assertEqual(f(), 1)\n"}]}
    folder = write_suite(tmp_path / "s", "name: s\n", [file_task])
    assert [t.module for t in load_suite(str(folder)).tasks[0].tests] == ["answer", "solution"]
    file_task["tests"][0]["code"] = "import requests\nfrom answer import f\n\ndef test_f():\n    assert f() == 1\n"
    write_suite(folder, "name: s\n", [file_task])
    with pytest.raises(TaskFormatError) as e:
        load_suite(str(folder))
    assert e.value.field == "tests[0]" and "imports requests (its line 1)" in str(e.value)
