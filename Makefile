# The two commands of the README: `make demo` (the main job on the embedded defaults) and
# `make test`. Both do all the set-up on a fresh Debian machine; every step is idempotent.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
# CPU build of PyTorch (pinned: an unpinned torch pulls a multi-GB CUDA build).
TORCH  ?= torch==2.13.0
PYTEST_ARGS ?=

.PHONY: setup venv docker image test test-fast demo bench clean

setup: venv docker image

venv: $(BIN)/grpo-code

$(BIN)/grpo-code: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q "$(TORCH)"
	$(BIN)/pip install -q -e ".[train,dev]"
	touch $@

docker:
	.ci/docker-up

image: venv docker
	$(BIN)/grpo-code sandbox build

test: setup
	$(BIN)/python -m pytest $(PYTEST_ARGS)

test-fast: setup
	$(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS)

demo: setup
	$(BIN)/grpo-code score tasks/humaneval/samples-example.jsonl --suite humaneval -k 1

bench: setup
	$(BIN)/python benchmarks/sandbox_throughput.py

clean:
	-$(BIN)/grpo-code sandbox clean
	rm -rf $(VENV) .pytest_cache
