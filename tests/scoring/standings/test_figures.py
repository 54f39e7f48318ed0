"""Each game's own columns in a season's table, and a player's own figures per game."""

import pytest

from leagues.models import Game
from scoring.results.services import result_submit
from scoring.standings.figures import player_figures_by_game, season_table
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
    VenueFactory,
)

pytestmark = pytest.mark.django_db


def played(game, sheet_of, **season):
    """A season of two teams and one fixture with its result saved; returns (fixture, players)."""
    venue = VenueFactory()
    season = SeasonFactory(league=LeagueFactory(game=game), **season)
    players = [PlayerFactory(name=name) for name in ("Ann", "Bea", "Cy", "Dot")]
    home = TeamFactory(name="Sixth Cow", home_venue=venue, members=players[:2])
    away = TeamFactory(name="Last Orders", members=players[2:])
    for team in (home, away):
        EntryFactory(season=season, team=team)
    fixture = FixtureFactory(season=season, home_team=home, away_team=away, venue=venue)
    result_submit(
        fixture_id=fixture.pk,
        sheet=sheet_of([player.pk for player in players]),
        based_on_version=0,
        by=StaffMembershipFactory(venue=venue).user,
    )
    return fixture, players


def conquian_sheet(ids):
    return {
        "singles": [
            {"home_player": ids[0], "away_player": ids[2], "deals": ["home", "draw", "home"]},
            {"home_player": ids[1], "away_player": ids[3], "deals": ["away", "away", "away"]},
        ]
    }


def test_a_conquian_table_has_singles_won_and_deal_points():
    fixture, _ = played(Game.CONQUIAN, conquian_sheet, rule_options={"target": 3})
    table = season_table(season=fixture.season, use_cache=False)
    assert [column.label for column in table.columns] == ["W", "D", "L", "SW", "PF", "PA"]
    assert all(column.explanation for column in table.columns)
    cells = {row.row.team.name: row.cells for row in table.rows}
    # home: 1 single each, deal points 3 (1 + 2) v 3 → level: a draw on points too
    assert cells["Sixth Cow"] == [0, 1, 0, 1, 3, 3]
    assert cells["Last Orders"] == [0, 1, 0, 1, 3, 3]


def test_a_korova_table_has_heads_for_against_and_difference():
    def sheet(ids):
        return {"players": ids, "rounds": [[30, 20, 10, 6], [40, 1, 1, 1]]}

    fixture, players = played(Game.KOROVA, sheet, rule_options={"end_score": 66})
    table = season_table(season=fixture.season, use_cache=False)
    assert [column.label for column in table.columns] == ["W", "D", "L", "HF", "HA", "Diff"]
    top = table.rows[0]
    assert (top.row.team.name, top.cells) == ("Last Orders", [1, 0, 0, 18, 91, 73])
    assert table.lower_is_better

    (figures,) = player_figures_by_game(player=players[0])
    assert figures.label == "Корова 006"
    values = {figure.key: figure.value for figure in figures.figures}
    assert values == {"games": 1, "heads_per_game": 70.0, "best_game": 70}


def test_a_convoy_table_calls_a_draw_a_stalemate():
    def sheet(ids):
        return {"games": [{"winner": "stalemate", "convoys": {"home": 2, "away": 2}}]}

    fixture, players = played(Game.CONVOY, sheet)
    table = season_table(season=fixture.season, use_cache=False)
    stalemates = table.columns[1]
    assert (stalemates.key, stalemates.label) == ("drawn", "S")
    assert "Stalemate" in stalemates.explanation
    (figures,) = player_figures_by_game(player=players[3])
    values = {figure.key: figure.value for figure in figures.figures}
    assert values == {"games": 1, "games_won": 0, "convoys": 2}


def test_conquian_player_figures_are_the_players_own_singles():
    fixture, players = played(Game.CONQUIAN, conquian_sheet, rule_options={"target": 3})
    (ann,) = player_figures_by_game(player=players[0])
    (dot,) = player_figures_by_game(player=players[3])
    assert {f.key: f.value for f in ann.figures} == {
        "singles_won": 1,
        "singles_lost": 0,
        "points_for": 3,
        "points_against": 0,
    }
    assert {f.key: f.value for f in dot.figures}["singles_won"] == 1
    assert player_figures_by_game(player=PlayerFactory()) == []
