"""The rules engines behind one protocol (docs/engines.md).

Pure Python: no Django, no I/O, no global random state.
"""

from importlib import import_module
from typing import Any

from .errors import IllegalMove
from .protocol import FORFEIT, Engine, Move, Outcome

ENGINE_NAMES = ("convoy", "korova", "conquian")

_engines: dict[str, Engine[Any, Any]] = {}


def get_engine(name: str) -> Engine[Any, Any]:
    """The engine for `name` ("convoy", "korova" or "conquian"), held to the protocol (each
    module's `ENGINE` is bound as `Engine[<its state>, <its view>]`, which mypy checks)."""
    if name not in ENGINE_NAMES:
        raise ValueError(f"unknown game {name!r}; known: {', '.join(ENGINE_NAMES)}")
    if name not in _engines:
        engine: Engine[Any, Any] = import_module(f"{__name__}.{name}").ENGINE
        _engines[name] = engine
    return _engines[name]


__all__ = ["ENGINE_NAMES", "FORFEIT", "Engine", "IllegalMove", "Move", "Outcome", "get_engine"]
