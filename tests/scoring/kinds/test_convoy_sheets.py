"""Every rule of the convoy kind's sheet validation (scoring/kinds/convoy.py), one named test each."""

import pytest

from scoring.kinds.convoy import games_in_fixture as convoy_games_in_fixture
from scoring.results.sheets import SheetInvalid, validate_sheet

HOME = {1: "Dan", 2: "Eve"}
TEAMS = {"home_team": "Roundheads", "away_team": "Sixth Cow"}


def convoy_game(winner="home", home=3, away=1):
    return {"winner": winner, "convoys": {"home": home, "away": away}}


def convoy(*games, best_of=1):
    return validate_sheet(
        game="convoy",
        sheet={"games": list(games)},
        rule_options={},
        fixture_format={"games": best_of},
        **TEAMS,
    )


def errors_of(call, *args, **kwargs) -> dict:
    with pytest.raises(SheetInvalid) as caught:
        call(*args, **kwargs)
    # one sentence per path
    return {path: sentence for path, (sentence,) in caught.value.errors.items()}


def test_convoy_one_game_is_accepted():
    assert convoy(convoy_game("away", 2, 3)) == {
        "games": [{"winner": "away", "convoys": {"home": 2, "away": 3}}]
    }


def test_convoy_convoys_typed_as_text_become_whole_numbers():
    assert convoy(convoy_game("home", "3", " 0 "))["games"][0]["convoys"] == {"home": 3, "away": 0}


@pytest.mark.parametrize("best_of, message", [(1, "Enter the game's result."),
                                              (3, "Enter the result of each game.")])  # fmt: skip
def test_convoy_needs_its_games(best_of, message):
    assert errors_of(convoy, best_of=best_of) == {"games": message}


def test_convoy_a_game_is_an_object():
    assert errors_of(convoy, "home") == {
        "games.0": "Game 1 needs its winner and the convoys of each team."
    }


@pytest.mark.parametrize("winner", ["draw", None, "HOME"])
def test_convoy_the_winner_is_home_away_or_stalemate(winner):
    assert errors_of(convoy, convoy_game(winner)) == {
        "games.0.winner": "Game 1: choose the winner: Roundheads, Sixth Cow or stalemate."
    }


def test_convoy_a_game_gives_the_convoys_of_both_sides():
    assert errors_of(convoy, {"winner": "home"}) == {
        "games.0.convoys": "Game 1: enter the convoys of each team."
    }
    assert errors_of(convoy, {"winner": "home", "convoys": {"home": 3}}) == {
        "games.0.convoys.away": "Game 1: enter Sixth Cow's convoys (0 if none)."
    }


@pytest.mark.parametrize("count", [-1, "three", 1.5])
def test_convoy_convoys_are_whole_numbers_from_0(count):
    assert errors_of(convoy, convoy_game("home", 3, count)) == {
        "games.0.convoys.away": f"Game 1: Sixth Cow's convoys are a whole number (0 if none), not {count!r}."
    }


def test_convoy_the_winning_counter_may_complete_several_convoys_at_once():
    assert convoy(convoy_game("home", 4, 1))["games"][0]["convoys"] == {"home": 4, "away": 1}
    assert convoy(convoy_game("away", 2, 7))["games"][0]["convoys"] == {"home": 2, "away": 7}


def test_convoy_a_game_ends_at_the_third_convoy():
    assert errors_of(convoy, convoy_game("home", 8, 1)) == {
        "games.0.convoys.home": "Game 1: Roundheads cannot have 8 convoys: the game ends at the third "
        "(and one counter completes at most 5 at once)."
    }


def test_convoy_the_loser_had_fewer_than_three_convoys():
    assert errors_of(convoy, convoy_game("home", 4, 3)) == {
        "games.0.convoys.away": "Game 1: Roundheads won, so Sixth Cow had fewer than 3 convoys "
        "(the game ends at the third), not 3."
    }


def test_convoy_the_winner_has_more_convoys_than_the_loser():
    assert errors_of(convoy, convoy_game("home", 1, 2)) == {
        "games.0.convoys.home": "Game 1: Roundheads won, so Roundheads made more convoys than Sixth Cow "
        "(not 1 against 2)."
    }
    assert errors_of(convoy, convoy_game("away", 2, 2)) == {
        "games.0.convoys.away": "Game 1: Sixth Cow won, so Sixth Cow made more convoys than Roundheads "
        "(not 2 against 2)."
    }


def test_convoy_a_side_may_win_with_fewer_than_three_when_play_runs_out():
    # docs/rules.md "Convoy": when no side can play, the side with most convoys wins.
    assert convoy(convoy_game("home", 2, 1))["games"][0]["winner"] == "home"


def test_convoy_a_stalemate_has_equal_convoys():
    assert convoy(convoy_game("stalemate", 2, 2))
    assert errors_of(convoy, convoy_game("stalemate", 2, 1)) == {
        "games.0.convoys.home": "Game 1 is a stalemate, so both teams have the same number of "
        "convoys (not Roundheads 2 and Sixth Cow 1)."
    }


def test_convoy_a_stalemate_cannot_have_three_convoys_each():
    assert errors_of(convoy, convoy_game("stalemate", 3, 3)) == {
        "games.0.convoys.home": "Game 1: a team with 3 convoys has won, so it cannot be "
        "a stalemate."
    }


def test_convoy_a_game_after_the_best_of_was_won_is_refused():
    games = [convoy_game("home"), convoy_game("home"), convoy_game("away", 0, 3)]
    assert errors_of(convoy, *games, best_of=3) == {
        "games.2": "Game 3 is not needed: Roundheads already won the best of 3."
    }
    assert errors_of(convoy, convoy_game(), convoy_game(), best_of=1) == {
        "games.1": "Game 2 is not needed: Roundheads already won the best of 1."
    }


def test_convoy_no_more_games_than_the_best_of():
    games = [convoy_game("stalemate", 1, 1)] * 3 + [convoy_game()]
    assert errors_of(convoy, *games, best_of=3) == {
        "games.3": "Game 4 is not needed: the fixture is the best of 3."
    }


def test_convoy_a_game_still_needed_is_missing():
    assert errors_of(convoy, convoy_game("home"), convoy_game("away", 1, 3), best_of=3) == {
        "games": "Game 3 is missing: nobody has won the best of 3 yet (Roundheads 1, Sixth Cow 1)."
    }


def test_convoy_stalemates_do_not_count_towards_the_majority():
    games = [convoy_game("home"), convoy_game("stalemate", 0, 0), convoy_game("away", 2, 3)]
    assert len(convoy(*games, best_of=3)["games"]) == 3


def test_convoy_the_season_fixture_format_must_be_a_best_of_1_to_15():
    assert convoy_games_in_fixture({}) == 1
    for bad in ({"games": 0}, {"games": "3"}, {"games": 16}, {"games": True}):
        with pytest.raises(ValueError):
            convoy_games_in_fixture(bad)
    errors = errors_of(convoy, convoy_game(), best_of=0)
    assert errors == {
        "__all__": "The season's fixture format is not valid: the fixture format's games must "
        "be a whole number from 1 to 15."
    }


def test_convoy_a_fixture_has_a_bounded_number_of_games():
    errors = errors_of(convoy, *[convoy_game("stalemate", 0, 0)] * 16, best_of=15)
    assert errors == {"games": "A fixture has at most 15 games."}


@pytest.mark.parametrize("best_of", [2, 4])
def test_convoy_best_of_an_even_number_needs_more_than_half_and_may_end_level(best_of):
    half = best_of // 2
    level = [convoy_game("home")] * half + [convoy_game("away", 1, 3)] * half
    assert len(convoy(*level, best_of=best_of)["games"]) == best_of
    assert errors_of(convoy, *[convoy_game("home")] * half, best_of=best_of) == {
        "games": f"Game {half + 1} is missing: nobody has won the best of {best_of} yet "
        f"(Roundheads {half}, Sixth Cow 0)."
    }
    won = [convoy_game("home")] * (half + 1)
    assert len(convoy(*won, best_of=best_of)["games"]) == half + 1
    assert errors_of(convoy, *won, convoy_game("away", 1, 3), best_of=best_of) == {
        f"games.{half + 1}": f"Game {half + 2} is not needed: Roundheads already won the best of "
        f"{best_of}."
    }
