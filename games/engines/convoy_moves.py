"""Convoy: the moves a seat plays (placing, removing, exchanging a dead card, passing, and the
time-out's lost turn). Each checks its move against the rules, with a sentence for the player
when it is not legal, and returns a new state; the caller's state is never changed."""

from typing import Any

from . import convoy_board as board
from .convoy_position import (
    COUNTERS_PER_SIDE,
    DECK_SIZE,
    JACK_POWERS,
    ConvoyState,
    can_act,
    can_exchange,
    cell_of,
    convoys_to_win,
    give_up_card,
    lock,
    new_convoys,
    next_turn,
    occupied,
    removable,
    settle,
    square_parts,
)
from .errors import Card, IllegalMove, gettext_noop


def check_turn(state: ConvoyState, seat: object) -> None:
    if state["over"]:
        raise IllegalMove(gettext_noop("the game is over"))
    if type(seat) is not int or seat != state["turn"]:
        raise IllegalMove(gettext_noop("it is not your turn"))


def lose_turn(state: ConvoyState, seat: int) -> ConvoyState:
    """A time-out: the turn is forfeited, no card played, none drawn."""
    new = state.copy()
    new["last_move"] = {"seat": seat, "timeout": True}
    next_turn(new)
    return new


def play_pass(state: ConvoyState, seat: int, value: Any) -> ConvoyState:
    if value is not True:
        raise IllegalMove(gettext_noop('to pass, send {"pass": true}'))
    if can_act(state, seat, state["exchanged"]):
        raise IllegalMove(gettext_noop("you can still play, so you cannot pass"))
    new = state.copy()
    new["last_move"] = {"seat": seat, "pass": True}
    next_turn(new)
    return new


def exchange(state: ConvoyState, seat: int, card: str, value: Any) -> ConvoyState:
    if value is not True:
        raise IllegalMove(gettext_noop('to exchange a dead card, send "exchange": true'))
    if card in JACK_POWERS:
        raise IllegalMove(gettext_noop("{card} is never a dead card"), card=Card(card))
    if not state["options"]["dead_card_exchange"]:
        raise IllegalMove(gettext_noop("dead cards cannot be exchanged in this game"))
    if state["exchanged"]:
        raise IllegalMove(gettext_noop("you have already exchanged a dead card this turn"))
    card_mask = board.CARD_MASKS[card]
    if card_mask & occupied(state) != card_mask:
        raise IllegalMove(
            gettext_noop("{card} can still be played: only a dead card can be exchanged"),
            card=Card(card),
        )
    if state["drawn"] >= DECK_SIZE:
        raise IllegalMove(gettext_noop("the deck is empty: there is no card to exchange for"))
    new = state.copy()
    give_up_card(new, seat, card)
    new["exchanged"] = True
    new["last_move"] = {"seat": seat, "card": card, "exchange": True}
    settle(new)
    return new


def place(state: ConvoyState, seat: int, card: str, cell: int, powers: int) -> ConvoyState:
    side = seat % state["sides"]
    placed = state["placed"]
    own = placed[side]
    covered = occupied(state)
    if powers:
        if board.ROUNDEL_MASK >> cell & 1:
            raise IllegalMove(gettext_noop("that square is a roundel"))
    else:
        card_mask = board.CARD_MASKS[card]
        if card_mask & covered == card_mask:
            if can_exchange(state, state["exchanged"]):
                raise IllegalMove(
                    gettext_noop("both squares of {card} are taken: exchange it as a dead card"),
                    card=Card(card),
                )
            raise IllegalMove(
                gettext_noop("both squares of {card} are taken: it is a dead card"), card=Card(card)
            )
        if cell not in board.CARD_CELLS[card]:
            if board.ROUNDEL_MASK >> cell & 1:
                raise IllegalMove(gettext_noop("that square is a roundel"))
            raise IllegalMove(
                gettext_noop("the square at row {row}, column {column} shows {shown}, not {card}"),
                **square_parts(cell),
                shown=Card(board.CELL_CARDS[cell]),
                card=Card(card),
            )
    if covered >> cell & 1:
        raise IllegalMove(
            gettext_noop("the square at row {row}, column {column} is already covered"),
            **square_parts(cell),
        )
    if own.bit_count() >= COUNTERS_PER_SIDE:
        raise IllegalMove(gettext_noop("your side has no counters left"))
    own |= 1 << cell
    new = state.copy()
    new["placed"] = (*placed[:side], own, *placed[side + 1 :])
    new["last_move"] = {"seat": seat, "card": card, "square": list(board.SQUARES[cell])}
    convoys = new_convoys(cell, own, state["locked"], state["shapes"])
    if convoys:
        lock(new, side, convoys)
        if new["scores"][side] >= convoys_to_win(state["sides"]):
            give_up_card(new, seat, card, draw=False)
            new["over"] = True
            return new
    give_up_card(new, seat, card)
    next_turn(new)
    return new


def remove(state: ConvoyState, seat: int, card: str, squares: Any) -> ConvoyState:
    if type(squares) not in (list, tuple) or not squares:
        raise IllegalMove(
            gettext_noop("{card} removes a counter: give the square to remove"), card=Card(card)
        )
    cells = [cell_of(square) for square in squares]
    side = seat % state["sides"]
    placed = state["placed"]
    covered = occupied(state)
    to_clear = removable(state, side, covered)
    if not to_clear:
        raise IllegalMove(
            gettext_noop("there is no counter that {card} can remove"), card=Card(card)
        )
    owners = []
    for cell in cells:
        if board.ROUNDEL_MASK >> cell & 1:
            raise IllegalMove(gettext_noop("that square is a roundel"))
        if not covered >> cell & 1:
            raise IllegalMove(
                gettext_noop("the square at row {row}, column {column} holds no counter"),
                **square_parts(cell),
            )
        if placed[side] >> cell & 1:
            raise IllegalMove(
                gettext_noop(
                    "the square at row {row}, column {column} holds your own side's counter"
                ),
                **square_parts(cell),
            )
        if state["locked"] >> cell & 1:
            raise IllegalMove(
                gettext_noop("that counter is part of a convoy and cannot be removed")
            )
        owners.append(next(other for other, mask in enumerate(placed) if mask >> cell & 1))
    if sorted(owners) != [other for other, mask in enumerate(placed) if mask & to_clear]:
        if state["sides"] == 2:
            raise IllegalMove(gettext_noop("{card} removes one counter"), card=Card(card))
        raise IllegalMove(
            gettext_noop(
                "{card} removes one counter from each opposing side that has one outside a convoy"
            ),
            card=Card(card),
        )
    new_placed = list(placed)
    for cell, owner in zip(cells, owners, strict=True):
        new_placed[owner] &= ~(1 << cell)
    new = state.copy()
    new["placed"] = tuple(new_placed)
    new["last_move"] = {
        "seat": seat,
        "card": card,
        "remove": [list(board.SQUARES[cell]) for cell in sorted(cells)],
    }
    give_up_card(new, seat, card)
    next_turn(new)
    return new
