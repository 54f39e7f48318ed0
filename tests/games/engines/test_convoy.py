"""Convoy rules (docs/rules.md) and the engine protocol (docs/engines.md), one test per rule.

Board rows used below (games/engines/convoy_board.json, row 0 at the top):

    0: ROUNDEL AS 2S 3S 4S 5S 6S 7S 8S ROUNDEL
    1: 9S TS QS KS AH 2H 3H 4H 5H 6H
    2: 7H 8H 9H TH QH KH AD 2D 3D 4D
    3: 5D 6D 7D 8D 9D TD QD KD AC 2C
    4: 3C 4C 5C 6C 7C 8C 9C TC QC KC
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from games.engines import IllegalMove, convoy_board, get_engine
from games.engines.convoy import FULL_DECK, OPTIONS

ENGINE = get_engine("convoy")


# -- building situations -------------------------------------------------------------------


def make_deck(hands, top=()):
    """A full deck that deals `hands` (one list per seat, equal lengths) and then draws `top`."""
    rest = Counter(FULL_DECK)
    rest.subtract(card for hand in hands for card in hand)
    rest.subtract(top)
    assert all(count >= 0 for count in rest.values()), "more copies than the deck holds"
    dealt = [card for round_ in zip(*hands, strict=True) for card in round_]
    return dealt + list(top) + sorted(rest.elements())


def position(
    players=2,
    hands=None,
    stock=(),
    counters=None,
    convoys=(),
    turn=0,
    exchanged=False,
    options=None,
):
    """A mid-game state, built by editing a dump: `counters` maps (row, column) to a side,
    `convoys` lists (side, four squares) already counted, `stock` the cards still to draw
    (top first). Every other card is in the discards."""
    hands = [list(hand) for hand in (hands or [[] for _ in range(players)])]
    data = ENGINE.dump(ENGINE.new_game(players=players, seed=0, options=options))
    out_of_play = Counter(FULL_DECK)
    out_of_play.subtract(card for hand in hands for card in hand)
    out_of_play.subtract(stock)
    assert all(count >= 0 for count in out_of_play.values()), "more copies than the deck holds"
    discards = sorted(out_of_play.elements())
    in_hands = [card for hand in hands for card in hand]
    marks = [["."] * 10 for _ in range(10)]
    for (r, c), side in (counters or {}).items():
        marks[r][c] = str(side)
    data.update(
        deck=in_hands + discards + list(stock),
        drawn=len(in_hands) + len(discards),
        hands=hands,
        discards=discards,
        board=["".join(marks_row) for marks_row in marks],
        convoys=[{"side": side, "cells": [list(sq) for sq in cells]} for side, cells in convoys],
        turn=turn,
        exchanged=exchanged,
        over=False,
        last_move=None,
    )
    return ENGINE.load(data)


def row(r, *columns):
    return [(r, c) for c in columns]


def side_counters(side, squares):
    return dict.fromkeys(squares, side)


def cell(state, square):
    r, c = square
    return ENGINE.view(state, None)["board"][r][c]


def place(state, seat, card, square):
    return ENGINE.apply(state, seat, {"card": card, "square": list(square)})


def convoy_counts(state):
    return ENGINE.view(state, None)["convoys"]


# -- sides -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "sides"), [(2, 2), (3, 3), (4, 2), (6, 3)])
def test_sides_two_for_two_and_four_players_three_for_three_and_six(players, sides):
    view = ENGINE.view(ENGINE.new_game(players=players, seed=1), 0)
    assert view["sides"] == sides
    assert len(view["convoys"]) == sides and len(view["counters_left"]) == sides


def test_team_seats_alternate_colours_and_share_a_convoy_count():
    # 4 players: seats 0 and 2 are side 0; seat 2 completes a convoy that seat 0 began.
    state = position(
        players=4,
        hands=[[], [], ["TH"], []],
        counters=side_counters(0, row(2, 0, 1, 2)),
        turn=2,
    )
    assert ENGINE.view(state, 2)["side"] == 0 and ENGINE.view(state, 3)["side"] == 1
    state = place(state, 2, "TH", (2, 3))
    assert convoy_counts(state) == [1, 0]


def test_six_players_alternate_three_colours():
    state = ENGINE.new_game(players=6, seed=3)
    assert [ENGINE.view(state, seat)["side"] for seat in range(6)] == [0, 1, 2, 0, 1, 2]
    assert ENGINE.view(state, 0)["side_colours"] == ["red", "black", "blue"]


@pytest.mark.parametrize("players", [0, 1, 5, 7, "4", 4.0, True, None])
def test_only_two_three_four_or_six_players(players):
    with pytest.raises(ValueError, match="2, 3, 4 or 6"):
        ENGINE.new_game(players=players, seed=1)


# -- cards and board -------------------------------------------------------------------------


def test_deck_is_two_packs_and_four_jokers():
    state = ENGINE.new_game(players=2, seed=5)
    data = ENGINE.dump(state)
    assert len(data["deck"]) == 108
    counts = Counter(data["deck"])
    assert counts["X"] == 4
    assert all(count == 2 for card, count in counts.items() if card != "X")
    assert len(counts) == 53


def test_a_deck_that_is_not_the_convoy_deck_is_rejected():
    with pytest.raises(ValueError, match="108 cards"):
        ENGINE.new_game(players=2, seed=None, deck=list(FULL_DECK)[:-1])


def test_a_new_game_needs_a_seed_or_a_deck():
    with pytest.raises(ValueError, match="seed or a deck"):
        ENGINE.new_game(players=2, seed=None)


def test_board_shows_each_non_jack_card_twice_and_roundels_on_the_corners():
    view = ENGINE.view(ENGINE.new_game(players=2, seed=1), None)
    labels = [square["card"] for board_row in view["board"] for square in board_row]
    assert len(view["board"]) == 10 and all(len(r) == 10 for r in view["board"])
    assert [labels[i] for i in (0, 9, 90, 99)] == ["ROUNDEL"] * 4
    counts = Counter(label for label in labels if label != "ROUNDEL")
    assert len(counts) == 48 and set(counts.values()) == {2}
    assert not any(label.startswith("J") for label in counts)


def test_the_two_copies_of_a_card_never_share_a_window():
    for card, (a, b) in convoy_board.CARD_CELLS.items():
        assert not any(a in cells and b in cells for _, _, cells in convoy_board.WINDOWS), card


def test_a_layout_is_checked_when_loaded():
    rows = json.loads(Path(convoy_board.__file__).with_name("convoy_board.json").read_text())[
        "rows"
    ]
    assert convoy_board.check_layout(rows) == convoy_board.CELL_CARDS
    moved_roundel = [list(r) for r in rows]
    moved_roundel[0][0], moved_roundel[0][1] = moved_roundel[0][1], moved_roundel[0][0]
    with pytest.raises(ValueError, match="corners"):
        convoy_board.check_layout(moved_roundel)
    three_copies = [list(r) for r in rows]
    three_copies[1][0] = three_copies[1][1]
    with pytest.raises(ValueError, match="exactly twice"):
        convoy_board.check_layout(three_copies)


# -- deal and turn order ---------------------------------------------------------------------


def test_cards_are_dealt_one_at_a_time_from_the_top_of_a_fixed_deck():
    deck = make_deck([["AS", "2S", "3S", "4S", "5S"], ["AH", "2H", "3H", "4H", "5H"]], ["6D"])
    state = ENGINE.new_game(players=2, seed=None, deck=deck)
    assert ENGINE.view(state, 0)["hand"] == ["AS", "2S", "3S", "4S", "5S"]
    assert ENGINE.view(state, 1)["hand"] == ["AH", "2H", "3H", "4H", "5H"]
    assert ENGINE.view(state, 0)["stock"] == 108 - 10


def test_hand_size_defaults_to_five():
    state = ENGINE.new_game(players=4, seed=2)
    assert ENGINE.view(state, None)["hand_sizes"] == [5, 5, 5, 5]


def test_hand_size_option_allows_the_box_sheets_four():
    state = ENGINE.new_game(players=3, seed=2, options={"hand_size": 4})
    assert ENGINE.view(state, None)["hand_sizes"] == [4, 4, 4]
    assert ENGINE.view(state, None)["stock"] == 108 - 12


@pytest.mark.parametrize("value", [2, 8, "5", 5.0, True])
def test_a_bad_hand_size_names_the_option(value):
    with pytest.raises(ValueError, match="hand_size"):
        ENGINE.new_game(players=2, seed=1, options={"hand_size": value})


def test_an_unknown_option_is_named():
    with pytest.raises(ValueError, match="jokers_wild"):
        ENGINE.new_game(players=2, seed=1, options={"jokers_wild": True})


def test_options_and_their_defaults():
    assert {option.name: option.default for option in OPTIONS} == {
        "hand_size": 5,
        "dead_card_exchange": True,
    }
    assert ENGINE.options == OPTIONS
    with pytest.raises(ValueError, match="dead_card_exchange"):
        ENGINE.new_game(players=2, seed=1, options={"dead_card_exchange": "no"})


def test_seat_zero_starts_and_play_goes_in_seat_order():
    state = ENGINE.new_game(players=3, seed=4)
    seen = []
    for _ in range(6):
        (seat,) = ENGINE.to_act(state)
        seen.append(seat)
        state = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[0])
    assert seen == [0, 1, 2, 0, 1, 2]


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


# -- convoys ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "squares", "card"),
    [
        ("row", [(3, 1), (3, 2), (3, 3), (3, 4)], "9D"),
        ("column", [(1, 4), (2, 4), (3, 4), (4, 4)], "7C"),
        ("diagonal", [(1, 1), (2, 2), (3, 3), (4, 4)], "7C"),
        ("anti-diagonal", [(1, 7), (2, 6), (3, 5), (4, 4)], "7C"),
        ("square", [(3, 3), (3, 4), (4, 3), (4, 4)], "7C"),
    ],
)
def test_four_in_a_row_column_diagonal_or_square_is_a_convoy(name, squares, card):
    state = position(hands=[[card], ["AS"]], counters=side_counters(0, squares[:-1]), stock=["2C"])
    state = place(state, 0, card, squares[-1])
    assert convoy_counts(state) == [1, 0], name
    assert all(cell(state, square)["locked"] for square in squares)
    assert ENGINE.view(state, None)["convoy_cells"] == [
        {"side": 0, "cells": [list(square) for square in sorted(squares)]}
    ]


def test_an_opponent_counter_breaks_a_line():
    state = position(
        hands=[["9D"], ["AS"]],
        counters={**side_counters(0, row(3, 1, 2)), (3, 3): 1},
        stock=["2C"],
    )
    assert convoy_counts(place(state, 0, "9D", (3, 4))) == [0, 0]


def test_three_counters_and_a_roundel_make_a_convoy():
    state = position(hands=[["3S"], ["AS"]], counters=side_counters(0, row(0, 1, 2)), stock=["2C"])
    state = place(state, 0, "3S", (0, 3))
    assert convoy_counts(state) == [1, 0]
    assert cell(state, (0, 0)) == {"card": "ROUNDEL", "counter": None, "locked": False}


def test_a_roundel_serves_any_number_of_convoys_of_any_side():
    # Side 0 has the top row through the roundel; side 1 the left column; side 0 the diagonal.
    state = position(
        hands=[["8D"], ["5D"]],
        counters={
            **side_counters(0, row(0, 1, 2, 3)),
            **side_counters(0, [(1, 1), (2, 2)]),
            **side_counters(1, [(1, 0), (2, 0)]),
        },
        convoys=[(0, [(0, 0), (0, 1), (0, 2), (0, 3)])],
        stock=["2C", "3C", "4C"],
    )
    state = place(state, 0, "8D", (3, 3))
    state = place(state, 1, "5D", (3, 0))
    assert convoy_counts(state) == [2, 1]


def test_a_roundel_cannot_be_removed():
    state = position(hands=[["JS"], ["AS"]], counters={(4, 4): 1}, stock=["2C"])
    with pytest.raises(IllegalMove, match="that square is a roundel"):
        ENGINE.apply(state, 0, {"card": "JS", "remove": [[9, 0]]})


def test_counters_in_a_convoy_are_locked():
    state = position(
        hands=[["9D"], ["AS"]], counters=side_counters(0, row(3, 1, 2, 3)), stock=["2C"]
    )
    state = place(state, 0, "9D", (3, 4))
    board = ENGINE.view(state, 1)["board"]
    assert [board[3][c]["locked"] for c in range(6)] == [False, True, True, True, True, False]


# -- sharing ---------------------------------------------------------------------------------


def test_five_in_a_row_is_one_convoy():
    state = position(
        hands=[["QH", "KH"], ["AS", "AS"]],
        counters=side_counters(0, row(2, 1, 2, 3)),
        stock=["2C", "3C", "4C"],
    )
    state = place(state, 0, "QH", (2, 4))
    state = place(state, 1, "AS", (0, 1))
    state = place(state, 0, "KH", (2, 5))
    assert convoy_counts(state) == [1, 0]
    assert cell(state, (2, 5))["locked"] is False


def test_seven_in_a_row_is_one_convoy():
    convoy = row(2, 0, 1, 2, 3)
    state = position(
        hands=[["AD"], ["AS"]],
        counters=side_counters(0, row(2, 0, 1, 2, 3, 4, 5)),
        convoys=[(0, convoy)],
        stock=["2C"],
    )
    assert convoy_counts(place(state, 0, "AD", (2, 6))) == [1, 0]


def test_eight_in_a_row_is_two_convoys():
    convoy = row(2, 0, 1, 2, 3)
    state = position(
        hands=[["2D"], ["AS"]],
        counters=side_counters(0, row(2, 0, 1, 2, 3, 4, 5, 6)),
        convoys=[(0, convoy)],
        stock=["2C"],
    )
    state = place(state, 0, "2D", (2, 7))
    assert convoy_counts(state) == [2, 0]
    assert ENGINE.view(state, None)["convoy_cells"][1]["cells"] == [[2, 4], [2, 5], [2, 6], [2, 7]]


def test_a_middle_counter_that_joins_a_convoy_to_three_more_makes_a_new_convoy():
    # 0..2 and a convoy on 4..7: the counter on 3 completes 0..3, which shares nothing.
    state = position(
        hands=[["TH"], ["AS"]],
        counters=side_counters(0, row(2, 0, 1, 2, 4, 5, 6, 7)),
        convoys=[(0, row(2, 4, 5, 6, 7))],
        stock=["2C"],
    )
    assert convoy_counts(place(state, 0, "TH", (2, 3))) == [2, 0]


def test_a_crossing_convoy_may_share_one_counter():
    convoy = row(2, 0, 1, 2, 3)
    state = position(
        hands=[["7D"], ["AS"]],
        counters=side_counters(0, [*convoy, (0, 2), (1, 2)]),
        convoys=[(0, convoy)],
        stock=["2C"],
    )
    state = place(state, 0, "7D", (3, 2))
    assert convoy_counts(state) == [2, 0]


def test_a_new_convoy_may_not_share_two_counters():
    first, second = row(2, 0, 1, 2, 3), row(3, 0, 1, 2, 3)
    state = position(
        hands=[["4C"], ["AS"]],
        counters=side_counters(0, [*first, *second, (1, 1)]),
        convoys=[(0, first), (0, second)],
        stock=["2C"],
    )
    assert convoy_counts(place(state, 0, "4C", (4, 1))) == [2, 0]


def test_a_square_may_share_one_counter_with_a_line():
    convoy = row(2, 0, 1, 2, 3)
    state = position(
        hands=[["QH"], ["AS"]],
        counters=side_counters(0, [*convoy, (1, 3), (1, 4)]),
        convoys=[(0, convoy)],
        stock=["2C"],
    )
    state = place(state, 0, "QH", (2, 4))
    assert convoy_counts(state) == [2, 0]
    assert ENGINE.view(state, None)["convoy_cells"][1]["cells"] == [[1, 3], [1, 4], [2, 3], [2, 4]]


def test_a_line_may_share_one_counter_with_a_square():
    square = [(1, 1), (1, 2), (2, 1), (2, 2)]
    state = position(
        hands=[["4S"], ["AS"]],
        counters=side_counters(0, [*square, (3, 3), (4, 4)]),
        convoys=[(0, square)],
        stock=["2C"],
    )
    state = place(state, 0, "4S", (5, 5))
    assert convoy_counts(state) == [2, 0]


def test_a_line_may_not_run_along_a_square_sharing_two_counters():
    square = [(1, 1), (1, 2), (2, 1), (2, 2)]
    state = position(
        hands=[["5C"], ["AS"]],
        counters=side_counters(0, [*square, (3, 2)]),
        convoys=[(0, square)],
        stock=["2C"],
    )
    assert convoy_counts(place(state, 0, "5C", (4, 2))) == [1, 0]


def test_two_squares_may_not_share_a_corner():
    square = [(1, 0), (1, 1), (2, 0), (2, 1)]
    state = position(
        hands=[["7D"], ["AS"]],
        counters=side_counters(0, [*square, (2, 2), (3, 1)]),
        convoys=[(0, square)],
        stock=["2C"],
    )
    assert convoy_counts(place(state, 0, "7D", (3, 2))) == [1, 0]


def test_a_counter_where_two_convoys_cross_can_be_crossed_again():
    across, down = row(2, 0, 1, 2, 3), [(0, 2), (1, 2), (2, 2), (3, 2)]
    state = position(
        hands=[["4S"], ["AS"]],
        counters=side_counters(0, [*across, *down, (3, 3), (4, 4)]),
        convoys=[(0, across), (0, down)],
        stock=["2C"],
    )
    assert convoy_counts(place(state, 0, "4S", (5, 5))) == [3, 0]


# -- several convoys at once -----------------------------------------------------------------


def test_one_counter_can_complete_two_convoys():
    state = position(
        hands=[["9H"], ["AS"]],
        counters=side_counters(0, [(2, 0), (2, 1), (2, 3), (0, 2), (1, 2), (3, 2)]),
        stock=["2C"],
    )
    assert convoy_counts(place(state, 0, "9H", (2, 2))) == [2, 0]


def test_windows_along_one_line_count_once():
    state = position(
        hands=[["QH"], ["AS"]],
        counters=side_counters(0, row(2, 1, 2, 3, 5, 6, 7)),
        stock=["2C"],
    )
    state = place(state, 0, "QH", (2, 4))
    assert convoy_counts(state) == [1, 0]
    # the first window in board order: columns 1 to 4
    assert ENGINE.view(state, None)["convoy_cells"][0]["cells"] == [[2, 1], [2, 2], [2, 3], [2, 4]]


def test_several_at_once_counts_the_largest_set():
    # Row 2 columns 1..7 and the square (2,3)-(3,4): the square conflicts with every row
    # window holding (2,3), so square + columns 4..7 (2) beats a row alone (1).
    state = position(
        hands=[["QH"], ["AS"]],
        counters=side_counters(0, [*row(2, 1, 2, 3, 5, 6, 7), (3, 3), (3, 4)]),
        stock=["2C"],
    )
    state = place(state, 0, "QH", (2, 4))
    assert convoy_counts(state) == [2, 0]
    assert ENGINE.view(state, None)["convoy_cells"] == [
        {"side": 0, "cells": [[2, 3], [2, 4], [3, 3], [3, 4]]},
        {"side": 0, "cells": [[2, 4], [2, 5], [2, 6], [2, 7]]},
    ]


def test_on_a_tie_lines_are_counted_before_a_square():
    state = position(
        hands=[["QH"], ["AS"]],
        counters=side_counters(0, [*row(2, 1, 2, 3), (3, 3), (3, 4)]),
        stock=["2C"],
    )
    state = place(state, 0, "QH", (2, 4))
    assert convoy_counts(state) == [1, 0]
    assert ENGINE.view(state, None)["convoy_cells"][0]["cells"] == [[2, 1], [2, 2], [2, 3], [2, 4]]
    assert cell(state, (3, 4))["locked"] is False


def test_detection_looks_only_at_windows_through_the_changed_cell(monkeypatch):
    # A complete row that never counted (built directly) stays uncounted when a counter
    # lands elsewhere, and only the placed cell's windows are read.
    state = position(
        hands=[["4C"], ["AS"]],
        counters=side_counters(0, row(2, 0, 1, 2, 3)),
        stock=["2C"],
    )
    windows_through = convoy_board.WINDOWS_THROUGH
    read = []

    class Recording:
        def __getitem__(self, cell):
            read.append(cell)
            return windows_through[cell]

    monkeypatch.setattr(convoy_board, "WINDOWS_THROUGH", Recording())
    state = place(state, 0, "4C", (4, 1))
    assert read == [41]
    assert convoy_counts(state) == [0, 0]


# -- winning ---------------------------------------------------------------------------------


def test_two_sides_need_three_convoys_and_the_game_ends_at_once():
    first, second = row(5, 1, 2, 3, 4), row(7, 1, 2, 3, 4)
    state = position(
        players=4,
        hands=[["9D", "AS"], ["AS"], ["2C"], ["3C"]],
        counters=side_counters(0, [*first, *second, *row(3, 1, 2, 3)]),
        convoys=[(0, first), (0, second)],
        stock=["4C", "5C"],
    )
    state = place(state, 0, "9D", (3, 4))
    assert ENGINE.is_over(state)
    assert ENGINE.to_act(state) == []
    assert ENGINE.outcome(state) == {"winners": [0, 2], "draw": False, "scores": [3, 0]}
    assert ENGINE.view(state, 0)["hand"] == ["AS"]  # no card is drawn after the win
    with pytest.raises(IllegalMove, match="the game is over"):
        ENGINE.apply(state, 1, {"card": "AS", "square": [0, 1]})
    assert ENGINE.legal_moves(state, 1) == []


def test_two_sides_with_two_convoys_play_on():
    first = row(5, 1, 2, 3, 4)
    state = position(
        hands=[["9D"], ["AS"]],
        counters=side_counters(0, [*first, *row(3, 1, 2, 3)]),
        convoys=[(0, first)],
        stock=["4C"],
    )
    state = place(state, 0, "9D", (3, 4))
    assert not ENGINE.is_over(state) and ENGINE.to_act(state) == [1]


@pytest.mark.parametrize("players", [3, 6])
def test_three_sides_need_two_convoys(players):
    first = row(5, 1, 2, 3, 4)
    hands = [["9D"] if seat == 1 else [f"{seat + 2}C"] for seat in range(players)]
    state = position(
        players=players,
        hands=hands,
        counters=side_counters(1, [*first, *row(3, 1, 2, 3)]),
        convoys=[(1, first)],
        turn=1,
        stock=[],
    )
    state = place(state, 1, "9D", (3, 4))
    assert ENGINE.is_over(state)
    winners = list(range(1, players, 3))
    assert ENGINE.outcome(state) == {"winners": winners, "draw": False, "scores": [0, 2, 0]}


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


# -- protocol --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        None,
        "QH",
        ["QH", [2, 4]],
        {},
        {"card": "QH"},
        {"square": [2, 4]},
        {"card": "QH", "square": [2, 4], "pass": True},
        {"card": "QH", "spot": [2, 4]},
        {"card": "ZZ", "square": [2, 4]},
        {"card": ["QH"], "square": [2, 4]},
        {"card": "QH", "square": [10, 4]},
        {"card": "QH", "square": [2, -1]},
        {"card": "QH", "square": [2]},
        {"card": "QH", "square": [2, 4, 0]},
        {"card": "QH", "square": [True, 4]},
        {"card": "QH", "square": [2.0, 4]},
        {"card": "QH", "square": "2,4"},
        {"card": "QH", "square": None},
        {"card": "JS", "remove": "2,4"},
        {"card": "JS", "remove": [[2]]},
        {"card": "JS", "remove": [None]},
        {"card": "JS", "remove": {"2": 4}},
        {"card": "QH", "exchange": "yes"},
        {"card": "QH", "exchange": False},
        {"pass": False},
        {"pass": "true"},
        {1: 2},
    ],
)
def test_a_malformed_move_is_an_illegal_move_with_a_sentence(move):
    state = position(hands=[["QH", "JS"], ["AS"]], counters={(3, 3): 1}, stock=["KH"])
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(state, 0, move)
    assert str(refused.value)


def test_apply_and_timeout_leave_their_input_unchanged():
    state = position(hands=[["QH", "JS"], ["AS"]], counters={(3, 3): 1}, stock=["KH"])
    before = json.dumps(ENGINE.dump(state))
    ENGINE.apply(state, 0, {"card": "QH", "square": [2, 4]})
    ENGINE.apply(state, 0, {"card": "JS", "remove": [[3, 3]]})
    ENGINE.timeout(state, 0)
    assert json.dumps(ENGINE.dump(state)) == before


def _keys(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


def test_a_view_shows_only_what_the_seat_may_see():
    state = ENGINE.new_game(players=4, seed=9)
    player = ENGINE.view(state, 1)
    spectator = ENGINE.view(state, None)
    json.dumps(player)
    json.dumps(spectator)
    for key in ("hand", "stock", "board", "convoys", "to_act", "sides", "counters_left"):
        assert key in player
    assert player["hand"] == list(ENGINE.dump(state)["hands"][1])
    assert "hand" not in spectator
    assert not {"deck", "seed", "hands"} & set(_keys(player))
    assert not {"deck", "seed", "hands"} & set(_keys(spectator))


def test_dump_is_json_and_load_restores_the_state():
    state = ENGINE.new_game(players=3, seed=11)
    for _ in range(20):
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[-1])
    data = json.loads(json.dumps(ENGINE.dump(state)))
    assert ENGINE.load(data) == state
    assert ENGINE.dump(ENGINE.load(data)) == data


def test_the_outcome_of_a_game_in_progress_names_no_winner():
    state = ENGINE.new_game(players=2, seed=1)
    assert ENGINE.outcome(state) == {"winners": [], "draw": False, "scores": [0, 0]}


def test_the_same_seed_deals_the_same_game():
    one, two = ENGINE.new_game(players=4, seed=8), ENGINE.new_game(players=4, seed=8)
    assert one == two
    assert ENGINE.new_game(players=4, seed=9) != one


def card_at(square) -> str:
    r, c = square
    return convoy_board.CELL_CARDS[r * convoy_board.SIZE + c]


@pytest.mark.parametrize(
    ("name", "squares"),
    [
        ("right-edge column", [(3, 9), (4, 9), (5, 9), (6, 9)]),
        ("bottom-edge row", [(9, 3), (9, 4), (9, 5), (9, 6)]),
        ("bottom-right square", [(7, 8), (7, 9), (8, 8), (8, 9)]),
        ("square on the bottom edge", [(8, 4), (8, 5), (9, 4), (9, 5)]),
        ("diagonal into the bottom-right roundel", [(6, 6), (7, 7), (8, 8), (9, 9)]),
        ("anti-diagonal from the right edge to the bottom", [(6, 9), (7, 8), (8, 7), (9, 6)]),
        ("right-edge column ending at the roundel", [(6, 9), (7, 9), (8, 9), (9, 9)]),
    ],
)
def test_convoys_along_the_right_and_bottom_edges_count(name, squares):
    """The last row and column are windows like any other (an off-by-one there survived)."""
    covered = [square for square in squares if card_at(square) != "ROUNDEL"]
    last = covered[-1]
    state = position(
        hands=[[card_at(last)], ["AS"]],
        counters=side_counters(0, covered[:-1]),
        stock=["2C"],
    )
    state = place(state, 0, card_at(last), last)
    assert convoy_counts(state) == [1, 0], name
    assert all(cell(state, square)["locked"] for square in covered), name
