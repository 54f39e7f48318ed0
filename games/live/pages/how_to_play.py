"""The pictures of the how-to-play pages (docs/play-pages.md, "How to play").

Each picture is an example position drawn by the game's own page code and templates, so a
newcomer sees the board and the cards exactly as a table shows them. The positions are made
up: no table, hand or seed is read.
"""

from django.utils.translation import pgettext

from games.engines import get_engine
from games.engines.korova import heads

from . import convoy
from .korova import cow_card

GAMES = ("convoy", "korova", "conquian")

# Convoy: Red has a line along row 3 and a column standing on the top-left roundel ("three
# plus a roundel"); Black a 2×2 square. Cells are [row, column] from 0, as the engine's.
RED_LINE = [[2, 2], [2, 3], [2, 4], [2, 5]]
RED_WITH_ROUNDEL = [[0, 0], [1, 0], [2, 0], [3, 0]]
BLACK_SQUARE = [[5, 6], [5, 7], [6, 6], [6, 7]]
LOOSE_RED = [[7, 7]]
LOOSE_BLACK = [[3, 4], [4, 4]]
ROUNDEL = (0, 0)

# Корова: a full row, the card that would be its sixth, and a card lower than every row.
FULL_ROW = [12, 15, 22, 25, 30]
OTHER_ROWS = [[44, 47], [61], [85, 90, 93]]
SIXTH_CARD = 34
LOW_CARD = 7
HEAD_EXAMPLES = [8, 15, 20, 22, 55]


def how_to_play_context(game: str) -> dict:
    """What `templates/games/how_to_play/<game>.html` draws. Raises KeyError for an unknown
    game."""
    return {"convoy": _convoy, "korova": _korova, "conquian": _conquian}[game]()


def _convoy() -> dict:
    eng = get_engine("convoy")
    start = eng.dump(eng.new_game(players=2, seed=0, options={}))
    board = [list(row) for row in start["board"]]
    for side, cells in ((0, RED_LINE + RED_WITH_ROUNDEL + LOOSE_RED),
                        (1, BLACK_SQUARE + LOOSE_BLACK)):  # fmt: skip
        for row, column in cells:
            if (row, column) != ROUNDEL:
                board[row][column] = str(side)
    convoys = [
        {"side": 0, "cells": RED_LINE},
        {"side": 1, "cells": BLACK_SQUARE},
        {"side": 0, "cells": RED_WITH_ROUNDEL},
    ]
    state = eng.load({**start, "board": ["".join(row) for row in board], "convoys": convoys})
    table = {
        "view": eng.view(state, None),
        "seats": [
            {"seat": 0, "name": pgettext("a side in the picture", "Red")},
            {"seat": 1, "name": pgettext("a side in the picture", "Black")},
        ],
        "seat": None,
    }
    page = convoy.page_context(table=table, moves=[], hands=[])
    return {"page": page, "view": table["view"]}


def _korova() -> dict:
    full_row = [cow_card(number) for number in FULL_ROW]
    rows = [full_row, *([cow_card(number) for number in row] for row in OTHER_ROWS)]
    return {
        "rows_before": [_cow_row(index, cards) for index, cards in enumerate(rows)],
        "sixth": cow_card(SIXTH_CARD),
        "taken_heads": sum(heads(number) for number in FULL_ROW),
        "rows_after": [
            _cow_row(index, cards)
            for index, cards in enumerate([[cow_card(SIXTH_CARD)], *rows[1:]])
        ],
        "low_card": cow_card(LOW_CARD),
        "head_examples": [cow_card(number) for number in HEAD_EXAMPLES],
    }


def _cow_row(index: int, cards: list[dict]) -> dict:
    return {"index": index, "cards": cards, "heads": sum(card["heads"] for card in cards)}


def _conquian() -> dict:
    return {
        "sequence": {
            "open": "6D",
            "hand": ["7D", "JD"],
            "hand_rest": ["2S", "4H", "KC"],
            "meld": ["6D", "7D", "JD"],
        },
        "group": {"open": "5C", "hand": ["5S", "5H"], "meld": ["5S", "5H", "5C"]},
        "added": {"meld": ["3S", "4S", "5S"], "open": "6S", "meld_after": ["3S", "4S", "5S", "6S"]},
    }
