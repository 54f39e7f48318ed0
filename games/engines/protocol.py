"""The engine protocol, written down: what every game's engine offers (docs/engines.md).

`games.engines.get_engine(name)` returns an object of this shape; live tables, bots, the
simulator and the scoring kinds use nothing else of an engine. Each engine module binds its
`ENGINE` as `Engine[<its state>, <its view>]`, so mypy (`make lint`) holds each engine to the
protocol, argument and return types included; `isinstance(engine, Engine)` checks the names at
run time.
"""

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol, TypedDict, TypeVar, runtime_checkable

from .options import Option

StateT = TypeVar("StateT")

# A move: JSON-safe, so its values are whatever JSON holds.
Move = dict[str, Any]
Dump = dict[str, Any]

# A view: JSON-safe, read only. Each engine describes its own as a TypedDict (KorovaView,
# ConvoyView, ConquianView), and the protocol is generic in it, so a caller that holds a
# game's ENGINE reads that TypedDict. The bound is a read-only Mapping[str, object] because
# every TypedDict is one, while none is a dict[str, Any] (mypy refuses it: through a
# dict[str, Any] any key could be written); the type variable is covariant because a view is
# only returned, never taken.
View = Mapping[str, object]
ViewT_co = TypeVar("ViewT_co", bound=View, covariant=True)

# What a time-out "plays" when the rules make it play no move at all (Convoy: the turn is lost).
FORFEIT: Move = {"forfeit": True}

# The cut for the first deal (games/live/cuts.py): which card deals.
DealerCut = Literal["highest", "lowest"]


class Outcome(TypedDict):
    winners: list[int]  # seats
    draw: bool
    scores: list[int]  # per seat, or per side for Convoy


@runtime_checkable
class Engine(Protocol[StateT, ViewT_co]):
    """A game's rules: pure, no I/O, no global random state.

    States are opaque to callers; `dump` and `load` turn them into JSON and back without
    loss. Moves are JSON-safe dicts; an illegal one raises `IllegalMove` with a sentence
    for the player. `options` declares the game's rule options (defaults, types, ranges);
    the turn clock is not one of them: it is the table's (games/live/table_setup.py).

    What live play needs besides the moves: `timeout_move` (the move a time-out makes, to
    log and replay), `simultaneous` (whether the seats of a turn act together, each move
    leaving the turn open to the others) and `dealer_cut` (which card deals the first deal).
    """

    @property
    def name(self) -> str: ...

    @property
    def options(self) -> tuple[Option, ...]: ...

    @property
    def dealer_cut(self) -> DealerCut: ...

    @property
    def simultaneous(self) -> bool: ...

    def new_game(
        self,
        players: int,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        deck: Sequence[Any] | None = None,
    ) -> StateT: ...

    def to_act(self, state: StateT) -> list[int]: ...

    def legal_moves(self, state: StateT, seat: int) -> list[Move]: ...

    def apply(self, state: StateT, seat: int, move: Move) -> StateT: ...

    def timeout_move(self, state: StateT, seat: int) -> Move:
        """The move the clock plays for `seat`: one of its legal moves, or FORFEIT when the
        rules make a time-out play none. IllegalMove when `seat` is not to act."""
        ...

    def timeout(self, state: StateT, seat: int) -> StateT:
        """The state after `seat`'s time-out: `timeout_move` played (FORFEIT: the turn lost)."""
        ...

    def view(self, state: StateT, seat: int | None = None) -> ViewT_co: ...

    def is_over(self, state: StateT) -> bool: ...

    def outcome(self, state: StateT) -> Outcome:
        """{"winners": [seats], "draw": bool, "scores": [...]} (per side for Convoy)."""
        ...

    def dump(self, state: StateT) -> Dump: ...

    def load(self, data: Dump) -> StateT: ...
