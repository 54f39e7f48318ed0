"""Convoy rules (docs/rules.md), one test per rule: a turn, jacks and jokers, the counters a side
has (games/engines/convoy_moves.py). Board rows: see test_convoy_setup.py."""

import pytest

from games.engines import IllegalMove, convoy_board
from tests.games.engines.convoy_situations import (
    ENGINE,
    cell,
    make_deck,
    place,
    position,
    row,
    side_counters,
)

# -- a turn ----------------------------------------------------------------------------------


@pytest.mark.parametrize("square", [(2, 4), (7, 5)])
def test_a_card_covers_either_of_its_two_squares(square):
    state = position(hands=[["QH"], ["AS"]], stock=["2C"])
    assert sorted(m["square"] for m in ENGINE.legal_moves(state, 0)) == [[2, 4], [7, 5]]
    state = place(state, 0, "QH", square)
    assert cell(state, square) == {"card": "QH", "counter": 0, "locked": False}


def test_the_played_card_is_replaced_from_the_top_of_the_deck():
    deck = make_deck([["QH", "2S", "3S", "4S", "5S"], ["AH", "2H", "3H", "4H", "5H"]], ["6D"])
    state = ENGINE.new_game(players=2, seed=None, deck=deck)
    state = place(state, 0, "QH", (2, 4))
    view = ENGINE.view(state, 0)
    assert view["hand"] == ["2S", "3S", "4S", "5S", "6D"]
    assert view["stock"] == 108 - 11
    assert view["discards"] == ["QH"]
    assert view["to_act"] == [1]


def test_a_card_not_in_hand_is_refused():
    state = position(hands=[["QH"], ["7H"]], stock=["2C"])
    with pytest.raises(IllegalMove, match="the seven of hearts is not in your hand"):
        place(state, 0, "7H", (2, 0))


def test_a_card_goes_only_on_a_square_showing_it():
    state = position(hands=[["QH"], ["7H"]], stock=["2C"])
    with pytest.raises(
        IllegalMove,
        match="the square at row 3, column 6 shows the king of hearts, not the queen of hearts",
    ):
        place(state, 0, "QH", (2, 5))


def test_a_covered_square_is_refused():
    state = position(hands=[["QH"], ["7H"]], counters={(2, 4): 1}, stock=["2C"])
    with pytest.raises(IllegalMove, match="the square at row 3, column 5 is already covered"):
        place(state, 0, "QH", (2, 4))
    assert ENGINE.legal_moves(state, 0) == [{"card": "QH", "square": [7, 5]}]


def test_a_seat_out_of_turn_is_refused():
    state = position(hands=[["QH"], ["7H"]], stock=["2C"])
    with pytest.raises(IllegalMove, match="it is not your turn"):
        place(state, 1, "7H", (2, 0))
    with pytest.raises(IllegalMove, match="it is not your turn"):
        ENGINE.timeout(state, 1)
    assert ENGINE.legal_moves(state, 1) == []


# -- jacks and jokers ------------------------------------------------------------------------


def test_two_eyed_jack_covers_any_free_card_square():
    state = position(hands=[["JC"], ["AS"]], counters={(2, 4): 1}, stock=["2C"])
    squares = [m["square"] for m in ENGINE.legal_moves(state, 0)]
    assert len(squares) == 95 and [2, 4] not in squares and [0, 0] not in squares
    state = place(state, 0, "JC", (5, 5))
    assert cell(state, (5, 5)) == {"card": "4S", "counter": 0, "locked": False}


def test_two_eyed_jack_never_covers_a_roundel():
    state = position(hands=[["JD"], ["AS"]], stock=["2C"])
    with pytest.raises(IllegalMove, match="that square is a roundel"):
        place(state, 0, "JD", (9, 9))


def test_one_eyed_jack_removes_an_opponent_counter():
    state = position(hands=[["JS"], ["AS"]], counters={(2, 4): 1, (3, 3): 0}, stock=["2C"])
    assert ENGINE.legal_moves(state, 0) == [{"card": "JS", "remove": [[2, 4]]}]
    state = ENGINE.apply(state, 0, {"card": "JS", "remove": [[2, 4]]})
    assert cell(state, (2, 4))["counter"] is None


def test_a_removed_counter_goes_back_to_its_side():
    state = position(hands=[["JH"], ["AS"]], counters={(2, 4): 1}, stock=["2C"])
    assert ENGINE.view(state, 0)["counters_left"] == [50, 49]
    state = ENGINE.apply(state, 0, {"card": "JH", "remove": [[2, 4]]})
    assert ENGINE.view(state, 0)["counters_left"] == [50, 50]


def test_one_eyed_jack_cannot_remove_an_own_counter_or_an_empty_square():
    state = position(hands=[["JS"], ["AS"]], counters={(2, 4): 1, (3, 3): 0}, stock=["2C"])
    with pytest.raises(IllegalMove, match="your own side's counter"):
        ENGINE.apply(state, 0, {"card": "JS", "remove": [[3, 3]]})
    with pytest.raises(IllegalMove, match="the square at row 6, column 6 holds no counter"):
        ENGINE.apply(state, 0, {"card": "JS", "remove": [[5, 5]]})
    with pytest.raises(IllegalMove, match="that square is a roundel"):
        ENGINE.apply(state, 0, {"card": "JS", "remove": [[0, 0]]})


def test_a_counter_in_a_convoy_cannot_be_removed():
    convoy = row(2, 0, 1, 2, 3)
    state = position(
        hands=[["JS"], ["AS"]],
        counters={**side_counters(1, convoy), (5, 5): 1},
        convoys=[(1, convoy)],
        stock=["2C"],
    )
    with pytest.raises(IllegalMove, match="that counter is part of a convoy and cannot be removed"):
        ENGINE.apply(state, 0, {"card": "JS", "remove": [[2, 1]]})
    assert ENGINE.legal_moves(state, 0) == [{"card": "JS", "remove": [[5, 5]]}]


def test_with_two_sides_a_one_eyed_jack_removes_exactly_one():
    state = position(hands=[["JS"], ["AS"]], counters={(2, 4): 1, (3, 3): 1}, stock=["2C"])
    with pytest.raises(IllegalMove, match="the jack of spades removes one counter"):
        ENGINE.apply(state, 0, {"card": "JS", "remove": [[2, 4], [3, 3]]})


def test_one_eyed_jack_needs_the_square_to_remove():
    state = position(hands=[["JS"], ["AS"]], counters={(2, 4): 1}, stock=["2C"])
    with pytest.raises(
        IllegalMove, match="the jack of spades removes a counter: give the square to remove"
    ):
        ENGINE.apply(state, 0, {"card": "JS", "square": [2, 4]})
    with pytest.raises(
        IllegalMove, match="the jack of spades removes a counter: give the square to remove"
    ):
        ENGINE.apply(state, 0, {"card": "JS", "remove": []})


def test_only_one_eyed_jacks_and_jokers_remove():
    state = position(hands=[["JC", "QH"], ["AS"]], counters={(2, 4): 1}, stock=["2C"])
    for card in ("JC", "QH"):
        with pytest.raises(
            IllegalMove,
            match="only the jack of spades, the jack of hearts or a joker removes counters",
        ):
            ENGINE.apply(state, 0, {"card": card, "remove": [[2, 4]]})


def test_with_three_sides_a_one_eyed_jack_removes_one_from_each_opposing_side():
    state = position(
        players=3,
        hands=[["JH"], ["AS"], ["AS"]],
        counters={(2, 4): 1, (3, 3): 2, (4, 4): 2, (5, 5): 0},
        stock=["2C"],
    )
    moves = ENGINE.legal_moves(state, 0)
    assert moves == [
        {"card": "JH", "remove": [[2, 4], [3, 3]]},
        {"card": "JH", "remove": [[2, 4], [4, 4]]},
    ]
    with pytest.raises(IllegalMove, match="one counter from each opposing side"):
        ENGINE.apply(state, 0, {"card": "JH", "remove": [[2, 4]]})
    with pytest.raises(IllegalMove, match="one counter from each opposing side"):
        ENGINE.apply(state, 0, {"card": "JH", "remove": [[3, 3], [4, 4]]})
    # the order of the squares does not matter
    state = ENGINE.apply(state, 0, {"card": "JH", "remove": [[4, 4], [2, 4]]})
    assert ENGINE.view(state, None)["counters_left"] == [49, 50, 49]


def test_with_three_sides_a_side_with_nothing_removable_is_skipped():
    convoy = row(2, 0, 1, 2, 3)
    state = position(
        players=6,
        hands=[["X"], [], [], [], [], []],
        counters={**side_counters(1, convoy), (5, 5): 2},
        convoys=[(1, convoy)],
        stock=["2C"],
    )
    removals = [m for m in ENGINE.legal_moves(state, 0) if "remove" in m]
    assert removals == [{"card": "X", "remove": [[5, 5]]}]
    with pytest.raises(IllegalMove, match="part of a convoy"):
        ENGINE.apply(state, 0, {"card": "X", "remove": [[5, 5], [2, 0]]})
    ENGINE.apply(state, 0, {"card": "X", "remove": [[5, 5]]})


def test_a_one_eyed_jack_with_nothing_to_remove_cannot_be_played():
    state = position(hands=[["JS"], ["AS"]], counters={(3, 3): 0}, stock=["2C"])
    with pytest.raises(IllegalMove, match="there is no counter that the jack of spades can remove"):
        ENGINE.apply(state, 0, {"card": "JS", "remove": [[3, 3]]})
    assert ENGINE.legal_moves(state, 0) == [{"pass": True}]


def test_a_joker_plays_as_a_two_eyed_jack():
    state = position(hands=[["X"], ["AS"]], stock=["2C"])
    assert len(ENGINE.legal_moves(state, 0)) == 96
    state = place(state, 0, "X", (4, 4))
    assert cell(state, (4, 4))["counter"] == 0
    assert ENGINE.view(state, None)["discards"][-1] == "X"


def test_a_joker_plays_as_a_one_eyed_jack():
    state = position(hands=[["X"], ["AS"]], counters={(4, 4): 1}, stock=["2C"])
    assert {"card": "X", "remove": [[4, 4]]} in ENGINE.legal_moves(state, 0)
    state = ENGINE.apply(state, 0, {"card": "X", "remove": [[4, 4]]})
    assert cell(state, (4, 4))["counter"] is None


def test_a_roundel_can_never_be_covered():
    state = position(hands=[["AS", "X"], ["AS"]], stock=["2C"])
    for card in ("AS", "X"):
        with pytest.raises(IllegalMove, match="that square is a roundel"):
            place(state, 0, card, (0, 0))
    assert all(
        m.get("square") not in ([0, 0], [0, 9], [9, 0], [9, 9])
        for m in ENGINE.legal_moves(state, 0)
    )


# -- counters --------------------------------------------------------------------------------


def test_a_side_without_counters_cannot_place_but_can_still_remove():
    squares = [convoy_board.SQUARES[cell] for cell in convoy_board.CARD_SQUARES]
    fifty = [sq for sq in squares if sq not in ((2, 4), (7, 5), (9, 8))][:50]
    state = position(
        hands=[["QH", "JC", "JS"], ["AS"]],
        counters={**side_counters(0, fifty), (9, 8): 1},
        stock=["KH"],
    )
    assert ENGINE.view(state, 0)["counters_left"] == [0, 49]
    assert ENGINE.legal_moves(state, 0) == [{"card": "JS", "remove": [[9, 8]]}]
    for card, square in (("QH", (2, 4)), ("JC", (9, 7))):
        with pytest.raises(IllegalMove, match="your side has no counters left"):
            place(state, 0, card, square)
    state = ENGINE.apply(state, 0, {"card": "JS", "remove": [[9, 8]]})
    assert ENGINE.view(state, 0)["counters_left"] == [0, 50]


def test_each_side_starts_with_fifty_counters():
    assert ENGINE.view(ENGINE.new_game(players=4, seed=1), 0)["counters_left"] == [50, 50]
    assert ENGINE.view(ENGINE.new_game(players=6, seed=1), 0)["counters_left"] == [50, 50, 50]
