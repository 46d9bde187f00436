"""``grpo_code.generate.decoding``: the same sequences as the model's ``generate`` (greedy, forced, seeded
sampling) from a real tiny model, though each distinct prompt is encoded once and ended rows
leave the batch; what it leaves to the model's ``generate``. Its hook under TRL's generation call
is tested with the real trainer in test_train.py."""

from __future__ import annotations

from typing import Any

import pytest

from tiny_model import make_tiny_model, scripted

ANSWER = "```python\ndef add(a, b):\n    return a + b\n```\n"
LONG_ANSWER = "```python\ndef add(a, b):\n    s = a\n    s = s + b\n    return s\n```\n"
PROSE = "This adds the two numbers.\n```python\nprint(add(2, 3))\n```\nMore words follow here."
# prompts of three lengths (left padding), two of them twice (one encoding each)
PROMPTS = ["def add(a, b):", "for i in range(10):", "def add(a, b):", "import math\nprint(math.sqrt(2))",
           "for i in range(10):"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """The tiny model, its weights redrawn 25 times as wide: its greedy rows differ from each other
    (at the initial width each row repeats one token)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = make_tiny_model(tmp_path_factory.mktemp("tiny-decoding"))
    model = AutoModelForCausalLM.from_pretrained(path)
    torch.manual_seed(1)
    with torch.no_grad():
        for weights in model.parameters():
            if weights.dim() > 1:
                weights.normal_(0.0, 0.5)
    return model, AutoTokenizer.from_pretrained(path, padding_side="left")


def _both(model, tokenizer, stop: bool = False, seed: int = 0, **settings: Any):
    """``(decoding.sample's output, its AnswerStop, model.generate's output, its AnswerStop)``
    for PROMPTS with ``settings``, each drawn from ``seed``."""
    import torch
    from transformers import GenerationConfig, StoppingCriteriaList

    from grpo_code.generate.decoding import resolve, sample, unsupported
    from grpo_code.generate.stopping import AnswerStop

    processors = settings.pop("logits_processor", None)
    inputs = tokenizer(PROMPTS, return_tensors="pt", padding=True)
    config = GenerationConfig(pad_token_id=tokenizer.pad_token_id, **settings)
    assert unsupported(model, resolve(model, config), inputs["attention_mask"]) is None
    extra = {"logits_processor": processors} if processors else {}
    torch.manual_seed(seed)
    with torch.inference_mode():
        ours, our_stop, _ = sample(model, tokenizer, None, stop, **inputs, generation_config=config, **extra)
    theirs_stop = AnswerStop(tokenizer, inputs["input_ids"].shape[1])
    torch.manual_seed(seed)
    with torch.inference_mode():
        theirs = model.generate(**inputs, generation_config=config,
                                stopping_criteria=StoppingCriteriaList([theirs_stop] if stop else []), **extra)
    return ours, our_stop, theirs, theirs_stop


def test_greedy_rows_end_where_generate_ends_them(tiny):
    model, tokenizer = tiny
    free, _, _, _ = _both(model, tokenizer, max_new_tokens=24, do_sample=False)
    new = free[:, -24:].tolist()
    # an end token that the rows write at different steps: ended rows leave the batch one by one
    end = max({t for row in new for t in row}, key=lambda t: len({row.index(t) for row in new if t in row}))
    ours, _, theirs, _ = _both(model, tokenizer, max_new_tokens=24, do_sample=False, eos_token_id=end)
    assert len({row.index(end) for row in theirs[:, -24:].tolist() if end in row}) >= 2
    assert ours.tolist() == theirs.tolist()


@pytest.mark.parametrize("warper", [{"temperature": 2.5}, {"top_k": 3}, {"top_p": 0.3}, {"min_p": 0.2}])
def test_sampling_draws_what_generate_draws_from_the_same_seed(tiny, warper: dict[str, Any]):
    model, tokenizer = tiny
    plain: dict[str, Any] = {"temperature": 1.0, "top_k": 0, "top_p": 1.0, "min_p": None}
    never = len(tokenizer) + 1  # no end token: no row leaves the batch, both draw the same random numbers
    for seed in range(2):
        ours, _, theirs, _ = _both(model, tokenizer, seed=seed, max_new_tokens=16, do_sample=True,
                                   eos_token_id=never, **{**plain, **warper})
        assert ours.tolist() == theirs.tolist()
        _, _, without, _ = _both(model, tokenizer, seed=seed, max_new_tokens=16, do_sample=True, eos_token_id=never,
                                 **plain)
        assert without.tolist() != theirs.tolist()  # the warper changed what was drawn


def test_forced_rows_stop_after_their_answers_alike(tiny):
    from transformers import LogitsProcessorList

    model, tokenizer = tiny
    texts = [ANSWER + PROSE, LONG_ANSWER + PROSE, "def add(a, b):\n    return a + b\n"]
    ours, our_stop, theirs, their_stop = _both(
        model, tokenizer, stop=True, max_new_tokens=60, do_sample=True, temperature=1.0, top_k=0, top_p=1.0,
        logits_processor=LogitsProcessorList([scripted(tokenizer, texts)]))
    assert ours.tolist() == theirs.tolist()
    assert our_stop.ended == their_stop.ended and sorted(our_stop.ended) == [0, 1, 3, 4]
    prompt_length = tokenizer(PROMPTS, return_tensors="pt", padding=True)["input_ids"].shape[1]
    decoded = tokenizer.batch_decode(ours[:, prompt_length:], skip_special_tokens=True)
    assert decoded == [ANSWER, LONG_ANSWER, texts[2], ANSWER, LONG_ANSWER]  # row 2: no block, its end token


@pytest.mark.parametrize(("settings", "reason"), [
    ({"do_sample": False, "num_beams": 2}, "the setting num_beams=2"),
    ({"do_sample": True, "temperature": 0.8, "top_k": 0, "top_p": 1.0, "repetition_penalty": 1.2},
     "the setting repetition_penalty=1.2"),
    ({"do_sample": True}, "sampling with a default temperature, top-k or top-p (transformers fills them in)"),
    ({"do_sample": False, "return_dict_in_generate": True}, "the setting return_dict_in_generate=True"),
])
def test_other_settings_go_to_generate(tiny, settings, reason):
    import torch
    from transformers import GenerationConfig

    from grpo_code.generate.decoding import resolve, sample, unsupported

    model, tokenizer = tiny
    inputs = tokenizer(PROMPTS, return_tensors="pt", padding=True)
    config = GenerationConfig(max_new_tokens=4, pad_token_id=tokenizer.pad_token_id, **settings)
    assert unsupported(model, resolve(model, config), inputs["attention_mask"]) == reason
    calls = []

    def generate(**kwargs):
        calls.append(kwargs)
        return torch.zeros(1)

    sample(model, tokenizer, generate, False, **inputs, generation_config=config)
    assert len(calls) == 1 and calls[0]["generation_config"] is config


def test_right_padded_prompts_go_to_generate(tiny):
    from grpo_code.generate.decoding import resolve, unsupported

    model, tokenizer = tiny
    tokenizer.padding_side = "right"
    try:
        mask = tokenizer(PROMPTS, return_tensors="pt", padding=True)["attention_mask"]
    finally:
        tokenizer.padding_side = "left"
    assert unsupported(model, resolve(model, None), mask) == "right-padded prompts"
