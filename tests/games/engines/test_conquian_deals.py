"""Conquian rules (docs/rules.md), one test per rule: going out, drawn deals, the deal value carried
over and the match. Moves: see test_conquian_melds.py."""

import pytest

from games.engines import IllegalMove
from games.engines.conquian import CARRY_OVERS, DEFAULT_TARGET, ENGINE, OPTIONS, next_deal_value
from games.engines.options import resolve_options
from tests.games.engines.conquian_situations import OUT_HAND, OUT_MELDS, position

# -- going out and drawn deals ----------------------------------------------------------------


def test_going_out_melds_eleven_cards_without_a_discard():
    state = position([OUT_HAND, 10], "6D", melds=(OUT_MELDS, []))
    state = ENGINE.apply(state, 0, {"meld": OUT_HAND})
    view = ENGINE.view(state, 0)
    assert view["scores"] == [1, 0]
    assert view["last_deal"] == {"deal_number": 1, "winner": 0, "points": 1}
    assert view["deal_number"] == 2 and view["deal_value"] == 1


def test_a_whole_hand_never_goes_out_in_one_move():
    # Eleven cards in one meld cannot be (eight at most): the first turn never goes out.
    for seed in range(200):
        state = ENGINE.new_game(players=2, seed=seed)
        for move in ENGINE.legal_moves(state, 0):
            assert ENGINE.view(ENGINE.apply(state, 0, move), 0)["deal_number"] == 1


def test_ten_melded_and_a_discard_is_not_out():
    state = position([["7D", "JD", "QD", "2C"], 10], "6D", melds=(OUT_MELDS, []))
    state = ENGINE.apply(state, 0, {"meld": ["7D", "JD", "QD"]})
    state = ENGINE.apply(state, 0, {"discard": "2C"})
    view = ENGINE.view(state, 0)
    assert view["deal_number"] == 1 and view["scores"] == [0, 0]
    assert view["hand"] == [] and view["to_act"] == [1]
    # The eleventh card, added to the ten melded, goes out.
    melded = ENGINE.dump(state)["melds"][0]
    state = position([[], 10], "5S", melds=(melded, []))
    assert ENGINE.legal_moves(state, 0) == [{"reject": True}, {"meld": []}]
    state = ENGINE.apply(state, 0, {"meld": []})
    assert ENGINE.view(state, 0)["scores"] == [1, 0]


def test_drawn_deal_when_the_stock_is_empty_and_the_last_open_card_cannot_be_used():
    state = position([10, 10], "KC", stock=[])
    assert ENGINE.legal_moves(state, 0) == [{"reject": True}]
    state = ENGINE.apply(state, 0, {"reject": True})
    view = ENGINE.view(state, 0)
    assert view["last_deal"] == {"deal_number": 1, "winner": None, "points": 0}
    assert view["scores"] == [0, 0] and view["deal_number"] == 2 and view["deal_value"] == 2


def test_with_the_stock_empty_a_usable_offered_card_must_be_melded():
    state = position([["KD", "KH", "AS", 7], 10], "KC", stock=[])
    assert ENGINE.legal_moves(state, 0) == [{"meld": ["KH", "KD"]}]
    with pytest.raises(IllegalMove, match="The stock is empty: you must meld the king of clubs"):
        ENGINE.apply(state, 0, {"reject": True})


def test_with_the_stock_empty_a_usable_card_you_turned_cannot_be_passed():
    state = position([["QH", "KH", 8], 10], "JH", phase="turned", stock=[],
                     melds=([], ["JS", "JD", "JC"]))  # fmt: skip
    assert ENGINE.legal_moves(state, 0) == [{"meld": ["QH", "KH"]}]
    for move in ({"pass": True}, {"pass": True, "force": True}):
        with pytest.raises(
            IllegalMove,
            match="\\(for example with the queen of hearts and the king of hearts\\)",
        ):
            ENGINE.apply(state, 0, move)


def test_with_the_stock_empty_an_unusable_card_you_turned_goes_to_the_opponent():
    state = position([10, ["KD", "KH", 8]], "KC", phase="turned", stock=[])
    assert ENGINE.legal_moves(state, 0) == [{"pass": True}]
    state = ENGINE.apply(state, 0, {"pass": True})
    assert ENGINE.legal_moves(state, 1) == [{"meld": ["KH", "KD"]}]


def test_with_the_stock_empty_a_timeout_melds_a_usable_card_the_first_legal_way():
    state = position([["5S", "5D", "5C", "AH", 6], 10], "5H", stock=[])
    first = ENGINE.legal_moves(state, 0)[0]
    assert first == {"meld": ["5S", "5D"]}
    after = ENGINE.timeout(state, 0)
    assert ENGINE.dump(after) == ENGINE.dump(ENGINE.apply(state, 0, first))
    assert ENGINE.view(after, 0)["phase"] == "discard"
    turned = position([["5S", "5D", 8], 10], "5H", phase="turned", stock=[])
    assert ENGINE.view(ENGINE.timeout(turned, 0), 0)["melds"][0] == [["5S", "5H", "5D"]]


def test_with_the_stock_empty_a_timeout_on_an_unusable_card_draws_the_deal():
    state = position([10, 10], "KC", stock=[])
    view = ENGINE.view(ENGINE.timeout(state, 0), None)
    assert view["last_deal"] == {"deal_number": 1, "winner": None, "points": 0}


def test_last_open_card_that_can_be_used_keeps_the_deal_going():
    state = position([["KD", "KH", "AS", 7], 10], "KC", stock=[])
    state = ENGINE.apply(state, 0, {"meld": ["KH", "KD"]})
    state = ENGINE.apply(state, 0, {"discard": "AS"})
    view = ENGINE.view(state, 1)
    assert view["deal_number"] == 1 and view["open_card"] == "AS" and view["to_act"] == [1]


# -- carry-over, deal value and the match -------------------------------------------------------


def test_carry_over_rule_functions():
    assert CARRY_OVERS == ("double", "add", "none") and DEFAULT_TARGET == 5
    assert next_deal_value(1, True) == 2 and next_deal_value(2, True, "double") == 4
    assert next_deal_value(1, True, "add") == 2 and next_deal_value(2, True, "add") == 3
    assert next_deal_value(4, True, "none") == 1
    assert all(next_deal_value(8, False, rule) == 1 for rule in CARRY_OVERS)
    with pytest.raises(ValueError, match="carry_over"):
        next_deal_value(1, True, "triple")


@pytest.mark.parametrize(("carry_over", "values"), [
    ("double", [2, 4, 8]), ("add", [2, 3, 4]), ("none", [1, 1, 1]),
])  # fmt: skip
def test_drawn_deals_carry_over_the_deal_value(carry_over, values):
    state = ENGINE.new_game(players=2, seed=5, options={"carry_over": carry_over})
    seen = []
    while len(seen) < 3:
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.timeout(state, seat)  # time-outs never meld: every deal is drawn
        view = ENGINE.view(state, None)
        if view["deal_number"] == len(seen) + 2:
            seen.append(view["deal_value"])
    assert seen == values


def test_won_deal_scores_its_value_and_resets_it_to_one():
    state = position([10, OUT_HAND], "6D", to_act=1, deal_value=4, scores=[2, 0],
                     melds=([], OUT_MELDS))  # fmt: skip
    state = ENGINE.apply(state, 1, {"meld": OUT_HAND})
    view = ENGINE.view(state, None)
    assert view["scores"] == [2, 4] and view["deal_value"] == 1
    assert view["last_deal"]["points"] == 4


def test_match_goes_to_the_target_default_five():
    assert resolve_options(OPTIONS, None)["target"] == 5
    state = position([OUT_HAND, 10], "6D", scores=[4, 3], melds=(OUT_MELDS, []))
    state = ENGINE.apply(state, 0, {"meld": OUT_HAND})
    assert ENGINE.is_over(state) and ENGINE.to_act(state) == []
    assert ENGINE.outcome(state) == {"winners": [0], "draw": False, "scores": [5, 3]}
    assert ENGINE.legal_moves(state, 0) == [] and ENGINE.view(state, 0)["phase"] == "over"
    with pytest.raises(IllegalMove, match="The match is over"):
        ENGINE.apply(state, 0, {"reject": True})


def test_target_option_ends_the_match_earlier():
    state = position([OUT_HAND, 10], "6D", options={"target": 1}, melds=(OUT_MELDS, []))
    state = ENGINE.apply(state, 0, {"meld": OUT_HAND})
    assert ENGINE.outcome(state)["winners"] == [0]


def test_a_match_is_played_through_many_deals():
    state = ENGINE.new_game(players=2, seed=2, options={"target": 2})
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        moves = ENGINE.legal_moves(state, seat)
        state = ENGINE.apply(state, seat, moves[-1])  # meld as much as possible
    outcome = ENGINE.outcome(state)
    assert max(outcome["scores"]) >= 2 and outcome["winners"]
