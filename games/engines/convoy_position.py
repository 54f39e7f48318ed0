"""Convoy: the state of a game and the rules that read and change it whatever the move.

The board is kept as bit masks (see convoy_board): one mask of counters per side, one of
locked cells (counters in a convoy), and per cell the shapes of the convoys through it,
which is what the sharing rule needs. A placement only looks at the windows through the
cell it covers (`new_convoys`). Functions that change a state take the fresh copy a move
is building, never the caller's state.
"""

from itertools import product
from typing import Any, TypedDict

from . import convoy_board as board
from .cards import JOKER, standard_pack
from .errors import IllegalMove, gettext_noop
from .protocol import Move

COUNTERS_PER_SIDE = 50
FULL_DECK = tuple(sorted(standard_pack() * 2 + [JOKER] * 4))
DECK_SIZE = len(FULL_DECK)

# What a card does, as bits: a joker is declared either way when played.
PLACES_ANYWHERE, REMOVES = 1, 2
JACK_POWERS = {"JC": PLACES_ANYWHERE, "JD": PLACES_ANYWHERE, "JS": REMOVES, "JH": REMOVES}
JACK_POWERS[JOKER] = PLACES_ANYWHERE | REMOVES
ALL_CARD_SQUARES = sum(1 << cell for cell in board.CARD_SQUARES)


class ConvoyState(TypedDict):
    players: int
    sides: int
    seed: int
    options: dict[str, Any]
    deck: tuple[str, ...]
    drawn: int  # cards dealt or drawn from the top of `deck`
    hands: tuple[tuple[str, ...], ...]
    discards: tuple[str, ...]
    placed: tuple[int, ...]  # per side, the mask of its counters
    locked: int  # the mask of counters in a convoy
    shapes: tuple[int, ...]  # per cell, the shapes of the convoys through it
    convoys: tuple[tuple[int, int], ...]  # (side, window index), in the order made
    scores: tuple[int, ...]  # per side, its convoys
    turn: int
    exchanged: bool  # the seat to act has exchanged a dead card this turn
    over: bool
    last_move: Move | None


def convoys_to_win(sides: int) -> int:
    return 3 if sides == 2 else 2


def square_parts(cell: int) -> dict[str, int]:
    """A square's row and column as the board shows them to players (counted from 1), for
    the sentences that name it ("the square at row {row}, column {column}")."""
    row, column = board.SQUARES[cell]
    return {"row": row + 1, "column": column + 1}


def cell_of(square: Any) -> int:
    """The cell of a [row, column] square from a move; IllegalMove if it is not one."""
    if (
        type(square) in (list, tuple)
        and len(square) == 2
        and type(square[0]) is int
        and type(square[1]) is int
        and 0 <= square[0] < board.SIZE
        and 0 <= square[1] < board.SIZE
    ):
        return square[0] * board.SIZE + square[1]
    raise IllegalMove(
        gettext_noop("a square is [row, column], each from 0 to 9, not {value}"), value=repr(square)
    )


def occupied(state: ConvoyState) -> int:
    covered = 0
    for mask in state["placed"]:
        covered |= mask
    return covered


def removable(state: ConvoyState, side: int, covered: int) -> int:
    """Opponent counters that a removing card may take: those not in a convoy."""
    return covered & ~state["placed"][side] & ~state["locked"]


def can_exchange(state: ConvoyState, exchanged: bool) -> bool:
    return bool(
        state["options"]["dead_card_exchange"] and not exchanged and state["drawn"] < DECK_SIZE
    )


def can_act(state: ConvoyState, seat: int, exchanged: bool) -> bool:
    """Whether `seat` has a move other than a pass (legal_moves lists the same moves)."""
    side = seat % state["sides"]
    covered = occupied(state)
    has_counters = state["placed"][side].bit_count() < COUNTERS_PER_SIDE
    for card in state["hands"][seat]:
        powers = JACK_POWERS.get(card)
        if powers is None:
            card_mask = board.CARD_MASKS[card]
            if card_mask & covered != card_mask:
                if has_counters:
                    return True
            elif can_exchange(state, exchanged):
                return True
        else:
            if powers & PLACES_ANYWHERE and has_counters and covered != ALL_CARD_SQUARES:
                return True
            if powers & REMOVES and removable(state, side, covered):
                return True
    return False


def removals(state: ConvoyState, side: int, covered: int) -> list[tuple[int, ...]]:
    """Every set of cells one removing card may clear, one cell per opposing side that has a
    removable counter, in side order."""
    clearable = removable(state, side, covered)
    per_side = [
        board.cells_of(mask & clearable)
        for other, mask in enumerate(state["placed"])
        if other != side and mask & clearable
    ]
    return list(product(*per_side)) if per_side else []


# A window through a cell, as board.WINDOWS_THROUGH lists it: (mask, shape, window index).
WindowRef = tuple[int, int, int]


def new_convoys(cell: int, own: int, locked: int, shapes: tuple[int, ...]) -> list[WindowRef]:
    """The windows through `cell` that become convoys now that `own` covers it.

    A complete window counts if it holds at most one counter already in a
    convoy, and that counter's convoys all have other shapes (crossing, never
    running along). Several windows count together if they have different
    shapes and share only `cell`; of those sets the largest counts, and on a
    tie the one without a square, taking in each shape the first window in
    board order (docs/engines/convoy.md, decision 4).
    """
    by_shape: dict[int, list[WindowRef]] = {}
    for window in board.WINDOWS_THROUGH[cell]:
        mask, shape, _ = window
        if mask & own != mask:
            continue
        shared = mask & locked
        if shared and (shared & (shared - 1) or shapes[shared.bit_length() - 1] & shape):
            continue
        by_shape.setdefault(shape, []).append(window)
    squares = by_shape.pop(board.SQUARE, [])
    best = [windows[0] for windows in by_shape.values()]
    only_cell = 1 << cell
    for square in squares:
        crossing = [square]
        for windows in by_shape.values():
            for window in windows:
                if window[0] & square[0] == only_cell:
                    crossing.append(window)
                    break
        if len(crossing) > len(best):
            best = crossing
    return best


def lock(new: ConvoyState, side: int, convoys: list[WindowRef]) -> None:
    """Lock the counters of `side`'s new convoys and score them."""
    shapes = list(new["shapes"])
    locked = new["locked"]
    for mask, shape, _ in convoys:
        locked |= mask
        for cell in board.cells_of(mask):
            shapes[cell] |= shape
    new["locked"] = locked
    new["shapes"] = tuple(shapes)
    new["convoys"] += tuple((side, index) for _, _, index in convoys)
    scores = list(new["scores"])
    scores[side] += len(convoys)
    new["scores"] = tuple(scores)


def give_up_card(new: ConvoyState, seat: int, card: str, draw: bool = True) -> None:
    """`card` leaves the hand for the discards; the top card of the deck, if any, replaces it."""
    hand = list(new["hands"][seat])
    hand.remove(card)
    if draw and new["drawn"] < DECK_SIZE:
        hand.append(new["deck"][new["drawn"]])
        new["drawn"] += 1
    hands = new["hands"]
    new["hands"] = (*hands[:seat], tuple(hand), *hands[seat + 1 :])
    new["discards"] += (card,)


def next_turn(new: ConvoyState) -> None:
    new["turn"] = (new["turn"] + 1) % new["players"]
    new["exchanged"] = False
    settle(new)


def settle(new: ConvoyState) -> None:
    """End the game when nobody can ever move again: passes and time-outs change nothing."""
    if can_act(new, new["turn"], new["exchanged"]):
        return
    if not any(can_act(new, seat, False) for seat in range(new["players"])):
        new["over"] = True
