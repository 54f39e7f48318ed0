"""Convoy situations built for the test_convoy_*.py tests: decks that deal given hands, mid-game
positions made by editing a dump, and short ways to name squares and read the board.
"""

from collections import Counter

from games.engines import get_engine
from games.engines.convoy import FULL_DECK

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
