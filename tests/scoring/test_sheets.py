"""Every rule of scoring.sheets.validate_sheet, one named test each (no database)."""

import pytest
from django.core.exceptions import ValidationError

from scoring.kinds.convoy import games_in_fixture as convoy_games_in_fixture
from scoring.kinds.korova import round_limits as korova_round_limits
from scoring.sheets import SheetInvalid, sheet_changes, validate_sheet

# --- helpers ---------------------------------------------------------------------------------

# Six rounds that end the game: home player 1 reaches 66 in round 6 (totals 66, 42, 36, 36).
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


def conquian(first=None, second=None, rule_options=None, **kwargs):
    singles = [
        {"home_player": 1, "away_player": 3, "deals": first or ["home"] * 5},
        {"home_player": 2, "away_player": 4, "deals": second or ["away"] * 5},
    ]
    return validate_sheet(
        game="conquian",
        sheet={"singles": singles},
        rule_options=rule_options,
        fixture_format={},
        **TEAMS,
        **kwargs,
    )


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
    return caught.value.errors


# --- any game --------------------------------------------------------------------------------


def test_unknown_game_is_refused():
    errors = errors_of(validate_sheet, game="chess", sheet={}, rule_options={}, fixture_format={})
    assert errors == {"__all__": "There is no result sheet for the game 'chess'."}


@pytest.mark.parametrize("game", ["convoy", "korova", "conquian"])
def test_a_sheet_that_is_not_an_object_is_refused(game):
    errors = errors_of(validate_sheet, game=game, sheet=[1, 2], rule_options={}, fixture_format={})
    assert errors == {"__all__": "The result sheet must be a JSON object."}


def test_sheet_invalid_is_a_validation_error_with_one_message_per_field():
    with pytest.raises(ValidationError) as caught:
        korova(players=[1, 1, 3, 4])
    assert caught.value.message_dict == {"players.1": ["Player 1 is listed twice."]}


@pytest.mark.parametrize(
    "game, sheet",
    [
        ("korova", {"players": [1, 2, 3, 4], "rounds": KOROVA_ROUNDS, "notes": "x"}),
        ("conquian", {"singles": [], "winner": "home"}),
        ("convoy", {"games": [convoy_game()], "venue": 1}),
    ],
)
def test_an_unknown_field_is_refused(game, sheet):
    errors = errors_of(validate_sheet, game=game, sheet=sheet, rule_options={}, fixture_format={})
    unknown = next(key for key in sheet if key not in ("players", "rounds", "singles", "games"))
    assert errors[unknown].startswith(f"Unknown field {unknown!r}")


def test_sheet_changes_names_each_changed_field():
    before = {"players": [1, 2, 3, 4], "rounds": [[1, 2, 3, 4]]}
    after = {"players": [1, 2, 3, 4], "rounds": [[1, 5, 3, 4], [6, 6, 6, 6]]}
    assert sheet_changes(before, after) == [
        ("rounds.0.1", 2, 5),
        ("rounds.1", None, [6, 6, 6, 6]),
    ]
    assert sheet_changes(after, after) == []


# --- Корова ----------------------------------------------------------------------------------


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


# --- Conquian --------------------------------------------------------------------------------


def test_conquian_two_finished_singles_are_accepted():
    deals = ["draw", "home", "away", "home", "home", "home"]
    assert conquian(deals) == {
        "singles": [
            {"home_player": 1, "away_player": 3, "deals": deals},
            {"home_player": 2, "away_player": 4, "deals": ["away"] * 5},
        ]
    }


@pytest.mark.parametrize("singles", [None, [], [{}], [{}, {}, {}], "two"])
def test_conquian_needs_exactly_two_singles(singles):
    errors = errors_of(
        validate_sheet,
        game="conquian",
        sheet={"singles": singles},
        rule_options={},
        fixture_format={},
    )
    assert errors == {
        "singles": "Enter the two singles: the home team's player 1 against the away team's player 1, then the two players 2."
    }


def test_conquian_a_single_is_an_object():
    sheet = {"singles": [["home"] * 5, {"home_player": 2, "away_player": 4, "deals": ["away"] * 5}]}
    errors = errors_of(
        validate_sheet, game="conquian", sheet=sheet, rule_options={}, fixture_format={}
    )
    assert errors == {"singles.0": "Single 1 must list its two players and its deals."}


def test_conquian_an_unknown_field_in_a_single_is_refused():
    sheet = {
        "singles": [
            {"home_player": 1, "away_player": 3, "deals": ["home"] * 5, "score": "5-0"},
            {"home_player": 2, "away_player": 4, "deals": ["away"] * 5},
        ]
    }
    errors = errors_of(
        validate_sheet, game="conquian", sheet=sheet, rule_options={}, fixture_format={}
    )
    assert list(errors) == ["singles.0.score"]


def test_conquian_each_single_names_its_players():
    sheet = {
        "singles": [
            {"away_player": 3, "deals": ["home"] * 5},
            {"home_player": 2, "away_player": "Gus", "deals": ["away"] * 5},
        ]
    }
    errors = errors_of(
        validate_sheet, game="conquian", sheet=sheet, rule_options={}, fixture_format={}
    )
    assert errors == {
        "singles.0.home_player": "Choose the home team's player in single 1.",
        "singles.1.away_player": "Choose the away team's player in single 2.",
    }


def test_conquian_a_player_plays_only_one_single():
    sheet = {
        "singles": [
            {"home_player": 1, "away_player": 3, "deals": ["home"] * 5},
            {"home_player": 1, "away_player": 4, "deals": ["away"] * 5},
        ]
    }
    errors = errors_of(
        validate_sheet, game="conquian", sheet=sheet, rule_options={}, fixture_format={}
    )
    assert errors == {"singles.1.home_player": "Player 1 already plays single 1."}


def test_conquian_players_belong_to_their_side_when_the_teams_are_known():
    errors = errors_of(conquian, home_players=[1, 2], away_players=[4, 5])
    assert errors == {"singles.0.away_player": "Player 3 does not play for Sixth Cow."}


@pytest.mark.parametrize("deals", [None, [], "home home"])
def test_conquian_a_single_needs_its_deals(deals):
    sheet = {
        "singles": [
            {"home_player": 1, "away_player": 3, "deals": ["home"] * 5},
            {"home_player": 2, "away_player": 4, "deals": deals},
        ]
    }
    errors = errors_of(
        validate_sheet, game="conquian", sheet=sheet, rule_options={}, fixture_format={}
    )
    assert errors == {"singles.1.deals": "Enter the deals of single 2, in order."}


@pytest.mark.parametrize("deal", ["HOME", "won", 1, None])
def test_conquian_a_deal_is_won_by_home_or_away_or_drawn(deal):
    errors = errors_of(conquian, ["home", deal, "home", "home", "home", "home"])
    assert errors == {
        "singles.0.deals.1": "Deal 2 of single 1 must be won by Roundheads' player 1 or Sixth Cow's player 1, or drawn; "
        f"not {deal!r}."
    }


def test_conquian_a_deal_after_the_single_was_won_is_refused():
    deals = ["home"] * 4 + ["away"] * 3 + ["home", "away"]
    assert errors_of(conquian, deals) == {
        "singles.0.deals.8": "Deal 9 comes after the single was won (Roundheads' player 1 reached 5 points)."
    }


def test_conquian_the_deal_after_the_win_names_the_winner_when_known():
    errors = errors_of(conquian, None, ["away"] * 6, home_players=HOME, away_players=AWAY)
    assert errors == {
        "singles.1.deals.5": "Deal 6 comes after the single was won (Gus reached 5 points)."
    }


def test_conquian_a_single_nobody_has_won_is_refused():
    errors = errors_of(conquian, ["home", "away", "draw", "home"])
    assert errors == {
        "singles.0.deals": "Single 1 is not finished: nobody has reached 5 points yet "
        "(Roundheads' player 1 has 3, Sixth Cow's player 1 1)."
    }


def test_conquian_drawn_deals_double_the_next_by_default():
    # draw (1), draw (2), home wins the deal worth 4, then one more: 5 at deal 4.
    assert conquian(["draw", "draw", "home", "home"])["singles"][0]["deals"][-1] == "home"
    errors = errors_of(conquian, ["draw", "draw", "home", "home", "home"])
    assert list(errors) == ["singles.0.deals.4"]


def test_conquian_the_season_carry_over_decides_the_deal_values():
    # "add": the third deal is worth 3, so 4 points after deal 4: not finished.
    errors = errors_of(
        conquian, ["draw", "draw", "home", "home"], rule_options={"carry_over": "add"}
    )
    assert errors == {
        "singles.0.deals": "Single 1 is not finished: nobody has reached 5 points yet "
        "(Roundheads' player 1 has 4, Sixth Cow's player 1 0)."
    }
    # "none": drawn deals carry nothing; five won deals are needed.
    assert conquian(["draw", "draw"] + ["home"] * 5, rule_options={"carry_over": "none"})


def test_conquian_the_season_target_decides_when_a_single_ends():
    assert conquian(["home"] * 3, ["away"] * 3, rule_options={"target": 3})
    errors = errors_of(conquian, rule_options={"target": 3})
    assert set(errors) == {"singles.0.deals.3", "singles.1.deals.3"}


def test_conquian_bad_rule_options_of_the_season_are_named():
    errors = errors_of(conquian, rule_options={"carry_over": "triple"})
    assert errors["__all__"].startswith(
        "The season's rule options are not valid: option 'carry_over' must be one of"
    )


def test_conquian_a_single_has_a_bounded_number_of_deals():
    errors = errors_of(conquian, ["draw"] * 501)
    assert errors == {"singles.0.deals": "A single holds at most 500 deals."}


# --- Convoy ----------------------------------------------------------------------------------


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
    # RULES.md: when no side can play, the side with most convoys wins.
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
