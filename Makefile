# Two commands do everything on a fresh machine with Python 3.11:
#   make rulebook   compile every ruleset, verify every worked example, build the site
#   make test       run the test suite
#   make fuzz       feed the tools thousands of malformed inputs (a few hundred run in `make test`)
# Each creates the virtual environment .venv first if it is missing or stale.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

.PHONY: rulebook test fuzz serve bench bench-compare clean
rulebook: $(STAMP)
	$(VENV)/bin/rulebook build

test: $(STAMP)
	$(VENV)/bin/python -m pytest -n auto --dist loadgroup

# RULEBOOK_FUZZ selects the random "rulebook-fuzz" hypothesis profile (tests/fuzzing.py);
# RULEBOOK_FUZZ_SCALE multiplies each fuzz test's cases (10: about 4,500 in all).
fuzz: $(STAMP)
	RULEBOOK_FUZZ=1 RULEBOOK_FUZZ_SCALE=$${RULEBOOK_FUZZ_SCALE:-10} \
		$(VENV)/bin/python -m pytest -n auto tests/test_fuzz*.py

serve: $(STAMP)
	$(VENV)/bin/rulebook serve

bench: $(STAMP)
	$(VENV)/bin/rulebook bench --all

# Not a test: timings depend on the machine. Fails if any ruleset plays more than 7 % slower
# than .ci/bench_baseline.json (recorded with `rulebook bench RULESET --record FILE`).
bench-compare: $(STAMP)
	$(VENV)/bin/rulebook bench trian_deluxe --compare .ci/bench_baseline.json
	$(VENV)/bin/rulebook bench trian_new_order --compare .ci/bench_baseline.json
	$(VENV)/bin/rulebook bench among_the_stars --compare .ci/bench_baseline.json

clean:
	rm -rf build $(VENV)
