"""Each command's work is a library call (``grpo_code.cli`` only parses and prints): the parts
that need no Docker, called as a library caller would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grpo_code.errors import ConfigError
from grpo_code.generate.endpoint import GREEDY, EndpointConfig
from grpo_code.generate.evaluate import plan_eval
from grpo_code.generate.sampling import SamplingConfig, sample_record
from grpo_code.score.scorefile import output_paths, score_file, summary_beside
from grpo_code.service.serve import ServeSettings
from grpo_code.suites.registry import load_suite
from sandbox import DockerExecutor


def test_serve_settings_from_the_options(tmp_path):
    token = tmp_path / "token"
    token.write_text("  s3cret \n")
    settings = ServeSettings.from_options("0.0.0.0", 9000, str(token), max_body_mb=1, max_memory_mb=512,
                                          max_run_timeout=5, environ={})
    assert (settings.token, settings.max_body_bytes, settings.url) == ("s3cret", 2**20, "http://0.0.0.0:9000")
    assert (settings.bounds.max_memory_mb, settings.bounds.max_compile_timeout_s) == (512, 5)
    assert not settings.exposed  # a token guards it
    from_env = ServeSettings.from_options("0.0.0.0", environ={"GRPO_CODE_SERVE_TOKEN": "t"})
    assert from_env.token == "t" and not from_env.exposed
    assert ServeSettings.from_options("0.0.0.0", environ={}).exposed
    assert not ServeSettings.from_options("127.0.0.1", environ={}).exposed


@pytest.mark.parametrize("options, message", [
    ({"port": 0}, "--port must be > 0, got 0"),
    ({"max_memory_mb": 8}, "--max-memory-mb must be at least 16, got 8"),
    ({"max_in_flight": 0}, "--max-in-flight must be >= 1, got 0"),
    ({"max_waiting": -1}, "--max-waiting must be > 0, got -1"),
    ({"token_file": "/nonexistent/token"}, "--token-file: cannot read /nonexistent/token"),
])
def test_serve_settings_refuse_bad_options_in_one_line(options, message):
    with pytest.raises(ConfigError, match="^" + message):
        ServeSettings.from_options(environ={}, **options)


def test_a_samples_file_with_nothing_to_score_starts_no_sandbox_and_writes_nothing(tmp_path):
    samples = tmp_path / "s.jsonl"
    samples.write_text('{"task_id": "nope", "completion": "x"}\nnot json\n')
    executor = DockerExecutor(concurrency=1)
    scored = score_file(samples, load_suite("warmup-python"), executor, [1])
    assert not executor.started and scored.n_scored == 0
    assert [e.line for e in scored.errors] == [1, 2] and "is not in suite 'warmup-python'" in scored.errors[0].message
    assert (scored.results_path, scored.summary_path) == (tmp_path / "s.results.jsonl", tmp_path / "s.summary.json")
    assert not scored.results_path.exists() and not scored.summary_path.exists()
    assert scored.summary["n_samples"] == 0


def test_where_the_results_and_the_summary_go():
    assert output_paths("runs/a.jsonl") == (Path("runs/a.results.jsonl"), Path("runs/a.summary.json"))
    assert output_paths("a.jsonl", "out/r.jsonl") == (Path("out/r.jsonl"), Path("out/r.summary.json"))
    assert summary_beside("x/b.results.jsonl") == Path("x/b.summary.json")


def test_an_eval_plan_counts_what_a_resumed_run_lacks(tmp_path):
    suite = load_suite("warmup-python?limit=2")
    tasks = list(suite)
    config = SamplingConfig(n=2)
    done = [sample_record(tasks[0].task_id, i, "x", "some/model", 1, config.settings("chat")) for i in range(2)]
    (tmp_path / "samples.jsonl").write_text("".join(json.dumps(r) + "\n" for r in done))
    endpoint = EndpointConfig("http://127.0.0.1:9/v1", "some/model")  # a server's run: no model to check here
    plan = plan_eval(suite, tasks, "some/model", config, tmp_path, endpoint)
    assert (plan.out_dir, plan.missing, len(plan.existing)) == (tmp_path, 2, 2)
    assert plan.source == "some/model at http://127.0.0.1:9/v1" and plan.profile_group_size is None
    with pytest.raises(ConfigError, match="holds samples of another model"):
        plan_eval(suite, tasks, "other/model", config, tmp_path, endpoint)
    with pytest.raises(ConfigError, match="--group-size must be >= 2"):
        plan_eval(suite, tasks, "some/model", config, tmp_path, endpoint, profile_group_size=1)


def test_each_option_takes_its_default_from_the_setting_it_fills():
    # One owner per default: the parser's value of an option not given is its owner's default.
    from grpo_code.cli import build_parser
    from grpo_code.curate import calibrate
    from grpo_code.generate import endpoint, sampling
    from grpo_code.options import values
    from grpo_code.service import serve

    parse = build_parser().parse_args
    assert SamplingConfig(**values(parse(["eval", "--suite", "s"]), sampling.SAMPLING_OPTIONS)) == SamplingConfig()
    assert values(parse(["eval", "--suite", "s"]), endpoint.ENDPOINT_OPTIONS) == \
        {"url": None, "api": None, "max_concurrency": None, "max_retries": 5}
    assert endpoint.endpoint_from_options(model=None, **values(parse(["eval", "--suite", "s"]),
                                                                endpoint.ENDPOINT_OPTIONS)) is None
    served = values(parse(["serve"]), serve.OPTIONS)
    assert ServeSettings.from_options(**served, environ={}) == ServeSettings.from_options(environ={})
    rule = values(parse(["tasks", "validate", "s"]), calibrate.RULE_OPTIONS)
    assert calibrate.Rule(**rule) == calibrate.Rule()
    # and a given option reaches its setting
    given = parse(["eval", "--suite", "s", "-n", "3", "--top-p", "0.5", "--greedy", "--request-retries", "1"])
    assert SamplingConfig(**values(given, sampling.SAMPLING_OPTIONS)) == SamplingConfig(n=1, top_p=0.5, greedy=True)
    assert values(given, endpoint.ENDPOINT_OPTIONS)["max_retries"] == 1


def test_greedy_draws_the_most_likely_token_wherever_it_is_drawn():
    greedy, sampled = SamplingConfig(greedy=True, temperature=0.5, n=4), SamplingConfig(temperature=0.5, top_p=0.9)
    assert greedy.n == 1 and greedy.draw() == {} and sampled.draw() == {"temperature": 0.5, "top_p": 0.9}
    # the samples' record, transformers' settings and a server's request all follow draw()
    assert greedy.settings() == {"greedy": True, "max_new_tokens": 384}
    assert sampled.settings("chat") == {"greedy": False, "temperature": 0.5, "top_p": 0.9, "max_new_tokens": 384,
                                        "api": "chat"}
    assert greedy.generation_settings() == {"do_sample": False, "temperature": None, "top_p": None, "top_k": None}
    assert sampled.generation_settings() == {"do_sample": True, "temperature": 0.5, "top_p": 0.9, "top_k": 0}
    assert (greedy.draw() or GREEDY, sampled.draw() or GREEDY) == ({"temperature": 0.0}, sampled.draw())
