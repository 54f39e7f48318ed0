"""Practice bots: one legal move for a seat, chosen better than at random.

    from games.bots import bot_move
    move = bot_move(game="korova", state=state, seat=2, rng=random.Random(7))

Each game's bot lives in `games/bots/<game>.py` and exposes
`choose(*, view, legal: list[dict], rng: random.Random) -> dict`, its `view` typed as
its engine's (KorovaView, ConvoyView, ConquianView). It is given only what its seat may
know: the engine's view for that seat and the seat's legal moves (which depend on nothing
hidden). So a bot cannot peek at other hands or the deck, and its choice is always one of
the legal moves.
Strategies: docs/engines/bots.md.
"""

import random
from collections.abc import Callable
from importlib import import_module
from typing import Any

from games.engines import ENGINE_NAMES, Move, get_engine

# A game's bot: its `choose(*, view, legal, rng)`.
Chooser = Callable[..., Move]

_bots: dict[str, Chooser] = {}


def _bot(game: str) -> Chooser:
    if game not in ENGINE_NAMES:
        raise ValueError(f"unknown game {game!r}; known: {', '.join(ENGINE_NAMES)}")
    if game not in _bots:
        choose: Chooser = import_module(f"{__name__}.{game}").choose
        _bots[game] = choose
    return _bots[game]


def bot_move(*, game: str, state: Any, seat: int, rng: random.Random) -> Move:
    """One legal move for `seat`, which must be among the seats to act."""
    choose = _bot(game)
    engine = get_engine(game)
    if seat not in engine.to_act(state):
        raise ValueError(f"seat {seat!r} has nothing to do now")
    return choose(view=engine.view(state, seat), legal=engine.legal_moves(state, seat), rng=rng)


__all__ = ["bot_move"]
