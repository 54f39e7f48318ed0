"""Conquian (two-player rummy) rules engine: the whole match, deal after deal.

Move format, view and rule decisions: docs/engines/conquian.md. Cards are bit masks
inside the state (see conquian_melds); codes such as "7H" only cross the protocol. The
state (ConquianState, in conquian_storage) is a flat dict of immutable values, copied
shallowly by every move.
"""

from collections.abc import Sequence
from typing import Any, Literal, NotRequired, TypedDict

from .conquian_checks import (
    card_in,
    check_last_card_unusable,
    expect_true,
    fits,
    meld_error,
    usable_melds,
    wants_force,
)
from .conquian_melds import (
    BIT_OF,
    CODE_OF,
    CODES,
    arrange,
    codes_of,
    open_meld_holds,
)
from .conquian_storage import ConquianState, deck_bits, dump_state, load_state
from .errors import Card, IllegalMove, gettext_noop
from .options import Option, resolve_options
from .protocol import Dump, Engine, Move, Outcome
from .rng import shuffled

CARRY_OVERS = ("double", "add", "none")
DEFAULT_TARGET = 5
HAND_SIZE = 10

OPTIONS = (
    Option("target", DEFAULT_TARGET, int, minimum=1, maximum=1000),
    Option("carry_over", "double", str, choices=CARRY_OVERS),
    Option("forcing", True, bool),
)

_MOVE_SHAPES = (
    frozenset({"reject"}),
    frozenset({"pass"}),
    frozenset({"pass", "force"}),
    frozenset({"meld"}),
    frozenset({"discard"}),
    frozenset({"discard", "force"}),
)
_MOVE_KEYS = frozenset().union(*_MOVE_SHAPES)
_PHASES = ("turned", "facing", "forced", "discard", "over")


class LastDeal(TypedDict):
    deal_number: int
    winner: int | None  # None: the deal was drawn
    points: int


class ConquianView(TypedDict):
    """What `view(state, seat)` shows (docs/engines/conquian.md): `seat` and `hand` only to a
    seated viewer. Cards are codes such as "7H"; `melds` holds each seat's melds."""

    stock: int
    open_card: str | None
    melds: list[list[list[str]]]
    scores: list[int]
    target: int
    forcing: bool
    deal_value: int
    deal_number: int
    dealer: int
    to_act: list[int]
    phase: str
    hand_counts: list[int]
    dead_pile: int
    last_deal: LastDeal | None
    seat: NotRequired[int]
    hand: NotRequired[list[str]]


def next_deal_value(value: int, drawn: bool, carry_over: str = "double") -> int:
    """The value of the next deal after a deal worth `value` was won or drawn.

    A won deal resets the value to 1. A drawn deal carries over: "double" doubles the
    value, "add" adds one, "none" leaves 1. ValueError for an unknown carry-over.
    """
    if carry_over not in CARRY_OVERS:
        raise ValueError(f"carry_over must be one of {', '.join(CARRY_OVERS)}, not {carry_over!r}")
    if not drawn or carry_over == "none":
        return 1
    return value * 2 if carry_over == "double" else value + 1


class ConquianEngine:
    """The engine protocol (games.engines.protocol) for Conquian."""

    name = "conquian"
    options = OPTIONS
    # The cut for the first deal (docs/rules.md): the lower card deals, so seat 0 (the non-dealer) is the
    # higher card.
    dealer_cut: Literal["lowest"] = "lowest"
    simultaneous = False

    # -- setting up ---------------------------------------------------------------------

    def new_game(
        self,
        players: int,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        deck: Sequence[Any] | None = None,
    ) -> ConquianState:
        if type(players) is not int or players != 2:
            raise ValueError(f"Conquian is a game for exactly 2 players, not {players!r}")
        if seed is None and deck is None:
            raise ValueError("seed is needed when no deck is given")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        resolved = resolve_options(OPTIONS, options)
        state: ConquianState = {
            "seed": seed,
            "options": resolved,
            "deal": 0,
            "dealer": 0,
            "value": 1,
            "scores": (0, 0),
            "hands": (0, 0),
            "melds": (0, 0),
            "stock": (),
            "open": 0,
            "dead": 0,
            "turn": 0,
            "phase": "turned",
            "last": None,
            "results": (),
        }
        _start_deal(state, deck_bits(deck) if deck is not None else None)
        return state

    # -- reading ------------------------------------------------------------------------

    def to_act(self, state: ConquianState) -> list[int]:
        turn = state["turn"]
        return [turn] if turn >= 0 else []

    def is_over(self, state: ConquianState) -> bool:
        return state["turn"] < 0

    def outcome(self, state: ConquianState) -> Outcome:
        scores = list(state["scores"])
        target = state["options"]["target"]
        return {
            "winners": [seat for seat, score in enumerate(scores) if score >= target],
            "draw": False,
            "scores": scores,
        }

    def legal_moves(self, state: ConquianState, seat: int) -> list[Move]:
        if type(seat) is not int or seat < 0 or seat != state["turn"]:  # turn is -1 at the end
            return []
        phase = state["phase"]
        if phase == "discard":
            hand = state["hands"][seat]
            codes = codes_of(hand)
            moves: list[Move] = [{"discard": code} for code in codes]
            if state["options"]["forcing"]:
                melds = state["melds"][1 - seat]
                if melds:
                    moves += [
                        {"discard": code, "force": True}
                        for code in codes
                        if fits(BIT_OF[code], melds)
                    ]
            return moves
        card = state["open"]
        usable = usable_melds(state, seat)
        if phase == "forced" or (usable and not state["stock"]):
            moves = []  # forced, or a usable last card: it must be melded
        elif phase == "facing":
            moves = [{"reject": True}]
        else:  # turned
            moves = [{"pass": True}]
            if state["options"]["forcing"] and fits(card, state["melds"][1 - seat]):
                moves.append({"pass": True, "force": True})
        moves += [{"meld": codes_of(used)} for used in usable]
        return moves

    def view(self, state: ConquianState, seat: int | None = None) -> ConquianView:
        hands = state["hands"]
        last = state["last"]
        out: ConquianView = {
            "stock": len(state["stock"]),
            "open_card": CODE_OF[state["open"]] if state["open"] else None,
            "melds": [[codes_of(meld) for meld in arrange(mask)] for mask in state["melds"]],
            "scores": list(state["scores"]),
            "target": state["options"]["target"],
            "forcing": state["options"]["forcing"],
            "deal_value": state["value"],
            "deal_number": state["deal"],
            "dealer": state["dealer"],
            "to_act": self.to_act(state),
            "phase": state["phase"],
            "hand_counts": [hand.bit_count() for hand in hands],
            "dead_pile": state["dead"].bit_count(),
            "last_deal": None
            if last is None
            else {
                "deal_number": last[0],
                "winner": None if last[1] < 0 else last[1],
                "points": last[2],
            },
        }
        if seat is not None:
            if type(seat) is not int or seat not in (0, 1):
                raise ValueError(f"there is no seat {seat!r} in Conquian")
            out["seat"] = seat
            out["hand"] = codes_of(hands[seat])
        return out

    def milestones(self, before: ConquianState, after: ConquianState) -> tuple[str, ...]:
        """What the move from `before` to `after` finished, for statistics (simulate):
        ("deals", "won deals") or ("deals", "drawn deals") when a deal ended, else ()."""
        last = after["last"]
        if last is None or last == before["last"]:
            return ()
        return ("deals", "drawn deals" if last[1] < 0 else "won deals")

    # -- acting -------------------------------------------------------------------------

    def apply(self, state: ConquianState, seat: int, move: Move) -> ConquianState:
        self._check_turn(state, seat)
        if not isinstance(move, dict) or not move:
            raise IllegalMove(
                gettext_noop('a move is an object such as {"reject": true} or {"discard": "7H"}')
            )
        keys = move.keys()
        if not keys <= _MOVE_KEYS:
            unknown = sorted(str(key) for key in keys - _MOVE_KEYS)[0]
            raise IllegalMove(
                gettext_noop("{value} is not part of any Conquian move"), value=repr(unknown)
            )
        if frozenset(keys) not in _MOVE_SHAPES:
            raise IllegalMove(
                gettext_noop(
                    "make one decision at a time: reject, pass, meld or discard (with force or not)"
                )
            )
        phase = state["phase"]
        if "discard" in move:
            return self._discard(state, seat, move)
        if phase == "discard":
            raise IllegalMove(gettext_noop("Discard one card from your hand."))
        if "meld" in move:
            return self._meld(state, seat, move["meld"])
        if "reject" in move:
            expect_true(move, "reject")
            if phase == "turned":
                raise IllegalMove(gettext_noop("You turned this card yourself: meld it or pass."))
            if phase == "forced":
                raise IllegalMove(gettext_noop("You were forced: meld the open card."))
            check_last_card_unusable(state, seat)
            return _reject(state, seat)
        expect_true(move, "pass")
        if phase == "facing":
            raise IllegalMove(gettext_noop("Meld the offered card or reject it."))
        if phase == "forced":
            raise IllegalMove(gettext_noop("You were forced: meld the open card."))
        check_last_card_unusable(state, seat)
        force = wants_force(move)
        if force:
            self._check_force(state, seat, state["open"])
        return _offer(state, seat, state["open"], force)

    def timeout_move(self, state: ConquianState, seat: int) -> Move:
        """Reject or pass (never forcing), discard the lowest card, or meld the first legal
        way when the rules leave no choice."""
        self._check_turn(state, seat)
        phase = state["phase"]
        if phase in ("facing", "turned") and not state["stock"]:
            usable = usable_melds(state, seat)
            if usable:  # a usable last card must be melded
                return {"meld": codes_of(usable[0])}
        if phase == "facing":
            return {"reject": True}
        if phase == "turned":
            return {"pass": True}
        if phase == "discard":
            hand = state["hands"][seat]
            return {"discard": CODE_OF[hand & -hand]}
        # Forced: the open card goes onto the melds without any hand card, which the
        # force guarantees is possible; it is the first meld move legal_moves lists.
        return {"meld": []}

    def timeout(self, state: ConquianState, seat: int) -> ConquianState:
        return self.apply(state, seat, self.timeout_move(state, seat))

    # -- persistence --------------------------------------------------------------------

    def dump(self, state: ConquianState) -> Dump:
        return dump_state(state)

    def load(self, data: Dump) -> ConquianState:
        return load_state(data, options=OPTIONS, phases=_PHASES)

    # -- checks ---------------------------------------------------------------------------

    def _check_turn(self, state: ConquianState, seat: object) -> None:
        if state["turn"] < 0:
            raise IllegalMove(gettext_noop("The match is over."))
        if type(seat) is not int or seat != state["turn"]:
            raise IllegalMove(gettext_noop("It is not your turn."))

    def _check_force(self, state: ConquianState, seat: int, card: int) -> None:
        if not state["options"]["forcing"]:
            raise IllegalMove(gettext_noop("Forcing is not played in this game."))
        if not fits(card, state["melds"][1 - seat]):
            raise IllegalMove(
                gettext_noop("{card} does not fit your opponent's melds: you cannot force it."),
                card=Card(CODE_OF[card]),
            )

    def _discard(self, state: ConquianState, seat: int, move: Move) -> ConquianState:
        phase = state["phase"]
        if phase in ("facing", "turned"):
            raise IllegalMove(gettext_noop("Use or reject the open card first."))
        if phase == "forced":
            raise IllegalMove(gettext_noop("You were forced: meld the open card first."))
        code = move["discard"]
        card = card_in(state, seat, code)
        force = wants_force(move)
        if force:
            self._check_force(state, seat, card)
        return _offer(state, seat, card, force, discard=True)

    def _meld(self, state: ConquianState, seat: int, codes: Any) -> ConquianState:
        if not isinstance(codes, list):
            raise IllegalMove(
                gettext_noop('"meld" lists the hand cards you meld with the open card, e.g. []')
            )
        used = 0
        for code in codes:
            card = card_in(state, seat, code)
            if used & card:
                raise IllegalMove(gettext_noop("{card} is listed twice."), card=Card(code))
            used |= card
        if not open_meld_holds(state["open"], state["melds"][seat], used):
            raise meld_error(state, seat, used)
        return _meld_cards(state, seat, used)


def _start_deal(state: ConquianState, deck: list[int] | None = None) -> None:
    """Deal the next deal into `state` (a fresh copy): ten each, the stock's top card open."""
    number = state["deal"] + 1
    if deck is None:
        seed = state["seed"] if state["seed"] is not None else 0
        deck = [BIT_OF[code] for code in shuffled(CODES, seed, "deal", number)]
    dealer = 1 if number % 2 else 0  # seat 0 is the non-dealer in the first deal
    hands = [0, 0]
    hands[1 - dealer] = sum(deck[0 : 2 * HAND_SIZE : 2])
    hands[dealer] = sum(deck[1 : 2 * HAND_SIZE : 2])
    state.update(
        {
            "deal": number,
            "dealer": dealer,
            "hands": tuple(hands),
            "melds": (0, 0),
            "open": deck[2 * HAND_SIZE],
            "stock": tuple(deck[2 * HAND_SIZE + 1 :]),
            "dead": 0,
            "turn": 1 - dealer,
            "phase": "turned",  # the non-dealer has turned the stock's top card
        }
    )


def _reject(state: ConquianState, seat: int) -> ConquianState:
    """The open card, offered by the opponent, goes to the dead pile; turn the next one."""
    new = state.copy()
    new["dead"] = state["dead"] | state["open"]
    stock = state["stock"]
    if not stock:
        _end_deal(new, winner=-1)
        return new
    new["open"] = stock[0]
    new["stock"] = stock[1:]
    new["phase"] = "turned"
    return new


def _offer(
    state: ConquianState, seat: int, card: int, force: bool, discard: bool = False
) -> ConquianState:
    """`seat` offers `card` to the opponent: a discard, or the open card left open."""
    new = state.copy()
    if discard:
        hands = list(state["hands"])
        hands[seat] ^= card
        new["hands"] = tuple(hands)
    new["open"] = card
    new["turn"] = 1 - seat
    new["phase"] = "forced" if force else "facing"
    return new


def _meld_cards(state: ConquianState, seat: int, used: int) -> ConquianState:
    """Meld the open card with the hand cards `used`; go out when the hand is then empty."""
    new = state.copy()
    hands = list(state["hands"])
    melds = list(state["melds"])
    hands[seat] ^= used
    melds[seat] |= state["open"] | used
    new["hands"] = tuple(hands)
    new["melds"] = tuple(melds)
    new["open"] = 0
    if hands[seat]:
        new["phase"] = "discard"
    else:
        _end_deal(new, winner=seat)
    return new


def _end_deal(state: ConquianState, winner: int) -> None:
    """Score the finished deal into `state` (a fresh copy) and deal the next one if any."""
    options = state["options"]
    value = state["value"]
    state["last"] = (state["deal"], winner, value if winner >= 0 else 0)
    state["results"] = (*state["results"], winner)
    state["value"] = next_deal_value(value, winner < 0, options["carry_over"])
    if winner >= 0:
        scores = list(state["scores"])
        scores[winner] += value
        state["scores"] = tuple(scores)
        if scores[winner] >= options["target"]:
            state["turn"] = -1
            state["phase"] = "over"
            return
    _start_deal(state)


ENGINE: Engine[ConquianState, ConquianView] = ConquianEngine()
