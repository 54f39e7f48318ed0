"""Convoy rules (docs/rules.md), one test per rule: what makes a convoy, what convoys may share,
several at once, and winning (games/engines/convoy_position.py). Board rows: see
test_convoy_setup.py."""

import pytest

from games.engines import IllegalMove, convoy_board
from tests.games.engines.convoy_situations import (
    ENGINE,
    cell,
    convoy_counts,
    place,
    position,
    row,
    side_counters,
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
