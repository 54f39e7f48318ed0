"""Ratings rate who played: the substitute, not the player they stood in for; never a walkover."""

import pytest

from leagues.models import Game
from scoring.models import PlayerRating
from scoring.ratings.services import ratings_recompute
from scoring.results.services import result_submit
from scoring.results.walkovers import result_walkover_award
from tests.scoring.squads import CONVOY_SHEET, korova_sheet, make_squads

pytestmark = pytest.mark.django_db


def test_the_korova_substitute_is_rated_and_the_absent_player_is_not():
    squads = make_squads(Game.KOROVA)
    reserve = squads.reserve(0)
    home, away = squads.players(0), squads.players(1)
    result_submit(
        fixture_id=squads.fixture.pk,
        sheet=korova_sheet([reserve.pk, home[1]], away),
        based_on_version=0,
        by=squads.staff,
    )

    ratings_recompute(game=Game.KOROVA)

    rated = set(PlayerRating.objects.values_list("player_id", flat=True))
    assert rated == {reserve.pk, home[1], *away}


def test_the_convoy_substitute_is_rated_from_the_lineup():
    squads = make_squads(Game.CONVOY)
    reserve = squads.reserve(1)
    home, away = squads.players(0), squads.players(1)
    result_submit(
        fixture_id=squads.fixture.pk,
        sheet=CONVOY_SHEET,
        based_on_version=0,
        by=squads.staff,
        lineup={"home": home, "away": [away[0], reserve.pk]},
    )

    ratings_recompute(game=Game.CONVOY)

    rated = set(PlayerRating.objects.values_list("player_id", flat=True))
    assert rated == {*home, away[0], reserve.pk}


def test_a_walkover_rates_nobody():
    squads = make_squads(Game.KOROVA)
    result_walkover_award(fixture_id=squads.fixture.pk, team="home", by=squads.staff)

    run = ratings_recompute(game=Game.KOROVA)

    assert not PlayerRating.objects.exists()
    assert run.fixtures == 0
