"""Ending each completion after its answer's code block: the rule (``extract.answer_end``), the
stopping criterion on a real ``generate`` of a tiny real model, and in-process eval sampling.
The training side (TRL's own generation) is in test_train.py."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_code.suites.extract import answer_end, cut_at_answer
from tiny_model import force_text, make_tiny_model, scripted

ANSWER = "```python\ndef add(a, b):\n    return a + b\n```\n"
PROSE = "This adds the two numbers.\n```python\nprint(add(2, 3))\n```\nMore words follow here."


@pytest.mark.parametrize(("text", "answer"), [
    (ANSWER + PROSE, ANSWER),
    ("Sure:\n" + ANSWER + "Done.", "Sure:\n" + ANSWER),
    # the closing fence is the last line: it may still become "```python" (no end yet)
    ("```python\ndef f():\n    return 1\n```", None),
    ("```python\ndef f():\n    return 1\n", None),  # not closed
    # a block in a language the sandbox does not run, or an empty one, is not the answer
    ("Run:\n```bash\npython main.py\n```\n```python\nx = 1\n```\nok", "Run:\n```bash\npython main.py\n```\n"
                                                                      "```python\nx = 1\n```\n"),
    ("```\n```\n```py\nx = 1\n```\n", "```\n```\n```py\nx = 1\n```\n"),
    # a block inside a reasoning model's draft is not its answer; an unclosed draft has none yet
    ("<think>```python\nx = 1\n```\n</think>" + ANSWER + "tail", "<think>```python\nx = 1\n```\n</think>" + ANSWER),
    ("<think>```python\nx = 1\n```\nhmm", None),
    (ANSWER + "<think>later</think>", ANSWER),  # a section after the answer moves nothing
    # code the generation prefix opened, closed by a bare fence
    ("def f():\n    return 1\n```\nprose", "def f():\n    return 1\n```\n"),
    ("no code at all", None),
])
def test_the_answer_ends_after_its_first_closed_code_block(text, answer):
    end = answer_end(text)
    assert (None if end is None else text[:end]) == answer
    assert cut_at_answer(text) == (text if answer is None else answer)


FENCES = st.sampled_from(["```", "```python", "```py", "```bash", "~~~", "````", "```\n", "\n```\n"])
PIECES = st.lists(FENCES | st.sampled_from(["\n", "x = 1", "def f():", "    return 1", "<think>", "</think>", " "])
                  | st.text(alphabet="`~\n ab<>/", max_size=6), max_size=14).map("".join)


@settings(max_examples=int(os.environ.get("GRPO_CODE_FUZZ_EXAMPLES", "400")), deadline=None)
@given(PIECES, st.sampled_from(["", ANSWER, "~~~\nx = 1\n~~~\n", "<think>```\nx\n```\n</think>"]), PIECES, PIECES)
def test_the_answer_end_is_stable_as_text_grows(head, block, tail, more):
    # what lets generation stop at the first token that closes the answer: nothing that follows
    # can move or undo the end, and the cut text's answer is itself
    text = head + block + tail
    end = answer_end(text)
    if end is not None:
        assert 0 < end <= len(text) and text[end - 1] == "\n"
        assert answer_end(text + more) == end
        assert cut_at_answer(text + more) == text[:end] == cut_at_answer(text[:end])


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = make_tiny_model(tmp_path_factory.mktemp("tiny-stop"))
    return AutoModelForCausalLM.from_pretrained(path), AutoTokenizer.from_pretrained(path)


def _generate(model, tokenizer, texts, stop: bool, max_new_tokens: int = 200):
    from transformers import LogitsProcessorList, StoppingCriteriaList

    from grpo_code.generate.stopping import AnswerStop

    prompts = tokenizer(["<|im_start|>user\nadd<|im_end|>\n<|im_start|>assistant\n"] * len(texts),
                        return_tensors="pt", add_special_tokens=False)
    start = prompts["input_ids"].shape[1]
    criterion = AnswerStop(tokenizer, start)
    output = model.generate(**prompts, max_new_tokens=max_new_tokens, do_sample=False,
                            pad_token_id=tokenizer.pad_token_id,
                            logits_processor=LogitsProcessorList([scripted(tokenizer, texts)]),
                            stopping_criteria=StoppingCriteriaList([criterion] if stop else []))
    return output[:, start:], criterion


def test_generation_stops_right_after_the_closing_fence_line(tiny):
    model, tokenizer = tiny
    long_answer = "```python\ndef add(a, b):\n    s = a\n    s = s + b\n    return s\n```\n"
    texts = [ANSWER + PROSE, long_answer + PROSE]
    free, _ = _generate(model, tokenizer, texts, stop=False)
    stopped, criterion = _generate(model, tokenizer, texts, stop=True)
    decoded = tokenizer.batch_decode(stopped, skip_special_tokens=True)
    assert decoded == [ANSWER, long_answer]
    answer_tokens = [len(tokenizer(t, add_special_tokens=False)["input_ids"]) for t in (ANSWER, long_answer)]
    assert criterion.ended == {0: answer_tokens[0], 1: answer_tokens[1]}
    # the batch ended with its longest answer, long before the prose would have
    assert stopped.shape[1] == max(answer_tokens) < free.shape[1]
    assert tokenizer.batch_decode(free, skip_special_tokens=True) == texts


def test_a_row_without_a_closed_block_runs_to_its_own_end(tiny):
    model, tokenizer = tiny
    texts = [ANSWER + PROSE, "def add(a, b):\n    return a + b\n"]
    stopped, criterion = _generate(model, tokenizer, texts, stop=True)
    assert list(criterion.ended) == [0]
    assert tokenizer.batch_decode(stopped, skip_special_tokens=True) == [ANSWER, texts[1]]


def test_every_row_stopped_before_the_limit_gets_its_end_token():
    import torch
    from transformers import GenerationConfig

    from grpo_code.generate.stopping import AnswerStop, mark_ends

    stop = AnswerStop(tokenizer=None, prompt_length=2)
    stop.ended = {1: 3}  # row 1 ended after 3 new tokens, before the batch's last column
    config = GenerationConfig(eos_token_id=[5, 6], pad_token_id=0, max_new_tokens=10)
    sequences = torch.tensor([[7, 7, 1, 1, 1, 1, 1], [7, 7, 1, 1, 1, 0, 0]])
    assert mark_ends(sequences, stop, config).tolist() == [[7, 7, 1, 1, 1, 1, 1], [7, 7, 1, 1, 1, 5, 0]]
    # a row that ended in the last column: the batch gets a column, the pad for the others
    stop.ended = {0: 5, 1: 3}
    longer = mark_ends(torch.tensor([[7, 7, 1, 1, 1, 1, 1], [7, 7, 1, 1, 1, 0, 0]]), stop, config)
    assert longer.tolist() == [[7, 7, 1, 1, 1, 1, 1, 5], [7, 7, 1, 1, 1, 5, 0, 0]]
    # ended at the token limit: cut there, as any completion at the limit is (no end token)
    stop.ended = {0: 5}
    at_limit = GenerationConfig(eos_token_id=5, pad_token_id=5, max_new_tokens=5)
    assert mark_ends(torch.tensor([[7, 7, 1, 1, 1, 1, 1]]), stop, at_limit).tolist() == [[7, 7, 1, 1, 1, 1, 1]]


def test_eval_sampling_stops_after_the_answer_and_records_it(tiny, tmp_path, monkeypatch):
    from grpo_code.generate.evaluate import generate_samples
    from grpo_code.generate.sampling import SamplingConfig
    from grpo_code.suites.registry import load_suite

    model, tokenizer = tiny
    tokenizer.padding_side = "left"
    force_text(model, monkeypatch, tokenizer, ANSWER + PROSE)
    suite = load_suite("warmup-python?split=train&limit=1")
    todo = [(next(iter(suite)), i) for i in range(2)]
    path = tmp_path / "samples.jsonl"
    config = SamplingConfig(n=2, max_new_tokens=80, stop_after_code_block=True)
    generate_samples(model, tokenizer, suite, todo, config, path, "tiny")
    samples = [json.loads(line) for line in path.read_text().splitlines()]
    answer_tokens = len(tokenizer(ANSWER, add_special_tokens=False)["input_ids"])
    assert [(s["completion"], s["n_tokens"]) for s in samples] == [(ANSWER, answer_tokens)] * 2
    assert all(s["sampling"]["stop_after_code_block"] is True for s in samples)
    assert "stop_after_code_block" not in SamplingConfig().settings()  # older samples' settings unchanged
