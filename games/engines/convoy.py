"""Convoy: the rules engine (docs/rules.md "Convoy", docs/engines/convoy.md).

The state and the rules every move shares are in convoy_position, the moves themselves in
convoy_moves, the board and its windows in convoy_board, JSON in convoy_storage; this module
is the protocol (games.engines.protocol) over them.
"""

from collections.abc import Sequence
from typing import Any, Literal, NotRequired, TypedDict

from . import convoy_board as board
from .cards import is_card_code
from .convoy_moves import check_turn, exchange, lose_turn, place, play_pass, remove
from .convoy_position import (
    COUNTERS_PER_SIDE,
    DECK_SIZE,
    FULL_DECK,
    JACK_POWERS,
    PLACES_ANYWHERE,
    REMOVES,
    ConvoyState,
    can_exchange,
    cell_of,
    convoys_to_win,
    occupied,
    removals,
    settle,
)
from .convoy_storage import copy_move, dump_state, load_state
from .errors import Card, IllegalMove, gettext_noop
from .options import Option, resolve_options
from .protocol import FORFEIT, Dump, Engine, Move, Outcome
from .rng import shuffled

OPTIONS = (
    Option("hand_size", 5, int, minimum=3, maximum=7),
    Option("dead_card_exchange", True, bool),
)

PLAYER_COUNTS = (2, 3, 4, 6)
SIDE_COLOURS = ("red", "black", "blue")

_PLACE_KEYS = frozenset(("card", "square"))
_REMOVE_KEYS = frozenset(("card", "remove"))
_EXCHANGE_KEYS = frozenset(("card", "exchange"))
_PASS_KEYS = frozenset(("pass",))


class BoardCell(TypedDict):
    card: str  # its card code, or ROUNDEL
    counter: int | None  # the side whose counter is on it
    locked: bool  # the counter is in a convoy


class ConvoyCells(TypedDict):
    side: int
    cells: list[list[int]]  # [row, column] of each of its four squares


class ConvoyView(TypedDict):
    """What `view(state, seat)` shows (docs/engines/convoy.md, "View"): `side` and `hand`
    only to a seated viewer. `options` are the game's rule options as OPTIONS declares them."""

    players: int
    sides: int
    side_colours: list[str]
    seat: int | None
    to_act: list[int]
    stock: int
    hand_sizes: list[int]
    board: list[list[BoardCell]]
    convoys: list[int]
    convoy_cells: list[ConvoyCells]
    convoys_to_win: int
    counters_left: list[int]
    discards: list[str]
    exchanged_this_turn: bool
    last_move: Move | None
    options: dict[str, Any]
    over: bool
    outcome: Outcome | None
    side: NotRequired[int]
    hand: NotRequired[list[str]]


class ConvoyEngine:
    """The engine protocol (games.engines.protocol) for Convoy."""

    name = "convoy"
    options = OPTIONS
    dealer_cut: Literal["highest"] = "highest"
    simultaneous = False

    # -- a new game -------------------------------------------------------------------------

    def new_game(
        self,
        players: int,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        deck: Sequence[Any] | None = None,
    ) -> ConvoyState:
        if type(players) is not int or players not in PLAYER_COUNTS:
            raise ValueError(f"Convoy is for 2, 3, 4 or 6 players, not {players!r}")
        if seed is not None and type(seed) is not int:
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        opts = resolve_options(OPTIONS, options)
        if deck is None:
            if seed is None:
                raise ValueError("a new game needs a seed or a deck")
            deck = shuffled(FULL_DECK, seed, "deck")
        elif (
            not isinstance(deck, list | tuple)
            or not all(type(card) is str for card in deck)
            or tuple(sorted(deck)) != FULL_DECK
        ):
            raise ValueError("a Convoy deck is two 52-card packs and four jokers, 108 cards")
        sides = 3 if players % 3 == 0 else 2
        dealt = players * opts["hand_size"]
        state: ConvoyState = {
            "players": players,
            "sides": sides,
            "seed": 0 if seed is None else seed,
            "options": opts,
            "deck": tuple(deck),
            "drawn": dealt,
            "hands": tuple(tuple(deck[seat:dealt:players]) for seat in range(players)),
            "discards": (),
            "placed": (0,) * sides,
            "locked": 0,
            "shapes": (0,) * (board.SIZE * board.SIZE),
            "convoys": (),
            "scores": (0,) * sides,
            "turn": 0,
            "exchanged": False,
            "over": False,
            "last_move": None,
        }
        settle(state)
        return state

    # -- whose turn, what they may do -------------------------------------------------------

    def to_act(self, state: ConvoyState) -> list[int]:
        return [] if state["over"] else [state["turn"]]

    def legal_moves(self, state: ConvoyState, seat: int) -> list[Move]:
        if state["over"] or type(seat) is not int or seat != state["turn"]:
            return []
        side = seat % state["sides"]
        covered = occupied(state)
        has_counters = state["placed"][side].bit_count() < COUNTERS_PER_SIDE
        moves: list[Move] = []
        for card in dict.fromkeys(state["hands"][seat]):
            powers = JACK_POWERS.get(card)
            if powers is None:
                card_mask = board.CARD_MASKS[card]
                if card_mask & covered != card_mask:
                    if has_counters:
                        moves += (
                            {"card": card, "square": list(board.SQUARES[cell])}
                            for cell in board.CARD_CELLS[card]
                            if not covered >> cell & 1
                        )
                elif can_exchange(state, state["exchanged"]):
                    moves.append({"card": card, "exchange": True})
                continue
            if powers & PLACES_ANYWHERE and has_counters:
                moves += (
                    {"card": card, "square": list(board.SQUARES[cell])}
                    for cell in board.CARD_SQUARES
                    if not covered >> cell & 1
                )
            if powers & REMOVES:
                moves += (
                    {"card": card, "remove": [list(board.SQUARES[cell]) for cell in cells]}
                    for cells in removals(state, side, covered)
                )
        return moves or [{"pass": True}]

    # -- moves ------------------------------------------------------------------------------

    def apply(self, state: ConvoyState, seat: int, move: Move) -> ConvoyState:
        check_turn(state, seat)
        if not isinstance(move, dict):
            raise IllegalMove(
                gettext_noop('a move is an object such as {"card": "QH", "square": [2, 3]}')
            )
        keys = move.keys()
        if keys == _PASS_KEYS:
            return play_pass(state, seat, move["pass"])
        if not (keys == _PLACE_KEYS or keys == _REMOVE_KEYS or keys == _EXCHANGE_KEYS):
            raise IllegalMove(
                gettext_noop(
                    'a move is {"card", "square"}, {"card", "remove"}, {"card", "exchange"} '
                    'or {"pass"}, not {keys}'
                ),
                keys=str(sorted(map(str, keys))),
            )
        card = move["card"]
        if not is_card_code(card):
            raise IllegalMove(gettext_noop("{value} is not a card"), value=repr(card))
        if card not in state["hands"][seat]:
            raise IllegalMove(gettext_noop("{card} is not in your hand"), card=Card(card))
        if "exchange" in keys:
            return exchange(state, seat, card, move["exchange"])
        powers = JACK_POWERS.get(card, 0)
        if "remove" in keys:
            if not powers & REMOVES:
                raise IllegalMove(
                    gettext_noop(
                        "{card} places a counter: give its square; only the jack of spades, the "
                        "jack of hearts or a joker removes counters"
                    ),
                    card=Card(card),
                )
            return remove(state, seat, card, move["remove"])
        if powers == REMOVES:
            raise IllegalMove(
                gettext_noop("{card} removes a counter: give the square to remove"), card=Card(card)
            )
        return place(state, seat, card, cell_of(move["square"]), powers)

    def timeout_move(self, state: ConvoyState, seat: int) -> Move:
        """A time-out forfeits the turn: it plays no move."""
        check_turn(state, seat)
        return dict(FORFEIT)

    def timeout(self, state: ConvoyState, seat: int) -> ConvoyState:
        self.timeout_move(state, seat)
        return lose_turn(state, seat)

    # -- reading a state --------------------------------------------------------------------

    def is_over(self, state: ConvoyState) -> bool:
        return state["over"]

    def outcome(self, state: ConvoyState) -> Outcome:
        scores = list(state["scores"])
        sides = state["sides"]
        best = max(scores)
        leaders = [side for side, score in enumerate(scores) if score == best]
        decided = best >= convoys_to_win(sides) or (state["over"] and len(leaders) == 1)
        return {
            "winners": (list(range(leaders[0], state["players"], sides)) if decided else []),
            "draw": state["over"] and not decided,
            "scores": scores,
        }

    def view(self, state: ConvoyState, seat: int | None = None) -> ConvoyView:
        if seat is not None and (type(seat) is not int or not 0 <= seat < state["players"]):
            raise ValueError(f"there is no seat {seat!r} at this table")
        sides = state["sides"]
        placed = state["placed"]
        locked = state["locked"]
        cells: list[BoardCell] = []
        for cell, card in enumerate(board.CELL_CARDS):
            owner = next((side for side in range(sides) if placed[side] >> cell & 1), None)
            cells.append({"card": card, "counter": owner, "locked": bool(locked >> cell & 1)})
        view: ConvoyView = {
            "players": state["players"],
            "sides": sides,
            "side_colours": list(SIDE_COLOURS[:sides]),
            "seat": seat,
            "to_act": self.to_act(state),
            "stock": DECK_SIZE - state["drawn"],
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "board": [cells[row : row + board.SIZE] for row in range(0, len(cells), board.SIZE)],
            "convoys": list(state["scores"]),
            "convoy_cells": [
                {"side": side, "cells": [list(board.SQUARES[c]) for c in board.WINDOWS[index][2]]}
                for side, index in state["convoys"]
            ],
            "convoys_to_win": convoys_to_win(sides),
            "counters_left": [COUNTERS_PER_SIDE - mask.bit_count() for mask in placed],
            "discards": list(state["discards"]),
            "exchanged_this_turn": state["exchanged"],
            "last_move": copy_move(state["last_move"]),
            "options": dict(state["options"]),
            "over": state["over"],
            "outcome": self.outcome(state) if state["over"] else None,
        }
        if seat is not None:
            view["side"] = seat % sides
            view["hand"] = list(state["hands"][seat])
        return view

    # -- storage ----------------------------------------------------------------------------

    def dump(self, state: ConvoyState) -> Dump:
        return dump_state(state, game=self.name)

    def load(self, data: Dump) -> ConvoyState:
        return load_state(data, options=OPTIONS)


ENGINE: Engine[ConvoyState, ConvoyView] = ConvoyEngine()

# The game's rules that the scoring kind and the tests read, besides the engine.
__all__ = ["COUNTERS_PER_SIDE", "ENGINE", "FULL_DECK", "OPTIONS", "PLAYER_COUNTS", "convoys_to_win"]
