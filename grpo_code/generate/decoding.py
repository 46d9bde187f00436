"""Many completions of few prompts, generated in this process (transformers), without the two
costs the model's ``generate`` pays for them.

A batch of eval's n samples per task, or of a GRPO step's groups, holds each prompt many times,
and its completions end at very different lengths (the answer stop ends most of them early).
``generate`` draws from the same distribution as the model's ``generate`` (the same logits
processors, in the same order), but:

- each distinct prompt is encoded once, and its key/value cache is copied to its rows;
- a row that has ended leaves the batch: each later step runs the rows still running only.

It covers a decoder-only model whose cache is full attention on every layer, sampled or greedy,
with temperature, top-k, top-p and min-p, an ``AnswerStop`` and the caller's own logits
processors (which see the whole batch in its order, as under the model's ``generate``).
``unsupported`` names any other setting (beams, a repetition penalty, a returned dict, right
padding, a sliding-window or recurrent cache): ``sample`` hands such a call, and one with other
arguments (stopping criteria of its own), to the model's ``generate``.
"""

from __future__ import annotations

import copy
import inspect
from typing import Any

from grpo_code.generate.stopping import AnswerStop, end_ids, mark_ends

# generation settings ``generate`` follows at any value, and those it follows at some values only;
# any other setting that differs from transformers' default sends the call to the model's ``generate``
_ANY_VALUE = {"do_sample", "top_k", "top_p", "min_p", "pad_token_id", "bos_token_id", "eos_token_id",
              "disable_compile", "transformers_version", "_from_model_config"}
_SOME_VALUES = {
    "max_new_tokens": lambda v: v is not None and v >= 1,
    "temperature": lambda v: v is None or v > 0,
    "repetition_penalty": lambda v: v in (None, 1.0),
    "use_cache": lambda v: v in (None, True),
    "output_attentions": lambda v: not v,
    "output_hidden_states": lambda v: not v,
    "cache_implementation": lambda v: v in (None, "dynamic"),
}


def resolve(model, config=None):
    """The settings a ``generate(generation_config=config)`` call of ``model`` runs with: the
    model's generation config, updated with those ``config`` sets (that differ from the defaults)."""
    resolved = copy.deepcopy(model.generation_config)
    if config is not None:
        resolved.update(**config.to_diff_dict())
    return resolved


def unsupported(model, config, attention_mask) -> str | None:
    """Why ``generate`` would not do what the model's ``generate`` does with these resolved settings
    (``resolve``) and this prompt mask; None when it would."""
    from transformers.cache_utils import DynamicCache, DynamicLayer

    if getattr(model.config, "is_encoder_decoder", False):
        return "an encoder-decoder model"
    for key, value in config.to_diff_dict().items():
        if key not in _ANY_VALUE and not (key in _SOME_VALUES and _SOME_VALUES[key](value)):
            return f"the setting {key}={value!r}"
    if config.do_sample and None in (config.temperature, config.top_k, config.top_p):
        return "sampling with a default temperature, top-k or top-p (transformers fills them in)"
    if not bool(attention_mask[:, -1].all()):
        return "right-padded prompts"
    if any(type(layer) is not DynamicLayer for layer in DynamicCache(config=model.config).layers):
        return "a cache that is not full attention on every layer"
    return None


def _warpers(config):
    """The sampling warpers the model's ``generate`` applies for ``config``, in its order."""
    from transformers import (
        LogitsProcessorList,
        MinPLogitsWarper,
        TemperatureLogitsWarper,
        TopKLogitsWarper,
        TopPLogitsWarper,
    )

    warpers = LogitsProcessorList()
    if not config.do_sample:
        return warpers
    if config.temperature != 1.0:
        warpers.append(TemperatureLogitsWarper(config.temperature))
    if config.top_k != 0:
        warpers.append(TopKLogitsWarper(config.top_k))
    if config.top_p < 1.0:
        warpers.append(TopPLogitsWarper(config.top_p))
    if config.min_p is not None:
        warpers.append(MinPLogitsWarper(config.min_p))
    return warpers


def _cache_keyword(model) -> str:
    """The forward's name of the cache argument (``cache``; ``past_key_values`` before 5.x renamed it)."""
    return "cache" if "cache" in inspect.signature(type(model).forward).parameters else "past_key_values"


def generate(model, input_ids, attention_mask, config, stop: AnswerStop | None = None,
             logits_processor=None) -> Any:
    """The sequences the model's ``generate`` returns for left-padded prompts (for settings
    ``unsupported`` has no objection to): each row's prompt, then its new tokens, then the pad
    token once it has ended (by an end token, kept, by ``stop``, recorded in its ``ended``, or at
    the token limit). The batch is as wide as its longest row.

    Args:
        model: a causal LM (transformers).
        input_ids: the prompts' tokens, left-padded.
        attention_mask: their mask (0 on the padding).
        config: the resolved generation settings (``resolve``).
        stop: ends a row once its answer's code block has closed.
        logits_processor: the caller's own processors, applied before the sampling warpers to
            the whole batch (a row that has ended holds the pad token).
    """
    import torch
    from transformers.cache_utils import DynamicCache

    rows, prompt_length = input_ids.shape
    device = input_ids.device
    ends = torch.tensor(end_ids(config), dtype=torch.long, device=device)
    pad = config.pad_token_id if config.pad_token_id is not None else int(ends[0]) if len(ends) else 0
    sequences = input_ids.new_full((rows, prompt_length + config.max_new_tokens), pad)
    sequences[:, :prompt_length] = input_ids
    warpers = _warpers(config)
    keyword = _cache_keyword(model)
    # one forward pass per distinct prompt; its cache, copied, is each of its rows' cache
    distinct, row_of = torch.unique(torch.cat([input_ids, attention_mask], dim=1), dim=0, return_inverse=True)
    prompts, masks = distinct[:, :prompt_length], distinct[:, prompt_length:]
    cache = DynamicCache(config=model.config)
    output = model(input_ids=prompts, attention_mask=masks, position_ids=(masks.cumsum(-1) - 1).clamp(min=0),
                   use_cache=True, logits_to_keep=1, **{keyword: cache})
    cache.batch_select_indices(row_of)
    logits = output.logits[row_of, -1, :].float()
    running = torch.arange(rows, device=device)  # the rows still in the batch, in batch order
    mask = attention_mask
    width = prompt_length
    for step in range(config.max_new_tokens):
        width = prompt_length + step + 1
        if logits_processor:
            whole = logits.new_zeros((rows, logits.shape[1]))
            whole[running] = logits
            logits = logits_processor(sequences[:, :width - 1], whole)[running]
        scores = warpers(sequences[running, :width - 1], logits)
        if config.do_sample:
            tokens = torch.multinomial(torch.softmax(scores, dim=-1), num_samples=1).squeeze(1)
        else:
            tokens = scores.argmax(dim=-1)
        sequences[running, width - 1] = tokens
        ended = torch.isin(tokens, ends)
        if stop is not None:
            for i, row in enumerate(running.tolist()):
                if not ended[i] and stop.check(row, sequences[row, prompt_length:width]):
                    ended[i] = True
        if bool(ended.all()) or step == config.max_new_tokens - 1:
            break
        if bool(ended.any()):
            keep = (~ended).nonzero().squeeze(1)
            cache.batch_select_indices(keep)
            running, mask, tokens = running[keep], mask[keep], tokens[keep]
        mask = torch.cat([mask, mask.new_ones((mask.shape[0], 1))], dim=1)
        output = model(input_ids=tokens[:, None], attention_mask=mask, position_ids=mask.sum(-1, keepdim=True) - 1,
                       use_cache=True, **{keyword: cache})
        logits = output.logits[:, -1, :].float()
    return sequences[:, :width]


# the arguments of a call of the model's ``generate`` that ``sample`` can take over
_ARGUMENTS = {"input_ids", "attention_mask", "generation_config", "logits_processor"}


def sample(model, tokenizer, fallback, stop_after_code_block: bool, **kwargs) -> tuple[Any, AnswerStop | None, Any]:
    """What ``model.generate(**kwargs)`` returns (``generate`` where ``unsupported`` allows it, else
    ``fallback``, the model's own generate, called with ``kwargs``), each row ended after its
    answer's code block when ``stop_after_code_block``. Returns the output, the ``AnswerStop``
    (None without the stop) and the resolved settings (``resolve``)."""
    from transformers import StoppingCriteriaList

    input_ids, mask = kwargs["input_ids"], kwargs.get("attention_mask")
    stop = AnswerStop(tokenizer, input_ids.shape[1]) if stop_after_code_block else None
    config = resolve(model, kwargs.get("generation_config"))
    if set(kwargs) <= _ARGUMENTS and mask is not None and unsupported(model, config, mask) is None:
        return generate(model, input_ids, mask, config, stop, kwargs.get("logits_processor")), stop, config
    if stop is not None:
        kwargs["stopping_criteria"] = StoppingCriteriaList([*(kwargs.pop("stopping_criteria", None) or []), stop])
    return fallback(**kwargs), stop, config


def install(model, tokenizer, stop_after_code_block: bool) -> None:
    """Make the model's ``generate``, as TRL's transformers generation calls it
    (``unwrapped_model.generate(**inputs, generation_config=...)``), go through ``sample``, and end
    each row after its answer's code block when ``stop_after_code_block``: a row so ended before the
    token limit gets an end token right after the block (``stopping.mark_ends``), so TRL's completion
    mask ends there. The generate of this instance only is replaced (the class's is untouched;
    saving the model saves no trace of it)."""
    import torch

    original = model.generate

    def generate_rows(*args, **kwargs):
        if args:  # generate(input_ids, ...)
            kwargs, args = {"input_ids": args[0], **kwargs}, args[1:]
        if args or kwargs.get("input_ids") is None:
            return original(*args, **kwargs)
        output, stop, config = sample(model, tokenizer, original, stop_after_code_block, **kwargs)
        if stop is None:
            return output
        if isinstance(output, torch.Tensor):
            return mark_ends(output, stop, config)
        output.sequences = mark_ends(output.sequences, stop, config)
        return output

    model.generate = generate_rows
