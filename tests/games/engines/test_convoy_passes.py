"""Convoy rules (docs/rules.md), one test per rule: dead cards, passing when there is no play, the
deck used once, and the turn timer. Board rows: see test_convoy_setup.py."""

import pytest

from games.engines import IllegalMove
from tests.games.engines.convoy_situations import (
    ENGINE,
    make_deck,
    place,
    position,
    row,
    side_counters,
)

# -- dead cards ------------------------------------------------------------------------------

DEAD_7H = {(2, 0): 1, (7, 9): 0}  # both 7H squares covered


def test_a_dead_card_is_exchanged_for_the_top_card_and_the_seat_plays_on():
    state = position(hands=[["7H", "QH"], ["AS"]], counters=DEAD_7H, stock=["KH", "2C"])
    assert {"card": "7H", "exchange": True} in ENGINE.legal_moves(state, 0)
    state = ENGINE.apply(state, 0, {"card": "7H", "exchange": True})
    view = ENGINE.view(state, 0)
    assert view["hand"] == ["QH", "KH"]
    assert view["discards"][-1] == "7H" and view["stock"] == 1
    assert view["to_act"] == [0] and view["exchanged_this_turn"] is True
    state = place(state, 0, "QH", (2, 4))
    assert ENGINE.view(state, 0)["to_act"] == [1]
    assert ENGINE.view(state, 0)["exchanged_this_turn"] is False


def test_a_dead_card_is_exchanged_once_per_turn():
    state = position(hands=[["7H", "7H"], ["AS"]], counters=DEAD_7H, stock=["KH", "2C"])
    state = ENGINE.apply(state, 0, {"card": "7H", "exchange": True})
    assert {"card": "7H", "exchange": True} not in ENGINE.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="already exchanged a dead card this turn"):
        ENGINE.apply(state, 0, {"card": "7H", "exchange": True})


def test_only_a_dead_card_is_exchanged():
    state = position(hands=[["7H", "QH", "JS"], ["AS"]], counters=DEAD_7H, stock=["KH"])
    with pytest.raises(
        IllegalMove, match="the queen of hearts can still be played: only a dead card"
    ):
        ENGINE.apply(state, 0, {"card": "QH", "exchange": True})
    with pytest.raises(IllegalMove, match="the jack of spades is never a dead card"):
        ENGINE.apply(state, 0, {"card": "JS", "exchange": True})


def test_playing_a_dead_card_points_to_the_exchange():
    state = position(hands=[["7H", "QH"], ["AS"]], counters=DEAD_7H, stock=["KH"])
    with pytest.raises(
        IllegalMove,
        match="both squares of the seven of hearts are taken: exchange it as a dead card",
    ):
        place(state, 0, "7H", (2, 0))


def test_dead_card_exchange_can_be_switched_off():
    state = position(
        hands=[["7H", "QH"], ["AS"]],
        counters=DEAD_7H,
        stock=["KH"],
        options={"dead_card_exchange": False},
    )
    assert ENGINE.legal_moves(state, 0) == [
        {"card": "QH", "square": [2, 4]},
        {"card": "QH", "square": [7, 5]},
    ]
    with pytest.raises(IllegalMove, match="dead cards cannot be exchanged in this game"):
        ENGINE.apply(state, 0, {"card": "7H", "exchange": True})
    with pytest.raises(
        IllegalMove, match="both squares of the seven of hearts are taken: it is a dead card"
    ):
        place(state, 0, "7H", (7, 9))


def test_no_exchange_once_the_deck_is_empty():
    state = position(hands=[["7H"], ["AS"]], counters=DEAD_7H, stock=[])
    with pytest.raises(IllegalMove, match="the deck is empty: there is no card to exchange for"):
        ENGINE.apply(state, 0, {"card": "7H", "exchange": True})
    assert ENGINE.legal_moves(state, 0) == [{"pass": True}]


def test_a_seat_that_can_exchange_cannot_pass():
    state = position(hands=[["7H"], ["AS"]], counters=DEAD_7H, stock=["KH"])
    assert ENGINE.legal_moves(state, 0) == [{"card": "7H", "exchange": True}]
    with pytest.raises(IllegalMove, match="you can still play, so you cannot pass"):
        ENGINE.apply(state, 0, {"pass": True})


# -- no play, deck used once -----------------------------------------------------------------


def test_a_player_with_no_legal_play_passes():
    state = position(hands=[["JS"], ["AS"]], stock=["KH"])
    assert ENGINE.legal_moves(state, 0) == [{"pass": True}]
    state = ENGINE.apply(state, 0, {"pass": True})
    view = ENGINE.view(state, 0)
    assert view["to_act"] == [1] and view["hand"] == ["JS"] and view["stock"] == 1
    assert view["last_move"] == {"seat": 0, "pass": True}


def test_a_player_who_can_play_cannot_pass():
    state = position(hands=[["QH"], ["AS"]], stock=["KH"])
    with pytest.raises(IllegalMove, match="you can still play, so you cannot pass"):
        ENGINE.apply(state, 0, {"pass": True})


def test_when_the_deck_is_empty_play_goes_on_from_the_hands():
    state = position(hands=[["QH", "KH"], ["AS"]], stock=[])
    state = place(state, 0, "QH", (2, 4))
    view = ENGINE.view(state, 0)
    assert view["hand"] == ["KH"] and view["stock"] == 0 and view["to_act"] == [1]
    assert not ENGINE.is_over(state)


def test_when_no_side_can_play_the_side_with_most_convoys_wins():
    convoy = row(5, 1, 2, 3, 4)
    state = position(
        players=4,
        hands=[["QH"], [], [], []],
        counters=side_counters(1, convoy),
        convoys=[(1, convoy)],
        stock=[],
    )
    state = place(state, 0, "QH", (2, 4))
    assert ENGINE.is_over(state) and ENGINE.to_act(state) == []
    assert ENGINE.outcome(state) == {"winners": [1, 3], "draw": False, "scores": [0, 1]}


def test_equal_convoys_when_no_side_can_play_is_a_stalemate():
    state = position(hands=[["QH"], ["7H"]], counters=DEAD_7H, stock=[])
    state = place(state, 0, "QH", (2, 4))  # seat 1 holds only a dead card, the deck is empty
    assert ENGINE.is_over(state)
    assert ENGINE.outcome(state) == {"winners": [], "draw": True, "scores": [0, 0]}
    assert ENGINE.view(state, None)["outcome"] == ENGINE.outcome(state)


def test_a_seat_that_cannot_play_now_passes_while_another_can():
    state = position(hands=[["KH"], ["7H"], ["QH"]], players=3, counters=DEAD_7H, stock=[])
    state = place(state, 0, "KH", (2, 5))
    assert not ENGINE.is_over(state)
    assert ENGINE.legal_moves(state, 1) == [{"pass": True}]


# -- the turn timer --------------------------------------------------------------------------


def test_a_timeout_forfeits_the_turn_no_card_played_none_drawn():
    deck = make_deck([["QH", "2S", "3S", "4S", "5S"], ["AH", "2H", "3H", "4H", "5H"]], ["6D"])
    state = ENGINE.new_game(players=2, seed=None, deck=deck)
    state = ENGINE.timeout(state, 0)
    view = ENGINE.view(state, 0)
    assert view["to_act"] == [1]
    assert view["hand"] == ["QH", "2S", "3S", "4S", "5S"]
    assert view["stock"] == 98 and view["discards"] == []
    assert view["last_move"] == {"seat": 0, "timeout": True}


def test_a_timeout_after_an_exchange_keeps_the_exchange():
    state = position(hands=[["7H", "QH"], ["AS"]], counters=DEAD_7H, stock=["KH"])
    state = ENGINE.apply(state, 0, {"card": "7H", "exchange": True})
    state = ENGINE.timeout(state, 0)
    assert ENGINE.view(state, 0)["hand"] == ["QH", "KH"]
    assert ENGINE.view(state, 0)["to_act"] == [1]
