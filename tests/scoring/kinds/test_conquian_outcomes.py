"""The conquian kind's outcome and live helpers (scoring/kinds/conquian.py)."""

import pytest

from scoring.kinds.conquian import deal_values as conquian_deal_values
from scoring.kinds.conquian import single_status as conquian_single_status
from scoring.results.outcomes import match_outcome


def conquian(first, second, **options):
    sheet = {
        "singles": [
            {"home_player": 1, "away_player": 3, "deals": first},
            {"home_player": 2, "away_player": 4, "deals": second},
        ]
    }
    return match_outcome(game="conquian", sheet=sheet, rule_options=options)


def test_conquian_both_singles_won_takes_the_fixture():
    outcome = conquian(["home"] * 5, ["away", "home", "home", "home", "home", "home"])
    assert (outcome.winner, outcome.home_games, outcome.away_games) == ("home", 2, 0)
    assert (outcome.home_score, outcome.away_score) == (10, 1)


def test_conquian_one_single_each_goes_to_more_deal_points():
    # Single 1: home 5-0. Single 2: away wins 5-4 after a doubled deal; home leads 9-5.
    second = ["home"] * 4 + ["draw", "away", "away", "away", "away"]
    outcome = conquian(["home"] * 5, second)
    assert (outcome.home_games, outcome.away_games) == (1, 1)
    assert (outcome.home_score, outcome.away_score) == (9, 5)
    assert outcome.winner == "home"
    assert outcome.games[1] == {
        "number": 2,
        "home_player": 2,
        "away_player": 4,
        "home": 4,
        "away": 5,
        "winner": "away",
        "deals": 9,
    }


def test_conquian_one_single_each_and_level_points_is_a_draw():
    outcome = conquian(["home"] * 5, ["away"] * 5)
    assert (outcome.home_score, outcome.away_score, outcome.winner) == (5, 5, "draw")


def test_conquian_the_season_carry_over_changes_the_points():
    deals = ["draw", "draw", "home", "home", "home", "home"]
    assert conquian(deals, ["away"] * 5).home_score == 5  # double: 4 + 1
    assert conquian(deals, ["away"] * 5, carry_over="add").home_score == 5  # add: 3 + 1 + 1


@pytest.mark.parametrize(
    "carry_over, values",
    [("double", [1, 2, 4, 1, 2]), ("add", [1, 2, 3, 1, 2]), ("none", [1, 1, 1, 1, 1])],
)
def test_conquian_deal_values_carry_over_drawn_deals(carry_over, values):
    assert conquian_deal_values(["draw", "draw", "home", "draw", "away"], carry_over) == values


def test_conquian_single_status_while_the_single_goes_on():
    status = conquian_single_status(["home", "draw"], target=5)
    assert (status.home_points, status.away_points, status.next_value) == (1, 0, 2)
    assert (status.winner, status.ended_at, status.finished) == (None, None, False)


def test_conquian_single_status_when_the_target_is_reached():
    status = conquian_single_status(["draw", "draw", "away", "away", "home"], target=5)
    assert (status.away_points, status.winner, status.ended_at, status.finished) == (
        5,
        "away",
        4,
        True,
    )
    assert status.values == [1, 2, 4, 1]  # the deal after the win is left out
