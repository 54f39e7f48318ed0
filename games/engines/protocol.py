"""The engine protocol, written down: what every game's engine offers (docs/engines.md).

`games.engines.get_engine(name)` returns an object of this shape; live tables, bots, the
simulator and the scoring kinds use nothing else of an engine. A static checker (or
`isinstance(engine, Engine)`, which checks the names) holds each engine to it.
"""

from typing import Any, Protocol, runtime_checkable

from .options import Option


@runtime_checkable
class Engine(Protocol):
    """A game's rules: pure, no I/O, no global random state.

    States are opaque to callers; `dump` and `load` turn them into JSON and back without
    loss. Moves are JSON-safe dicts; an illegal one raises `IllegalMove` with a sentence
    for the player. `options` declares the game's rule options (defaults, types, ranges).
    """

    options: tuple[Option, ...]

    def new_game(
        self, players: int, seed: int | None = None, options: dict | None = None, deck=None
    ) -> Any: ...

    def to_act(self, state: Any) -> list[int]: ...

    def legal_moves(self, state: Any, seat: int) -> list[dict]: ...

    def apply(self, state: Any, seat: int, move: dict) -> Any: ...

    def timeout(self, state: Any, seat: int) -> Any: ...

    def view(self, state: Any, seat: int | None = None) -> dict: ...

    def is_over(self, state: Any) -> bool: ...

    def outcome(self, state: Any) -> dict:
        """{"winners": [seats], "draw": bool, "scores": [...]} (per side for Convoy)."""
        ...

    def dump(self, state: Any) -> dict: ...

    def load(self, data: dict) -> Any: ...
