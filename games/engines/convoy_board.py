"""The Convoy board: the layout (read once from convoy_board.json) and its precomputed windows.

Cells are numbered 0..99 in reading order (cell = row * 10 + column), so a set of
cells is one Python int with bit `cell` set: the engine's board is a handful of
such masks. A window is four cells in a row, a column, a diagonal, an
anti-diagonal or a 2x2 square, the shapes a convoy can take.
"""

import json
from pathlib import Path

from .cards import RANKS, SUITS

# A window: (mask of its non-roundel cells, shape, its four cells).
Window = tuple[int, int, tuple[int, ...]]

SIZE = 10
ROUNDEL = "ROUNDEL"

# Shapes are bits so that a cell can carry the set of shapes of the convoys through it.
ROW, COLUMN, DIAGONAL, ANTI_DIAGONAL, SQUARE = 1, 2, 4, 8, 16
SHAPE_NAMES = {
    ROW: "row",
    COLUMN: "column",
    DIAGONAL: "diagonal",
    ANTI_DIAGONAL: "anti-diagonal",
    SQUARE: "square",
}
LINE_SHAPES = (ROW, COLUMN, DIAGONAL, ANTI_DIAGONAL)
# The cells of a window as offsets (row, column) from its first cell.
_SHAPE_OFFSETS = {
    ROW: ((0, 0), (0, 1), (0, 2), (0, 3)),
    COLUMN: ((0, 0), (1, 0), (2, 0), (3, 0)),
    DIAGONAL: ((0, 0), (1, 1), (2, 2), (3, 3)),
    ANTI_DIAGONAL: ((0, 0), (1, -1), (2, -2), (3, -3)),
    SQUARE: ((0, 0), (0, 1), (1, 0), (1, 1)),
}


def check_layout(rows: list[list[str]]) -> tuple[str, ...]:
    """The 100 cell labels of a layout; ValueError unless it is a valid Convoy board."""
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError("a Convoy board has 10 rows of 10 squares")
    cells = tuple(label for row in rows for label in row)
    corners = (cells[0], cells[SIZE - 1], cells[-SIZE], cells[-1])
    if corners != (ROUNDEL,) * 4 or cells.count(ROUNDEL) != 4:
        raise ValueError("a Convoy board has roundels on its four corners and nowhere else")
    non_jacks = sorted(rank + suit for suit in SUITS for rank in RANKS if rank != "J")
    if sorted(label for label in cells if label != ROUNDEL) != sorted(non_jacks * 2):
        raise ValueError("a Convoy board shows each of the 48 non-jack cards exactly twice")
    return cells


def _card_cells(cell_cards: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """card -> its two cells."""
    cells: dict[str, list[int]] = {}
    for cell, label in enumerate(cell_cards):
        if label != ROUNDEL:
            cells.setdefault(label, []).append(cell)
    return {card: tuple(pair) for card, pair in cells.items()}


def _windows(cell_cards: tuple[str, ...]) -> tuple[Window, ...]:
    """Every window holding at most one roundel, ordered by first cell, then by shape.

    Each is (mask of its non-roundel cells, shape, the four cells); the mask
    leaves roundels out because they belong to every side.
    """
    found = []
    for first in range(SIZE * SIZE):
        row, column = divmod(first, SIZE)
        for shape, offsets in _SHAPE_OFFSETS.items():
            cells = []
            for d_row, d_column in offsets:
                r, c = row + d_row, column + d_column
                if not (0 <= r < SIZE and 0 <= c < SIZE):
                    break
                cells.append(r * SIZE + c)
            else:
                roundels = [cell for cell in cells if cell_cards[cell] == ROUNDEL]
                if len(roundels) <= 1:
                    mask = sum(1 << cell for cell in cells if cell not in roundels)
                    found.append((mask, shape, tuple(cells)))
    return tuple(found)


CELL_CARDS = check_layout(
    json.loads(Path(__file__).with_name("convoy_board.json").read_text())["rows"]
)
ROUNDEL_MASK = sum(1 << cell for cell, label in enumerate(CELL_CARDS) if label == ROUNDEL)
CARD_SQUARES = tuple(cell for cell, label in enumerate(CELL_CARDS) if label != ROUNDEL)
CARD_CELLS = _card_cells(CELL_CARDS)
CARD_MASKS = {card: (1 << a) | (1 << b) for card, (a, b) in CARD_CELLS.items()}

WINDOWS = _windows(CELL_CARDS)
# the four cells of a window (lowest first, as every shape lists them) -> its index
WINDOW_INDEX = {cells: index for index, (_, _, cells) in enumerate(WINDOWS)}
# cell -> the windows through it as (mask, shape, window index), in window order;
# a placement looks at these and nothing else.
WINDOWS_THROUGH = tuple(
    tuple(
        (mask, shape, index) for index, (mask, shape, cells) in enumerate(WINDOWS) if cell in cells
    )
    for cell in range(SIZE * SIZE)
)
# cell -> (row, column), the square as moves and views name it
SQUARES = tuple(divmod(cell, SIZE) for cell in range(SIZE * SIZE))


def cells_of(mask: int) -> list[int]:
    """The cells set in `mask`, lowest first."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells
