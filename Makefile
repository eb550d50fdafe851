# refbrowse: `make demo` and `make test` work from a clean clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install chromium demo test check bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --config-settings editable_mode=compat -e '.[dev]'
	touch $@

# Byte-compile every time: this machine sets PYTHONDONTWRITEBYTECODE, and the
# CLI's start-up budget has no room for compiling the package on each call.
install: $(STAMP)
	@$(BIN)/python -m compileall -q src

chromium: install
	@sh scripts/ensure-chromium.sh $(BIN)/python

demo: install chromium
	@sh scripts/demo.sh $(BIN)

test: install chromium
	$(BIN)/python -m pytest -q

check: install
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

bench: install chromium
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build src/*.egg-info
