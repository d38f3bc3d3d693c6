# bower: two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup run test bench docs docs-figures docs-check clean dist

setup: $(STAMP)

# INSTALL: uv into the venv, then uv installs the package and its extras (about 14 s against pip's 51 on the 2-core
# machine, 38 s with the bytecode below); pip itself when uv cannot be had or fails. PYTHONWARNINGS hides setuptools' notice on every editable
# install with a package-dir mapping (how api/, sim/, kernels/ and analysis/ become the one package bower: see
# pyproject.toml). Both compile the installed modules to bytecode (uv only when asked: --compile-bytecode): Python
# does not write it where PYTHONDONTWRITEBYTECODE is set (as on these machines and CI), and every process then
# compiled numpy, numba and pandas from source again, 1.8 s each (a cached `bower simulate --hands 1000`: 3.8 s
# against 1.25)
INSTALL = PYTHONWARNINGS='ignore:Editable installation' sh -c '$(PY) -m pip install -q uv 2>/dev/null \
	&& $(PY) -m uv pip install -q --compile-bytecode --python $(PY) "$$@" \
	|| { $(PY) -m pip install -q --upgrade pip && $(PY) -m pip install -q "$$@"; }' install

# BYTECODE: the project's own modules to bytecode as well (their __pycache__ folders; only the files changed since
# are compiled again), so the processes bower and the tests start read them instead of compiling them
BYTECODE = $(PY) -m compileall -q -j 0 api sim kernels analysis tests benchmarks

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(INSTALL) -e '.[test,dask,docs]'
	touch $(STAMP)

# `bower warm` first: the kernels `bower simulate` loads are compiled (once, with a progress line) or found cached
run: setup
	$(BYTECODE)
	$(VENV)/bin/bower warm --variant ghost --part hands
	$(VENV)/bin/bower simulate

# the documentation site built strictly first (seconds: a broken link fails the suite), then tests.warm: `bower
# warm`'s groups, search included (and the solver's), two processes at a time, into the workers' cache folder; the
# tests marked `xdist_group` run in one worker (a costly module fixture made once)
test: setup
	$(BYTECODE)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict -q -d build/site
	$(PY) -m tests.warm
	$(PY) -m pytest -q -n 2 --dist loadgroup

# then benchmarks/compile.py: every command compiled on an empty Numba cache (many CPU minutes: SKIP_COMPILE=1 leaves
# it out)
bench: setup
	$(INSTALL) -e '.[test,bench,dask]'
	$(PY) benchmarks/run.py
	@if [ "$(SKIP_COMPILE)" = 1 ]; then echo "benchmarks/compile.py skipped (SKIP_COMPILE=1)"; \
	else echo "$(PY) benchmarks/compile.py"; $(PY) benchmarks/compile.py; fi

# the documentation site (mkdocs.yml, docs/) into build/site, strictly (a broken link, a missing page or a docstring
# mkdocstrings cannot read fails it); `make test` builds it too
docs: setup
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

# redraw the figures of README.md and docs/ into docs/img/ from fixed seeds (a few CPU minutes once the kernels are
# cached; one figure: `$(PY) docs/figures.py --only make-rate`)
docs-figures: setup
	$(PY) docs/figures.py

# rerun the commands behind the figures of README.md and docs/ and compare them (outside `make test`; more than an
# hour of CPU since the searched-auction experiments of every variant: run one block with ONLY=NAME); then, without
# ONLY, run the example notebooks (examples/*.ipynb) and compare each cell's output (tests/notebooks.py)
docs-check: setup
	$(PY) -m tests.docs_check $(if $(ONLY),--only $(ONLY))
	$(if $(ONLY),,$(PY) -m tests.notebooks)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -prune -exec rm -rf {} +

# a wheel of this checkout in dist/ (bower is on no package index): `pip install dist/bower_euchre-*.whl` installs it
# in any environment (`'...whl[dask]'` with an extra); with the venv's Python when there is one, else $(PYTHON)
dist:
	$(if $(wildcard $(PY)),$(PY),$(PYTHON)) -m pip wheel --no-deps -w dist .
