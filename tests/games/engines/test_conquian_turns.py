"""Conquian rules (docs/rules.md), one test per rule: the deal, the open card and what a turn may
do with it, forcing. Moves: see test_conquian_melds.py."""

import pytest

from games.engines import IllegalMove
from games.engines.conquian import ENGINE
from games.engines.conquian_melds import CODES
from games.engines.rng import shuffled
from tests.games.engines.conquian_situations import QUIET, QUIET_1, make_deck, meld_moves, position

# -- the deal -------------------------------------------------------------------------------


def test_ten_cards_each_dealt_one_at_a_time_the_rest_is_the_stock():
    deck = list(reversed(CODES))
    state = ENGINE.new_game(players=2, seed=None, deck=deck)
    assert ENGINE.view(state, 0)["hand"] == sorted(deck[0:20:2], key=CODES.index)
    assert ENGINE.view(state, 1)["hand"] == sorted(deck[1:20:2], key=CODES.index)
    assert ENGINE.dump(state)["stock"] == deck[21:]
    assert ENGINE.view(state, None)["stock"] == 19


def test_non_dealer_turns_the_top_stock_card_and_acts_first():
    deck = make_deck(QUIET, QUIET_1, ["KC"])
    view = ENGINE.view(ENGINE.new_game(players=2, seed=None, deck=deck), None)
    assert view["dealer"] == 1 and view["to_act"] == [0]
    assert view["open_card"] == "KC" == deck[20]
    assert view["phase"] == "turned"  # the non-dealer turned it: meld it or leave it open


def test_deal_alternates_and_later_deals_are_shuffled_from_the_seed():
    state = ENGINE.new_game(players=2, seed=11)
    while ENGINE.view(state, None)["deal_number"] == 1:
        state = ENGINE.timeout(state, ENGINE.to_act(state)[0])  # nobody melds: a drawn deal
    deck = shuffled(CODES, 11, "deal", 2)
    view = ENGINE.view(state, 0)
    assert view["dealer"] == 0 and view["to_act"] == [1]
    assert view["hand"] == sorted(deck[1:20:2], key=CODES.index)  # seat 0 deals now
    assert ENGINE.view(state, 1)["hand"] == sorted(deck[0:20:2], key=CODES.index)
    assert view["open_card"] == deck[20]


# -- the open card --------------------------------------------------------------------------


def test_only_one_card_is_open_and_it_never_goes_into_a_hand():
    state = position([["7D", "7C", 8], 10], "7H")
    moves = ENGINE.legal_moves(state, 0)
    assert {"reject": True} in moves and {"meld": ["7D", "7C"]} in moves
    assert all(set(move) <= {"reject", "meld"} for move in moves)  # no way to take it in hand
    with pytest.raises(IllegalMove):
        ENGINE.apply(state, 0, {"take": True})
    after = ENGINE.apply(state, 0, {"meld": ["7D", "7C"]})
    view = ENGINE.view(after, 0)
    assert "7H" not in view["hand"] and view["melds"][0] == [["7H", "7D", "7C"]]
    assert view["open_card"] is None


def test_new_meld_with_the_open_card_needs_two_cards_from_the_hand():
    state = position([["7D", "2S", 8], 10], "7H")
    assert meld_moves(state, 0) == []
    with pytest.raises(IllegalMove, match="A new meld needs at least two cards from your hand"):
        ENGINE.apply(state, 0, {"meld": ["7D"]})
    with pytest.raises(IllegalMove, match="A new meld needs at least two cards from your hand"):
        ENGINE.apply(state, 0, {"meld": []})


def test_player_with_a_meld_may_add_the_open_card_to_it():
    state = position([7, 10], "6H", melds=(["3H", "4H", "5H"], []))
    assert [] in meld_moves(state, 0)
    after = ENGINE.apply(state, 0, {"meld": []})
    assert ENGINE.view(after, 0)["melds"][0] == [["3H", "4H", "5H", "6H"]]
    assert ENGINE.view(after, 0)["hand_counts"] == [7, 10]


def test_hand_cards_may_be_melded_only_together_with_the_open_card():
    # A second meld of hand cards alone (2C 3C 4C) never goes down with the open card...
    hand = ["2C", "3C", "4C", "KD", "KH", "AS", "7D", "5S", "JH", "6D"]
    state = position([hand, 10], "KS")
    assert meld_moves(state, 0) == [["KH", "KD"]]
    with pytest.raises(IllegalMove, match="do not make one meld"):
        ENGINE.apply(state, 0, {"meld": ["KH", "KD", "2C", "3C", "4C"]})
    # ...and never without using the open card: rejecting melds nothing.
    after = ENGINE.apply(state, 0, {"reject": True})
    assert ENGINE.view(after, 0)["melds"] == [[], []]


def test_facing_4s_nobody_lays_down_the_whole_hand_at_once():
    # A hand seen going out at once: 4S with AS 2S 3S 5S, 4H 4D 4C and JC QC KC went out at once.
    hand = ["AS", "2S", "3S", "5S", "4H", "4D", "4C", "JC", "QC", "KC"]
    state = position([hand, 10], "4S")
    with pytest.raises(IllegalMove, match="do not make one meld"):
        ENGINE.apply(state, 0, {"meld": hand})
    listed = meld_moves(state, 0)
    assert ["AS", "2S", "3S", "5S"] in listed and ["4H", "4D", "4C"] in listed
    assert ["AS", "2S", "3S", "5S", "4H"] not in listed
    for used in listed:  # every listed melding puts all its hand cards in the 4S meld
        melds = ENGINE.view(ENGINE.apply(state, 0, {"meld": used}), 0)["melds"][0]
        assert len(melds) == 1 and set(melds[0]) == {"4S", *used}


def test_hand_cards_may_join_old_melds_only_through_the_open_cards_meld():
    # 6D with open 6H takes 6S from the run 3S-6S: one meld holds 6H and 6D.
    state = position([["6D", "JD", "QD", "KD", 3], 10], "6H", melds=(["3S", "4S", "5S", "6S"], []))
    listed = meld_moves(state, 0)
    assert ["6D"] in listed
    # JD QD KD is a meld of hand cards alone: not with 6H, whatever the old melds do.
    assert all(not {"JD", "QD", "KD"} <= set(used) for used in listed)


def test_player_may_rearrange_own_melds_while_melding():
    state = position([["6D", 6], 10], "6H", melds=(["3S", "4S", "5S", "6S"], []))
    assert ["6D"] in meld_moves(state, 0)
    after = ENGINE.apply(state, 0, {"meld": ["6D"]})
    assert sorted(ENGINE.view(after, 0)["melds"][0]) == [["3S", "4S", "5S"], ["6S", "6H", "6D"]]


def test_every_meld_must_be_valid_after_rearranging():
    state = position([["5D", 6], 10], "5H", melds=(["3S", "4S", "5S"], []))
    assert meld_moves(state, 0) == []  # 5S 5H 5D would leave 3S 4S alone
    with pytest.raises(IllegalMove, match="cannot be melded"):
        ENGINE.apply(state, 0, {"meld": ["5D"]})


def test_nobody_adds_to_the_opponents_melds():
    state = position([7, 7], "6C", melds=([], ["3C", "4C", "5C"]))
    assert meld_moves(state, 0) == []
    with pytest.raises(IllegalMove, match="you cannot add to your opponent's melds"):
        ENGINE.apply(state, 0, {"meld": []})
    with pytest.raises(IllegalMove, match="is in your opponent's melds"):
        ENGINE.apply(state, 0, {"meld": ["5C"]})


def test_after_melding_the_discard_is_the_open_card_for_the_opponent():
    state = position([["7D", "7C", 8], 10], "7H")
    state = ENGINE.apply(state, 0, {"meld": ["7D", "7C"]})
    view = ENGINE.view(state, 0)
    assert view["phase"] == "discard" and view["to_act"] == [0]
    assert ENGINE.legal_moves(state, 0) == [{"discard": card} for card in view["hand"]]
    state = ENGINE.apply(state, 0, {"discard": "KD"})
    view = ENGINE.view(state, 1)
    assert view["open_card"] == "KD" and view["to_act"] == [1] and view["phase"] == "facing"
    assert view["hand_counts"] == [7, 10]


def test_open_card_must_be_used_or_rejected_before_discarding():
    state = position([10, 10], "KC")
    with pytest.raises(IllegalMove, match="Use or reject the open card first"):
        ENGINE.apply(state, 0, {"discard": "AS"})


def test_owing_a_discard_only_a_discard_will_do():
    state = position([["7D", "7C", "AS"], 10], "7H")
    state = ENGINE.apply(state, 0, {"meld": ["7D", "7C"]})
    with pytest.raises(IllegalMove, match="Discard one card from your hand"):
        ENGINE.apply(state, 0, {"reject": True})
    with pytest.raises(IllegalMove, match="The seven of diamonds is already in your melds"):
        ENGINE.apply(state, 0, {"discard": "7D"})
    with pytest.raises(IllegalMove, match="The king of clubs is not in your hand"):
        ENGINE.apply(state, 0, {"discard": "KC"})


def test_rejecting_an_offered_card_sends_it_dead_and_turns_the_next_stock_card():
    state = position([10, 10], "KC", stock=["JD", "2H"])
    after = ENGINE.apply(state, 0, {"reject": True})
    before, view = ENGINE.view(state, 0), ENGINE.view(after, 0)
    assert view["dead_pile"] == before["dead_pile"] + 1
    assert view["open_card"] == "JD" and view["stock"] == 1
    assert view["to_act"] == [0] and view["phase"] == "turned"
    assert "KC" in ENGINE.dump(after)["dead_pile"]


def test_turned_card_may_be_melded_then_a_discard_follows():
    state = position([["JH", "QH", 8], 10], "KC", stock=["KH", "2H"])
    state = ENGINE.apply(state, 0, {"reject": True})
    state = ENGINE.apply(state, 0, {"meld": ["JH", "QH"]})
    assert ENGINE.view(state, 0)["phase"] == "discard"


def test_turned_card_may_be_left_open_for_the_opponent():
    state = position([10, 10], "KC", stock=["JD", "2H"])
    state = ENGINE.apply(state, 0, {"reject": True})
    assert ENGINE.legal_moves(state, 0)[0] == {"pass": True}
    with pytest.raises(IllegalMove, match="meld it or pass"):
        ENGINE.apply(state, 0, {"reject": True})
    state = ENGINE.apply(state, 0, {"pass": True})
    view = ENGINE.view(state, 1)
    assert view["open_card"] == "JD" and view["to_act"] == [1] and view["phase"] == "facing"
    assert view["stock"] == 1


def test_very_first_card_rejected_by_the_non_dealer_stays_open_for_the_dealer():
    state = ENGINE.new_game(players=2, seed=None, deck=make_deck(QUIET, QUIET_1, ["KC"]))
    state = ENGINE.apply(state, 0, {"pass": True})
    view = ENGINE.view(state, 1)
    assert view["open_card"] == "KC" and view["to_act"] == [1]
    assert view["stock"] == 19 and view["dead_pile"] == 0  # no new card turned


def test_an_offered_card_cannot_be_left_open():
    state = position([10, 10], "KC")
    with pytest.raises(IllegalMove, match="or reject it"):
        ENGINE.apply(state, 0, {"pass": True})


# -- forcing --------------------------------------------------------------------------------


def test_forcing_a_discard_that_fits_the_opponents_meld():
    state = position(
        [["6C", "7D", "7S", "KD", "AS", "2D", "3H"], ["QS", "KS", 5]],
        None,
        phase="discard",
        melds=(["7H", "7C", "JH"], ["3C", "4C", "5C"]),
    )
    assert {"discard": "6C", "force": True} in ENGINE.legal_moves(state, 0)
    assert {"discard": "KD", "force": True} not in ENGINE.legal_moves(state, 0)
    state = ENGINE.apply(state, 0, {"discard": "6C", "force": True})
    view = ENGINE.view(state, 1)
    assert view["phase"] == "forced" and view["open_card"] == "6C"
    moves = ENGINE.legal_moves(state, 1)
    assert moves and all("meld" in move for move in moves)  # no reject
    with pytest.raises(IllegalMove, match="You were forced"):
        ENGINE.apply(state, 1, {"reject": True})
    state = ENGINE.apply(state, 1, {"meld": []})
    assert ENGINE.view(state, 1)["phase"] == "discard"  # then discards


def test_forcing_a_card_left_open():
    state = position(
        [7, 7], "KC", melds=(["7H", "7C", "7S"], ["3D", "4D", "5D"]),
        stock=["6D", "2H"],
    )  # fmt: skip
    state = ENGINE.apply(state, 0, {"reject": True})
    assert {"pass": True, "force": True} in ENGINE.legal_moves(state, 0)
    state = ENGINE.apply(state, 0, {"pass": True, "force": True})
    assert ENGINE.view(state, 1)["phase"] == "forced"


def test_a_card_that_does_not_fit_cannot_be_forced():
    state = position([["AS", 9], 7], None, phase="discard", melds=([], ["3D", "4D", "5D"]))
    with pytest.raises(IllegalMove, match="does not fit your opponent's melds"):
        ENGINE.apply(state, 0, {"discard": "AS", "force": True})


def test_forcing_counts_a_fit_that_needs_the_opponent_to_rearrange():
    # 6S fits nothing as laid out, but 2S-6S and 5H 5D 5C are valid: it fits.
    state = position(
        [3, ["6S"]],
        None,
        phase="discard",
        to_act=1,
        melds=(["5S", "5H", "5D", "5C", "2S", "3S", "4S"], []),
    )
    assert {"discard": "6S", "force": True} in ENGINE.legal_moves(state, 1)


def test_forcing_can_be_switched_off():
    state = position(
        [["6C", 6], 7],
        None,
        phase="discard",
        melds=([], ["3C", "4C", "5C"]),
        options={"forcing": False},
    )
    assert all("force" not in move for move in ENGINE.legal_moves(state, 0))
    with pytest.raises(IllegalMove, match="Forcing is not played"):
        ENGINE.apply(state, 0, {"discard": "6C", "force": True})
