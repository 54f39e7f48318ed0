"""What a game's own table columns cost: the figures read from the sheets while a table is
built (Conquian's singles won), per season, with no database.

    .venv/bin/python bench/kind_figures.py [--fixtures 380] [--runs 7] [--seed 1]

Makes --fixtures Conquian sheets (target 5, the demo's) from games the engine plays, then
times, --runs times, a cold table built from the stored scores alone against one that also
reads each sheet's outcome and fixture figures (scoring.kinds.conquian), as
scoring.results.selectors does for a game with such columns. Prints the medians. The table itself is cached (scoring.results.selectors),
so this is paid only when a result changes.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")

import django  # noqa: E402

django.setup()

from scoring.demo import DEMO_GAMES  # noqa: E402
from scoring.kinds import get_kind  # noqa: E402
from scoring.standings.table import ResultRecord, StandingsConfig, build_standings  # noqa: E402


class Team:
    def __init__(self, pk):
        self.pk = pk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fixtures", type=int, default=380, help="sheets in the season")
    parser.add_argument("--runs", type=int, default=7, help="timed runs; medians are printed")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first demo sheet")
    args = parser.parse_args()
    kind = get_kind("conquian")
    demo = DEMO_GAMES.get("conquian")
    options = demo.league.rule_options
    teams = [Team(pk) for pk in range(1, 21)]
    sheets = []
    for number in range(args.fixtures):
        home, away = teams[number % 20].pk, teams[(number * 7 + 3) % 20].pk
        sheet = demo.sheet(
            home_player_ids=[home * 10, home * 10 + 1],
            away_player_ids=[away * 10, away * 10 + 1],
            rule_options=options,
            fixture_format={},
            seed=args.seed + number,
        )
        sheets.append((number, home, away if away != home else teams[(number + 1) % 20].pk, sheet))
    config = StandingsConfig(game="conquian")

    # What the database hands over without the sheets: scores and winner, stored per version.
    stored = []
    for number, home, away, sheet in sheets:
        outcome = kind.outcome(sheet=sheet, rule_options=options)
        stored.append((number, home, away, outcome.home_score, outcome.away_score, outcome.winner))

    def records(with_figures: bool) -> list[ResultRecord]:
        if not with_figures:
            return [ResultRecord(*row, row[0]) for row in stored]
        made = []
        for number, home, away, sheet in sheets:
            outcome = kind.outcome(sheet=sheet, rule_options=options)
            figures = [
                tuple(kind.fixture_figures(outcome, side).items()) for side in ("home", "away")
            ]
            made.append(
                ResultRecord(
                    number, home, away, outcome.home_score, outcome.away_score, outcome.winner,
                    number, figures[0], figures[1],
                )
            )  # fmt: skip
        return made

    plain, with_figures = [], []
    for _ in range(args.runs):
        start = time.perf_counter()
        build_standings(records=records(False), teams=teams, config=config)
        plain.append(time.perf_counter() - start)
        start = time.perf_counter()
        build_standings(records=records(True), teams=teams, config=config)
        with_figures.append(time.perf_counter() - start)
    print(f"Conquian season of {args.fixtures} fixtures, 20 teams, {args.runs} runs")
    print(
        f"  table from stored scores only:        median {statistics.median(plain) * 1000:.1f} ms"
    )
    print(
        f"  table with singles won from sheets:   median {statistics.median(with_figures) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
