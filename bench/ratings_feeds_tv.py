"""Ratings, calendar feeds and the pub's TV screen under load: times, one process.

    .venv/bin/python bench/ratings_feeds_tv.py [--results 10000] [--runs 3] [--requests 30]

Needs PostgreSQL. Builds a throwaway database (test_<name of DATABASE_URL's database>; default
DATABASE_URL postgres://postgres@127.0.0.1:5432/roundel_bench) with Django's test database
machinery, and drops it at the end. In it, Корова seasons of 20 teams (a double round robin:
380 fixtures each) from a pool of 40 teams, every fixture with a result. Rows are written in
bulk, not through result_submit (10,000 results through the service would take longer than
everything measured); each sheet is four players' heads over rounds that end when someone
reaches 66, as a real one.

Measured:
  - ratings_recompute(game="korova"), the whole replay from the database and the rewrite of
    every rating and history row, for one season (380 results) and then for --results
    results: the median of --runs runs each;
  - with 1,000 of the fixtures at one venue: the median of --requests requests of that
    venue's calendar feed, and of its TV screen (full page) and TV board (the part polled),
    with Django's test Client (in process, no network). Five of those fixtures are tonight.
DEBUG is off and templates are not instrumented.
"""

import argparse
import datetime
import os
import random
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/roundel_bench")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import OperationalError, connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from leagues.models import (  # noqa: E402
    Entry,
    Fixture,
    Game,
    League,
    Player,
    Season,
    Team,
    TeamMember,
    Venue,
)
from scoring.models import PlayerRating, RatingPoint, ResultVersion  # noqa: E402
from scoring.publishing.services import venue_screen_issue  # noqa: E402
from scoring.ratings.services import ratings_recompute  # noqa: E402

SEASON_TEAMS = 20
POOL_TEAMS = 40
FEED_FIXTURES = 1000
END_SCORE = 66


def korova_rounds(rng: random.Random) -> list[list[int]]:
    """Heads per player per round until someone reaches the end score."""
    rounds, totals = [], [0, 0, 0, 0]
    while max(totals) < END_SCORE:
        row = [rng.randint(0, 25) for _ in range(4)]
        rounds.append(row)
        totals = [a + b for a, b in zip(totals, row)]
    return rounds


def double_round_robin(teams: list) -> list[tuple[int, object, object]]:
    """(round, home, away) for every pairing twice, the circle method."""
    order = list(teams)
    rounds = []
    for number in range(len(order) - 1):
        pairs = [(order[i], order[-1 - i]) for i in range(len(order) // 2)]
        rounds.append([(number + 1, *pair) for pair in pairs])
        order = [order[0], order[-1], *order[1:-1]]
    second = [[(r + len(rounds), a, h) for r, h, a in pairs] for pairs in rounds]
    return [match for pairs in rounds + second for match in pairs]


class World:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.venues = [
            Venue.objects.create(name=name, slug=name.lower().replace(" ", "-"), address="1 Road")
            for name in ("The Crown", "The Anchor", "The Bell", "The Swan")
        ]
        self.league = League.objects.create(name="Cow League", slug="cow", game=Game.KOROVA)
        self.teams = []
        for number in range(POOL_TEAMS):
            team = Team.objects.create(
                name=f"Team {number:02}",
                slug=f"team-{number:02}",
                home_venue=self.venues[number % 4],
            )
            for position in (1, 2):
                player = Player.objects.create(
                    name=f"Player {number}.{position}", slug=f"player-{number}-{position}"
                )
                TeamMember.objects.create(team=team, player=player, position=position)
            self.teams.append(team)
        self.members: dict[int, list[int]] = {}
        for team_id, player_id in TeamMember.objects.order_by("team", "position").values_list(
            "team_id", "player_id"
        ):
            self.members.setdefault(team_id, []).append(player_id)
        self.seasons = 0
        self.fixtures = 0

    def add_season(self) -> Season:
        number = self.seasons
        self.seasons += 1
        starts = datetime.date(2000, 9, 1) + datetime.timedelta(days=200 * number)
        season = Season.objects.create(
            league=self.league, name=f"Season {number}", slug=f"s{number}", starts_on=starts
        )
        teams = self.rng.sample(self.teams, SEASON_TEAMS)
        Entry.objects.bulk_create(Entry(season=season, team=team) for team in teams)
        kickoff = timezone.make_aware(datetime.datetime.combine(starts, datetime.time(19, 30)))
        fixtures = []
        # The pairings hold what they were given (any hashable): here, the teams.
        for round_number, home, away in double_round_robin(teams):
            venue = self.venues[0 if self.fixtures < FEED_FIXTURES else 1 + self.fixtures % 3]
            self.fixtures += 1
            fixtures.append(
                Fixture(
                    season=season,
                    round=round_number,
                    home_team=cast(Team, home),
                    away_team=cast(Team, away),
                    venue=venue,
                    starts_at=kickoff + datetime.timedelta(days=7 * (round_number - 1)),
                    status=Fixture.Status.PLAYED,
                )
            )
        fixtures = Fixture.objects.bulk_create(fixtures)
        versions = []
        for fixture in fixtures:
            rounds = korova_rounds(self.rng)
            totals = [sum(column) for column in zip(*rounds)]
            home, away = totals[0] + totals[1], totals[2] + totals[3]
            versions.append(
                ResultVersion(
                    fixture=fixture,
                    number=1,
                    sheet={
                        "players": self.members[fixture.home_team_id]
                        + self.members[fixture.away_team_id],
                        "rounds": rounds,
                    },
                    home_score=home,
                    away_score=away,
                    winner="draw" if home == away else ("home" if home < away else "away"),
                    source=ResultVersion.Source.ADMIN,
                )
            )
        ResultVersion.objects.bulk_create(versions, batch_size=1000)
        return season


def median_seconds(action, runs: int, *, before=None) -> tuple[float, list[float]]:
    times = []
    for _ in range(runs):
        if before:
            before()
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def median_ms(client: Client, url: str, count: int, *, before=None) -> float:
    times = []
    for _ in range(count):
        if before:
            before()
        start = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.median(times)


def tonight(world: World, season: Season) -> None:
    """Five of the venue's fixtures of the last season are tonight; two have no result yet."""
    now = timezone.now()
    fixtures = list(season.fixtures.filter(venue=world.venues[0]).order_by("pk")[:5])
    for number, fixture in enumerate(fixtures):
        fixture.starts_at = now - datetime.timedelta(minutes=number)
        fixture.save(update_fields=["starts_at"])
        if number >= 3:
            ResultVersion.objects.filter(fixture=fixture).delete()


def forget_ratings() -> None:
    """Untimed, before each run: no stored ratings, so the recomputation writes every row."""
    PlayerRating.objects.all().delete()
    RatingPoint.objects.all().delete()


def correct_last_result(world: World) -> None:
    """Untimed: a new version of the latest fixture's result (the other side wins)."""
    last = ResultVersion.objects.filter(is_current=True).order_by("-fixture__starts_at").first()
    assert last is not None, "no result to correct"
    ResultVersion.objects.filter(pk=last.pk).update(is_current=False)
    rounds = [list(reversed(row)) for row in last.sheet["rounds"]]
    ResultVersion.objects.create(
        fixture_id=last.fixture_id,
        number=last.number + 1,
        sheet={**last.sheet, "rounds": rounds},
        home_score=last.away_score,
        away_score=last.home_score,
        winner={"home": "away", "away": "home"}.get(last.winner, "draw"),
        source=ResultVersion.Source.ADMIN,
    )


def run(args) -> None:
    world = World(args.seed)
    world.add_season()
    recompute = lambda: ratings_recompute(game=Game.KOROVA)  # noqa: E731
    one, one_runs = median_seconds(recompute, args.runs, before=forget_ratings)
    print(
        f"ratings, one season ({world.fixtures} results): median {one:.2f} s "
        f"(runs {', '.join(f'{t:.2f}' for t in one_runs)})"
    )

    season = None
    while world.fixtures < args.results:
        season = world.add_season()
    results = ResultVersion.objects.count()
    many, many_runs = median_seconds(recompute, args.runs, before=forget_ratings)
    run_row = ratings_recompute(game=Game.KOROVA)
    print(
        f"ratings, {results} results ({run_row.matches} rated games, "
        f"{Player.objects.count()} players), from nothing: median {many:.2f} s "
        f"(runs {', '.join(f'{t:.2f}' for t in many_runs)})"
    )
    last, last_runs = median_seconds(
        recompute, args.runs, before=lambda: correct_last_result(world)
    )
    print(
        f"ratings, {results} results, after a correction of the latest result: "
        f"median {last:.2f} s (runs {', '.join(f'{t:.2f}' for t in last_runs)})"
    )

    venue = world.venues[0]
    season = season or Season.objects.order_by("-pk").first()
    assert season is not None, "no season to play tonight in"
    tonight(world, season)
    at_venue = Fixture.objects.filter(venue=venue).count()
    client = Client()
    feed = reverse("calendar-venue", args=[venue.slug])
    token = venue_screen_issue(venue_id=venue.pk).token
    screen = reverse("tv-screen", args=[venue.slug, token])
    board = reverse("tv-board", args=[venue.slug, token])
    size = len(client.get(feed).content)
    print(
        f"venue feed, {at_venue} fixtures ({size // 1024} KiB), unchanged (cached file): "
        f"median {median_ms(client, feed, args.requests):.1f} ms"
    )
    cold = median_ms(client, feed, max(3, args.requests // 5), before=cache.clear)
    print(f"venue feed, same, built anew (cache cleared before each): median {cold:.1f} ms")
    client.get(screen)
    print(
        f"TV screen, venue with {at_venue} fixtures: "
        f"median {median_ms(client, screen, args.requests):.1f} ms (tables cached)"
    )
    print(f"TV board (polled), same venue: median {median_ms(client, board, args.requests):.1f} ms")
    times = []
    for _ in range(args.requests):
        cache.clear()
        start = time.perf_counter()
        client.get(board)
        times.append((time.perf_counter() - start) * 1000)
    print(f"TV board, cache cleared before each: median {statistics.median(times):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--results",
        type=int,
        default=10_000,
        help="results in the whole ratings replay (default 10000)",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=3,
        help="runs of each ratings replay; the median is printed (default 3)",
    )
    parser.add_argument(
        "--requests",
        type=int,
        default=30,
        help="requests of the feed, TV screen and board per median (default 30)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the random sheets (default 1)")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench/ratings_feeds_tv.py needs PostgreSQL: set DATABASE_URL=postgres://…")
    warnings.filterwarnings("ignore", message="Normally Django will use a connection")
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    try:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    except OperationalError as error:
        sys.exit(f"Could not create the benchmark database: {error}")
    try:
        run(args)
    finally:
        connection.creation.destroy_test_db(connection.settings_dict["NAME"], verbosity=0)


if __name__ == "__main__":
    main()
