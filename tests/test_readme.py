"""The README's "Other commands" run as written on a fresh checkout (no SECRET_KEY, a new
SQLite database), and every command they name explains each of its options in --help."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class

ROOT = Path(__file__).resolve().parent.parent
# What a fresh clone's shell does not have: settings come from the command line only.
UNSET = {"DEBUG", "SECRET_KEY", "DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL",
         "CELERY_RESULT_BACKEND", "DJANGO_SETTINGS_MODULE", "ROUNDEL_VAR_DIR"}  # fmt: skip
SEASON_SETUP = """
from leagues.models import Entry, Game, League, Season, Team, Venue
venue = Venue.objects.create(name="The Bell", slug="the-bell")
league = League.objects.create(name="Bell League", slug="bell-league", game=Game.KOROVA)
season = Season.objects.create(league=league, name="Spring", slug="spring", starts_on="2027-03-01")
for n in range(4):
    team = Team.objects.create(name=f"Bell {n}", slug=f"bell-{n}", home_venue=venue)
    Entry.objects.create(season=season, team=team)
"""


def other_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Other commands", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "no sh block under Other commands"
    return [line.split("  #")[0].strip() for line in block[1].splitlines() if line.strip()]


def fresh_shell(tmp_path) -> dict:
    env = {key: value for key, value in os.environ.items() if key not in UNSET}
    # The database and the broker's files go where settings put them; a fresh var/ here.
    return {**env, "ROUNDEL_VAR_DIR": str(tmp_path / "var")}


def run(line: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        line, shell=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def test_other_commands_run_as_written_on_a_fresh_checkout(tmp_path):
    env = fresh_shell(tmp_path)
    lines = other_commands()
    manage = [line for line in lines if "manage.py" in line]
    assert [line.split()[3] for line in manage] == [
        "migrate", "simulate", "simulate", "generate_fixtures",
    ]  # fmt: skip
    assert "make install" in lines  # the venv the tests run in is what it makes
    for line in manage:
        if "generate_fixtures" in line:  # a season of one's own, as the README says
            setup = run(
                f"DEBUG=1 .venv/bin/python manage.py shell -c {shlex.quote(SEASON_SETUP)}", env
            )
            assert setup.returncode == 0, setup.stderr
            line = line.replace("LEAGUE-SLUG/SEASON-SLUG", "bell-league/spring")
        result = run(line, env)
        assert result.returncode == 0, f"{line}\n{result.stdout}\n{result.stderr}"
        assert "Traceback" not in result.stderr, result.stderr
        if "generate_fixtures" in line:
            assert "generated 12 fixtures in 6 rounds" in result.stdout
        if "simulate conquian" in line:
            assert "deals per game: median" in result.stdout
            assert "of all deals)" in result.stdout


def test_without_debug_the_same_commands_still_refuse_to_run_without_a_secret_key(tmp_path):
    line = next(line for line in other_commands() if "simulate" in line)
    result = run(line.removeprefix("DEBUG=1 "), fresh_shell(tmp_path))
    assert result.returncode != 0 and "SECRET_KEY is not set" in result.stderr


def test_the_production_recipe_shares_the_cache_and_listens_only_to_its_proxy():
    """Throttle counts in one Redis for every worker; X-Forwarded-* from the proxy alone."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Running in production", 1)[1].split("\n## ", 1)[0]
    recipe = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    exported = re.findall(r"\b([A-Z_]+)=(\S+)", recipe.split("\n.venv", 1)[0])
    assert ("CACHE_URL", "redis://...") in exported
    assert ("TRUSTED_PROXY_COUNT", "1") in exported
    gunicorn = next(line for line in recipe.splitlines() if "gunicorn" in line)
    assert "--bind 127.0.0.1:" in gunicorn
    assert "manage.py check --deploy" in recipe


def test_the_benches_are_documented_and_say_standings_needs_postgresql():
    lines = other_commands()
    assert ".venv/bin/python bench/engines.py" in lines
    assert ".venv/bin/python bench/standings.py" in lines
    readme = (ROOT / "README.md").read_text()
    assert "`bench/standings.py` needs a PostgreSQL server" in readme


PROJECT_APPS = ("games", "leagues", "scoring")


@pytest.mark.parametrize(
    "name", sorted(name for name, app in get_commands().items() if app in PROJECT_APPS)
)
def test_every_option_of_the_projects_commands_is_described_in_help(name):
    command = load_command_class(get_commands()[name], name)
    parser = command.create_parser("manage.py", name)
    assert command.help.strip(), name
    for action in parser._actions:
        assert action.help and action.help.strip(), f"{name} {action.option_strings or action.dest}"


def described_entries(help_text: str) -> dict[str, str]:
    """Each argument listed in argparse's --help, with the text that describes it: on its own
    line after two spaces or more, or on the lines below when the invocation is long."""
    entries: dict[str, str] = {}
    listing = help_text.split("\n\n", 1)[1]  # after the usage
    for line in listing.splitlines():
        entry = re.fullmatch(r"  (\S.*?)(?: {2,}(\S.*))?", line)
        if entry:
            name = entry.group(1)
            entries[name] = entry.group(2) or ""
        elif line.startswith("   ") and entries:
            entries[name] = (entries[name] + " " + line.strip()).strip()
    return entries


BENCH_SCRIPTS = sorted(
    str(path.relative_to(ROOT))
    for path in ROOT.glob("bench/*.py")
    if 'if __name__ == "__main__":' in path.read_text()  # not the modules they share
)


@pytest.mark.parametrize("script", BENCH_SCRIPTS)
def test_every_option_of_the_benches_is_described_in_help(script, tmp_path):
    """Without a database to reach: --help needs none, even from the benches that connect."""
    env = fresh_shell(tmp_path) | {"DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"}
    env |= {"CELERY_BROKER_URL": "redis://127.0.0.1:1/0", "COLUMNS": "100"}
    result = subprocess.run(
        [sys.executable, script, "--help"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    usage, description = result.stdout.split("\n\n")[:2]
    assert not description.startswith(("options:", "positional arguments:")), script
    entries = described_entries(result.stdout)
    options = set(re.findall(r"\[(--[a-z-]+)", usage))
    assert options
    assert options <= {name.split()[0] for name in entries}, script
    for name, text in entries.items():
        assert text, f"{script} {name} has no description"
