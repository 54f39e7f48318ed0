"""Conquian rules (docs/rules.md) and the engine protocol (docs/engines.md), one test per rule.

Moves (docs/engines/conquian.md): {"pass": true} (leave a card you turned open),
{"reject": true} (an offered card), {"meld": [hand cards]} (meld the open card with
them), {"discard": "7H"}; "force": true on a pass or a discard forces the card.
"""

import json
from itertools import combinations

import pytest

from games.engines import IllegalMove, get_engine
from games.engines.conquian import (
    CARRY_OVERS,
    DEFAULT_TARGET,
    ENGINE,
    OPTIONS,
    next_deal_value,
)
from games.engines.conquian_melds import (
    BIT_OF,
    CODES,
    arrange,
    can_meld,
    codes_of,
    meldable_part,
)
from games.engines.options import resolve_options
from games.engines.rng import shuffled

# -- building situations -------------------------------------------------------------------


def make_deck(seat0, seat1, stock=()):
    """A fixed deck dealing `seat0` to the non-dealer and `seat1` to the dealer, then the
    stock top first (its first card is turned open); the rest of the stock in sort order."""
    placed = [*seat0, *seat1, *stock]
    assert len(seat0) == len(seat1) == 10 and len(set(placed)) == len(placed)
    dealt = [card for pair in zip(seat0, seat1, strict=True) for card in pair]
    return dealt + list(stock) + [card for card in CODES if card not in placed]


def position(
    hands,
    open_card,
    phase="facing",
    to_act=0,
    melds=((), ()),
    stock=None,
    options=None,
    **fields,
):
    """A mid-deal state built through load().

    A hand is a list of cards, optionally ending with a number of filler cards to add; a
    bare number is that many filler cards. Filler cards never make a meld possible that
    was not possible before (with the open card too). `stock` is top first; by default
    every card not placed is in the stock (sort order), otherwise in the dead pile.
    """
    specs = [hand if isinstance(hand, list) else [hand] for hand in hands]
    hands = [[card for card in spec if isinstance(card, str)] for spec in specs]
    placed = [*melds[0], *melds[1], *([open_card] if open_card else []), *(stock or ())]
    placed += hands[0] + hands[1]
    assert len(placed) == len(set(placed)), "a card placed twice"
    for hand, spec in zip(hands, specs, strict=True):
        wanted = spec[-1] if spec and isinstance(spec[-1], int) else 0
        for card in reversed(CODES):
            if len(hand) == len([c for c in spec if isinstance(c, str)]) + wanted:
                break
            mask = _mask([*hand, *([open_card] if open_card else [])])
            if card not in placed and meldable_part(mask | BIT_OF[card]) == meldable_part(mask):
                hand.append(card)
                placed.append(card)
    rest = [card for card in CODES if card not in placed]
    if stock is None:
        stock, dead = rest, []
    else:
        dead = rest
    data = {
        "game": "conquian",
        "seed": 1,
        "options": resolve_options(OPTIONS, options),
        "deal_number": 1,
        "dealer": 1,
        "deal_value": 1,
        "scores": [0, 0],
        "hands": hands,
        "melds": [list(melds[0]), list(melds[1])],
        "stock": list(stock),
        "open_card": open_card,
        "dead_pile": dead,
        "to_act": to_act,
        "phase": phase,
        "last_deal": None,
    }
    data.update(fields)
    return ENGINE.load(data)


def _mask(cards):
    return sum(BIT_OF[card] for card in cards)


def where_is_everything(state):
    """Every card's place; the conservation law says each of the 40 is in exactly one."""
    data = ENGINE.dump(state)
    places = [
        *data["hands"][0],
        *data["hands"][1],
        *data["melds"][0],
        *data["melds"][1],
        *data["stock"],
        *data["dead_pile"],
        *([data["open_card"]] if data["open_card"] else []),
    ]
    return places


RANKS = "A234567JQK"


def is_one_meld(cards):
    """Three or four cards of one rank, or three to eight of one suit in order (ace low)."""
    ranks = sorted(RANKS.index(card[0]) for card in cards)
    suits = {card[1] for card in cards}
    if len(set(ranks)) == 1:
        return 3 <= len(cards) <= 4
    return (
        len(suits) == 1 and 3 <= len(cards) <= 8 and ranks == list(range(ranks[0], ranks[-1] + 1))
    )


def melding_is_legal(open_card, used, melds):
    """The rule, said plainly: the open card and every hand card `used` lie in one valid meld,
    which may take cards from the player's `melds`; the rest of `melds` still splits."""
    for size in range(len(melds) + 1):
        for taken in combinations(melds, size):
            rest = [card for card in melds if card not in taken]
            if is_one_meld([open_card, *used, *taken]) and can_meld(_mask(rest)):
                return True
    return False


def meld_moves(state, seat):
    return [move["meld"] for move in ENGINE.legal_moves(state, seat) if "meld" in move]


# A hand that melds with nothing, for the player who only waits.
QUIET = ["AS", "3H", "5D", "7C", "QS", "2D", "4C", "6S", "JH", "KD"]
QUIET_1 = ["2S", "4H", "6D", "JC", "KS", "AD", "3C", "5S", "7H", "QD"]


# -- cards --------------------------------------------------------------------------------


def test_deck_is_forty_cards_ace_to_seven_and_jack_queen_king():
    state = ENGINE.new_game(players=2, seed=3)
    cards = where_is_everything(state)
    assert len(cards) == 40 == len(set(cards))
    assert {card[0] for card in cards} == set("A234567JQK")
    assert {card[1] for card in cards} == set("SHDC")


def test_ace_is_low_so_a_2_3_is_a_sequence():
    state = position([["2S", "3S", 6], 10], "AS")
    assert ["2S", "3S"] in meld_moves(state, 0)


def test_q_k_a_is_not_a_sequence_the_ace_is_low():
    state = position([["QH", "KH", 6], 10], "AH")
    assert meld_moves(state, 0) == []
    with pytest.raises(IllegalMove, match="Q-K-A is not a sequence: the ace is low"):
        ENGINE.apply(state, 0, {"meld": ["QH", "KH"]})


def test_k_a_2_does_not_wrap_either():
    state = position([["KC", "2C", "5H", 6], 10], "AC")
    with pytest.raises(IllegalMove, match="K-A-2 is not a sequence: the ace is low"):
        ENGINE.apply(state, 0, {"meld": ["KC", "2C"]})


def test_jack_follows_seven():
    state = position([["6D", "7D", "QD", 6], 10], "JD")
    melds = meld_moves(state, 0)
    assert ["6D", "7D"] in melds and ["7D", "QD"] in melds and ["6D", "7D", "QD"] in melds


# -- melds ----------------------------------------------------------------------------------


def test_group_is_three_or_four_cards_of_one_rank():
    state = position([["5S", "5D", "5C", "JH", "AD", "2C", "3S", "7H", "QC", "KS"], 10], "5H")
    assert meld_moves(state, 0) == [
        ["5S", "5D"],
        ["5S", "5C"],
        ["5D", "5C"],
        ["5S", "5D", "5C"],
    ]
    assert not can_meld(BIT_OF["5S"] | BIT_OF["5H"])


def test_sequence_is_three_to_eight_cards_of_one_suit():
    eight = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH"]
    assert can_meld(sum(BIT_OF[c] for c in eight))
    assert arrange(sum(BIT_OF[c] for c in eight)) == (sum(BIT_OF[c] for c in eight),)
    nine = [*eight, "QH"]  # a run of nine must be laid out as two melds
    assert all(meld.bit_count() <= 8 for meld in arrange(sum(BIT_OF[c] for c in nine)))
    assert not can_meld(BIT_OF["AH"] | BIT_OF["2H"])
    assert not can_meld(BIT_OF["AH"] | BIT_OF["2H"] | BIT_OF["3D"])  # one suit only
    assert not can_meld(BIT_OF["AH"] | BIT_OF["2H"] | BIT_OF["4H"])  # in order


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
    with pytest.raises(IllegalMove, match="a new meld needs at least two cards from your hand"):
        ENGINE.apply(state, 0, {"meld": ["7D"]})
    with pytest.raises(IllegalMove, match="a new meld needs at least two cards from your hand"):
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
    with pytest.raises(IllegalMove, match="hand cards are melded only together with the open"):
        ENGINE.apply(state, 0, {"meld": ["KH", "KD", "2C", "3C", "4C"]})
    # ...and never without using the open card: rejecting melds nothing.
    after = ENGINE.apply(state, 0, {"reject": True})
    assert ENGINE.view(after, 0)["melds"] == [[], []]


def test_facing_4s_nobody_lays_down_the_whole_hand_at_once():
    # A hand seen going out at once: 4S with AS 2S 3S 5S, 4H 4D 4C and JC QC KC went out at once.
    hand = ["AS", "2S", "3S", "5S", "4H", "4D", "4C", "JC", "QC", "KC"]
    state = position([hand, 10], "4S")
    with pytest.raises(IllegalMove, match="hand cards are melded only together with the open"):
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
    with pytest.raises(IllegalMove, match="do not split into valid melds"):
        ENGINE.apply(state, 0, {"meld": ["5D"]})


def test_nobody_adds_to_the_opponents_melds():
    state = position([7, 7], "6C", melds=([], ["3C", "4C", "5C"]))
    assert meld_moves(state, 0) == []
    with pytest.raises(IllegalMove, match="you cannot add to your opponent's melds"):
        ENGINE.apply(state, 0, {"meld": []})
    with pytest.raises(IllegalMove, match="you cannot add to your opponent's melds"):
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
    with pytest.raises(IllegalMove, match="you must use or reject the open card first"):
        ENGINE.apply(state, 0, {"discard": "AS"})


def test_owing_a_discard_only_a_discard_will_do():
    state = position([["7D", "7C", "AS"], 10], "7H")
    state = ENGINE.apply(state, 0, {"meld": ["7D", "7C"]})
    with pytest.raises(IllegalMove, match="discard one card: you hold the ace of spades"):
        ENGINE.apply(state, 0, {"reject": True})
    with pytest.raises(IllegalMove, match="the seven of diamonds is already in your melds"):
        ENGINE.apply(state, 0, {"discard": "7D"})
    with pytest.raises(IllegalMove, match="the king of clubs is not in your hand"):
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
    with pytest.raises(IllegalMove, match="pass to leave it open"):
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
    with pytest.raises(IllegalMove, match="meld it or reject it"):
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
    with pytest.raises(IllegalMove, match="you were forced"):
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
    with pytest.raises(IllegalMove, match="forcing is not played"):
        ENGINE.apply(state, 0, {"discard": "6C", "force": True})


# -- going out and drawn deals ----------------------------------------------------------------


# Six cards melded on earlier turns, four in hand: 6D with 7D JD QD KD makes one meld of
# five and eleven cards melded in all.
OUT_MELDS = ["AS", "2S", "3S", "5H", "5D", "5C"]
OUT_HAND = ["7D", "JD", "QD", "KD"]


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
    with pytest.raises(
        IllegalMove, match="the stock is empty and you can use the king of clubs, so you must"
    ):
        ENGINE.apply(state, 0, {"reject": True})


def test_with_the_stock_empty_a_usable_card_you_turned_cannot_be_passed():
    state = position([["QH", "KH", 8], 10], "JH", phase="turned", stock=[],
                     melds=([], ["JS", "JD", "JC"]))  # fmt: skip
    assert ENGINE.legal_moves(state, 0) == [{"meld": ["QH", "KH"]}]
    for move in ({"pass": True}, {"pass": True, "force": True}):
        with pytest.raises(
            IllegalMove,
            match="so you must meld it \\(for example with the queen of hearts and the king of hearts\\)",
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
    with pytest.raises(IllegalMove, match="the match is over"):
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


# -- time-outs ----------------------------------------------------------------------------------


def test_the_engine_declares_its_options_and_not_the_tables_clock():
    assert "turn_seconds" not in resolve_options(OPTIONS, None)
    assert ENGINE.options is OPTIONS


def test_timeout_facing_an_offered_card_rejects_it():
    state = position([["KD", "KH", 8], 10], "KC", stock=["2H", "3H"])
    assert ENGINE.dump(ENGINE.timeout(state, 0)) == ENGINE.dump(
        ENGINE.apply(state, 0, {"reject": True})
    )


def test_timeout_facing_a_card_you_turned_leaves_it_open():
    state = ENGINE.new_game(players=2, seed=None, deck=make_deck(QUIET, QUIET_1, ["KC"]))
    assert ENGINE.dump(ENGINE.timeout(state, 0)) == ENGINE.dump(
        ENGINE.apply(state, 0, {"pass": True})
    )


def test_timeout_owing_a_discard_discards_the_first_card_in_sort_order():
    state = position([["KD", "2H", "AC", "QS"], 10], None, phase="discard")
    after = ENGINE.timeout(state, 0)
    assert ENGINE.view(after, 1)["open_card"] == "QS"  # sort order: S H D C, then A to K


def test_timeout_when_forced_adds_the_card_to_the_melds():
    state = position([7, 7], "6D", phase="forced",
                     melds=(["3D", "4D", "5D"], ["7H", "7C", "7S"]))  # fmt: skip
    after = ENGINE.timeout(state, 0)
    assert ENGINE.dump(after) == ENGINE.dump(ENGINE.apply(state, 0, {"meld": []}))
    assert ENGINE.legal_moves(state, 0)[0] == {"meld": []}


def test_timeout_of_a_seat_not_to_act_is_refused():
    state = position([10, 10], "KC")
    with pytest.raises(IllegalMove, match="it is not your turn"):
        ENGINE.timeout(state, 1)


# -- legal moves ----------------------------------------------------------------------------------


def test_legal_moves_list_every_distinct_melding_exactly_once():
    hand = ["3S", "4S", "5S", "5H", "5D", "6H", "7H", "JH", "6D", "7D"]
    state = position([hand, 7], "5C", melds=([], ["AC", "2C", "3C"]))
    listed = meld_moves(state, 0)
    assert len(listed) == len({tuple(meld) for meld in listed})
    expected = [
        list(subset)
        for size in range(len(hand) + 1)
        for subset in combinations(sorted(hand, key=CODES.index), size)
        if melding_is_legal("5C", subset, [])
    ]
    assert ["5S", "5H", "5D"] in expected and ["3S", "4S", "5S", "5H", "5D"] not in expected
    assert sorted(listed) == sorted(expected)
    outcomes = {json.dumps(ENGINE.dump(ENGINE.apply(state, 0, {"meld": m}))) for m in listed}
    assert len(outcomes) == len(listed)


def test_meld_cards_may_be_listed_in_any_order_but_only_once():
    state = position([["7D", "7C", 8], 10], "7H")
    assert ENGINE.dump(ENGINE.apply(state, 0, {"meld": ["7C", "7D"]})) == ENGINE.dump(
        ENGINE.apply(state, 0, {"meld": ["7D", "7C"]})
    )
    with pytest.raises(IllegalMove, match="the seven of diamonds is listed twice"):
        ENGINE.apply(state, 0, {"meld": ["7D", "7D", "7C"]})


def test_legal_moves_are_empty_for_the_seat_not_to_act():
    state = ENGINE.new_game(players=2, seed=1)
    assert ENGINE.legal_moves(state, 1) == [] and ENGINE.legal_moves(state, 0)


# -- protocol ---------------------------------------------------------------------------------


def test_get_engine_finds_conquian():
    assert get_engine("conquian") is ENGINE


@pytest.mark.parametrize("players", [1, 3, 4, True, "2"])
def test_conquian_is_for_exactly_two_players(players):
    with pytest.raises(ValueError, match="2 players"):
        ENGINE.new_game(players=players, seed=1)


@pytest.mark.parametrize(("options", "name"), [
    ({"target": 0}, "target"), ({"target": "5"}, "target"), ({"carry_over": "triple"}, "carry_over"),
    ({"forcing": 1}, "forcing"), ({"jokers": 2}, "jokers"),
])  # fmt: skip
def test_bad_options_name_the_option(options, name):
    with pytest.raises(ValueError, match=name):
        ENGINE.new_game(players=2, seed=1, options=options)


def test_seed_may_be_none_only_with_a_deck():
    with pytest.raises(ValueError, match="seed"):
        ENGINE.new_game(players=2, seed=None)
    state = ENGINE.new_game(players=2, seed=None, deck=list(CODES))
    assert ENGINE.view(state, 0)["hand"] == list(CODES[0:20:2])


@pytest.mark.parametrize("deck", [CODES[:39], [*CODES[:39], "AS"], [*CODES[:39], "8S"], "AS"])
def test_a_bad_deck_is_refused(deck):
    with pytest.raises(ValueError, match="deck"):
        ENGINE.new_game(players=2, seed=None, deck=list(deck) if deck != "AS" else deck)


def test_same_seed_and_options_give_the_same_game():
    assert ENGINE.dump(ENGINE.new_game(players=2, seed=9)) == ENGINE.dump(
        ENGINE.new_game(players=2, seed=9)
    )
    assert ENGINE.dump(ENGINE.new_game(players=2, seed=9)) != ENGINE.dump(
        ENGINE.new_game(players=2, seed=10)
    )


@pytest.mark.parametrize("move", [
    "reject", None, [], {}, {"reject": False}, {"reject": 1}, {"meld": "7D"}, {"meld": [7]},
    {"meld": ["8D"]}, {"discard": 5}, {"reject": True, "meld": []}, {"take": "KC"},
    {"pass": True, "force": "yes"}, {1: True},
])  # fmt: skip
def test_malformed_moves_are_illegal_moves(move):
    state = position([["7D", "7C", 8], 10], "7H")
    with pytest.raises(IllegalMove):
        ENGINE.apply(state, 0, move)


def test_a_seat_out_of_turn_is_told_so():
    state = ENGINE.new_game(players=2, seed=1)
    for seat in (1, 2, -1, "0", None, True):
        with pytest.raises(IllegalMove, match="it is not your turn"):
            ENGINE.apply(state, seat, {"pass": True})


def test_apply_does_not_change_its_input():
    state = position([["7D", "7C", 8], 10], "7H")
    before = ENGINE.dump(state)
    ENGINE.apply(state, 0, {"meld": ["7D", "7C"]})
    ENGINE.timeout(state, 0)
    assert ENGINE.dump(state) == before


def test_view_holds_what_the_seat_may_see():
    state = ENGINE.new_game(players=2, seed=4)
    view = ENGINE.view(state, 0)
    assert {
        "hand", "stock", "open_card", "melds", "scores", "deal_value", "deal_number", "dealer",
        "to_act", "phase", "hand_counts", "dead_pile",
    } <= set(view)  # fmt: skip
    assert view["hand_counts"] == [10, 10] and view["stock"] == 19 and view["dead_pile"] == 0
    assert view["melds"] == [[], []] and view["scores"] == [0, 0] and view["deal_value"] == 1
    spectator = ENGINE.view(state, None)
    assert "hand" not in spectator
    text = json.dumps([view, spectator, ENGINE.view(state, 1)])
    assert '"deck"' not in text and '"seed"' not in text
    assert not set(ENGINE.view(state, 1)["hand"]) & set(view["hand"])


def test_dump_is_json_and_load_restores_the_state():
    state = ENGINE.new_game(players=2, seed=8)
    for _ in range(15):
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[-1])
    data = json.loads(json.dumps(ENGINE.dump(state)))
    assert ENGINE.load(data) == state and ENGINE.dump(ENGINE.load(data)) == data
    assert len(json.dumps(data)) < 16 * 1024


def test_load_refuses_a_state_that_loses_a_card():
    data = ENGINE.dump(ENGINE.new_game(players=2, seed=8))
    data["stock"] = data["stock"][1:]
    with pytest.raises(ValueError, match="40 cards"):
        ENGINE.load(data)


def test_melds_are_shown_laid_out_and_stored_as_cards():
    state = position([4, 4], None, phase="discard",
                     melds=(["3S", "4S", "5S", "6S", "7H", "7D", "7C"], []))  # fmt: skip
    assert ENGINE.view(state, 1)["melds"][0] == [["3S", "4S", "5S", "6S"], ["7H", "7D", "7C"]]
    assert codes_of(sum(BIT_OF[c] for c in ["7C", "3S"])) == ["3S", "7C"]


def test_the_documented_example_plays_as_described():
    seat0 = ["AS", "3H", "5D", "7C", "QS", "2D", "4C", "6S", "JH", "QD"]
    seat1 = ["KH", "KD", "2S", "4H", "6D", "JC", "AD", "3C", "5S", "7H"]
    state = ENGINE.new_game(players=2, seed=None, deck=make_deck(seat0, seat1, ["KC", "KS"]))
    steps = [
        (0, {"pass": True}, "facing"),
        (1, {"meld": ["KH", "KD"]}, "discard"),
        (1, {"discard": "2S"}, "facing"),
        (0, {"reject": True}, "turned"),
        (0, {"pass": True, "force": True}, "forced"),
        (1, {"meld": []}, "discard"),
    ]
    for seat, move, phase in steps:
        state = ENGINE.apply(state, seat, move)
        assert ENGINE.view(state, None)["phase"] == phase
    assert ENGINE.view(state, None)["melds"] == [[], [["KS", "KH", "KD", "KC"]]]


def test_milestones_count_finished_deals_for_statistics():
    state = position([10, 10], "KC", stock=[])
    drawn = ENGINE.apply(state, 0, {"reject": True})
    assert ENGINE.milestones(state, drawn) == ("deals", "drawn deals")
    assert ENGINE.milestones(drawn, drawn) == ()
    state = position([OUT_HAND, 10], "6D", melds=(OUT_MELDS, []))
    assert ENGINE.milestones(state, ENGINE.apply(state, 0, {"meld": OUT_HAND})) == (
        "deals",
        "won deals",
    )
