# npc-tactics: `make run` (install + a short train -> evaluate -> export -> suggest demo), `make test`, `make bench`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_RUN ?= runs/demo
DEMO_REPORT ?= reports/demo
DEMO_BUNDLE ?= bundles/demo
DEMO_STEPS ?= 60000
DEMO_FIGHTS ?= 200

.PHONY: install install-ray browser run serve test test-fast bench bench-suggest lint type clean catalogues policies

# torch first, pinned to the CPU build on this machine's disk; an unpinned torch pulls a multi-GB CUDA build.
# The editable install also compiles the rules engines, dice and encoders with mypyc (setup.py, docs/speed.md),
# in place next to their sources; no C compiler or a failed build installs pure Python. Editing a compiled module
# re-runs the install (a stale build is never used: npc_tactics/compiled.py falls back to the sources).
COMPILED_SOURCES := setup.py $(wildcard npc_tactics/compiled.py npc_tactics/dice.py npc_tactics/rules/*.py \
	npc_tactics/encoders/*.py npc_tactics/systems/*/rules/*.py npc_tactics/systems/*/encoder.py)
$(STAMP): pyproject.toml $(COMPILED_SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# The [ray] extra (Ray with RLlib, ~0.5 GB) for the RLlib backend and the Ray executor: `make test` installs it
# (tests/ray), `make run` does not need it. Ray pins its own gymnasium, inside the project's range. Only the
# extra's requirements (read from pyproject.toml) are installed here: reinstalling the package itself would
# compile the engines a second time.
RAY_STAMP := $(VENV)/.installed-ray
RAY_REQUIREMENTS = $(shell $(BIN)/python -c "import tomllib; \
	print(' '.join(repr(r) for r in tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['ray']))")
$(RAY_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet $(RAY_REQUIREMENTS)
	touch $(RAY_STAMP)

install-ray: $(RAY_STAMP)

# The GM page's end-to-end test drives Debian's chromium (Playwright's Python package with executable_path; no
# browser download). Installed with apt-get when absent (as root, or through sudo).
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The tracker page's accessibility check runs axe-core (npm) in that browser: installed into node_modules/ (ignored).
AXE_VERSION := 4.14.1
browser:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y chromium chromium-driver; \
	fi
	@if [ ! -f node_modules/axe-core/axe.min.js ]; then \
		command -v npm >/dev/null 2>&1 || { $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y npm; }; \
		npm install --no-save --no-package-lock --silent axe-core@$(AXE_VERSION); \
	fi

run: install
	rm -rf $(DEMO_RUN)
	$(BIN)/npc-tactics train ose_goblin_duel --out $(DEMO_RUN) --timesteps $(DEMO_STEPS)
	$(BIN)/npc-tactics evaluate --agents $(DEMO_RUN),by-the-book,aggressive,cautious,random --fights $(DEMO_FIGHTS) --out $(DEMO_REPORT)
	$(BIN)/npc-tactics export $(DEMO_RUN) --out $(DEMO_BUNDLE) --force
	$(BIN)/npc-tactics suggest --bundle $(DEMO_BUNDLE) --situation examples/ose_situation.yaml
	$(BIN)/npc-tactics suggest --system ose --situation examples/ose_situation.yaml

serve: install
	$(BIN)/npc-tactics serve --bundles $(dir $(DEMO_BUNDLE))

test: install-ray browser
	$(BIN)/ruff check npc_tactics tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q

test-fast: install
	$(BIN)/python -m pytest -q -m "not integration"

bench: install
	$(BIN)/python benchmarks/engine_throughput.py
	$(BIN)/python benchmarks/training_fps.py
	$(BIN)/python benchmarks/policy_latency.py

# POST /suggest p50/p95 without odds and with 200 rollouts per move, on the bundles of `make run`.
bench-suggest: install
	test -d $(DEMO_BUNDLE) || $(MAKE) run
	$(BIN)/python benchmarks/suggest_latency.py $(dir $(DEMO_BUNDLE))

# The shipped generalist bundles (npc_tactics/policies/<system>/), retrained from npc_tactics/configs/policies/
# with their fixed seeds, then the held-out report. Not run by CI; docs/encounters.md gives the wall time.
# A system's runs are <system>.yaml and any <system>.<n>.yaml: two or more export as one ensemble bundle, its
# weights stored as float16 (docs/export.md). Specialists in teachers/<system>.<scenario>.yaml are trained next
# and distilled with the system's run into <system>.distilled, which is exported instead (docs/training.md); with
# several runs their ensemble bundle (<system>.ensemble) is the base, the student starting from the first run.
# Each training holds /tmp/npc-train.lock (the machine is shared).
POLICY_SYSTEMS ?= ose runequest mrq dicepool
POLICY_RUNS ?= runs/policies
POLICY_CONFIGS := npc_tactics/configs/policies
# Fights the export plays to measure the observation ranges the out-of-training warning compares with: 200 (the
# export's default) left 15.6% of GM-built OSE bestiary fights flagged that 1,000 bring to 0.1%
# (benchmarks/ood_share.py); the RuneQuest, MRQ and dice-pool bundles in the tree were exported with 200.
EXPORT_FIGHTS ?= 1000
# Runs continued past their config's budget with --resume --timesteps (stem=timesteps): the linear learning rate
# restarts part-way down for the added steps, as the shipped run was made.
POLICY_CONTINUE := runequest=6000000
# Expert iteration after training (system=play-outs a decision, docs/search.md): the system's run is distilled
# with the moves a search of that many play-outs finds, and that student exported. None of the shipped bundles
# is made so yet (the measurement in docs/search.md).
POLICY_SEARCH ?=
POLICY_SEARCH_FIGHTS ?= 400
policies: install
	for s in $(POLICY_SYSTEMS); do \
		runs=""; \
		for c in $(POLICY_CONFIGS)/$$s.yaml $$(ls $(POLICY_CONFIGS)/$$s.*.yaml 2>/dev/null); do \
			stem=$$(basename $$c .yaml); r=$(POLICY_RUNS)/$$stem; \
			rm -rf $$r && flock /tmp/npc-train.lock $(BIN)/npc-tactics train $$c --out $$r --no-progress || exit 1; \
			more=$$(echo " $(POLICY_CONTINUE) " | sed -n "s/.* $$stem=\([0-9]*\) .*/\1/p"); \
			if [ -n "$$more" ]; then flock /tmp/npc-train.lock $(BIN)/npc-tactics train $$c --out $$r --resume \
				--timesteps $$more --no-progress || exit 1; fi; \
			runs="$$runs $$r"; \
		done; \
		teachers=""; \
		for c in $$(ls $(POLICY_CONFIGS)/teachers/$$s.*.yaml 2>/dev/null); do \
			stem=$$(basename $$c .yaml); r=$(POLICY_RUNS)/teachers/$$stem; \
			rm -rf $$r && flock /tmp/npc-train.lock $(BIN)/npc-tactics train $$c --out $$r --no-progress || exit 1; \
			teachers="$$teachers --teacher $${stem#$$s.}=$$r"; \
		done; \
		if [ -n "$$teachers" ]; then \
			base="$$runs"; \
			if [ $$(echo $$runs | wc -w) -gt 1 ]; then \
				$(BIN)/npc-tactics export $$runs --out $(POLICY_RUNS)/$$s.ensemble --force --half --fights 4 || exit 1; \
				base="$(POLICY_RUNS)/$$s.ensemble --config $(POLICY_CONFIGS)/$$s.yaml"; \
			fi; \
			$(BIN)/npc-tactics distill $$base $$teachers --out $(POLICY_RUNS)/$$s.distilled --force || exit 1; \
			runs=$(POLICY_RUNS)/$$s.distilled; \
		fi; \
		search=$$(echo " $(POLICY_SEARCH) " | sed -n "s/.* $$s=\([0-9]*\) .*/\1/p"); \
		if [ -n "$$search" ]; then \
			$(BIN)/npc-tactics distill $$runs --search $$search --fights $(POLICY_SEARCH_FIGHTS) \
				--out $(POLICY_RUNS)/$$s.exit --force || exit 1; \
			runs=$(POLICY_RUNS)/$$s.exit; \
		fi; \
		half=$$(test $$(echo $$runs | wc -w) -gt 1 && echo --half); \
		$(BIN)/npc-tactics export $$runs --out npc_tactics/policies/$$s --force $$half --fights $(EXPORT_FIGHTS) && \
		$(BIN)/npc-tactics card npc_tactics/policies/$$s --fights 1000 || exit 1; \
	done
	$(BIN)/python benchmarks/generalist_report.py --systems $(POLICY_SYSTEMS) --out reports/generalist

lint: install
	$(BIN)/ruff check npc_tactics tests benchmarks
	$(BIN)/lint-imports

type: install
	$(BIN)/mypy

# Re-extract the GM-facing strings (gettext domain npc_tactics), merge them into the en/fr .po files and compile the
# .mo files (committed: a fresh clone needs no build step; tests/gm/test_words_catalogues.py checks they match).
LOCALE := npc_tactics/locale
catalogues: install
	$(BIN)/pybabel extract -F $(LOCALE)/babel.cfg -k N_ -k say -k Said -k SaidN:1,2 --no-location --omit-header \
		--sort-output -o $(LOCALE)/npc_tactics.pot .
	$(BIN)/pybabel update -i $(LOCALE)/npc_tactics.pot -d $(LOCALE) -D npc_tactics --width 120 \
		--ignore-obsolete
	$(BIN)/pybabel compile -d $(LOCALE) -D npc_tactics --statistics
	$(BIN)/pybabel compile -d $(LOCALE) -D play --statistics  # `play` (hand-kept .po; tests/gm/test_play_loop.py)

clean:
	rm -rf $(VENV) runs reports bundles .pytest_cache .hypothesis build npc_tactics/_compiled.json
	find npc_tactics -name '*.so' -delete
