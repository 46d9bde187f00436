"""The training environment (TRL's environment_factory) and the feedback-turn rollout: with the real
sandbox, and one real trl.GRPOTrainer step of each with the embedded model."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path
from types import SimpleNamespace

import pytest

from grpo_code.errors import ConfigError
from grpo_code.rl.environment import CodeEnvironment, CodeEnvironmentFactory, EnvironmentSettings, EnvironmentVerdicts
from grpo_code.rl.rewards import DEFAULT_RULES, PassRateReward
from grpo_code.rl.rules import RewardRules
from grpo_code.score.feedback import public_report
from grpo_code.score.scoring import program_of
from grpo_code.suites.tasks import TaskSuite, parse_task
from sandbox.types import Verdict

ADD = {"task_id": "crafted/add", "prompt": "Write a Python function `add(a, b)` that returns a + b.",
       "entry_point": "add", "reference_solution": "def add(a, b):\n    return a + b\n",
       "tests": [{"kind": "assert", "code": "assert add(2, 3) == 5", "visibility": "public"},
                 {"kind": "call", "fn_name": "add", "args": [40, 2], "expected": 42, "visibility": "public"},
                 {"kind": "assert", "code": "assert add(1234, 4321) == 5555"},
                 {"kind": "call", "fn_name": "add", "args": [9876, 1], "expected": 9877}]}
ADD_HIDDEN = ("1234", "4321", "5555", "9876", "9877")
RIGHT = "def add(a, b):\n    return a + b\n"
HARD_CODED = "def add(a, b):\n    return {(2, 3): 5, (40, 2): 42}.get((a, b), 0)\n"
WRONG = "def add(a, b):\n    return a - b\n"
# Nobody can guess the code word, so every first answer fails its public test and gets feedback.
SECRET = {"task_id": "crafted/code-word",
          "prompt": "Write a Python function `code_word()` that returns the project's code word, a string.",
          "entry_point": "code_word", "reference_solution": "def code_word():\n    return 'tangerine-42'\n",
          "tests": [{"kind": "call", "fn_name": "code_word", "args": [], "expected": "tangerine-42",
                     "visibility": "public"},
                    {"kind": "assert", "code": "assert code_word()[::-1] == '24-eniregnat'"},
                    {"kind": "assert", "code": "assert len(code_word()) == 12 and code_word().count('-') == 1"}]}
SECRET_HIDDEN = ("24-eniregnat", "len(code_word()) == 12", "count('-')")


def _suite(*tasks: dict) -> TaskSuite:
    return TaskSuite("crafted", tuple(parse_task(t) for t in tasks))


def _factory(executor, max_tool_calls: int = 4, rules: RewardRules = DEFAULT_RULES) -> CodeEnvironmentFactory:
    return CodeEnvironmentFactory(PassRateReward(_suite(ADD, SECRET), executor, rules),
                                  EnvironmentSettings(max_tool_calls=max_tool_calls))


def test_training_options_are_checked_before_anything_starts():
    from grpo_code.rl.train import GrpoCodeArguments, plan_training

    for kwargs, words in (({"environment": "agents"}, "--environment must be one of none, tools, feedback"),
                          ({"improvement_bonus": 0.5}, "--improvement_bonus needs --environment feedback"),
                          ({"max_tool_calls": 0}, "--max_tool_calls must be >= 1"),
                          ({"reward_tests": "public"}, "--reward_tests must be one of all, hidden"),
                          ({"stop_after_code_block": True, "environment": "tools"},
                           "--stop_after_code_block does not go with --environment tools")):
        with pytest.raises(ConfigError, match=words):
            GrpoCodeArguments(**kwargs)
    with pytest.raises(ConfigError, match=r"needs a hidden test in every task; 1 task\(s\) have none"):
        mbpp = Path(__file__).parent / "fixtures" / "adapters" / "mbpp.jsonl"  # its prompt shows every test
        plan_training(GrpoCodeArguments(suite=f"hf:{mbpp}?adapter=mbpp&limit=1", reward_tests="hidden"),
                      SimpleNamespace(num_generations=8, use_vllm=False))
    with pytest.raises(ConfigError, match="acts on transformers' generation, not vLLM's"):
        plan_training(GrpoCodeArguments(stop_after_code_block=True), SimpleNamespace(num_generations=8, use_vllm=True))


def test_a_chatml_model_without_tools_gets_a_template_that_renders_them():
    from trl.chat_template_utils import supports_tool_calling

    from grpo_code.generate.models import embedded_checkpoint, load_tokenizer
    from grpo_code.rl.environment import tool_calling_tokenizer
    from grpo_code.rl.rollout import user_turn_ids

    tokenizer = load_tokenizer(str(embedded_checkpoint()))
    assert not supports_tool_calling(tokenizer)
    # its own template joins a user turn after an answer's end-of-turn token like this
    ids = user_turn_ids(tokenizer, "2 of 3 public tests passed.")
    assert tokenizer.decode(ids) == "\n<|im_start|>user\n2 of 3 public tests passed.<|im_end|>\n<|im_start|>assistant\n"
    assert supports_tool_calling(tool_calling_tokenizer(tokenizer))
    other = load_tokenizer(str(embedded_checkpoint()))
    other.eos_token = "<|endoftext|>"  # not a ChatML end of turn: we do not guess a template
    with pytest.raises(ConfigError, match="cannot render tool calls"):
        tool_calling_tokenizer(other)


@pytest.mark.docker
def test_run_tests_shows_public_tests_only_and_every_rollout_shares_the_executor(executor):
    factory = _factory(executor)
    before = executor.stats()
    envs = [factory() for _ in range(6)]
    notes = [env.reset(task_id="crafted/add", prompt="...") for env in envs]
    assert notes[0] == ("\n\nrun_tests(code) runs a program on this task's 2 public tests (at most 4 calls). The last "
                        "program you pass to run_tests is your answer, scored on every test of the task.")
    programs = [RIGHT, HARD_CODED, WRONG, f"```python\n{RIGHT}```", "def add(a, b) return", "no code here"]

    async def rollouts():  # TRL awaits the tools of many rollouts on one event loop
        reports = await asyncio.gather(*(env.run_tests(p) for env, p in zip(envs, programs, strict=True)))
        verdicts = EnvironmentVerdicts(factory)
        logged: dict[str, object] = {}
        rewards = await verdicts([""] * 6, [""] * 6, task_id=["crafted/add"] * 6, environments=envs,
                                 log_metric=logged.__setitem__, log_extra=logged.__setitem__)
        own = [await env.get_reward() for env in envs]
        return reports, rewards, own, logged

    reports, rewards, own, logged = asyncio.run(rollouts())
    assert reports[0] == reports[1] == reports[3] == "All public tests passed (2 of 2)."
    assert reports[2].startswith("0 of 2 public tests passed.\n\nTest 1: failed\n```python\nassert add(2, 3) == 5")
    assert "Call: add(40, 2)\nExpected return value: 42\nWhat happened: " in reports[2]
    assert reports[4].startswith("The program does not compile, so none of the 2 public tests ran")
    assert reports[5] == "No program was found in what you sent: send the complete program as code."
    assert not any(mark in report for report in reports for mark in ADD_HIDDEN)
    # the reward: the answer on every test, PassRateReward's rules; get_reward reads the same verdicts
    assert rewards == own == [1.0, 0.5, 0.0, 1.0, 0.0, 0.0]
    assert logged["sandbox/public_pass_rate"] == pytest.approx(0.5)
    assert logged["sandbox/visibility_gap"] == pytest.approx(1 / 6)  # the hard-coded answer: 1.0 - 0.0, of six
    assert logged["tool_calls"] == [1] * 6 and logged["status"][:3] == ["passed", "failed", "failed"]
    after = executor.stats()
    assert after.containers_started == before.containers_started  # one pool for every rollout
    assert after.jobs - before.jobs == 10  # 5 public runs, then 5 answers in one batch (no_code never runs)


@pytest.mark.docker
def test_the_answer_is_the_last_program_tested_and_calls_are_limited(executor):
    factory = _factory(executor, max_tool_calls=2)
    env = factory()

    async def rollout():
        env.reset(task_id="crafted/add")
        first = await env.run_tests(WRONG)
        second = await env.run_tests(HARD_CODED)
        third = await env.run_tests(RIGHT)  # over the limit: not run, but it is the answer
        return first, second, third, await env.get_reward()

    first, second, third, reward = asyncio.run(rollout())
    assert first.startswith("0 of 2") and second.startswith("All public tests passed")
    assert third == "Not run: the limit of 2 run_tests calls is reached. This program is your answer."
    assert (env.tool_calls, env.answer, reward) == (3, RIGHT, 1.0)
    silent = factory()
    silent.reset(task_id="crafted/add")
    assert asyncio.run(silent.get_reward()) == 0.0  # never called run_tests: no_code
    hidden = _factory(executor, rules=RewardRules(reward_tests="hidden"))()
    hidden.reset(task_id="crafted/add")
    assert asyncio.run(hidden.run_tests(HARD_CODED)).startswith("All public")
    assert asyncio.run(hidden.get_reward()) == 0.0  # the hidden tests alone: the special-casing earns nothing


@pytest.mark.docker
def test_a_sandbox_failure_is_no_reward_and_nothing_raises(executor, monkeypatch):
    from sandbox.container import SandboxContainer
    from sandbox.types import SandboxFault

    def refuse(self, job):
        raise SandboxFault("injected: container start refused")

    monkeypatch.setattr(SandboxContainer, "submit", refuse)
    monkeypatch.setattr("sandbox.executor.RETRY_BACKOFF_S", (0.0,))
    env = _factory(executor)()
    env.reset(task_id="crafted/add")
    report = asyncio.run(env.run_tests(RIGHT))
    assert report == "The tests could not be run this time (a failure of the sandbox, not of your program)."
    assert asyncio.run(env.get_reward()) is None  # sandbox_error: None, never 0
    broken = CodeEnvironment(_factory(executor))  # never reset: a bug of ours, still no raise into TRL
    assert asyncio.run(broken.get_reward()) is None


# -- one real GRPO step of each ----------------------------------------------------------------------


def _suite_file(tmp_path: Path, task: dict) -> Path:
    path = tmp_path / "suite.jsonl"
    path.write_text(json.dumps(task) + "\n")
    return path


def _spy_on_the_sandbox(monkeypatch) -> list:
    """Every (job, verdict) the executor runs (the real run, recorded)."""
    from sandbox.executor import DockerExecutor

    ran: list = []
    original, original_async = DockerExecutor.run, DockerExecutor.arun

    def run(self, jobs, on_verdict=None):
        verdicts = original(self, jobs, on_verdict=on_verdict)
        ran.extend(zip(jobs, verdicts, strict=True))
        return verdicts

    async def arun(self, jobs):
        verdicts = await original_async(self, jobs)
        ran.extend(zip(jobs, verdicts, strict=True))
        return verdicts

    monkeypatch.setattr(DockerExecutor, "run", run)
    monkeypatch.setattr(DockerExecutor, "arun", arun)
    return ran


def _args(tmp_path: Path, suite: Path, *extra: str):
    from grpo_code.generate.models import DEFAULT_MODEL
    from grpo_code.rl.train import parse_train_args

    return parse_train_args(["--model", DEFAULT_MODEL, "--suite", str(suite), "--output_dir", str(tmp_path / "run"),
                             "--max_steps", "1", "--per_device_train_batch_size", "2", "--num_generations", "2",
                             "--save_strategy", "no", "--num_completions_to_print", "0",
                             "--sandbox_concurrency", "2", *extra])


def _logged(tmp_path: Path):
    import pandas as pd

    table = pd.read_parquet(tmp_path / "run" / "completions" / "completions_00001.parquet")
    history = json.loads((tmp_path / "run" / "trainer_state.json").read_text())["log_history"]
    return table, next(e for e in history if "loss" in e)


def _text(value) -> str:
    """Everything a logged prompt or completion holds (messages, tool calls, tool results)."""
    return json.dumps(value.tolist() if hasattr(value, "tolist") else value, default=str)


@pytest.mark.docker
@pytest.mark.slow
def test_a_grpo_step_with_the_environment(tmp_path, monkeypatch):
    from grpo_code.rl.train import plan_training, train

    ran = _spy_on_the_sandbox(monkeypatch)
    rewards: list = []
    original = CodeEnvironment.get_reward

    async def get_reward(self):
        rewards.append(await original(self))
        return rewards[-1]

    monkeypatch.setattr(CodeEnvironment, "get_reward", get_reward)
    calls = {0: HARD_CODED, 1: RIGHT}

    def first_turn(prompts, trainer):
        # the first assistant turn of each rollout is a tool call (a 135M model seldom makes one by
        # itself); TRL's tool loop parses it, calls the environment and the model goes on generating
        tok = trainer.processing_class
        prompt_ids = [tok.apply_chat_template(p, tools=trainer.tools, add_generation_prompt=True, tokenize=True,
                                              return_dict=True)["input_ids"] for p in prompts]
        calls_made = [json.dumps({"name": "run_tests", "arguments": {"code": calls[i % 2]}})
                      for i in range(len(prompts))]
        texts = [f"<tool_call>\n{call}\n</tool_call>" for call in calls_made]
        completion_ids = [tok(t, add_special_tokens=False)["input_ids"] + [tok.eos_token_id] for t in texts]
        # no logprobs, as transformers' generation gives none (TRL's tool loop then keeps none either)
        return {"prompt_ids": prompt_ids, "completion_ids": completion_ids, "logprobs": None}

    code_args, grpo_args = _args(tmp_path, _suite_file(tmp_path, ADD), "--environment", "tools",
                                 "--max_completion_length", "128")
    result = train(plan_training(code_args, grpo_args), rollout_func=first_turn)
    table, entry = _logged(tmp_path)
    # the tool calls reached the executor: the public tests alone, for each program
    public_runs = [(job, verdict) for job, verdict in ran if len(job.tests) == 2]
    assert sorted(job.program for job, _ in public_runs) == sorted([HARD_CODED, RIGHT])
    assert all(t.visibility == "public" for job, _ in public_runs for t in job.tests)
    assert entry["tools/call_frequency"] == 1 and list(table["tool_calls"]) == [1, 1]
    # the reward came from get_reward: its values are the environment's column and what trained
    assert sorted(rewards) == [0.5, 1.0] and list(table["CodeEnvironment"]) == rewards
    assert entry["rewards/CodeEnvironment/mean"] == pytest.approx(0.75) == entry["reward"]
    assert list(table["pass_rate"]) == rewards  # logged with weight 0: the same verdicts
    assert table["advantage"].iloc[rewards.index(1.0)] > 0 > table["advantage"].iloc[rewards.index(0.5)]
    assert (entry["sandbox/public_pass_rate"], entry["sandbox/hidden_pass_rate"],
            entry["sandbox/visibility_gap"]) == (1.0, 0.5, 0.5)  # the hard-coded answer's 1.0 - 0.0, the right one's 0
    assert result.summary["mean_visibility_gap"] == 0.5 and result.summary["mean_tool_calls"] == 1
    # each tool result is in the logged completion, and no hidden test is anywhere the model or a reader sees
    for completion in table["completion"]:
        tool = [m for m in completion if m["role"] == "tool"]
        assert len(tool) == 1 and tool[0]["content"] == "All public tests passed (2 of 2)."
    seen = "".join(_text(v) for v in table["prompt"]) + "".join(_text(v) for v in table["completion"])
    assert "run_tests" in seen and not any(mark in seen for mark in ADD_HIDDEN)
    assert math.isfinite(entry["loss"])


@pytest.mark.docker
@pytest.mark.slow
def test_a_grpo_step_with_feedback_turns(tmp_path, monkeypatch):
    from grpo_code.rl.rollout import RETRY_REQUEST, FeedbackRollout
    from grpo_code.rl.train import plan_training, train

    ran = _spy_on_the_sandbox(monkeypatch)
    outputs: list = []
    original = FeedbackRollout.__call__

    def rollout(self, prompts, trainer):
        outputs.append((original(self, prompts, trainer), trainer.processing_class))
        return outputs[-1][0]

    monkeypatch.setattr(FeedbackRollout, "__call__", rollout)
    code_args, grpo_args = _args(tmp_path, _suite_file(tmp_path, SECRET), "--environment", "feedback",
                                 "--max_completion_length", "200", "--feedback_turns", "2")
    train(plan_training(code_args, grpo_args))
    table, entry = _logged(tmp_path)
    (out, tokenizer), = outputs
    assert out["feedback_turns"] == [1, 1]  # every first answer failed the public test and was told so
    assert list(table["feedback_turns"]) == [1, 1] and entry["feedback/turns"] == 1
    # the feedback runs had the public test alone, and each report the model read is made from its run
    task = parse_task(SECRET)
    public_runs = {job.program: verdict for job, verdict in ran if len(job.tests) == 1}
    assert all(job.tests[0].visibility == "public" for job, _ in ran if len(job.tests) == 1)
    for ids, mask, first in zip(out["completion_ids"], out["env_mask"], out["first_answer"], strict=False):
        fed = tokenizer.decode([t for t, m in zip(ids, mask, strict=False) if m == 0])
        program = program_of(task, first)
        verdict = public_runs[program] if program is not None else \
            Verdict.program_level("no_code", 1, "no runnable code could be extracted from the completion")
        assert f"user\n{public_report(task.public_tests, verdict)}\n\n{RETRY_REQUEST}" in fed
        assert fed.rstrip().endswith("assistant")
        assert 0 < sum(mask) < len(ids)  # the model's own tokens train, the feedback's do not
    # the reward is the last answer's verdict on all tests
    final = {job.program: verdict for job, verdict in ran if len(job.tests) == 3}
    programs = [program_of(task, answer) for answer in out["last_answer"]]
    assert set(final) == {p for p in programs if p is not None}
    assert list(table["pass_rate"]) == [final[p].pass_rate if p is not None else 0.0 for p in programs]
    seen = "".join(_text(v) for v in table["prompt"]) + "".join(_text(v) for v in table["completion"])
    assert RETRY_REQUEST in seen  # the feedback turns are in the logged completions
    assert not any(mark in seen for mark in SECRET_HIDDEN)
    assert entry["completions/mean_length"] < sum(len(ids) for ids in out["completion_ids"]) / 2
