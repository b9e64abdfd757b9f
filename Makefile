# Escarmouche — every command a contributor or CI needs. `make test` does it all on a
# fresh machine: it creates .venv, installs the pinned tools, and runs every check.
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.stamp-$(shell cat requirements-dev.txt requirements-lock.txt pyproject.toml | sha1sum | cut -c1-12)
PORT ?= 8000

# Every target but the venv's stamp file is a command, declared here once (`make help`
# lists them all; tests/tooling/test_makefile.py checks both).
.PHONY: all help venv lint types unit nbval unit-nbval defauts-deplaces book site serve \
	browser browser-tests browser-complet typo-book typo-tests bench bench-browser \
	bench-pages bench-lighthouse fuzz refresh edition revision test clean

all: test

# `make help`: every target, in French like everything a reader sees.
help:
	@echo "make test           tout : lint, types, unit, nbval, défauts déplacés, livre en -W,"
	@echo "                    navigateur, révision de bout en bout (la CI)"
	@echo "make all            comme make test"
	@echo "make venv           crée .venv et y installe les outils épinglés (une fois par"
	@echo "                    changement de requirements-*.txt ou de pyproject.toml)"
	@echo "make serve          construit le livre et le site hors ligne, les sert sur 127.0.0.1:$(PORT)"
	@echo "                    (make serve RESEAU=1 : aussi sur le réseau local, pour la vue"
	@echo "                    des joueurs sur une tablette)"
	@echo "make refresh        régénère chaque carnet book/X.ipynb depuis son jumeau book_src/X.md,"
	@echo "                    l’exécute et enregistre ses sorties (relisez le diff)"
	@echo "make lint           ruff, et aucun fichier Python ou JavaScript de plus de 800 lignes"
	@echo "make types          mypy --strict"
	@echo "make unit           tests unitaires et de propriétés, doctests de chaque module,"
	@echo "                    exemple du README, carnets conformes à leurs jumeaux"
	@echo "make nbval          réexécute les carnets du livre et compare leurs sorties"
	@echo "make unit-nbval     unit et nbval en un seul pytest, sur les deux cœurs"
	@echo "make book           le livre statique (avertissements = erreurs), le site JupyterLite,"
	@echo "                    le PDF, le livre hors ligne et ses copies compressées : l’ordre"
	@echo "                    de chaque passe est dans book/_ext/escarmouche_pipeline.py"
	@echo "make site           comme make book"
	@echo "make typo-book      typographie française de chaque page du livre construit"
	@echo "make typo-tests     la même vérification, sans reconstruire le livre"
	@echo "make browser        tests dans Chromium (site hors ligne, carnets en direct)"
	@echo "make browser-tests  les mêmes tests, sans reconstruire le livre"
	@echo "make browser-complet chaque carnet du livre exécuté en direct dans JupyterLite"
	@echo "make bench          performances du moteur"
	@echo "make bench-browser  temps des pages en direct dans le navigateur"
	@echo "make bench-pages    octets envoyés par type de page, compressés"
	@echo "make bench-lighthouse  Lighthouse mobile par type de page (quelques minutes)"
	@echo "make fuzz           long essai à données aléatoires de chaque point d’entrée public"
	@echo "make edition        prépare l’édition suivante : brouillon editions/<n>.toml, carnets,"
	@echo "                    pages « Ce qui a changé » (voir book/concepteurs.md)"
	@echo "make defauts-deplaces  tests unitaires avec toutes les valeurs par défaut déplacées"
	@echo "make revision       joue une révision de bout en bout sur un clone : make edition,"
	@echo "                    publication, puis les tests sous les nouvelles règles"
	@echo "make clean          efface les constructions"
	@echo "make help           cette liste"

$(STAMP): requirements-dev.txt requirements-lock.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt -c requirements-lock.txt
	$(PY) -m pip install --quiet --no-deps -e .
	rm -f $(VENV)/.stamp-*
	touch $(STAMP)

venv: $(STAMP)

lint: venv
	$(VENV)/bin/ruff check src widgets tests bench tools book/_ext
	$(PY) -m tools.check_sizes

types: venv
	$(VENV)/bin/mypy

unit: venv
	$(PY) -m pytest -q -m "not browser and not book" -p no:cacheprovider

nbval: venv
	$(PY) -m pytest -q --nbval --color=no -p no:cacheprovider book

# The static book (and, through jupyterlite-sphinx, the offline JupyterLite site), the
# whole-book PDF (Debian's Chromium), the offline book with the PDF in its cache and the
# gzip/Brotli copies `make serve` sends: one script, each pass once, in the order
# book/_ext/escarmouche_pipeline.py lists. Tools run as modules (`python -m tools.x`):
# the repository's root is on the path (the editable install, pyproject.toml).
book: venv
	$(PY) -m tools.ensure_chromium
	$(PY) -m tools.build_site

site: book

# Serves _build/html on 127.0.0.1 with the MIME types Pyodide needs (tools/serve_site.py).
serve: book
	$(PY) -m tools.serve_site --port $(PORT) $(if $(RESEAU),--reseau,)

# Playwright drives Debian's Chromium (installed with apt-get when missing); screenshots
# land in artifacts/screenshots/.
browser: book
	$(MAKE) --no-print-directory browser-tests

# The browser tests on the book as it is built (make test builds it once for both checks).
# Two workers, each with its own server and Chromium (pytest-xdist); « worksteal » moves
# tests to the idle worker, since one test (a whole d100 fight by taps) takes a minute.
# 354 s in one process, 245 s so on a quiet 2-core machine (3 December 2026).
browser-tests: venv
	$(PY) -m tools.ensure_chromium
	$(PY) -m pytest -q -n 2 --dist worksteal -m browser --color=no -p no:cacheprovider tests/browser

# Every notebook of the book run live in JupyterLite, not only make test's set (about
# 10 s each; tests/browser/test_live_notebooks.py).
browser-complet: book
	$(PY) -m tools.ensure_chromium
	ESCARMOUCHE_BROWSER_NOTEBOOKS=tous $(PY) -m pytest -q -m browser --color=no -p no:cacheprovider tests/browser/test_live_notebooks.py

# Live widget time against a bare Pyodide boot, step by step (bench/README-browser.md).
bench-browser: book
	$(PY) -m tools.ensure_chromium
	$(PY) bench/bench_browser.py

# Bytes sent per page type, compressed as `make serve` sends them (bench/bench_pages.py).
bench-pages: book
	$(PY) -m tools.ensure_chromium
	$(PY) bench/bench_pages.py

# Lighthouse 12.2.3 (npm, bench/lighthouse/), mobile, per page type; minutes, not in test.
bench-lighthouse: book
	$(PY) -m tools.ensure_chromium
	$(PY) bench/bench_pages.py --lighthouse

# The engine's benchmarks (the browser one needs the site and Chromium: make bench-browser).
bench: venv
	$(PY) bench/run.py dice
	$(PY) bench/run.py simulation
	$(PY) bench/run.py designer
	$(PY) bench/run.py bench_exact

# A long fuzz run of every public entry point (tests/helpers/fuzz_targets.py); the short form runs
# in make test (tests/rules/core/test_fuzz.py). FUZZ_EXEMPLES inputs per target (41 targets: 114 800 inputs).
FUZZ_EXEMPLES ?= 2800
# Two designers' revisions played end to end on a scratch clone (tools/revision.py): one
# default per system, then three other options (a safety bound among them) and a
# rewording published as a clarification; each is drafted (make edition), written,
# its « à relire » examples answered, and published; then the unit tests under the
# rules of both editions.
revision: venv
	$(PY) -m tools.revision

# The unit suite with every declared default moved to another accepted value at once, in
# a scratch clone's own interpreter (tools/moved_defaults.py): tests must follow any
# edition. A step of make test: unit tests only (no notebook, no browser: the book shows
# its edition), on both cores; about 100 s on a shared 2-core machine (5 December 2026).
defauts-deplaces: venv
	$(PY) -m tools.moved_defaults

# Drafts the next edition from the engine's defaults, refreshes the notebooks and rebuilds
# the « Ce qui a changé » pages (tools/edition.py; the workflow: book/concepteurs.md).
edition: venv
	$(PY) -m tools.edition $(ARGS)

fuzz: venv
	$(PY) -m tools.fuzz --exemples $(FUZZ_EXEMPLES)
	# the simulation mode against the full engine, 1500 seeds per golden fight and example roster
	ESCARMOUCHE_EQUIV_SEEDS=1500 $(PY) -m pytest -q -p no:cacheprovider tests/rules/core/test_simulation.py -k equals

# Every notebook of the book comes from its MyST twin (book_src/X.md → book/X.ipynb, the
# demo pages and essai-navigateur included), through one tool that executes it and stores
# its outputs, rewriting only what changed. Review the diff, then commit. One page:
# `$(PY) -m tools.book_notebooks d100/attaque`; `make unit` checks that no notebook drifted.
refresh: venv
	$(PY) -m tools.book_notebooks

# French typography of the built book's pages (tests/faces/book/test_typography.py, marker « book »).
typo-book: book
	$(MAKE) --no-print-directory typo-tests

typo-tests: venv
	$(PY) -m pytest -q -m book -p no:cacheprovider tests/faces/book/test_typography.py

# unit and nbval only read the tree: one pytest spreads them over both cores (pytest-xdist;
# --dist loadfile keeps each notebook's cells on one worker, hence one kernel).
unit-nbval: venv
	$(PY) -m pytest -q -n 2 --dist loadfile --nbval --color=no -m "not browser and not book" -p no:cacheprovider tests book

# Each step prints its time (the budget: 15 minutes on 2 cores, with the set-up).
test: venv
	@t0=$$(date +%s); \
	for step in "lint types" unit-nbval defauts-deplaces book typo-tests browser-tests revision; do \
	  s=$$(date +%s); $(MAKE) --no-print-directory $$step || exit 1; \
	  echo "make test : $$step en $$(( $$(date +%s) - s )) s"; \
	done; \
	t=$$(( $$(date +%s) - t0 )); \
	echo "make test : tout est vert, en $$(( t / 60 )) min $$(( t % 60 )) s."

clean:
	rm -rf _build dist _contents lite/.cache .jupyterlite.doit.db
