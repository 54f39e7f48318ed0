"""scoring.outcomes: sheet → match outcome → league points, and the live sheet helpers."""

from types import SimpleNamespace

import pytest

from scoring.kinds import MatchOutcome
from scoring.kinds.conquian import deal_values as conquian_deal_values
from scoring.kinds.conquian import single_status as conquian_single_status
from scoring.kinds.korova import game_ended_at as korova_game_ended_at
from scoring.kinds.korova import running_totals as korova_running_totals
from scoring.outcomes import league_points, match_outcome


def convoy(*games):
    sheet = {
        "games": [
            {"winner": winner, "convoys": {"home": home, "away": away}}
            for winner, home, away in games
        ]
    }
    return match_outcome(game="convoy", sheet=sheet, rule_options={})


def conquian(first, second, **options):
    sheet = {
        "singles": [
            {"home_player": 1, "away_player": 3, "deals": first},
            {"home_player": 2, "away_player": 4, "deals": second},
        ]
    }
    return match_outcome(game="conquian", sheet=sheet, rule_options=options)


def korova(rounds):
    sheet = {"players": [11, 12, 13, 14], "rounds": rounds}
    return match_outcome(game="korova", sheet=sheet, rule_options={})


# --- Convoy ----------------------------------------------------------------------------------


def test_convoy_one_game_won_takes_the_fixture_with_its_convoys():
    outcome = convoy(("away", 1, 3))
    assert (outcome.home_score, outcome.away_score, outcome.winner) == (1, 3, "away")
    assert outcome.games == [{"number": 1, "home": 1, "away": 3, "winner": "away"}]


def test_convoy_a_stalemate_is_a_draw():
    outcome = convoy(("stalemate", 2, 2))
    assert (outcome.winner, outcome.home_games, outcome.away_games) == ("draw", 0, 0)


def test_convoy_best_of_three_goes_to_more_games_won_and_adds_up_the_convoys():
    outcome = convoy(("home", 3, 2), ("away", 1, 3), ("home", 3, 0))
    assert (outcome.home_score, outcome.away_score) == (7, 5)
    assert (outcome.winner, outcome.home_games, outcome.away_games) == ("home", 2, 1)


def test_convoy_level_games_won_is_a_draw_whatever_the_convoys():
    outcome = convoy(("home", 3, 0), ("stalemate", 1, 1), ("away", 2, 3))
    assert (outcome.winner, outcome.home_score, outcome.away_score) == ("draw", 6, 4)


# --- Корова ----------------------------------------------------------------------------------


def test_korova_team_heads_are_the_two_players_totals_and_fewer_heads_wins():
    outcome = korova([[11, 7, 6, 6]] * 6)
    assert (outcome.home_score, outcome.away_score, outcome.winner) == (108, 72, "away")
    assert outcome.games[0]["players"] == [
        {"player": 11, "heads": 66},
        {"player": 12, "heads": 42},
        {"player": 13, "heads": 36},
        {"player": 14, "heads": 36},
    ]
    assert outcome.games[0]["rounds"] == 6
    assert (outcome.home_games, outcome.away_games) == (0, 1)


def test_korova_level_team_heads_is_a_draw():
    outcome = korova([[20, 5, 10, 15], [46, 1, 2, 45]])
    assert (outcome.home_score, outcome.away_score, outcome.winner) == (72, 72, "draw")


# --- Conquian --------------------------------------------------------------------------------


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


def test_match_outcome_refuses_an_unknown_game():
    with pytest.raises(ValueError):
        match_outcome(game="chess", sheet={}, rule_options={})


def test_score_for_reads_the_side():
    outcome = MatchOutcome(home_score=3, away_score=1, winner="home")
    assert (outcome.score_for("home"), outcome.score_for("away")) == (3, 1)


# --- league points ---------------------------------------------------------------------------

SEASON = SimpleNamespace(points_win=3, points_draw=1, points_loss=0)


@pytest.mark.parametrize(
    "winner, side, points",
    [("home", "home", 3), ("home", "away", 0), ("away", "away", 3), ("draw", "home", 1),
     ("draw", "away", 1)],
)  # fmt: skip
def test_league_points_by_outcome_and_side(winner, side, points):
    assert league_points(winner=winner, side=side, season=SEASON) == points


def test_league_points_follow_the_season():
    season = SimpleNamespace(points_win=2, points_draw=1, points_loss=-1)
    assert league_points(winner="away", side="home", season=season) == -1
    assert league_points(winner="away", side="away", season=season) == 2


# --- live helpers ----------------------------------------------------------------------------


def test_korova_running_totals_add_up_round_by_round():
    assert korova_running_totals([[1, 2, 3, 4], [10, 0, 5, 1]]) == [[1, 2, 3, 4], [11, 2, 8, 5]]


def test_korova_running_totals_count_blank_cells_as_nothing_while_typing():
    assert korova_running_totals([[1, "", None, "4"], ["x", 2]]) == [[1, 0, 0, 4], [1, 2, 0, 4]]
    assert korova_running_totals([]) == []


def test_korova_game_ended_at_is_the_round_someone_reached_the_end_score():
    rounds = [[30, 0, 0, 0], [30, 0, 0, 0], [6, 0, 0, 0], [1, 1, 1, 1]]
    assert korova_game_ended_at(rounds, 66) == 3
    assert korova_game_ended_at(rounds[:2], 66) is None
    assert korova_game_ended_at(rounds, 30) == 1


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
