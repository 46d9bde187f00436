"""Score completions from Python: a suite, an executor, each program's verdict, and pass@k.

    python examples/score_completions.py

The completions here are written by hand; a model's go the same way (a ``samples.jsonl`` file has
its own command: ``grpo-code score``).
"""

from __future__ import annotations

from grpo_code import load_suite, make_executor, pass_at_k, score_completions

COMPLETIONS = {  # task id -> what a model answered, three times each
    "warmup-python/add": ["```python\ndef add(a, b):\n    return a + b\n```",
                          "def add(a, b):\n    return a - b\n",
                          "Add the two numbers."],
    "warmup-python/square": ["```python\ndef square(x):\n    return x * x\n```",
                             "```python\ndef square(x):\n    return x ** 2\n```",
                             "```python\ndef square(x)\n    return x * x\n```"],
}


def main() -> None:
    """Print each completion's verdict, then each task's pass@1 and pass@2."""
    suite = load_suite("warmup-python")
    pairs = [(suite.get(task_id), completion) for task_id, answers in COMPLETIONS.items() for completion in answers]
    with make_executor(concurrency=2) as executor:  # warm sandbox containers, all removed on leaving
        scored = score_completions(executor, pairs)
    for (task, _), result in zip(pairs, scored, strict=True):
        rate = result.verdict.pass_rate  # None only where the sandbox itself failed
        print(f"{task.task_id}: {result.verdict.status}, pass rate {'-' if rate is None else f'{rate:.2f}'}")
    for task_id, answers in COMPLETIONS.items():
        passed = sum(r.verdict.passed for (task, _), r in zip(pairs, scored, strict=True) if task.task_id == task_id)
        print(f"{task_id}: {passed} of {len(answers)} passed, pass@1 {pass_at_k(len(answers), passed, 1):.2f}, "
              f"pass@2 {pass_at_k(len(answers), passed, 2):.2f}")


if __name__ == "__main__":
    main()
