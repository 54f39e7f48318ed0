"""Ratings on the pages: the table per game, the player's ratings and chart, the explanation."""

import datetime

import pytest
from django.utils import timezone

from leagues.models import Game, TeamMember
from scoring.ratings.services import ratings_recompute
from scoring.results.services import result_submit
from tests.factories import FixtureFactory, LeagueFactory, SeasonFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated():
    """Two teams of a Корова league meet in three seasons; ratings computed. Player 2 of
    the home team takes the fewest heads every time, player 1 the most."""
    admin = UserFactory(is_superuser=True)
    league = LeagueFactory(game=Game.KOROVA, name="Cow League")
    home, away = TeamFactory(name="Crown Heads"), TeamFactory(name="Anchor Rats")
    players = [
        m.player
        for team in (home, away)
        for m in TeamMember.objects.filter(team=team).order_by("position")
    ]
    heads = [20, 5, 10, 6]
    for day in range(3):
        fixture = FixtureFactory(
            season=SeasonFactory(league=league),
            home_team=home,
            away_team=away,
            starts_at=timezone.now() - datetime.timedelta(days=10 - day),
        )
        sheet = {"players": [p.pk for p in players], "rounds": [heads] * 4}
        result_submit(fixture_id=fixture.pk, sheet=sheet, based_on_version=0, by=admin)
    ratings_recompute(game=Game.KOROVA)
    return fixture.season, players


def test_the_table_lists_players_with_enough_games_best_first(client, rated, settings):
    _, players = rated
    page = client.get("/ratings/korova/").content.decode()
    assert "Nobody has 5 rated games yet." in page
    assert "4 more players with fewer than 5 rated games are not listed yet." in page

    from scoring.ratings import selectors as rating_selectors

    table = rating_selectors.ratings_table(game=Game.KOROVA, min_games=3)
    assert [row.player for row in table.rows][0] == players[1]  # fewest heads every time
    assert [row.player for row in table.rows][-1] == players[0]
    assert [row.position for row in table.rows] == [1, 2, 3, 4]


def test_the_table_explains_the_ordinal(client, rated):
    page = client.get("/ratings/korova/").content.decode()
    assert "μ − 3σ" in page and "a newcomer starts at 0" in page
    assert "Bradley–Terry" in page


def test_an_unknown_game_has_no_ratings_page(client):
    assert client.get("/ratings/chess/").status_code == 404


def test_a_player_page_shows_the_rating_games_and_history_chart(client, rated):
    _, players = rated
    page = client.get(f"/players/{players[1].slug}/").content.decode()
    assert "Ratings" in page and "Корова 006" in page
    assert "<svg" in page and "rating after each of 3 fixtures" in page
    assert "Chart as a table" in page


def test_a_season_page_has_the_position_chart_and_a_subscribe_link(client, rated):
    season, _ = rated
    page = client.get(f"/leagues/{season.league.slug}/{season.slug}/").content.decode()
    assert "League position by round" in page
    assert f"webcal://testserver/calendars/seasons/{season.league.slug}/{season.slug}.ics" in page


def test_a_korova_result_shows_the_running_heads_chart(client, rated):
    season, players = rated
    fixture = season.fixtures.order_by("round").first()
    page = client.get(f"/fixtures/{fixture.pk}/").content.decode()
    assert "Running heads by round" in page
    assert players[0].name in page
