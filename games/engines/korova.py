"""Корова 006 (6 nimmt!): the whole game, round after round, to the end score.

Rules: docs/rules.md "Корова 006"; protocol, view and dump formats: docs/engines/korova.md.

The state is an immutable named tuple of tuples, so `apply` copies only the few
tuples a move changes and never needs to guard its input; named tuples also give
equality for free (a replay must reproduce the state exactly). Throughput matters
(bench/engines.py): the common move, a pick, takes a short path that validates
and copies just the seat's hand, the picks and the seats still to act.

The rule functions `heads`, `deck_heads`, `game_over` and `winners` are also
used by the scoring app to validate sheets entered by pub staff.
"""

from collections.abc import Iterable, Sequence
from operator import add
from typing import Any, Literal, NamedTuple, NoReturn

from .errors import IllegalMove, gettext_noop
from .korova_view import KorovaView, RevealedCard
from .options import Option, resolve_options
from .protocol import Dump, Engine, Move, Outcome
from .rng import shuffled

EDITIONS = ("korova-006", "classic")
DEFAULT_END_SCORE = 66
MIN_PLAYERS, MAX_PLAYERS = 2, 10
CARDS = tuple(range(1, 105))
HAND_SIZE = 10
ROW_COUNT = 4
ROW_LIMIT = 5  # a row holds five cards: the sixth takes it

OPTIONS = (
    Option("edition", "korova-006", str, choices=EDITIONS),
    Option("end_score", DEFAULT_END_SCORE, int, minimum=1, maximum=1000),
    Option("tactical", False, bool),
)


def _heads_table(edition: str) -> tuple[int, ...]:
    """Heads of every card, indexed by the card (index 0 unused)."""
    table = [0]
    for card in CARDS:
        if card == 55:
            table.append(6 if edition == "korova-006" else 7)
        elif card % 11 == 0:
            table.append(5)
        elif card % 10 == 0:
            table.append(3)
        elif card % 5 == 0:
            table.append(2)
        else:
            table.append(1)
    return tuple(table)


HEADS = {edition: _heads_table(edition) for edition in EDITIONS}


def _check_edition(edition: object) -> None:
    if edition not in EDITIONS:
        raise ValueError(f"edition must be one of {', '.join(EDITIONS)}, not {edition!r}")


def heads(card: int, edition: str = "korova-006") -> int:
    """Penalty heads on `card` (1-104) in `edition`."""
    _check_edition(edition)
    if type(card) is not int or not 1 <= card <= 104:
        raise ValueError(f"a card is a whole number from 1 to 104, not {card!r}")
    return HEADS[edition][card]


def deck_heads(edition: str = "korova-006", cards: Iterable[int] | None = None) -> int:
    """Total heads of `cards` (default: all 104, 170 in korova-006 and 171 in classic)."""
    return sum(heads(card, edition) for card in (CARDS if cards is None else cards))


def game_over(totals: Sequence[int], end_score: int) -> bool:
    """Whether someone's total has reached the end score (checked at the end of a round)."""
    return any(total >= end_score for total in totals)


def winners(totals: Sequence[int]) -> list[int]:
    """The seats level on the lowest total: they share the win."""
    if not totals:
        return []
    low = min(totals)
    return [seat for seat, total in enumerate(totals) if total == low]


class Setup(NamedTuple):
    """What a game was set up with; shared, unchanged, by every state of the game."""

    players: int
    seed: int
    edition: str
    end_score: int
    tactical: bool
    cards: tuple[int, ...]  # the cards in play
    heads: tuple[int, ...]  # the heads of each card in the edition (HEADS)


# One moment of a game. Cards in play are always in exactly one place: a hand,
# a row, a pick, the unplaced part of `reveal`, a taken pile or `aside`.
#   round, turn    1-based; turn 1-10 within the round
#   hands          per seat, a sorted tuple of cards
#   rows           4 tuples of cards, oldest first
#   picks          the cards picked face down this turn, (card, seat) in the order picked
#   acting         the seats that must act now (to_act)
#   piles          per seat, the cards taken this round
#   sheet          per finished round, the heads each seat took (the score sheet)
#   totals         per seat, the sum of the sheet
#   aside          the cards set aside this round
#   reveal         the latest turn's revealed cards, (card, seat) in placing order
#   pending        index in `reveal` of the card whose player must choose a row, or None
#   over           the game has ended
Cards = tuple[int, ...]
Played = tuple[tuple[int, int], ...]  # (card, seat) pairs


class State(NamedTuple):
    setup: Setup
    round: int
    turn: int
    hands: tuple[Cards, ...]
    rows: tuple[Cards, ...]
    picks: Played
    acting: tuple[int, ...]
    piles: tuple[Cards, ...]
    sheet: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    aside: Cards
    reveal: Played
    pending: int | None
    over: bool


_new = tuple.__new__  # a State from a tuple of its fields, without NamedTuple's keyword parsing
_SEATS = tuple(tuple(range(n)) for n in range(MAX_PLAYERS + 1))
_NO_PILES = tuple(((),) * n for n in range(MAX_PLAYERS + 1))
_MOVE_FORMAT = gettext_noop('a move is {"card": n} to play a card or {"row": 0..3} to take a row')


def _setup(players: object, seed: int, options: object) -> Setup:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}")
    if options is not None and not isinstance(options, dict):
        raise ValueError("options must be a mapping of option names to values")
    opts = resolve_options(OPTIONS, options)
    cards = CARDS[: HAND_SIZE * players + ROW_COUNT] if opts["tactical"] else CARDS
    return Setup(
        players,
        seed,
        opts["edition"],
        opts["end_score"],
        opts["tactical"],
        cards,
        HEADS[opts["edition"]],
    )


def _deal(
    setup: Setup,
    round_no: int,
    order: Sequence[int],
    sheet: tuple[tuple[int, ...], ...],
    totals: tuple[int, ...],
    reveal: Played,
) -> State:
    """Deal from `order` (top first): ten cards each one at a time, then four rows."""
    n = setup.players
    dealt = HAND_SIZE * n
    hands = tuple([tuple(sorted(order[seat:dealt:n])) for seat in range(n)])
    rows = tuple([(card,) for card in order[dealt : dealt + ROW_COUNT]])
    aside = tuple(order[dealt + ROW_COUNT :])
    return _new(
        State,
        (setup, round_no, 1, hands, rows, (), _SEATS[n], _NO_PILES[n], sheet,
         totals, aside, reveal, None, False),
    )  # fmt: skip


def _place(
    s: State,
    hands: tuple[Cards, ...],
    rows: Iterable[Cards],
    piles: tuple[Cards, ...],
    reveal: Played,
    start: int,
) -> State:
    """Place reveal[start:] in order, up to a card lower than every row, and move on.

    `s` is the state before placing: the turn ends when every card is placed (the
    round when it was the tenth), and a card lower than every row waits there for
    its player to choose a row.
    """
    setup, round_no, turn, _, _, _, _, _, sheet, totals, aside, _, _, _ = s
    rows = list(rows)
    for index in range(start, len(reveal)):
        card, seat = reveal[index]
        target = None
        top = 0
        for row in rows:
            last = row[-1]
            if last < card and last > top:
                top = last
                target = row
        if target is None:
            return _new(
                State,
                (setup, round_no, turn, hands, tuple(rows), (), (seat,), piles, sheet, totals,
                 aside, reveal, index, False),
            )  # fmt: skip
        r = rows.index(target)
        if len(target) == ROW_LIMIT:
            piles = piles[:seat] + (piles[seat] + target,) + piles[seat + 1 :]
            rows[r] = (card,)
        else:
            rows[r] = target + (card,)
    if turn < HAND_SIZE:
        return _new(
            State,
            (setup, round_no, turn + 1, hands, tuple(rows), (), _SEATS[setup.players], piles,
             sheet, totals, aside, reveal, None, False),
        )  # fmt: skip
    finished = _new(
        State,
        (setup, round_no, turn, hands, tuple(rows), (), (), piles, sheet, totals, aside, reveal,
         None, False),
    )  # fmt: skip
    return _end_round(finished)


def _end_round(s: State) -> State:
    """Score a finished round (hands empty, every card placed); end the game or deal anew."""
    setup = s.setup
    table = setup.heads
    taken = tuple([sum([table[card] for card in pile]) for pile in s.piles])
    sheet = s.sheet + (taken,)
    totals = tuple(map(add, s.totals, taken))
    if game_over(totals, setup.end_score):
        return s._replace(sheet=sheet, totals=totals, over=True)
    round_no = s.round + 1
    order = shuffled(setup.cards, setup.seed, "round", round_no)
    return _deal(setup, round_no, order, sheet, totals, s.reveal)


def _take_row(s: State, r: int) -> State:
    """The pending card's player takes row `r`; the card starts it; placement goes on."""
    _, _, _, hands, rows, _, _, piles, _, _, _, reveal, pending, _ = s
    assert pending is not None  # callers take a row only while a card waits for one
    card, seat = reveal[pending]
    piles = piles[:seat] + (piles[seat] + rows[r],) + piles[seat + 1 :]
    new_rows = list(rows)
    new_rows[r] = (card,)
    return _place(s, hands, new_rows, piles, reveal, pending + 1)


def _refuse(s: State, seat: object, move: object) -> NoReturn:
    """Raise the sentence that says why `move` by `seat` is not legal now."""
    if s.over:
        raise IllegalMove(gettext_noop("the game is over"))
    if type(seat) is not int or seat not in s.acting:
        if s.pending is None and type(seat) is int and 0 <= seat < s.setup.players:
            raise IllegalMove(gettext_noop("you have already picked a card this turn"))
        raise IllegalMove(gettext_noop("it is not your turn"))
    if type(move) is not dict or len(move) != 1 or not set(move) <= {"card", "row"}:
        raise IllegalMove(_MOVE_FORMAT)
    if s.pending is not None:
        if "row" not in move:
            raise IllegalMove(gettext_noop("you must choose a row to take, not play a card"))
        raise IllegalMove(gettext_noop("choose a row from 0 to {last}"), last=ROW_COUNT - 1)
    if "row" in move:
        raise IllegalMove(
            gettext_noop(
                "you may take a row only when your card is lower than the last card of every row"
            )
        )
    card = move["card"]
    if type(card) is not int:
        raise IllegalMove(
            gettext_noop("a card is a whole number from 1 to 104, not {value}"), value=repr(card)
        )
    raise IllegalMove(gettext_noop("{card} is not in your hand"), card=card)


class KorovaEngine:
    """The engine protocol (games.engines.protocol) for Корова 006."""

    name = "korova"
    options = OPTIONS
    dealer_cut: Literal["highest"] = "highest"
    # Every seat picks a card face down in the same turn: a pick leaves the turn open to
    # the seats that have not picked yet.
    simultaneous = True

    def new_game(
        self,
        players: int,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        deck: Sequence[Any] | None = None,
    ) -> State:
        if seed is None and deck is None:
            raise ValueError("seed may be left out only when a deck is given")
        if seed is not None and type(seed) is not int:
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        setup = _setup(players, 0 if seed is None else seed, options)
        order: Sequence[int]
        if deck is None:
            order = shuffled(setup.cards, setup.seed, "round", 1)
        else:
            if not isinstance(deck, list | tuple) or any(type(card) is not int for card in deck):
                raise ValueError("deck must be a list of the cards in play, top first")
            if sorted(deck) != list(setup.cards):
                raise ValueError(
                    f"deck must hold each of the cards 1 to {setup.cards[-1]} exactly once"
                )
            order = deck
        n = setup.players
        return _deal(setup, 1, order, (), (0,) * n, ())

    def to_act(self, state: State) -> list[int]:
        return list(state.acting)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if type(seat) is not int or seat not in state.acting:
            return []
        if state.pending is None:
            return [{"card": card} for card in state.hands[seat]]
        return [{"row": 0}, {"row": 1}, {"row": 2}, {"row": 3}]

    def apply(self, state: State, seat: int, move: Move) -> State:
        # Short paths for the two kinds of legal move; _refuse explains anything else.
        (setup, round_no, turn, hands, rows, picks, acting, piles, sheet, totals, aside, reveal,
         pending, _) = state  # fmt: skip
        if type(seat) is int and seat in acting and type(move) is dict and len(move) == 1:
            if pending is None:
                card = move.get("card")
                hand = hands[seat]
                if type(card) is int and card in hand:
                    i = hand.index(card)
                    new_hands = list(hands)
                    new_hands[seat] = hand[:i] + hand[i + 1 :]
                    picks += ((card, seat),)
                    if len(acting) == 1:
                        # Cards are unique: sorted (card, seat) pairs are in placing order.
                        return _place(state, tuple(new_hands), rows, piles, tuple(sorted(picks)), 0)
                    i = acting.index(seat)
                    return _new(
                        State,
                        (setup, round_no, turn, tuple(new_hands), rows, picks,
                         acting[:i] + acting[i + 1 :], piles, sheet, totals, aside, reveal, None,
                         False),
                    )  # fmt: skip
            else:
                r = move.get("row")
                if type(r) is int and 0 <= r < ROW_COUNT:
                    return _take_row(state, r)
        _refuse(state, seat, move)

    def timeout_move(self, state: State, seat: int) -> Move:
        """Lowest card in hand; for a row choice, the row with the fewest heads (lowest index)."""
        if state.over:
            raise IllegalMove(gettext_noop("the game is over"))
        if type(seat) is not int or seat not in state.acting:
            raise IllegalMove(gettext_noop("it is not your turn"))
        if state.pending is None:
            return {"card": state.hands[seat][0]}
        table = state.setup.heads
        row_heads = [sum([table[card] for card in row]) for row in state.rows]
        return {"row": row_heads.index(min(row_heads))}

    def timeout(self, state: State, seat: int) -> State:
        return self.apply(state, seat, self.timeout_move(state, seat))

    def view(self, state: State, seat: int | None = None) -> KorovaView:
        setup = state.setup
        n = setup.players
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise ValueError(f"there is no seat {seat!r} at this table")
        table = setup.heads
        taken = [sum([table[card] for card in pile]) for pile in state.piles]
        scores = list(state.totals) if state.over else list(map(add, state.totals, taken))
        reveal: list[RevealedCard] = [{"seat": s, "card": card} for card, s in state.reveal]
        pending = state.pending
        if state.over:
            picked = [False] * n
        elif pending is not None:
            picked = [True] * n  # everyone's card is revealed
        else:
            picked = [s not in state.acting for s in range(n)]
        view: KorovaView = {
            "players": n,
            "edition": setup.edition,
            "end_score": setup.end_score,
            "round": state.round,
            "turn": state.turn,
            "rows": [list(row) for row in state.rows],
            "stock": len(state.aside),
            "scores": scores,
            "taken": taken,
            "sheet": [list(round_heads) for round_heads in state.sheet],
            "picked": picked,
            "to_act": list(state.acting),
            "revealed": [] if pending is None else reveal[pending:],
            "pending_row_choice": None if pending is None else state.reveal[pending][1],
            "last_turn": reveal,
            "over": state.over,
        }
        if seat is not None:
            view["hand"] = list(state.hands[seat])
            view["my_pick"] = next((card for card, s in state.picks if s == seat), None)
        return view

    def is_over(self, state: State) -> bool:
        return state.over

    def outcome(self, state: State) -> Outcome:
        """Totals of the finished rounds; the winners only once the game is over."""
        totals = list(state.totals)
        return {"winners": winners(totals) if state.over else [], "draw": False, "scores": totals}

    def dump(self, state: State) -> Dump:
        setup = state.setup
        return {
            "players": setup.players,
            "seed": setup.seed,
            "options": {
                "edition": setup.edition,
                "end_score": setup.end_score,
                "tactical": setup.tactical,
            },
            "round": state.round,
            "turn": state.turn,
            "hands": [list(hand) for hand in state.hands],
            "rows": [list(row) for row in state.rows],
            "picks": [[card, seat] for card, seat in state.picks],
            "piles": [list(pile) for pile in state.piles],
            "sheet": [list(round_heads) for round_heads in state.sheet],
            "aside": list(state.aside),
            "reveal": [[card, seat] for card, seat in state.reveal],
            "pending": state.pending,
            "over": state.over,
        }

    def load(self, data: Dump) -> State:
        setup = _setup(data["players"], data["seed"], data["options"])
        n = setup.players
        picks = tuple((card, seat) for card, seat in data["picks"])
        reveal = tuple((card, seat) for card, seat in data["reveal"])
        pending = data["pending"]
        sheet = tuple(tuple(round_heads) for round_heads in data["sheet"])
        acting: tuple[int, ...]
        if data["over"]:
            acting = ()
        elif pending is not None:
            acting = (reveal[pending][1],)
        else:
            picked = {seat for _, seat in picks}
            acting = tuple(seat for seat in range(n) if seat not in picked)
        return State(
            setup,
            data["round"],
            data["turn"],
            tuple(tuple(hand) for hand in data["hands"]),
            tuple(tuple(row) for row in data["rows"]),
            picks,
            acting,
            tuple(tuple(pile) for pile in data["piles"]),
            sheet,
            tuple(map(sum, zip(*sheet, strict=True))) if sheet else (0,) * n,
            tuple(data["aside"]),
            reveal,
            pending,
            data["over"],
        )


ENGINE: Engine[State, KorovaView] = KorovaEngine()
