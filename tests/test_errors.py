"""Bad input ends in one line that says what is wrong and how to fix it, a non-zero exit and no
traceback (``--debug`` adds it): the command line as a user runs it, a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from grpo_code import errors
from grpo_code.errors import ConfigError, MissingExtraError, extras_by_module, require_modules


def grpo_code(*args: str, cwd=None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grpo_code.cli", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **(env or {})}, timeout=600)


def one_error_line(proc: subprocess.CompletedProcess) -> str:
    """The one line the command printed (stderr), checked: nothing else, no traceback."""
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    return lines[0]


@pytest.fixture
def samples(tmp_path):
    path = tmp_path / "samples.jsonl"
    path.write_text(json.dumps({"task_id": "warmup-python/add", "completion": "def add(a, b):\n    return a + b\n"})
                    + "\n")
    return path


def bad_yaml(tmp_path):
    path = tmp_path / "train.yaml"
    path.write_text("suite: warmup-python\nmax_steps: [1\nlearning_rate: 1e-5\n")
    return path


CASES = {
    # name: (arguments, extra environment, exit status, words of the one line)
    "missing samples file": (["score", "{tmp}/nosuch.jsonl", "--suite", "warmup-python"], {}, 2,
                             ["{tmp}/nosuch.jsonl does not exist"]),
    "unknown suite": (["score", "{samples}", "--suite", "warmup-pyton"], {}, 2,
                      ["no suite named 'warmup-pyton'", "did you mean 'warmup-python'"]),
    "bad suite option": (["tasks", "show", "warmup-python?split=nosuch"], {}, 2,
                         ["no tasks with metadata.split == 'nosuch'", "its splits: heldout, train"]),
    "unknown task": (["tasks", "show", "warmup-python", "warmup-python/ad"], {}, 2,
                     ["task 'warmup-python/ad' is not in suite 'warmup-python'", "did you mean"]),
    "unknown model": (["eval", "--suite", "warmup-python", "--model", "{tmp}/no-such-model", "--out", "{tmp}/e"], {}, 2,
                      ["no model '{tmp}/no-such-model'", "give a checkpoint folder"]),
    "model folder without a checkpoint": (["eval", "--suite", "warmup-python", "--model", "{tmp}", "--out", "{tmp}/e"],
                                          {}, 2, ["is a folder but not a checkpoint (it has no config.json)"]),
    "bad flag value": (["eval", "--suite", "warmup-python", "-n", "many"], {}, 2,
                       ["argument -n: invalid int value: 'many'", "grpo-code eval --help"]),
    "zero requests in flight": (["eval", "--suite", "warmup-python", "--endpoint", "http://127.0.0.1:9/v1", "--model",
                                 "m", "--max-concurrency", "0", "--out", "{tmp}/e"], {}, 2,
                                ["--max-concurrency must be >= 1, got 0"]),
    "bad k": (["score", "{samples}", "--suite", "warmup-python", "-k", "1,ten"], {}, 2, ["-k takes k values like"]),
    "unknown command": (["evaluate"], {}, 2, ["invalid choice: 'evaluate'"]),
    "docker down": (["score", "{samples}", "--suite", "warmup-python"], {"DOCKER_HOST": "unix:///nonexistent.sock"}, 1,
                    ["cannot reach the Docker daemon at unix:///nonexistent.sock", "Start it"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_is_one_line_and_a_non_zero_exit(case, tmp_path, samples):
    args, env, status, words = CASES[case]
    fill = {"tmp": str(tmp_path), "samples": str(samples)}
    proc = grpo_code(*[a.format(**fill) for a in args], env=env, cwd=tmp_path)
    line = one_error_line(proc)
    assert proc.returncode == status, proc.stderr
    for w in words:
        assert w.format(**fill) in line
    assert not (tmp_path / "e").exists()  # nothing was started: the options were checked first


def test_debug_adds_the_traceback(tmp_path):
    proc = grpo_code("--debug", "tasks", "show", "nosuch", cwd=tmp_path)
    assert proc.returncode == 2
    assert "Traceback" in proc.stderr and "UnknownSuiteError" in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("error: no suite named 'nosuch'")


TRAIN_CASES = {
    "unknown suite": (["--suite", "nosuch"], ["no suite named 'nosuch'"]),
    "unknown model": (["--model", "{tmp}/no-such-model"], ["no model '{tmp}/no-such-model'"]),
    "bad flag value": (["--max_steps", "ten"], ["argument --max_steps/--max-steps: invalid int value: 'ten'"]),
    "bad option of ours": (["--reward_mode", "partial"], ["--reward_mode must be one of fraction, binary"]),
    "unknown flag": (["--max_stepz", "3"], ["unknown option(s) --max_stepz"]),
    "malformed YAML config": (["--config", "{yaml}"], ["{yaml}:3: invalid YAML: expected ',' or ']'"]),
    "missing config": (["--config", "{tmp}/nosuch.yaml"], ["the config file {tmp}/nosuch.yaml does not exist"]),
}


@pytest.mark.slow  # each run imports TRL (seconds)
@pytest.mark.parametrize("case", list(TRAIN_CASES))
def test_train_checks_its_options_before_it_announces_anything(case, tmp_path):
    args, words = TRAIN_CASES[case]
    fill = {"tmp": str(tmp_path), "yaml": str(bad_yaml(tmp_path))}
    proc = grpo_code("train", *[a.format(**fill) for a in args], "--output_dir", str(tmp_path / "run"), cwd=tmp_path)
    line = one_error_line(proc)
    assert proc.returncode == 2 and "training" not in proc.stderr + proc.stdout
    for w in words:
        assert w.format(**fill) in line
    assert not (tmp_path / "run").exists()


def test_the_extras_are_read_from_the_package_metadata():
    extras = extras_by_module()
    assert {m: extras.get(m) for m in ("trl", "transformers", "accelerate", "datasets", "matplotlib")} == \
        dict.fromkeys(("trl", "transformers", "accelerate", "datasets", "matplotlib"), "train")
    assert "docker" not in extras and "torch" not in extras  # a base dependency; no extra


def test_a_missing_module_names_the_extra_that_installs_it(monkeypatch):
    monkeypatch.setattr(errors, "extras_by_module", lambda: {"grpo_code_no_such_module": "train"})
    with pytest.raises(MissingExtraError) as err:
        require_modules("grpo-code train", "json", "grpo_code_no_such_module", "torch_no_such_build")
    message = str(err.value)
    assert message.startswith("grpo-code train needs grpo_code_no_such_module, torch_no_such_build (not installed)")
    assert "pip install 'grpo-code[train]'" in message and "pip install torch_no_such_build" in message
    assert err.value.exit_code == 1 and isinstance(err.value, ImportError)
    require_modules("anything", "json", "yaml")  # all there: no error


def test_config_errors_are_value_errors_for_old_callers():
    assert issubclass(ConfigError, ValueError) and ConfigError.exit_code == 2
