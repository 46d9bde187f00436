"""grpo-code: GRPO training and pass@k evaluation of code models against a sandboxed verifier."""
