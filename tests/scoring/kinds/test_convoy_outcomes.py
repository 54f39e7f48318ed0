"""The convoy kind's outcome and live helpers (scoring/kinds/convoy.py)."""

from scoring.results.outcomes import match_outcome


def convoy(*games):
    sheet = {
        "games": [
            {"winner": winner, "convoys": {"home": home, "away": away}}
            for winner, home, away in games
        ]
    }
    return match_outcome(game="convoy", sheet=sheet, rule_options={})


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
