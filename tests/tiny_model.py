"""A tiny, randomly initialised causal LM with a byte-level BPE tokenizer trained in-process.

Real transformers classes, no hub access: what the training tests give the real
``trl.GRPOTrainer``. Byte-level BPE round-trips any text, so forced completions decode exactly.
"""

from __future__ import annotations

from pathlib import Path

CHAT_TEMPLATE = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
                 "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
CORPUS = [
    "def add(a, b):\n    return a + b\n", "def is_even(n):\n    return n % 2 == 0\n",
    "```python\ndef f(x):\n    return x * 2\n```\n", "Write a Python function that returns the sum.",
    "for i in range(10):\n    print(i)\n", "import math\nprint(math.sqrt(2))\n",
] * 20


def make_tiny_model(path: Path, seed: int = 0) -> Path:
    """Save a tiny Llama and its tokenizer to ``path``; returns ``path``."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    torch.manual_seed(seed)
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(CORPUS, trainers.BpeTrainer(
        vocab_size=400, special_tokens=["<|im_start|>", "<|im_end|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|im_end|>",
                                        bos_token="<|im_start|>")
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.padding_side = "left"
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=1024,
                         eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
                         bos_token_id=tokenizer.bos_token_id, tie_word_embeddings=True)
    LlamaForCausalLM(config).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def scripted(tokenizer, texts: list[str]):
    """A logits processor that makes row i of a ``generate`` call write ``texts[i % len(texts)]``,
    then the end token: a real model's ``generate``, its output forced."""
    import torch
    from transformers import LogitsProcessor

    scripts = [tokenizer(t, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id] for t in texts]

    class Script(LogitsProcessor):
        def __init__(self):
            self.start: int | None = None

        def __call__(self, input_ids, scores):
            self.start = input_ids.shape[1] if self.start is None else self.start
            step = input_ids.shape[1] - self.start
            forced = torch.full_like(scores, float("-inf"))
            for row in range(scores.shape[0]):
                script = scripts[row % len(scripts)]
                forced[row, script[min(step, len(script) - 1)]] = 0.0
            return forced

    return Script()


def force_text(model, monkeypatch, tokenizer, text: str) -> None:
    """Make each row of every generation of ``model`` write ``text``, then the end token, by the
    model's own forward (its last logits overwritten): a call with more than one new token per row
    (the prompt) starts the text, each call after it writes the next token. Unlike ``scripted``, it
    needs no logits processor, so it forces any generation loop, one that drops ended rows too."""
    import torch

    script = tokenizer(text, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
    forward = model.forward
    step = [0]

    def forced(*args, **kwargs):
        output = forward(*args, **kwargs)
        ids = kwargs["input_ids"] if "input_ids" in kwargs else args[0]
        step[0] = 0 if ids.shape[1] > 1 else step[0] + 1
        logits = torch.full_like(output.logits[:, -1:, :], float("-inf"))
        logits[:, :, script[min(step[0], len(script) - 1)]] = 0.0
        output.logits = logits
        return output

    monkeypatch.setattr(model, "forward", forced)
