"""Reinforcement learning: the sandbox's verdict as TRL's reward (``rewards``), the tool-calling
environment (``environment``), the feedback rollout (``rollout``) and the GRPO run that wires
a suite, the reward and a policy into TRL (``train``, ``grpo-code train``)."""
