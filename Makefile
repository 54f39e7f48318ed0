# Roundel: `make run` serves the site with a worker and beat; `make test` runs every check.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
LOCKS := requirements.txt requirements-dev.txt
STAMP := $(VENV)/.installed-$(shell cat $(LOCKS) | cksum | cut -d' ' -f1)
# Hashes for every file of each pinned release; the index comes from pip's own configuration.
PIP_COMPILE := CUSTOM_COMPILE_COMMAND="make lock" $(VENV)/bin/pip-compile --quiet \
	--generate-hashes --strip-extras --no-emit-index-url --no-emit-find-links

.PHONY: run test lint install lock messages compile-messages bench clean

$(STAMP): $(LOCKS)
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Roundel needs Python 3.11 or newer")'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes \
		-r requirements.txt -r requirements-dev.txt
	@rm -f $(VENV)/.installed-* && touch $@

install: $(STAMP)

# requirements.in and requirements-dev.in into the locks, keeping every version already
# pinned there; `make lock PIP_COMPILE_ARGS="--upgrade-package NAME"` moves one on.
lock: $(STAMP)
	$(PIP_COMPILE) $(PIP_COMPILE_ARGS) --output-file requirements.txt requirements.in
	$(PIP_COMPILE) $(PIP_COMPILE_ARGS) --output-file requirements-dev.txt requirements-dev.in

# The catalogues (locale/*/LC_MESSAGES/*.po) are committed; their compiled .mo files are built
# here, for `make run` and `make test`, never kept by hand. GNU gettext's msgfmt does it.
compile-messages: $(STAMP)
	@command -v msgfmt >/dev/null || { echo "msgfmt is missing: install GNU gettext (apt install gettext)" >&2; exit 1; }
	DEBUG=1 $(PY) manage.py compilemessages --ignore=.venv -v0

# The strings marked in the code into the catalogues, for translating (docs/languages.md).
messages: $(STAMP)
	DEBUG=1 $(PY) manage.py makemessages $(MAKEMESSAGES_ARGS) -d django
	DEBUG=1 $(PY) manage.py makemessages $(MAKEMESSAGES_ARGS) -d djangojs

run: compile-messages
	@bin/run-dev

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

test: compile-messages
	@bin/ensure-services
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	DATABASE_URL=$${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/roundel} \
	TEST_REDIS_URL=$${TEST_REDIS_URL:-redis://127.0.0.1:6379} \
	$(VENV)/bin/pytest -n 2 --dist loadgroup -q
	# The API's bad-input tests, the schema fuzz and the live tables' compiled queries again
	# on the embedded default (SQLite), whose integers, dates and errors differ from
	# PostgreSQL's.
	env -u DATABASE_URL $(VENV)/bin/pytest -n 2 -q -p no:cacheprovider \
		tests/api/test_schema_fuzz.py tests/api/test_bad_input.py \
		tests/games/live/test_versions.py tests/games/live/test_table_reads.py

bench: $(STAMP)
	$(PY) bench/engines.py

MAKEMESSAGES_ARGS := -l ru -l fi --add-location=file --no-obsolete \
	--ignore=.venv --ignore=tests --ignore=bench --ignore=static/vendor --ignore=var

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .hypothesis .mypy_cache
