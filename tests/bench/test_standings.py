"""bench/standings.py: runs with a large and a small season of the same size, and says
plainly that it needs PostgreSQL."""

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]


def bench(*args, database_url):
    env = {key: value for key, value in os.environ.items() if key not in {"DEBUG", "SECRET_KEY"}}
    return subprocess.run(
        [sys.executable, "bench/standings.py", *args],
        cwd=ROOT,
        env={**env, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=600,
    )


def bench_database_url() -> str:
    """The test run's PostgreSQL server, with a database name of the bench's own (it creates
    and drops test_<name>, which must not be the test run's database)."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    assert parts.scheme.startswith("postgres"), "the bench test needs PostgreSQL, as make test"
    return urlunsplit(parts._replace(path=parts.path + "_standings_bench"))


def test_a_small_season_as_large_as_the_large_one_is_measured_too():
    result = bench(
        "--teams", "3", "--small", "3", "--requests", "2", database_url=bench_database_url()
    )
    assert result.returncode == 0, result.stderr
    assert "3 teams, 6 fixtures played, 3 teams, 6 fixtures played" in result.stdout
    header = next(line for line in result.stdout.splitlines() if "large (3)" in line)
    assert "small (3)" in header
    assert "result POST api ms" in result.stdout


def test_without_postgresql_it_says_so_instead_of_a_traceback(tmp_path):
    on_sqlite = bench(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert on_sqlite.returncode == 1
    assert "bench/standings.py needs PostgreSQL" in on_sqlite.stderr
    unreachable = bench(database_url="postgres://postgres@127.0.0.1:9/roundel")
    assert unreachable.returncode == 1
    assert "needs PostgreSQL at 127.0.0.1:9" in unreachable.stderr
    assert "Traceback" not in on_sqlite.stderr + unreachable.stderr


def test_the_help_says_it_needs_postgresql():
    result = bench("--help", database_url="postgres://postgres@127.0.0.1:9/roundel")
    assert "Needs PostgreSQL" in result.stdout and "--small" in result.stdout
