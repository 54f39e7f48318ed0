"""The demo's cup (load_demo): the Корова league's Knockout Cup, six teams drawn at random, so
two byes; the first round played last week, the plate drawn from its losers, the
semi-finals two days from today (on the venues' TV screens this week)."""

import datetime
import random

from django.urls import reverse
from django.utils import timezone

from leagues.models import Cup, CupTie, Season
from leagues.selectors import team_player_ids
from scoring.cups.services import cup_draw, cup_tie_decider_record
from scoring.demo import DEMO_GAMES, demo_game_showing
from scoring.results.services import result_submit

CUP_TEAMS = 6  # a bracket of 8: two byes
KICK_OFF = datetime.time(20, 0)


def demo_cup_load(*, admin, site_url: str) -> str:
    """Make the demo cup if it is not there (running again changes nothing) and say where to
    look, in one line."""
    season = Season.objects.select_related("league").get(
        league__game=demo_game_showing("cup"), slug="autumn"
    )
    cup, created = Cup.objects.get_or_create(
        season=season,
        slug="knockout-cup",
        defaults={"name": "Knockout Cup", "with_plate": True},
    )
    if created:
        cup.teams.set(season.teams.order_by("name")[:CUP_TEAMS])
        first = timezone.make_aware(
            datetime.datetime.combine(timezone.localdate() - datetime.timedelta(days=5), KICK_OFF)
        )
        cup_draw(cup_id=cup.pk, by=admin, first_round_at=first, rng=random.Random(2026))
        _first_round_play(cup=cup, season=season, admin=admin)
    page = site_url.rstrip("/") + reverse(
        "cup-bracket", args=[season.league.slug, season.slug, cup.slug]
    )
    return f"A cup in its semi-finals, with byes and a plate: {page}"


def _first_round_play(*, cup: Cup, season: Season, admin) -> None:
    ties = CupTie.objects.filter(round__cup=cup, round__number=1, bye=False).select_related(
        "fixture"
    )
    for tie in ties.order_by("position"):
        fixture = tie.fixture
        assert fixture is not None  # a first-round tie that is not a bye has its fixture
        players = team_player_ids(team_ids=[fixture.home_team_id, fixture.away_team_id])
        sheet = DEMO_GAMES.get(season.game).sheet(
            home_player_ids=players[fixture.home_team_id],
            away_player_ids=players[fixture.away_team_id],
            rule_options=season.rule_options,
            fixture_format=season.fixture_format,
            seed=fixture.pk,
        )
        result_submit(fixture_id=fixture.pk, sheet=sheet, based_on_version=0, by=admin)
        tie.refresh_from_db()
        if tie.winner_id is None:  # level in every round: the demo's decider goes home
            cup_tie_decider_record(tie_id=tie.pk, side="home", note="One more round", by=admin)
