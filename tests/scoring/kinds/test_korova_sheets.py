"""Every rule of the korova kind's sheet validation (scoring/kinds/korova.py), one named test each."""

import pytest

from scoring.kinds.korova import round_limits as korova_round_limits
from scoring.results.sheets import SheetInvalid, validate_sheet

KOROVA_ROUNDS = [[11, 7, 6, 6]] * 6
HOME = {1: "Dan", 2: "Eve"}
AWAY = {3: "Fay", 4: "Gus"}
TEAMS = {"home_team": "Roundheads", "away_team": "Sixth Cow"}


def korova(rounds=None, players=None, rule_options=None, **kwargs):
    sheet = {
        "players": [1, 2, 3, 4] if players is None else players,
        "rounds": KOROVA_ROUNDS if rounds is None else rounds,
    }
    return validate_sheet(
        game="korova", sheet=sheet, rule_options=rule_options, fixture_format={}, **TEAMS, **kwargs
    )


def errors_of(call, *args, **kwargs) -> dict:
    with pytest.raises(SheetInvalid) as caught:
        call(*args, **kwargs)
    # one sentence per path
    return {path: sentence for path, (sentence,) in caught.value.errors.items()}


def test_korova_a_finished_game_is_accepted_as_entered():
    assert korova() == {"players": [1, 2, 3, 4], "rounds": KOROVA_ROUNDS}


def test_korova_numbers_typed_as_text_become_whole_numbers():
    rounds = [[" 11", "7", 6, "6"]] + KOROVA_ROUNDS[1:]
    assert korova(rounds=rounds, players=["1", 2, 3, 4])["rounds"][0] == [11, 7, 6, 6]


def test_korova_blank_rounds_at_the_end_of_the_grid_are_not_rounds():
    rounds = KOROVA_ROUNDS + [["", None, "", " "], [None] * 4]
    assert korova(rounds=rounds)["rounds"] == KOROVA_ROUNDS


def test_korova_needs_the_four_players():
    errors = errors_of(korova, players=[1, 2, 3])
    assert errors == {"players": "List the four players: Roundheads' two, then Sixth Cow's two."}


def test_korova_a_player_is_a_player_id():
    errors = errors_of(korova, players=[1, 2, "Fay", None])
    assert errors == {
        "players.2": "Choose Sixth Cow's player 1.",
        "players.3": "Choose Sixth Cow's player 2.",
    }


def test_korova_a_player_cannot_sit_twice():
    assert errors_of(korova, players=[1, 2, 3, 2]) == {"players.3": "Player 2 is listed twice."}


def test_korova_players_belong_to_their_side_when_the_teams_are_known():
    errors = errors_of(korova, players=[1, 3, 2, 4], home_players=HOME, away_players=AWAY)
    assert errors == {
        "players.1": "Fay does not play for Roundheads.",
        "players.2": "Eve does not play for Sixth Cow.",
    }


def test_korova_messages_use_the_players_names_when_known():
    rounds = [[11, 7, "x", 6]] + KOROVA_ROUNDS[1:]
    errors = errors_of(korova, rounds=rounds, home_players=[1, 2], away_players=AWAY)
    assert errors == {"rounds.0.2": "Round 1: the heads Fay took must be a whole number, not 'x'."}


@pytest.mark.parametrize("rounds", [[], "66", [[None] * 4]])
def test_korova_needs_rounds(rounds):
    assert errors_of(korova, rounds=rounds) == {
        "rounds": "Enter the heads each player took, round by round."
    }


@pytest.mark.parametrize("row", [[11, 7, 6], [11, 7, 6, 6, 0], "11 7 6 6"])
def test_korova_a_round_has_one_number_per_player(row):
    errors = errors_of(korova, rounds=[KOROVA_ROUNDS[0], row] + KOROVA_ROUNDS[2:])
    assert errors == {"rounds.1": "Round 2 needs four numbers, one for each player."}


def test_korova_a_blank_cell_in_a_round_is_refused():
    rounds = KOROVA_ROUNDS[:2] + [[11, None, 6, 6]] + KOROVA_ROUNDS[3:]
    assert errors_of(korova, rounds=rounds) == {
        "rounds.2.1": "Round 3: enter the heads Roundheads' player 2 took (0 if none)."
    }


@pytest.mark.parametrize("cell", ["seven", 7.5, True, [7]])
def test_korova_heads_are_whole_numbers(cell):
    rounds = [[11, cell, 6, 6]] + KOROVA_ROUNDS[1:]
    assert errors_of(korova, rounds=rounds) == {
        "rounds.0.1": f"Round 1: the heads Roundheads' player 2 took must be a whole number, not {cell!r}."
    }


@pytest.mark.parametrize("cell", [-1, "-3"])
def test_korova_heads_are_never_negative(cell):
    rounds = [[11, 7, 6, cell]] + KOROVA_ROUNDS[1:]
    assert errors_of(korova, rounds=rounds) == {
        "rounds.0.3": f"Round 1: Sixth Cow's player 2 cannot take fewer than 0 heads (not {cell})."
    }


def test_korova_a_player_cannot_take_more_heads_than_the_deck_holds():
    rounds = [[11, 7, 172, 6]] + KOROVA_ROUNDS[1:]
    assert errors_of(korova, rounds=rounds, away_players=AWAY) == {
        "rounds.0.2": "Round 1: Fay cannot take 172 heads; the deck holds only 170."
    }


def test_korova_a_player_cannot_take_more_heads_than_one_round_allows():
    rounds = [[11, 7, 107, 6]] + KOROVA_ROUNDS[1:]
    assert errors_of(korova, rounds=rounds) == {
        "rounds.0.2": "Round 1: Sixth Cow's player 1 cannot take 107 heads; "
        "at most 106 can be taken in one round."
    }


def test_korova_a_round_cannot_hold_more_heads_than_the_deck():
    rounds = KOROVA_ROUNDS[:2] + [[50, 50, 50, 22]] + KOROVA_ROUNDS[3:]
    assert errors_of(korova, rounds=rounds) == {
        "rounds.2": "Round 3 has 172 heads; the deck holds only 170."
    }


def test_korova_the_classic_deck_holds_171_heads():
    rounds = KOROVA_ROUNDS[:2] + [[50, 50, 50, 22]] + KOROVA_ROUNDS[3:]
    errors = errors_of(korova, rounds=rounds, rule_options={"edition": "classic"})
    assert errors == {"rounds.2": "Round 3 has 172 heads; the deck holds only 171."}


def test_korova_a_round_cannot_hold_more_heads_than_forty_cards():
    rounds = [[40, 40, 20, 7]] + KOROVA_ROUNDS[1:]
    assert errors_of(korova, rounds=rounds) == {
        "rounds.0": "Round 1 has 107 heads; at most 106 can be taken in one round "
        "(40 cards at most are taken: each row keeps at least one)."
    }


def test_korova_a_round_holds_at_least_the_heads_of_twenty_four_cards():
    rounds = [[10, 5, 5, 3]] + KOROVA_ROUNDS[1:]
    assert errors_of(korova, rounds=rounds) == {
        "rounds.0": "Round 1 has 23 heads; at least 24 are taken in every round "
        "(24 cards at least are taken: the rows hold 20 at most)."
    }


def test_korova_round_limits_follow_from_the_edition_and_the_variant():
    assert korova_round_limits("korova-006") == (24, 106)
    assert korova_round_limits("classic") == (24, 107)
    # Tactical: only cards 1-44 are in play, so the heaviest forty are known exactly.
    assert korova_round_limits("korova-006", tactical=True) == (24, 68)


def test_korova_the_tactical_variant_takes_its_limits_from_cards_1_to_44():
    rounds = [[30, 20, 10, 10]] + [[11, 7, 6, 6]] * 4
    assert korova(rounds=rounds)["rounds"] == rounds
    errors = errors_of(korova, rounds=rounds, rule_options={"tactical": True})
    assert errors["rounds.0"].startswith("Round 1 has 70 heads; at most 68 can be taken")


def test_korova_a_round_after_the_game_ended_is_refused():
    rounds = KOROVA_ROUNDS + [[6, 6, 6, 6]]
    errors = errors_of(korova, rounds=rounds, home_players=HOME)
    assert errors == {"rounds.6": "Round 7 comes after the game ended: Dan reached 66 in round 6."}


def test_korova_everyone_who_reached_the_end_score_is_named():
    rounds = [[11, 11, 6, 6]] * 6 + [[6, 6, 6, 6]]
    errors = errors_of(korova, rounds=rounds, home_players=HOME)
    assert errors == {
        "rounds.6": "Round 7 comes after the game ended: Dan and Eve reached 66 in round 6."
    }


def test_korova_a_game_nobody_has_finished_is_refused():
    errors = errors_of(korova, rounds=KOROVA_ROUNDS[:5], home_players=HOME)
    assert errors == {
        "rounds": "The game is not finished: nobody has reached 66 heads yet "
        "(highest: Dan with 55). Enter the remaining rounds."
    }


def test_korova_the_season_end_score_decides_when_the_game_ends():
    rounds = KOROVA_ROUNDS[:3]  # Dan has 33
    assert korova(rounds=rounds, rule_options={"end_score": 33})["rounds"] == rounds
    errors = errors_of(korova, rounds=KOROVA_ROUNDS, rule_options={"end_score": 33})
    assert errors == {
        "rounds.3": "Round 4 comes after the game ended: Roundheads' player 1 reached 33 in round 3."
    }


def test_korova_bad_rule_options_of_the_season_are_named():
    errors = errors_of(korova, rule_options={"end_score": "lots"})
    assert errors == {
        "__all__": "The season's rule options are not valid: option 'end_score' must be a "
        "whole number, not 'lots'."
    }


def test_korova_a_sheet_has_a_bounded_number_of_rounds():
    assert errors_of(korova, rounds=[[6, 6, 6, 6]] * 501) == {
        "rounds": "A sheet holds at most 500 rounds."
    }
