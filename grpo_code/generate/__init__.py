"""Completions from a model: sampling settings and records, the answer stop, in-process decoding,
an OpenAI-compatible endpoint, loading the policy, and the evaluation run that samples, scores
and summarises (``evaluate``, ``grpo-code eval``)."""
