"""GRPO training with the real trl.GRPOTrainer, a tiny real model and the real Docker sandbox."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from grpo_code.report import write_report
from grpo_code.train import parse_train_args, train
from grpo_code.trainlog import load_training_run
from tiny_model import make_tiny_model

FIXTURES = Path(__file__).parent / "fixtures"

pytestmark = pytest.mark.docker

MARK = "\n# unscorable: the sandbox call for this completion is made to fail\n"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return make_tiny_model(tmp_path_factory.mktemp("tiny-llama"))


def suite_file(tmp_path: Path, task: dict) -> Path:
    path = tmp_path / "suite.jsonl"
    path.write_text(json.dumps(task) + "\n")
    return path


def forced_rollout(texts: list[str]):
    """A TRL rollout_func that answers every prompt with the given completions (round robin)."""

    def rollout(prompts, trainer):
        tok = trainer.processing_class
        prompt_ids = [tok.apply_chat_template(p, add_generation_prompt=True, tokenize=True,
                                              return_dict=True)["input_ids"] for p in prompts]
        completion_ids = [tok(texts[i % len(texts)], add_special_tokens=False)["input_ids"] + [tok.eos_token_id]
                          for i in range(len(prompts))]
        return {"prompt_ids": prompt_ids, "completion_ids": completion_ids,
                "logprobs": [[0.0] * len(ids) for ids in completion_ids]}

    return rollout


def inject_faults(monkeypatch, when):
    """Fault injection: jobs for which when(job) is true find their container start refused."""
    from sandbox.container import SandboxContainer
    from sandbox.types import SandboxFault

    original = SandboxContainer.submit

    def submit(self, job):
        if when(job):
            raise SandboxFault("injected: container start refused")
        return original(self, job)

    monkeypatch.setattr(SandboxContainer, "submit", submit)
    monkeypatch.setattr("sandbox.executor.RETRY_BACKOFF_S", (0.0,))


def args_for(tiny, suite, out, *extra):
    return parse_train_args(["--model", str(tiny), "--suite", str(suite), "--output_dir", str(out),
                             "--per_device_train_batch_size", "4", "--num_generations", "4",
                             "--max_completion_length", "24", "--sandbox_concurrency", "2",
                             "--save_steps", "1", "--num_completions_to_print", "0", *extra])


def completions_log(out: Path, step: int):
    import pandas as pd

    return pd.read_parquet(out / "completions" / f"completions_{step:05d}.parquet")


def test_C13_unscorable_completion_is_left_out_of_the_group(tmp_path, tiny, cases, monkeypatch):
    case = cases["C13"]
    completions = list(case["completions"])
    completions[2] += MARK
    inject_faults(monkeypatch, lambda job: MARK.strip() in job.program)
    code_args, grpo_args = args_for(tiny, suite_file(tmp_path, case["task"]), tmp_path / "run", "--max_steps", "1")
    result = train(code_args, grpo_args, rollout_func=forced_rollout(completions))
    table = completions_log(tmp_path / "run", 1)
    rewards = list(table["pass_rate"])
    assert rewards[:2] == [1.0, 0.0] and math.isnan(rewards[2]) and rewards[3] == 1.0
    assert list(table["status"]) == ["passed", "failed", "sandbox_error", "passed"]
    assert list(table["advantage"]) == pytest.approx(case["expected"]["grpo_advantages"], abs=1e-3)
    history = [e for e in _history(tmp_path / "run") if "loss" in e]
    assert history and all(math.isfinite(e["loss"]) and math.isfinite(e["grad_norm"]) for e in history)
    assert all(math.isfinite(e["rewards/pass_rate/mean"]) for e in history)
    assert history[0]["rewards/pass_rate/mean"] == pytest.approx(2 / 3, abs=1e-4)  # the scored three only
    assert result.summary["steps"] == 1


def _history(run: Path) -> list[dict]:
    state = json.loads(sorted(run.glob("checkpoint-*/trainer_state.json"))[-1].read_text())
    return state["log_history"]


def test_training_runs_on_through_a_mid_run_sandbox_outage(tmp_path, tiny, cases, monkeypatch):
    from transformers import TrainerCallback

    case = cases["C13"]
    sandbox = {"down": False}

    class OutageDuringStepTwo(TrainerCallback):
        def on_step_begin(self, args, state, control, **kwargs):
            sandbox["down"] = state.global_step == 1  # one step done: the second one starts

    inject_faults(monkeypatch, lambda job: sandbox["down"])
    code_args, grpo_args = args_for(tiny, suite_file(tmp_path, case["task"]), tmp_path / "run", "--max_steps", "3")
    result = train(code_args, grpo_args, callbacks=[OutageDuringStepTwo()],
                   rollout_func=forced_rollout(case["completions"]))
    assert result.summary["steps"] == 3
    history = [e for e in _history(tmp_path / "run") if "loss" in e]
    assert len(history) == 3 and all(math.isfinite(e["loss"]) for e in history)
    assert list(completions_log(tmp_path / "run", 2)["status"]) == ["sandbox_error"] * 4
    assert completions_log(tmp_path / "run", 2)["pass_rate"].isna().all()
    assert list(completions_log(tmp_path / "run", 3)["pass_rate"]) == [1.0, 0.0, 1.0, 1.0]
    assert history[0]["rewards/pass_rate/mean"] == pytest.approx(0.75)
    assert history[2]["sandbox/passed"] == pytest.approx(0.75)
    # the run's outputs
    run = tmp_path / "run"
    assert (run / "reward_curve.png").stat().st_size > 1000
    summary = json.loads((run / "summary.json").read_text())
    assert summary["steps"] == 3 and [s for s, _ in summary["reward_per_step"]] == [1, 3]
    assert (run / "model.safetensors").exists() and (run / "tokenizer_config.json").exists()
    assert list(completions_log(run, 1)["task_id"]) == ["cases/C13"] * 4
    # the training report, from the run's own logs
    training = load_training_run(run)
    assert training.curves.steps == [1, 2, 3]
    assert training.curves.pass_rate == [pytest.approx(0.75), None, pytest.approx(0.75)]
    assert training.curves.statuses["sandbox_error"] == [0.0, 1.0, 0.0]
    assert [c.status for c in training.early] == ["passed", "failed", "passed"]  # one per status first
    assert [(c.task, c.tests_passed, c.reward) for c in training.late[:2]] == [("cases/C13", "2/2", 1.0),
                                                                           ("cases/C13", "0/2", 0.0)]
    md = write_report([run], tmp_path / "report").files["md"].read_text()
    # tests/fixtures/train-run holds this run's logs (trainer_state.json, summary.json,
    # completions/): its report must read the same, but for the times
    fixture = write_report([FIXTURES / "train-run"], tmp_path / "fixture-report").files["md"].read_text()
    assert _timeless(md) == _timeless(fixture)


def _timeless(md: str) -> list[str]:
    varying = ("seconds", "wall time", "model, suite")  # times; the tiny model's temporary path
    return [line for line in md.splitlines() if not any(v in line for v in varying)
            and not line.startswith("# ") and not line.startswith("## Training")]


def test_train_command_prints_one_line_per_step_and_where_the_report_is(tmp_path, tiny):
    import subprocess
    import sys

    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "train", "--model", str(tiny), "--suite",
                           "warmup-python?split=train&limit=2", "--output_dir", str(out), "--max_steps", "3",
                           "--per_device_train_batch_size", "4", "--num_generations", "4",
                           "--max_completion_length", "16", "--sandbox_concurrency", "2", "--save_steps", "2"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    text = proc.stdout + proc.stderr
    assert "Warning" not in text and "warn(" not in text, text  # no FutureWarning, once or per step
    assert "Loading weights" not in text and "Writing model shards" not in text and "it/s" not in text, text
    steps = [line for line in text.splitlines() if line.startswith("step ")]
    assert [line.split()[1] for line in steps] == ["1", "2", "3"]
    assert f"report: {out / 'report.html'}" in proc.stdout and (out / "trainer_state.json").is_file()
    assert (f"outputs in {out}/: the model, checkpoint-*/, completions/*.parquet, trainer_state.json, "
            "reward_curve.png, summary.json") in proc.stdout
    assert "### Completions, late (step 3)" in (out / "report.md").read_text()


def test_real_generation_step_logs_sandbox_metrics_and_resumes(tmp_path, tiny):
    out = tmp_path / "run"
    code_args, grpo_args = args_for(tiny, "warmup-python?split=train&limit=4", out, "--max_steps", "2")
    result = train(code_args, grpo_args)
    history = [e for e in _history(out) if "loss" in e]
    assert [e["step"] for e in history] == [1, 2]
    for entry in history:
        shares = sum(entry[f"sandbox/{s}"] for s in ("passed", "failed", "runtime_error", "timeout",
                                                      "memory_limit", "output_limit", "compile_error",
                                                      "no_code", "sandbox_error"))
        assert shares == pytest.approx(1.0)
        assert entry["sandbox/seconds"] >= 0 and math.isfinite(entry["loss"])
    assert result.summary["steps"] == 2
    # resume from the last checkpoint and go one step further
    code_args, grpo_args = args_for(tiny, "warmup-python?split=train&limit=4", out, "--max_steps", "3",
                                    "--resume_from_checkpoint", str(out / "checkpoint-2"))
    assert train(code_args, grpo_args).summary["steps"] == 3


@pytest.mark.slow
def test_embedded_model_trains_a_step(tmp_path):
    from grpo_code.models import DEFAULT_MODEL

    out = tmp_path / "run"
    code_args, grpo_args = parse_train_args(["--model", DEFAULT_MODEL, "--suite", "warmup-python?split=train&limit=2",
                                             "--output_dir", str(out), "--max_steps", "1",
                                             "--per_device_train_batch_size", "4", "--num_generations", "4",
                                             "--max_completion_length", "48", "--save_steps", "1",
                                             "--num_completions_to_print", "0"])
    result = train(code_args, grpo_args)
    entry = next(e for e in _history(out) if "loss" in e)
    assert math.isfinite(entry["loss"]) and entry["rewards/pass_rate/mean"] is not None
    from sandbox import STATUSES

    assert sum(entry[f"sandbox/{status}"] for status in STATUSES) == pytest.approx(1.0)
    assert len(completions_log(out, 1)) == 4
    assert result.summary["model"] == DEFAULT_MODEL


def test_a_grpo_step_with_the_ray_executor_gets_its_rewards(tmp_path, tiny, cases, ray_cluster):
    case = cases["C13"]
    out = tmp_path / "run"
    code_args, grpo_args = args_for(tiny, suite_file(tmp_path, case["task"]), out, "--max_steps", "1",
                                    "--executor", "ray")
    result = train(code_args, grpo_args, rollout_func=forced_rollout(case["completions"]))
    assert list(completions_log(out, 1)["pass_rate"]) == [1.0, 0.0, 1.0, 1.0]
    entry = next(e for e in _history(out) if "loss" in e)
    assert entry["rewards/pass_rate/mean"] == pytest.approx(0.75) and entry["sandbox/completions"] == 4
    nodes = {k: v for k, v in entry.items() if k.startswith("sandbox/node/")}
    assert len(nodes) == 2 and all(v > 0 for v in nodes.values())  # the step's jobs went to both nodes
    assert len(result.summary["mean_sandbox_s_per_step_per_node"]) == 2


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_two_processes_each_score_their_share(tmp_path, tiny):
    # accelerate launch, 2 processes on the CPU, 2 steps: each rank generates and scores its own
    # completions in its own pool; the main process alone prints and writes summary.json.
    # (--multi_gpu is what starts one process per rank, through torchrun, GPUs or not: with --cpu
    # alone, accelerate starts a single process unless MPI is set up.)
    import subprocess
    import sys

    out = tmp_path / "run"
    accelerate = Path(sys.executable).with_name("accelerate")
    proc = subprocess.run(
        [str(accelerate), "launch", "--multi_gpu", "--num_processes", "2", "--num_machines", "1",
         "--mixed_precision", "no", "--dynamo_backend", "no", "--main_process_port", str(_free_port()),
         "-m", "grpo_code.cli", "train", "--model", str(tiny), "--suite", "warmup-python?split=train&limit=4",
         "--output_dir", str(out), "--max_steps", "2", "--per_device_train_batch_size", "4", "--num_generations", "4",
         "--max_completion_length", "24", "--save_steps", "2"],
        capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.count("done: 2 steps") == 1, proc.stdout + proc.stderr[-3000:]
    assert proc.stderr.count("training ") == 1, proc.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["processes"] == 2 and summary["steps"] == 2
    for step in (1, 2):
        table = completions_log(out, step)
        assert len(table) == 8 and sorted(table["rank"].value_counts().to_dict().items()) == [(0, 4), (1, 4)]
        assert table["status"].notna().all() and table["status"].isin(
            ["passed", "failed", "runtime_error", "timeout", "memory_limit", "output_limit", "compile_error",
             "no_code"]).all()
    history = [e for e in _history(out) if "loss" in e]
    assert [e["sandbox/completions"] for e in history] == [8, 8]  # both ranks' completions, gathered
