"""GRPO training with the real trl.GRPOTrainer, a tiny real model and the real Docker sandbox."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from transformers import AutoTokenizer, TrainerCallback

from grpo_code.analysis.report import write_report
from grpo_code.analysis.trainlog import load_training_run
from grpo_code.rl.train import parse_train_args, plan_training, train
from tiny_model import make_tiny_model, scripted

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
    result = train(plan_training(code_args, grpo_args), rollout_func=forced_rollout(completions))
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
    result = train(plan_training(code_args, grpo_args), callbacks=[OutageDuringStepTwo()],
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
    result = train(plan_training(code_args, grpo_args))
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
    assert train(plan_training(code_args, grpo_args)).summary["steps"] == 3


@pytest.mark.slow
def test_embedded_model_trains_a_step(tmp_path):
    from grpo_code.generate.models import DEFAULT_MODEL

    out = tmp_path / "run"
    code_args, grpo_args = parse_train_args(["--model", DEFAULT_MODEL, "--suite", "warmup-python?split=train&limit=2",
                                             "--output_dir", str(out), "--max_steps", "1",
                                             "--per_device_train_batch_size", "4", "--num_generations", "4",
                                             "--max_completion_length", "48", "--save_steps", "1",
                                             "--num_completions_to_print", "0"])
    result = train(plan_training(code_args, grpo_args))
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
    result = train(plan_training(code_args, grpo_args), rollout_func=forced_rollout(case["completions"]))
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


BAND_TESTS = [{"kind": "assert", "code": "assert add(1, 2) == 3"}, {"kind": "assert", "code": "assert add(2, 5) == 7"}]
RIGHT_ADD = "```python\ndef add(a, b):\n    return a + b\n```"
WRONG_ADD = "```python\ndef add(a, b):\n    return a * b\n```"


def band_suite(tmp_path: Path) -> tuple[Path, Path]:
    """Four tasks and a profile of them: t/easy always solved, t/hard never, t/mid1 and t/mid2 between."""
    from grpo_code.analysis.difficulty import profile_record, task_profiles, write_profile

    rates = {"t/easy": [1.0] * 8, "t/mid1": [1.0] * 4 + [0.0] * 4, "t/hard": [0.0] * 8,
             "t/mid2": [1.0] * 2 + [0.5] * 2 + [0.0] * 4}
    suite = tmp_path / "band.jsonl"
    suite.write_text("".join(json.dumps({"task_id": t, "prompt": f"Write add(a, b). ({t})", "entry_point": "add",
                                         "tests": BAND_TESTS, "reference_solution": RIGHT_ADD}) + "\n" for t in rates))
    results = [{"task_id": t, "status": "passed" if r == 1.0 else "failed", "pass_rate": r}
               for t, rs in rates.items() for r in rs]
    profile = write_profile(tmp_path, profile_record(task_profiles(results), 4, suite="band", model="m", sampling={},
                                                     n=8))
    return suite, profile


def per_task_rollout(prompts, trainer):
    """t/mid1's group: four right answers (rewards all equal); any other task's: right and wrong mixed."""
    texts = [[RIGHT_ADD] * 4 if "(t/mid1)" in str(p) else [RIGHT_ADD, WRONG_ADD] * 2 for p in prompts[::4]]
    return forced_rollout([text for group in texts for text in group])(prompts, trainer)


def test_the_solve_rate_band_keeps_exactly_its_tasks_and_the_zero_variance_share_is_logged(tmp_path, tiny):
    suite, profile = band_suite(tmp_path)
    out = tmp_path / "run"
    # two groups a step, advantages scaled by the batch's std: TRL's frac_reward_zero_std then says
    # whether all eight rewards were equal, not what share of the groups had equal rewards
    code_args, grpo_args = args_for(tiny, suite, out, "--max_steps", "4", "--profile", str(profile),
                                    "--min_solve_rate", "0.1", "--max_solve_rate", "0.9",
                                    "--per_device_train_batch_size", "8", "--scale_rewards", "batch")
    result = train(plan_training(code_args, grpo_args), rollout_func=per_task_rollout)
    band = result.summary["task_filter"]
    assert band["kept_task_ids"] == ["t/mid1", "t/mid2"] and (band["below_band"], band["above_band"]) == (1, 1)
    assert band["solve_rate"] == "mean_pass_rate" and band["group_size"] == 4
    # by the profile: easy and hard always give equal rewards; mid1 2/70 of the time, mid2 1/70
    assert band["expected_zero_std_all_tasks"] == pytest.approx((1 + 2 / 70 + 1 + 1 / 70) / 4)
    assert band["expected_zero_std_kept_tasks"] == pytest.approx((2 / 70 + 1 / 70) / 2)
    groups = [list(completions_log(out, step)["task_id"].iloc[::4]) for step in (1, 2, 3, 4)]
    assert all(len(g) == 2 for g in groups) and {t for g in groups for t in g} <= {"t/mid1", "t/mid2"}
    # the share of a step's groups with equal rewards, as the summary and the curves carry it:
    # t/mid1's groups (four right answers) have them, t/mid2's do not
    expected = [g.count("t/mid1") / 2 for g in groups]
    assert expected == [0.5] * 4  # each step is an epoch of the two kept tasks (TRL's figure: 0.0)
    assert [v for _, v in result.summary["zero_std_per_step"]] == expected
    assert result.summary["mean_zero_std"] == pytest.approx(sum(expected) / 4)
    assert load_training_run(out).curves.zero_std == expected
    md = write_report([out], tmp_path / "report").files["md"].read_text()
    assert "2 of 4 tasks kept by the profile" in md and "mean pass rate in [0.1, 0.9] (1 below, 1 above)" in md
    assert "share of zero-variance groups" in md


def test_canaries_earn_nothing_and_their_passes_are_the_logged_cheat_rate(tmp_path, tiny, monkeypatch, caplog):
    # The bundled canaries cannot be passed; this run's pool holds one that the forced answer
    # passes, so the policy "cheats" on every completion of it: the rate the run logs, warns about,
    # sums up and reports. Its reward stays 0 (the pass rate would be 1).
    suite = tmp_path / "four.jsonl"
    suite.write_text("".join(json.dumps({"task_id": f"t/{i}", "prompt": f"Write add(a, b). ({i})",
                                         "entry_point": "add", "tests": BAND_TESTS}) + "\n" for i in range(4)))
    pool = tmp_path / "pool.jsonl"
    pool.write_text(json.dumps({"task_id": "canaries/add", "prompt": "Write add(a, b). (canary)", "entry_point": "add",
                                "tests": BAND_TESTS, "metadata": {"canary": True}}) + "\n")
    monkeypatch.setattr("grpo_code.rl.canaries.CANARY_SUITE", str(pool))
    out = tmp_path / "run"
    code_args, grpo_args = args_for(tiny, suite, out, "--max_steps", "3", "--canary_rate", "0.2",
                                    "--per_device_train_batch_size", "8")
    with caplog.at_level("WARNING"):
        result = train(plan_training(code_args, grpo_args), rollout_func=forced_rollout([RIGHT_ADD]))
    s = result.summary
    assert s["canary_tasks"] == ["canaries/add"] and s["options"]["canary_rate"] == 0.2
    logs = [completions_log(out, step) for step in (1, 2, 3)]
    canary = [row for table in logs for row in table.to_dict("records") if row["task_id"] == "canaries/add"]
    others = [row for table in logs for row in table.to_dict("records") if row["task_id"] != "canaries/add"]
    assert canary and all(r["status"] == "passed" and r["pass_rate"] == 0.0 for r in canary)
    assert others and all(r["pass_rate"] == 1.0 for r in others)
    assert (s["canary_completions"], s["canary_passes"], s["cheat_rate"]) == (len(canary), len(canary), 1.0)
    per_step = [sum(t["task_id"] == "canaries/add") for t in logs]
    assert [r for _, r in s["cheat_rate_per_step"]] == [1.0 for n in per_step if n]
    assert "CHEATING" in caplog.text
    md = write_report([out], tmp_path / "report").files["md"].read_text()
    assert f"{len(canary)} of {len(canary)} (100.0%): CHEATING" in md and "**Canary tasks passed" in md


def test_an_empty_band_is_a_clear_error_before_training_starts(tmp_path, tiny):
    import subprocess
    import sys

    suite, profile = band_suite(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "grpo_code.cli", "train", "--model", str(tiny), "--suite", str(suite),
                           "--output_dir", str(tmp_path / "run"), "--profile", str(profile),
                           "--min_solve_rate", "0.6", "--max_solve_rate", "0.9"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert ("error: no task of band has a mean pass rate in [0.6, 0.9] by " in proc.stderr
            and "(3 below, 1 above): widen --min_solve_rate / --max_solve_rate" in proc.stderr), proc.stderr
    assert "training " not in proc.stderr and not (tmp_path / "run").exists()  # nothing started


class ScriptedGeneration(TrainerCallback):
    """A callback that makes TRL's own generation call (the model's ``generate``, whatever wraps it)
    write ``texts``, row by row: the real generate of the real trainer, its output forced."""

    def __init__(self, texts: list[str]):
        self.texts = texts

    def on_train_begin(self, args, state, control, model=None, processing_class=None, **kwargs):
        from transformers import LogitsProcessorList

        generate = model.generate
        model.generate = lambda *a, **kw: generate(
            *a, logits_processor=LogitsProcessorList([scripted(processing_class, self.texts)]), **kw)


PROSE = "\nIt adds a and b.\n```python\nprint(add(2, 3))\n```\nThat is all there is to it, really."


@pytest.mark.parametrize("stop", [True, False])
def test_training_generation_can_stop_after_the_answer_block(tmp_path, tiny, stop):
    suite, _ = band_suite(tmp_path)
    out = tmp_path / "run"
    code_args, grpo_args = args_for(tiny, suite, out, "--max_steps", "1", "--max_completion_length", "120",
                                    *(["--stop_after_code_block"] if stop else []))
    texts = [RIGHT_ADD + PROSE, WRONG_ADD + PROSE]
    train(plan_training(code_args, grpo_args), callbacks=[ScriptedGeneration(texts)])
    log = completions_log(out, 1)
    completions = [c[0]["content"] if not isinstance(c, str) else c for c in log["completion"]]
    answers = [RIGHT_ADD + "\n", WRONG_ADD + "\n"]
    assert completions == (answers if stop else texts) * 2
    assert list(log["pass_rate"]) == [1.0, 0.0, 1.0, 0.0]  # the verdicts of the answers alike
    tokenizer = AutoTokenizer.from_pretrained(tiny)
    longest = max(len(tokenizer(t, add_special_tokens=False)["input_ids"]) for t in (answers if stop else texts))
    entry = next(e for e in _history(out) if "loss" in e)
    # the loss's tokens: each answer and its end token (generation stopped there), or all the prose too
    assert entry["completions/max_length"] == longest + 1
    assert entry["completions/clipped_ratio"] == 0.0  # every completion ended with its end token
