"""Every rule of the conquian kind's sheet validation (scoring/kinds/conquian.py), one named test each."""

import pytest

from scoring.results.sheets import SheetInvalid, validate_sheet

HOME = {1: "Dan", 2: "Eve"}
AWAY = {3: "Fay", 4: "Gus"}
TEAMS = {"home_team": "Roundheads", "away_team": "Sixth Cow"}


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


def errors_of(call, *args, **kwargs) -> dict:
    with pytest.raises(SheetInvalid) as caught:
        call(*args, **kwargs)
    # one sentence per path
    return {path: sentence for path, (sentence,) in caught.value.errors.items()}


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
