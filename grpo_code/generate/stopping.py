"""Generation that ends each completion after its answer's code block (transformers).

The suites' prompts ask for one fenced code block; a small chat model goes on after it with
prose, usage examples or a second try, which no test reads but which costs every token of
generation and, in training, of the loss's forward and backward passes (a batch is as long as
its longest row). ``AnswerStop`` is a stopping criterion (as ``generate`` takes them) that ends
a row once its text holds a closed code block (``extract.answer_end``); the batch ends when
every row has ended, or at ``max_new_tokens``. ``grpo_code.generate.decoding`` checks it row by row,
under eval's sampling and under TRL's own generation call. A row it ends before the token
limit gets an end-of-sequence token right after the block (``mark_ends``), so TRL's completion
mask ends there and its loss sees the answer and that end token, as if the model had ended its
turn after the block. A ``rollout_func`` of the caller's own generates as it likes.
"""

from __future__ import annotations

from typing import Any

from grpo_code.suites.extract import answer_end


class AnswerStop:
    """Ends each row of a ``generate`` call once its new tokens hold a closed code block: a
    stopping criterion as ``transformers.StoppingCriteriaList`` calls one (torch is imported
    when it is called, so importing this module costs nothing).

    Args:
        tokenizer: the model's tokenizer (decodes the rows).
        prompt_length: the padded prompt's length (the new tokens start there).

    Attributes:
        ended: ``{row: new tokens}`` for each row this criterion ended.
    """

    def __init__(self, tokenizer, prompt_length: int):
        self.tokenizer = tokenizer
        self.prompt_length = prompt_length
        self.ended: dict[int, int] = {}
        self._newline: dict[int, bool] = {}  # token id -> whether its text holds a line break

    def _ends_line(self, token: int) -> bool:
        if token not in self._newline:
            self._newline[token] = "\n" in self.tokenizer.decode([token])
        return self._newline[token]

    def check(self, row: int, new) -> bool:
        """Whether row ``row``, whose new tokens are ``new`` (a 1-D tensor), has ended (recorded in
        ``ended``); its text is decoded only when its last token ends a line."""
        if row in self.ended:
            return True
        # a fence line closes with a line break: only then can the answer have ended
        if (len(new) and self._ends_line(int(new[-1]))
                and answer_end(self.tokenizer.decode(new.tolist(), skip_special_tokens=True)) is not None):
            self.ended[row] = len(new)
            return True
        return False

    def __call__(self, input_ids, scores, **kwargs: Any):
        """A bool tensor, one per row: whether the row has ended (this call or before)."""
        import torch

        new = input_ids[:, self.prompt_length:]
        return torch.tensor([self.check(row, new[row]) for row in range(new.shape[0])], dtype=torch.bool,
                            device=input_ids.device)


def end_ids(generation_config) -> list[int]:
    """The end-of-sequence ids of a generation config (a list, empty when it has none)."""
    eos = generation_config.eos_token_id
    return [] if eos is None else [eos] if isinstance(eos, int) else list(eos)


def mark_ends(sequences, stop: AnswerStop, generation_config):
    """Put an end-of-sequence token right after each row ``stop`` ended before
    ``max_new_tokens``, so that TRL, which ends a completion at its first end token, ends each
    of them there alike. Where such a row ended in the batch's last column, the batch gets one
    more column (the pad token for every other row, all of which have ended too: the batch
    stopped before its limit). Returns the sequences (``sequences`` itself when no column was
    added)."""
    import torch

    ends = end_ids(generation_config)
    limit = generation_config.max_new_tokens
    rows = {row: n for row, n in stop.ended.items() if limit is None or n < limit}
    if not ends or not rows:
        return sequences
    width = stop.prompt_length + max(rows.values()) + 1
    if width > sequences.shape[1]:
        pad = ends[0] if generation_config.pad_token_id is None else generation_config.pad_token_id
        extra = sequences.new_full((sequences.shape[0], width - sequences.shape[1]), pad)
        sequences = torch.cat([sequences, extra], dim=1)
    for row, n in rows.items():
        sequences[row, stop.prompt_length + n] = ends[0]
    return sequences
