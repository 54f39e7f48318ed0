"""The korova kind's outcome and live helpers (scoring/kinds/korova.py)."""

from scoring.kinds.korova import game_ended_at as korova_game_ended_at
from scoring.kinds.korova import running_totals as korova_running_totals
from scoring.results.outcomes import match_outcome


def korova(rounds):
    sheet = {"players": [11, 12, 13, 14], "rounds": rounds}
    return match_outcome(game="korova", sheet=sheet, rule_options={})


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
