"""Convoy: the moves a seat plays (placing, removing, exchanging a dead card, passing, and the
time-out's lost turn). Each checks its move against the rules, with a sentence for the player
when it is not legal, and returns a new state; the caller's state is never changed."""

from typing import Any

from . import convoy_board as board
from .cards import the_card
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
    square_name,
)
from .errors import IllegalMove


def check_turn(state: ConvoyState, seat: object) -> None:
    if state["over"]:
        raise IllegalMove("the game is over")
    if type(seat) is not int or seat != state["turn"]:
        raise IllegalMove("it is not your turn")


def lose_turn(state: ConvoyState, seat: int) -> ConvoyState:
    """A time-out: the turn is forfeited, no card played, none drawn."""
    new = state.copy()
    new["last_move"] = {"seat": seat, "timeout": True}
    next_turn(new)
    return new


def play_pass(state: ConvoyState, seat: int, value: Any) -> ConvoyState:
    if value is not True:
        raise IllegalMove('to pass, send {"pass": true}')
    if can_act(state, seat, state["exchanged"]):
        raise IllegalMove("you can still play, so you cannot pass")
    new = state.copy()
    new["last_move"] = {"seat": seat, "pass": True}
    next_turn(new)
    return new


def exchange(state: ConvoyState, seat: int, card: str, value: Any) -> ConvoyState:
    if value is not True:
        raise IllegalMove('to exchange a dead card, send "exchange": true')
    if card in JACK_POWERS:
        raise IllegalMove(f"{the_card(card)} is never a dead card")
    if not state["options"]["dead_card_exchange"]:
        raise IllegalMove("dead cards cannot be exchanged in this game")
    if state["exchanged"]:
        raise IllegalMove("you have already exchanged a dead card this turn")
    card_mask = board.CARD_MASKS[card]
    if card_mask & occupied(state) != card_mask:
        raise IllegalMove(
            f"{the_card(card)} can still be played: only a dead card can be exchanged"
        )
    if state["drawn"] >= DECK_SIZE:
        raise IllegalMove("the deck is empty: there is no card to exchange for")
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
            raise IllegalMove("that square is a roundel")
    else:
        card_mask = board.CARD_MASKS[card]
        if card_mask & covered == card_mask:
            if can_exchange(state, state["exchanged"]):
                raise IllegalMove(
                    f"both squares of {the_card(card)} are taken: exchange it as a dead card"
                )
            raise IllegalMove(f"both squares of {the_card(card)} are taken: it is a dead card")
        if cell not in board.CARD_CELLS[card]:
            if board.ROUNDEL_MASK >> cell & 1:
                raise IllegalMove("that square is a roundel")
            raise IllegalMove(
                f"{square_name(cell)} shows {the_card(board.CELL_CARDS[cell])}, not {the_card(card)}"
            )
    if covered >> cell & 1:
        raise IllegalMove(f"{square_name(cell)} is already covered")
    if own.bit_count() >= COUNTERS_PER_SIDE:
        raise IllegalMove("your side has no counters left")
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
        raise IllegalMove(f"{the_card(card)} removes a counter: give the square to remove")
    cells = [cell_of(square) for square in squares]
    side = seat % state["sides"]
    placed = state["placed"]
    covered = occupied(state)
    to_clear = removable(state, side, covered)
    if not to_clear:
        raise IllegalMove(f"there is no counter that {the_card(card)} can remove")
    owners = []
    for cell in cells:
        if board.ROUNDEL_MASK >> cell & 1:
            raise IllegalMove("that square is a roundel")
        if not covered >> cell & 1:
            raise IllegalMove(f"{square_name(cell)} holds no counter")
        if placed[side] >> cell & 1:
            raise IllegalMove(f"{square_name(cell)} holds your own side's counter")
        if state["locked"] >> cell & 1:
            raise IllegalMove("that counter is part of a convoy and cannot be removed")
        owners.append(next(other for other, mask in enumerate(placed) if mask >> cell & 1))
    if sorted(owners) != [other for other, mask in enumerate(placed) if mask & to_clear]:
        if state["sides"] == 2:
            raise IllegalMove(f"{the_card(card)} removes one counter")
        raise IllegalMove(
            f"{the_card(card)} removes one counter from each opposing side that has one "
            "outside a convoy"
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
