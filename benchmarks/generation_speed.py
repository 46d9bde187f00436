"""In-process generation: ``grpo_code.generate.decoding`` against transformers ``generate``, same run.

Draws batches shaped as the demo draws them, from the same model, taking turns for ``--rounds``
rounds, with the answer stop on both sides (``generate`` gets ``AnswerStop`` as a stopping
criterion, as eval and training did before ``decoding``):
- eval: 16 held-out tasks x 6 samples, temperature 0.8, top-p 0.95, 96 tokens at most;
- train: 4 train tasks x 4 completions (a GRPO step of 4 groups), temperature 0.9, top-p 1.0.
Prints each side's seconds and completion tokens per batch shape, and the median ratio of the
rounds' seconds (generate / decoding: above 1, decoding is faster). Each round draws both sides
from the same seed; their completions differ once a row has ended (the rows still running draw
the random numbers), so tokens are printed too.

    python benchmarks/generation_speed.py [--rounds 2] [--model smollm2-135m-instruct]
"""

from __future__ import annotations

import argparse
import statistics
import time

import torch
from transformers import GenerationConfig, StoppingCriteriaList

from grpo_code.generate.decoding import resolve, sample
from grpo_code.generate.evaluate import prompt_text
from grpo_code.generate.models import load_policy
from grpo_code.generate.stopping import AnswerStop
from grpo_code.suites.registry import load_suite

SHAPES = {  # name: (suite, tasks, samples per task, temperature, top-p)
    "eval": ("warmup-python?split=heldout", 16, 6, 0.8, 0.95),
    "train": ("warmup-python?split=train", 4, 4, 0.9, 1.0),
}


def draw(side: str, model, tokenizer, inputs, config, seed: int) -> tuple[float, int]:
    """Seconds and completion tokens of one batch drawn by ``side``."""
    torch.manual_seed(seed)
    started = time.perf_counter()
    with torch.inference_mode():
        if side == "decoding":
            output, _, _ = sample(model, tokenizer, model.generate, True, **inputs, generation_config=config)
        else:
            stop = AnswerStop(tokenizer, inputs["input_ids"].shape[1])
            output = model.generate(**inputs, generation_config=config, stopping_criteria=StoppingCriteriaList([stop]))
    seconds = time.perf_counter() - started
    new = output[:, inputs["input_ids"].shape[1]:]
    ends = {tokenizer.eos_token_id, tokenizer.pad_token_id}
    tokens = sum(next((i for i, t in enumerate(row) if t in ends), len(row)) for row in new.tolist())
    return seconds, tokens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--model", default=None, help="default: the embedded model")
    args = parser.parse_args()
    model, tokenizer = load_policy(args.model)
    for name, (spec, n_tasks, n, temperature, top_p) in SHAPES.items():
        suite = load_suite(spec)
        texts = [prompt_text(tokenizer, suite, task) for task in suite.tasks[:n_tasks] for _ in range(n)]
        inputs = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False)
        config = resolve(model, GenerationConfig(max_new_tokens=96, do_sample=True, temperature=temperature,
                                                 top_p=top_p, top_k=0, pad_token_id=tokenizer.pad_token_id))
        ratios = []
        for round_ in range(args.rounds):
            figures = {side: draw(side, model, tokenizer, inputs, config, seed=round_)
                       for side in (("decoding", "generate") if round_ % 2 == 0 else ("generate", "decoding"))}
            ratios.append(figures["generate"][0] / figures["decoding"][0])
            print(f"{name} round {round_}: " + ", ".join(f"{side} {s:.1f} s ({t} tokens)"
                                                        for side, (s, t) in sorted(figures.items())), flush=True)
        print(f"{name}: {len(texts)} rows, generate / decoding seconds, median of {args.rounds} rounds: "
              f"{statistics.median(ratios):.2f}", flush=True)


if __name__ == "__main__":
    main()
