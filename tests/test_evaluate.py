"""`grpo-code eval`: sampling from a real (tiny) model, scoring in the real sandbox, resuming."""

from __future__ import annotations

import csv
import json
import math
import statistics

import pytest

from grpo_code.generate.evaluate import evaluate, read_existing
from grpo_code.generate.models import load_policy
from grpo_code.generate.sampling import SamplingConfig
from grpo_code.suites.registry import load_suite
from tiny_model import make_tiny_model

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return load_policy(str(make_tiny_model(tmp_path_factory.mktemp("tiny-eval"))))


def test_eval_samples_scores_and_resumes(executor, tiny, tmp_path):
    suite = load_suite("warmup-python")
    tasks = list(suite)[:3]
    config = SamplingConfig(n=2, max_new_tokens=12, batch_size=4, temperature=1.0)
    first = evaluate(suite, tasks, "tiny", config, [1, 2, 5], tmp_path, executor, model_and_tokenizer=tiny)
    samples = read_existing(tmp_path / "samples.jsonl")
    assert len(samples) == 6 and {s["completion_id"] for s in samples} == {0, 1}
    assert all(s["model"] == "tiny" and 0 < s["n_tokens"] <= 12 for s in samples)
    s = first.summary
    assert s["n_samples"] == 6 and s["n_tasks"] == 3 and s["generated_samples"] == 6
    assert s["pass@5"] is None  # k > n: missing, never 1.0
    assert s["generation_tokens_per_s"] > 0 and s["samples_scored_per_s"] > 0
    assert sum(s["status_counts"].values()) == 6
    rows = list(csv.DictReader((tmp_path / "per_task.csv").open()))
    assert [r["task_id"] for r in rows] == [t.task_id for t in tasks] and all(r["n"] == "2" for r in rows)
    # the uncertainty over the 3 tasks, recomputed from per_task.csv: s / sqrt(T) of the tasks' values
    for key in ("pass@1", "mean_pass_rate"):
        values = [float(r[key]) for r in rows]
        assert s[f"{key}_se"] == pytest.approx(statistics.stdev(values) / math.sqrt(3))
        low, high = s["ci"][key]
        assert min(values) <= low <= s[key] <= high <= max(values)
    assert s["pass@5_se"] is None and s["ci"]["pass@5"] is None
    assert json.loads((tmp_path / "summary.json").read_text())["ci"] == s["ci"]
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 6

    # resume: two more samples per task; the first six are kept, not generated again
    config4 = SamplingConfig(n=4, max_new_tokens=12, batch_size=4, temperature=1.0)
    second = evaluate(suite, tasks, "tiny", config4, [1, 2, 4], tmp_path, executor, model_and_tokenizer=tiny)
    assert second.summary["generated_samples"] == 6 and second.summary["n_samples"] == 12
    assert read_existing(tmp_path / "samples.jsonl")[:6] == samples
    # a half-written last line (a crash mid-write) is dropped; nothing is missing, so nothing is drawn
    with (tmp_path / "samples.jsonl").open("a") as f:
        f.write('{"task_id": "warmup-python/add", "compl')
    third = evaluate(suite, tasks, "tiny", config4, [1], tmp_path, executor, model_and_tokenizer=tiny)
    assert third.summary["n_samples"] == 12 and len(read_existing(tmp_path / "samples.jsonl")) == 12
    config5 = SamplingConfig(n=5, max_new_tokens=12, batch_size=4, temperature=1.0)
    fourth = evaluate(suite, tasks, "tiny", config5, [1], tmp_path, executor, model_and_tokenizer=tiny)
    lines = (tmp_path / "samples.jsonl").read_text().splitlines()
    assert fourth.summary["n_samples"] == 15 and len(lines) == 15 and all(json.loads(line) for line in lines)


def test_eval_refuses_to_mix_models(executor, tiny, tmp_path):
    (tmp_path / "samples.jsonl").write_text(json.dumps({"task_id": "warmup-python/add", "completion_id": 0,
                                                         "completion": "x", "model": "other"}) + "\n")
    suite = load_suite("warmup-python")
    with pytest.raises(ValueError, match="another model"):
        evaluate(suite, list(suite)[:1], "tiny", SamplingConfig(n=1), [1], tmp_path, executor,
                 model_and_tokenizer=tiny)


def test_eval_refuses_to_mix_sampling_settings(executor, tiny, tmp_path):
    suite = load_suite("warmup-python")
    tasks = list(suite)[:1]
    evaluate(suite, tasks, "tiny", SamplingConfig(n=1, max_new_tokens=8), [1], tmp_path, executor,
             model_and_tokenizer=tiny)
    with pytest.raises(ValueError, match="other settings"):
        evaluate(suite, tasks, "tiny", SamplingConfig(n=2, max_new_tokens=8, temperature=0.2), [1], tmp_path,
                 executor, model_and_tokenizer=tiny)
    first = json.loads((tmp_path / "summary.json").read_text())
    again = evaluate(suite, tasks, "tiny", SamplingConfig(n=1, max_new_tokens=8), [1], tmp_path, executor,
                     model_and_tokenizer=tiny)
    assert again.summary["generation_tokens_per_s"] == first["generation_tokens_per_s"] > 0  # kept on resume


def test_greedy_is_deterministic(executor, tiny, tmp_path):
    suite = load_suite("warmup-python")
    tasks = list(suite)[:2]
    runs = []
    for name in ("a", "b"):
        evaluate(suite, tasks, "tiny", SamplingConfig(greedy=True, max_new_tokens=10), [1], tmp_path / name,
                 executor, model_and_tokenizer=tiny)
        runs.append([s["completion"] for s in read_existing(tmp_path / name / "samples.jsonl")])
    assert runs[0] == runs[1] and len(runs[0]) == 2


def test_each_batch_draws_from_its_own_seed(tiny, tmp_path):
    """Two evaluations with the same settings draw each batch from the same random numbers, whatever
    the batches before drew (a longer batch draws more): the before and after evaluations of a
    training run share their sampling noise (common random numbers), which the paired test gains
    from. The random numbers the other run's first batch did not draw are taken here after it."""
    import torch

    from grpo_code.generate.evaluate import generate_samples

    suite = load_suite("warmup-python")
    todo = [(task, 0) for task in list(suite)[:3]]
    config = SamplingConfig(n=1, max_new_tokens=12, batch_size=1, temperature=1.0, seed=5)
    model, tokenizer = tiny
    runs = []
    for name, after_batch in (("a", None), ("b", lambda n: torch.rand(4096))):
        generate_samples(model, tokenizer, suite, todo, config, tmp_path / f"{name}.jsonl", "tiny", after_batch)
        runs.append([s["completion"] for s in read_existing(tmp_path / f"{name}.jsonl")])
    assert runs[0] == runs[1] and len(set(runs[0])) == 3
    other = SamplingConfig(n=1, max_new_tokens=12, batch_size=1, temperature=1.0, seed=6)
    generate_samples(model, tokenizer, suite, todo, other, tmp_path / "c.jsonl", "tiny")
    assert [s["completion"] for s in read_existing(tmp_path / "c.jsonl")] != runs[0]
