"""scoring.standings.table.build_standings on hand-built seasons (no database)."""

import datetime
from dataclasses import dataclass

import pytest

from scoring.standings.table import (
    ResultRecord,
    StandingsConfig,
    build_standings,
    game_difference,
)


@dataclass(frozen=True)
class Team:
    pk: int
    name: str


A, B, C, D = Team(1, "Anchor"), Team(2, "Bell"), Team(3, "Crown"), Team(4, "Dolphin")
TEAMS = [A, B, C, D]
START = datetime.datetime(2026, 9, 1, 19, 30)


def played(fixture_id, home, away, home_score, away_score, winner, day=None):
    """A result; by default fixtures are a day apart in the order of their ids."""
    when = START + datetime.timedelta(days=fixture_id if day is None else day)
    return ResultRecord(fixture_id, home.pk, away.pk, home_score, away_score, winner, when)


def table(records, game="convoy", teams=TEAMS, **config):
    config = StandingsConfig(game=game, **config)
    return build_standings(records=records, teams=teams, config=config)


def summary(rows):
    return [(row.position, row.team.name, row.points) for row in rows]


def test_rows_count_played_won_drawn_lost_and_points():
    rows = table(
        [
            played(1, A, B, 3, 1, "home"),
            played(2, C, A, 2, 2, "draw"),
            played(3, B, C, 0, 3, "away"),
        ]
    )
    by_name = {row.team.name: row for row in rows}
    anchor = by_name["Anchor"]
    assert (anchor.played, anchor.won, anchor.drawn, anchor.lost, anchor.points) == (2, 1, 1, 0, 4)
    assert (anchor.score_for, anchor.score_against, anchor.difference) == (5, 3, 2)
    bell = by_name["Bell"]
    assert (bell.played, bell.won, bell.drawn, bell.lost, bell.points) == (2, 0, 0, 2, 0)
    dolphin = by_name["Dolphin"]
    assert (dolphin.played, dolphin.points, dolphin.form) == (0, 0, [])


def test_points_for_win_draw_and_loss_come_from_the_season():
    rows = table(
        [played(1, A, B, 3, 1, "home"), played(2, C, D, 1, 1, "draw")],
        points_win=2,
        points_draw=1,
        points_loss=-1,
    )
    assert {row.team.name: row.points for row in rows} == {
        "Anchor": 2,
        "Bell": -1,
        "Crown": 1,
        "Dolphin": 1,
    }


def test_the_table_is_ordered_by_points_first():
    rows = table([played(1, A, B, 0, 3, "away"), played(2, C, D, 3, 2, "home")])
    assert [row.team.name for row in rows][:2] == ["Bell", "Crown"]


def test_difference_is_for_minus_against_in_convoy_and_conquian():
    records = [played(1, A, B, 3, 1, "home")]
    for game in ("convoy", "conquian"):
        rows = {row.team.name: row for row in table(records, game=game)}
        assert (rows["Anchor"].difference, rows["Bell"].difference) == (2, -2)
    assert game_difference("conquian", 9, 5) == 4


def test_korova_difference_is_heads_against_minus_heads_for():
    # Penalty heads: Anchor took 80 and Bell 100, so Anchor won and has the good difference.
    rows = {row.team.name: row for row in table([played(1, A, B, 80, 100, "home")], "korova")}
    assert (rows["Anchor"].score_for, rows["Anchor"].score_against) == (80, 100)
    assert (rows["Anchor"].difference, rows["Bell"].difference) == (20, -20)
    assert game_difference("korova", 80, 100) == 20


def test_korova_fewer_heads_overall_ranks_higher_on_difference():
    # Everyone won once; Bell and Dolphin took 150 heads each, Anchor and Crown 190.
    rows = table(
        [
            played(1, A, B, 70, 90, "home"),  # Anchor +20
            played(2, C, D, 60, 100, "home"),  # Crown +40
            played(3, B, A, 60, 120, "home"),
            played(4, D, C, 50, 130, "home"),
        ],
        "korova",
        tie_breakers=("points", "difference"),
    )
    assert [(row.team.name, row.difference) for row in rows] == [
        ("Bell", 40),
        ("Dolphin", 40),
        ("Anchor", -40),
        ("Crown", -40),
    ]
    assert [row.position for row in rows] == [1, 1, 3, 3]


def test_difference_breaks_a_tie_on_points():
    rows = table([played(1, A, C, 3, 2, "home"), played(2, B, D, 3, 0, "home")])
    assert summary(rows)[:2] == [(1, "Bell", 3), (2, "Anchor", 3)]


def test_head_to_head_breaks_a_tie_on_points_and_difference():
    # Anchor and Bell: 3 points and a difference of 0 each; Bell beat Anchor, so Bell is above.
    rows = table(
        [
            played(1, A, C, 3, 2, "home"),
            played(2, B, A, 3, 2, "home"),
            played(3, D, B, 3, 2, "home"),
        ]
    )
    positions = {row.team.name: row.position for row in rows}
    assert (positions["Bell"], positions["Anchor"]) == (2, 3)
    assert positions["Dolphin"] == 1


def test_wins_break_a_tie_that_head_to_head_leaves():
    # Anchor: a win and a loss (3); Bell: three draws (3). They have not met; difference 0.
    rows = table(
        [
            played(1, A, C, 3, 0, "home"),
            played(2, D, A, 3, 0, "home"),
            played(3, B, C, 1, 1, "draw"),
            played(4, B, D, 2, 2, "draw"),
            played(5, C, B, 0, 0, "draw"),
        ],
    )
    anchor, bell = (next(r for r in rows if r.team.name == name) for name in ("Anchor", "Bell"))
    assert (anchor.points, anchor.difference, bell.points, bell.difference) == (3, 0, 3, 0)
    assert anchor.position < bell.position
    assert not anchor.shares_position


def test_the_season_chain_decides_the_order_of_tie_breakers():
    records = [
        played(1, A, B, 3, 0, "home"),
        played(2, A, C, 0, 3, "away"),
        played(3, B, C, 3, 2, "home"),
        played(4, D, B, 3, 2, "home"),
    ]
    # Everyone has 3 points; the differences are Anchor 0, Bell -3, Crown +2, Dolphin +1.
    by_points = table(records)
    assert [row.points for row in by_points] == [3, 3, 3, 3]
    assert [row.team.name for row in by_points] == ["Crown", "Dolphin", "Anchor", "Bell"]
    # Wins only: everyone has one win, so all share first place.
    by_wins = table(records, tie_breakers=("wins",))
    assert [row.position for row in by_wins] == [1, 1, 1, 1]


def test_positions_are_shared_only_when_every_tie_breaker_is_level():
    rows = table([played(1, A, B, 1, 1, "draw"), played(2, C, D, 1, 1, "draw")])
    assert [row.position for row in rows] == [1, 1, 1, 1]
    assert all(row.shares_position for row in rows)
    rows = table([played(1, A, B, 3, 1, "home"), played(2, C, D, 3, 1, "home")])
    assert summary(rows) == [(1, "Anchor", 3), (1, "Crown", 3), (3, "Bell", 0), (3, "Dolphin", 0)]


def test_teams_level_on_everything_are_listed_in_the_given_order():
    rows = table([], teams=[D, B, A, C])
    assert [row.team.name for row in rows] == ["Dolphin", "Bell", "Anchor", "Crown"]
    assert [row.position for row in rows] == [1, 1, 1, 1]


def test_form_is_the_last_five_results_in_date_order_newest_last():
    records = [
        played(1, A, B, 3, 0, "home", day=1),
        played(7, A, C, 0, 3, "away", day=7),
        played(2, D, A, 1, 1, "draw", day=2),
        played(6, A, B, 3, 1, "home", day=6),
        played(3, A, C, 3, 0, "home", day=3),
        played(5, B, A, 0, 3, "away", day=5),
    ]
    rows = {row.team.name: row for row in table(records)}
    # In date order Anchor went W D W W W L: the last five are D W W W L.
    assert rows["Anchor"].form == ["D", "W", "W", "W", "L"]
    assert rows["Bell"].form == ["L", "L", "L"]


def test_form_orders_fixtures_on_the_same_day_by_fixture():
    records = [played(9, A, B, 0, 3, "away", day=1), played(8, A, C, 3, 0, "home", day=1)]
    assert {row.team.name: row.form for row in table(records)}["Anchor"] == ["W", "L"]


def test_results_of_teams_not_in_the_table_count_only_for_those_in_it():
    rows = table([played(1, A, B, 3, 0, "home")], teams=[A, C])
    assert [(row.team.name, row.played, row.points) for row in rows] == [
        ("Anchor", 1, 3),
        ("Crown", 0, 0),
    ]


def test_an_unknown_tie_breaker_in_the_season_is_a_value_error():
    with pytest.raises(ValueError, match="unknown tie-breaker 'goals'"):
        table([], tie_breakers=("points", "goals"))


def test_config_from_season_reads_points_and_tie_breakers():
    @dataclass
    class Season:
        game: str = "korova"
        points_win: int = 2
        points_draw: int = 1
        points_loss: int = 0
        tie_breakers: tuple = ("wins",)
        walkover_points_winner: int = 2
        walkover_points_loser: int = 1

    assert StandingsConfig.from_season(Season()) == StandingsConfig(
        "korova", 2, 1, 0, ("wins",), walkover_points_winner=2, walkover_points_loser=1
    )


def test_a_walkover_gets_the_walkover_points_in_the_table_and_in_head_to_head():
    config = StandingsConfig(
        "korova", tie_breakers=("points", "head_to_head"), walkover_points_winner=2
    )
    walkover = played(1, A, B, 0, 66, "home")._replace(walkover="home")
    game = played(2, B, A, 30, 60, "home")

    rows = build_standings(records=[walkover, game], teams=[A, B], config=config)

    assert {row.team_id: row.points for row in rows} == {A.pk: 2, B.pk: 3}
    assert [row.team_id for row in rows] == [B.pk, A.pk]
