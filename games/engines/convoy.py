"""Convoy: the rules engine (docs/rules.md "Convoy", docs/engines/convoy.md).

The board is kept as bit masks (see convoy_board): one mask of counters per
side, one of locked cells (counters in a convoy), and per cell the shapes of
the convoys through it, which is what the sharing rule needs. A placement only
looks at the windows through the cell it covers.
"""

from itertools import product

from . import convoy_board as board
from .cards import JOKER, is_card_code, standard_pack, the_card
from .convoy_storage import copy_move, dump_state, load_state
from .errors import IllegalMove
from .options import Option, resolve_options
from .rng import shuffled

OPTIONS = (
    Option("hand_size", 5, int, minimum=3, maximum=7),
    Option("dead_card_exchange", True, bool),
    Option("turn_seconds", 30, int, minimum=5, maximum=600),
)

PLAYER_COUNTS = (2, 3, 4, 6)
COUNTERS_PER_SIDE = 50
SIDE_COLOURS = ("red", "black", "blue")
FULL_DECK = tuple(sorted(standard_pack() * 2 + [JOKER] * 4))
DECK_SIZE = len(FULL_DECK)

# What a card does, as bits: a joker is declared either way when played.
PLACES_ANYWHERE, REMOVES = 1, 2
JACK_POWERS = {"JC": PLACES_ANYWHERE, "JD": PLACES_ANYWHERE, "JS": REMOVES, "JH": REMOVES}
JACK_POWERS[JOKER] = PLACES_ANYWHERE | REMOVES
ALL_CARD_SQUARES = sum(1 << cell for cell in board.CARD_SQUARES)

_PLACE_KEYS = frozenset(("card", "square"))
_REMOVE_KEYS = frozenset(("card", "remove"))
_EXCHANGE_KEYS = frozenset(("card", "exchange"))
_PASS_KEYS = frozenset(("pass",))


def convoys_to_win(sides: int) -> int:
    return 3 if sides == 2 else 2


def _square_name(cell: int) -> str:
    """As the board shows it to players: rows and columns counted from 1."""
    row, column = board.SQUARES[cell]
    return f"the square at row {row + 1}, column {column + 1}"


def _cell(square) -> int:
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
    raise IllegalMove(f"a square is [row, column], each from 0 to 9, not {square!r}")


def _occupied(state) -> int:
    occupied = 0
    for mask in state["placed"]:
        occupied |= mask
    return occupied


def _removable(state, side: int, occupied: int) -> int:
    """Opponent counters that a removing card may take: those not in a convoy."""
    return occupied & ~state["placed"][side] & ~state["locked"]


def _can_exchange(state, exchanged: bool) -> bool:
    return state["options"]["dead_card_exchange"] and not exchanged and state["drawn"] < DECK_SIZE


def _can_act(state, seat: int, exchanged: bool) -> bool:
    """Whether `seat` has a move other than a pass (legal_moves lists the same moves)."""
    side = seat % state["sides"]
    occupied = _occupied(state)
    has_counters = state["placed"][side].bit_count() < COUNTERS_PER_SIDE
    for card in state["hands"][seat]:
        powers = JACK_POWERS.get(card)
        if powers is None:
            card_mask = board.CARD_MASKS[card]
            if card_mask & occupied != card_mask:
                if has_counters:
                    return True
            elif _can_exchange(state, exchanged):
                return True
        else:
            if powers & PLACES_ANYWHERE and has_counters and occupied != ALL_CARD_SQUARES:
                return True
            if powers & REMOVES and _removable(state, side, occupied):
                return True
    return False


def _removals(state, side: int, occupied: int) -> list[tuple[int, ...]]:
    """Every set of cells one removing card may clear, one cell per opposing side that has a
    removable counter, in side order."""
    removable = _removable(state, side, occupied)
    per_side = [
        board.cells_of(mask & removable)
        for other, mask in enumerate(state["placed"])
        if other != side and mask & removable
    ]
    return list(product(*per_side)) if per_side else []


def _new_convoys(cell: int, own: int, locked: int, shapes: tuple) -> list:
    """The windows through `cell` that become convoys now that `own` covers it.

    A complete window counts if it holds at most one counter already in a
    convoy, and that counter's convoys all have other shapes (crossing, never
    running along). Several windows count together if they have different
    shapes and share only `cell`; of those sets the largest counts, and on a
    tie the one without a square, taking in each shape the first window in
    board order (docs/engines/convoy.md, decision 4).
    """
    by_shape: dict[int, list] = {}
    for window in board.WINDOWS_THROUGH[cell]:
        mask, shape, _ = window
        if mask & own != mask:
            continue
        shared = mask & locked
        if shared and (shared & (shared - 1) or shapes[shared.bit_length() - 1] & shape):
            continue
        by_shape.setdefault(shape, []).append(window)
    squares = by_shape.pop(board.SQUARE, ())
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


class ConvoyEngine:
    """The engine protocol (docs/engines.md) for Convoy."""

    name = "convoy"
    options = OPTIONS

    # -- a new game -------------------------------------------------------------------------

    def new_game(self, players, seed=None, options=None, deck=None):
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
        state = {
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
        self._settle(state)
        return state

    # -- whose turn, what they may do -------------------------------------------------------

    def to_act(self, state):
        return [] if state["over"] else [state["turn"]]

    def legal_moves(self, state, seat):
        if state["over"] or type(seat) is not int or seat != state["turn"]:
            return []
        side = seat % state["sides"]
        occupied = _occupied(state)
        has_counters = state["placed"][side].bit_count() < COUNTERS_PER_SIDE
        moves = []
        for card in dict.fromkeys(state["hands"][seat]):
            powers = JACK_POWERS.get(card)
            if powers is None:
                card_mask = board.CARD_MASKS[card]
                if card_mask & occupied != card_mask:
                    if has_counters:
                        moves += (
                            {"card": card, "square": list(board.SQUARES[cell])}
                            for cell in board.CARD_CELLS[card]
                            if not occupied >> cell & 1
                        )
                elif _can_exchange(state, state["exchanged"]):
                    moves.append({"card": card, "exchange": True})
                continue
            if powers & PLACES_ANYWHERE and has_counters:
                moves += (
                    {"card": card, "square": list(board.SQUARES[cell])}
                    for cell in board.CARD_SQUARES
                    if not occupied >> cell & 1
                )
            if powers & REMOVES:
                moves += (
                    {"card": card, "remove": [list(board.SQUARES[cell]) for cell in cells]}
                    for cells in _removals(state, side, occupied)
                )
        return moves or [{"pass": True}]

    # -- moves ------------------------------------------------------------------------------

    def apply(self, state, seat, move):
        self._check_turn(state, seat)
        if not isinstance(move, dict):
            raise IllegalMove('a move is an object such as {"card": "QH", "square": [2, 3]}')
        keys = move.keys()
        if keys == _PASS_KEYS:
            return self._pass(state, seat, move["pass"])
        if not (keys == _PLACE_KEYS or keys == _REMOVE_KEYS or keys == _EXCHANGE_KEYS):
            raise IllegalMove(
                'a move is {"card", "square"}, {"card", "remove"}, {"card", "exchange"} '
                f'or {{"pass"}}, not {sorted(map(str, keys))}'
            )
        card = move["card"]
        if not is_card_code(card):
            raise IllegalMove(f"{card!r} is not a card")
        if card not in state["hands"][seat]:
            raise IllegalMove(f"{the_card(card)} is not in your hand")
        if "exchange" in keys:
            return self._exchange(state, seat, card, move["exchange"])
        powers = JACK_POWERS.get(card, 0)
        if "remove" in keys:
            if not powers & REMOVES:
                raise IllegalMove(
                    f"{the_card(card)} places a counter: give its square; only the jack of "
                    "spades, the jack of hearts or a joker removes counters"
                )
            return self._remove(state, seat, card, move["remove"])
        if powers == REMOVES:
            raise IllegalMove(f"{the_card(card)} removes a counter: give the square to remove")
        return self._place(state, seat, card, _cell(move["square"]), powers)

    def timeout(self, state, seat):
        self._check_turn(state, seat)
        new = dict(state)
        new["last_move"] = {"seat": seat, "timeout": True}
        self._next_turn(new)
        return new

    def _check_turn(self, state, seat):
        if state["over"]:
            raise IllegalMove("the game is over")
        if type(seat) is not int or seat != state["turn"]:
            raise IllegalMove("it is not your turn")

    def _pass(self, state, seat, value):
        if value is not True:
            raise IllegalMove('to pass, send {"pass": true}')
        if _can_act(state, seat, state["exchanged"]):
            raise IllegalMove("you can still play, so you cannot pass")
        new = dict(state)
        new["last_move"] = {"seat": seat, "pass": True}
        self._next_turn(new)
        return new

    def _exchange(self, state, seat, card, value):
        if value is not True:
            raise IllegalMove('to exchange a dead card, send "exchange": true')
        if card in JACK_POWERS:
            raise IllegalMove(f"{the_card(card)} is never a dead card")
        if not state["options"]["dead_card_exchange"]:
            raise IllegalMove("dead cards cannot be exchanged in this game")
        if state["exchanged"]:
            raise IllegalMove("you have already exchanged a dead card this turn")
        card_mask = board.CARD_MASKS[card]
        if card_mask & _occupied(state) != card_mask:
            raise IllegalMove(
                f"{the_card(card)} can still be played: only a dead card can be exchanged"
            )
        if state["drawn"] >= DECK_SIZE:
            raise IllegalMove("the deck is empty: there is no card to exchange for")
        new = dict(state)
        self._give_up_card(new, seat, card)
        new["exchanged"] = True
        new["last_move"] = {"seat": seat, "card": card, "exchange": True}
        self._settle(new)
        return new

    def _place(self, state, seat, card, cell, powers):
        side = seat % state["sides"]
        placed = state["placed"]
        own = placed[side]
        occupied = _occupied(state)
        if powers:
            if board.ROUNDEL_MASK >> cell & 1:
                raise IllegalMove("that square is a roundel")
        else:
            card_mask = board.CARD_MASKS[card]
            if card_mask & occupied == card_mask:
                if _can_exchange(state, state["exchanged"]):
                    raise IllegalMove(
                        f"both squares of {the_card(card)} are taken: exchange it as a dead card"
                    )
                raise IllegalMove(f"both squares of {the_card(card)} are taken: it is a dead card")
            if cell not in board.CARD_CELLS[card]:
                if board.ROUNDEL_MASK >> cell & 1:
                    raise IllegalMove("that square is a roundel")
                raise IllegalMove(
                    f"{_square_name(cell)} shows {the_card(board.CELL_CARDS[cell])}, not {the_card(card)}"
                )
        if occupied >> cell & 1:
            raise IllegalMove(f"{_square_name(cell)} is already covered")
        if own.bit_count() >= COUNTERS_PER_SIDE:
            raise IllegalMove("your side has no counters left")
        own |= 1 << cell
        new = dict(state)
        new["placed"] = (*placed[:side], own, *placed[side + 1 :])
        new["last_move"] = {"seat": seat, "card": card, "square": list(board.SQUARES[cell])}
        convoys = _new_convoys(cell, own, state["locked"], state["shapes"])
        if convoys:
            self._lock(new, side, convoys)
            if new["scores"][side] >= convoys_to_win(state["sides"]):
                self._give_up_card(new, seat, card, draw=False)
                new["over"] = True
                return new
        self._give_up_card(new, seat, card)
        self._next_turn(new)
        return new

    def _remove(self, state, seat, card, squares):
        if type(squares) not in (list, tuple) or not squares:
            raise IllegalMove(f"{the_card(card)} removes a counter: give the square to remove")
        cells = [_cell(square) for square in squares]
        side = seat % state["sides"]
        placed = state["placed"]
        occupied = _occupied(state)
        to_clear = _removable(state, side, occupied)
        if not to_clear:
            raise IllegalMove(f"there is no counter that {the_card(card)} can remove")
        owners = []
        for cell in cells:
            if board.ROUNDEL_MASK >> cell & 1:
                raise IllegalMove("that square is a roundel")
            if not occupied >> cell & 1:
                raise IllegalMove(f"{_square_name(cell)} holds no counter")
            if placed[side] >> cell & 1:
                raise IllegalMove(f"{_square_name(cell)} holds your own side's counter")
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
        new = dict(state)
        new["placed"] = tuple(new_placed)
        new["last_move"] = {
            "seat": seat,
            "card": card,
            "remove": [list(board.SQUARES[cell]) for cell in sorted(cells)],
        }
        self._give_up_card(new, seat, card)
        self._next_turn(new)
        return new

    # -- state changes shared by the moves (on the new state only) --------------------------

    @staticmethod
    def _lock(new, side, convoys):
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

    @staticmethod
    def _give_up_card(new, seat, card, draw=True):
        """`card` leaves the hand for the discards; the top card of the deck, if any, replaces it."""
        hand = list(new["hands"][seat])
        hand.remove(card)
        if draw and new["drawn"] < DECK_SIZE:
            hand.append(new["deck"][new["drawn"]])
            new["drawn"] += 1
        hands = new["hands"]
        new["hands"] = (*hands[:seat], tuple(hand), *hands[seat + 1 :])
        new["discards"] += (card,)

    def _next_turn(self, new):
        new["turn"] = (new["turn"] + 1) % new["players"]
        new["exchanged"] = False
        self._settle(new)

    @staticmethod
    def _settle(new):
        """End the game when nobody can ever move again: passes and time-outs change nothing."""
        if _can_act(new, new["turn"], new["exchanged"]):
            return
        if not any(_can_act(new, seat, False) for seat in range(new["players"])):
            new["over"] = True

    # -- reading a state --------------------------------------------------------------------

    def is_over(self, state):
        return state["over"]

    def outcome(self, state):
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

    def view(self, state, seat=None):
        if seat is not None and (type(seat) is not int or not 0 <= seat < state["players"]):
            raise ValueError(f"there is no seat {seat!r} at this table")
        sides = state["sides"]
        placed = state["placed"]
        locked = state["locked"]
        cells = []
        for cell, card in enumerate(board.CELL_CARDS):
            owner = next((side for side in range(sides) if placed[side] >> cell & 1), None)
            cells.append({"card": card, "counter": owner, "locked": bool(locked >> cell & 1)})
        view = {
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

    def dump(self, state):
        return dump_state(state, game=self.name)

    def load(self, data):
        return load_state(data, options=OPTIONS, lock=self._lock)


ENGINE = ConvoyEngine()
