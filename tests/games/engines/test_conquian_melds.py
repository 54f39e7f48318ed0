"""Conquian rules (docs/rules.md), one test per rule: the cards, what a meld is, and the meldings
legal_moves lists (games/engines/conquian_melds.py).

Moves (docs/engines/conquian.md): {"pass": true} (leave a card you turned open),
{"reject": true} (an offered card), {"meld": [hand cards]} (meld the open card with
them), {"discard": "7H"}; "force": true on a pass or a discard forces the card.
"""

import json
from itertools import combinations

import pytest

from games.engines import IllegalMove
from games.engines.conquian import ENGINE
from games.engines.conquian_melds import BIT_OF, CODES, arrange, can_meld
from tests.games.engines.conquian_situations import (
    meld_moves,
    melding_is_legal,
    position,
    where_is_everything,
)

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
    with pytest.raises(IllegalMove, match="The seven of diamonds is listed twice"):
        ENGINE.apply(state, 0, {"meld": ["7D", "7D", "7C"]})


def test_legal_moves_are_empty_for_the_seat_not_to_act():
    state = ENGINE.new_game(players=2, seed=1)
    assert ENGINE.legal_moves(state, 1) == [] and ENGINE.legal_moves(state, 0)
