"""The registry of game kinds: one per game, looked up by the game's name.

    from scoring.kinds import get_kind, all_kinds
    kind = get_kind(league.game)       # the GameKind of a League.game value
    kind.validate(...), kind.outcome(...), kind.summary(...), ...

Adding a game: its engine (games.engines, whose ENGINE_NAMES lists the games), its kind
module (scoring/kinds/<game>.py, defining KIND) and its `Game` choice; then what each
capability shows of it, in a module named after the game there (docs/architecture.md, "Game kinds"). `register` adds a kind at run time (a test's fake
game); `unregister` takes it away again.
"""

from importlib import import_module

from games.engines import ENGINE_NAMES
from scoring.kinds.base import (
    FinishedTable,
    GameKind,
    MatchOutcome,
    PlayerFigure,
    PlayerResult,
    SheetInvalid,
    StandingsColumn,
    TablePlan,
)

# game name -> the module whose KIND it is; imported on first use.
BUILT_IN = {game: f"scoring.kinds.{game}" for game in ENGINE_NAMES}

_kinds: dict[str, GameKind] = {}
_registered: dict[str, GameKind] = {}


def get_kind(game: str) -> GameKind:
    """The kind of `game`; ValueError naming the known games otherwise (as get_engine)."""
    if game in _registered:
        return _registered[game]
    if game not in BUILT_IN:
        raise ValueError(f"there is no game {game!r}; known: {', '.join(_names())}")
    if game not in _kinds:
        _kinds[game] = import_module(BUILT_IN[game]).KIND
    return _kinds[game]


def all_kinds() -> list[GameKind]:
    """Every kind, built-in ones first, in the order of BUILT_IN."""
    return [get_kind(game) for game in _names()]


def register(kind: GameKind) -> None:
    """Make `kind` known under kind.game (a game added at run time, e.g. by a test)."""
    if kind.game in BUILT_IN or kind.game in _registered:
        raise ValueError(f"a kind for {kind.game!r} is already registered")
    _registered[kind.game] = kind


def unregister(game: str) -> None:
    """Forget a kind added with `register`."""
    _registered.pop(game, None)


def _names() -> list[str]:
    return [*BUILT_IN, *_registered]


__all__ = [
    "FinishedTable",
    "GameKind",
    "MatchOutcome",
    "PlayerFigure",
    "PlayerResult",
    "SheetInvalid",
    "StandingsColumn",
    "TablePlan",
    "all_kinds",
    "get_kind",
    "register",
    "unregister",
]
