"""A cup tie is a fixture of its season, but not of its table: the standings count the
league's fixtures only, while ratings and players' figures count every game played."""

import pytest

from leagues.models import CupTie
from scoring.cups.services import cup_draw
from scoring.ratings.selectors import rated_fixtures
from scoring.standings.figures import player_figures_by_game
from scoring.standings.selectors import season_standings
from tests.scoring.cups.cups import HOME_WINS, admin_user, first_round_at, make_cup, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_tie():
    cup = make_cup(2)
    cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at())
    tie = CupTie.objects.select_related("fixture").get(round__cup=cup)
    play(tie.fixture, HOME_WINS, by=admin_user())
    return tie


def test_a_cup_tie_is_not_in_the_league_table(played_tie):
    rows = season_standings(season=played_tie.fixture.season, use_cache=False)
    assert [row.played for row in rows] == [0, 0]
    assert all(row.points == 0 for row in rows)


def test_a_cup_tie_counts_in_ratings_and_the_players_figures(played_tie):
    assert [rated.fixture_id for rated in rated_fixtures(game="korova")] == [played_tie.fixture_id]
    player = played_tie.home.members.first().player
    (figures,) = player_figures_by_game(player=player)
    assert figures.game == "korova"
