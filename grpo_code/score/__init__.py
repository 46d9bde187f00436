"""Completions to verdicts: the one path from a (task, completion) to a sandbox verdict
(``scoring``), a samples file scored (``scorefile``, ``grpo-code score``), and the bounded report
a model may be shown of a run on the public tests (``feedback``)."""
