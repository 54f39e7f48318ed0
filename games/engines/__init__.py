"""The rules engines behind one protocol (docs/engines.md).

Pure Python: no Django, no I/O, no global random state.
"""

from importlib import import_module

from .errors import IllegalMove
from .protocol import Engine

ENGINE_NAMES = ("convoy", "korova", "conquian")

_engines: dict = {}


def get_engine(name: str) -> Engine:
    """The engine for `name` ("convoy", "korova" or "conquian"), held to the protocol."""
    if name not in ENGINE_NAMES:
        raise ValueError(f"unknown game {name!r}; known: {', '.join(ENGINE_NAMES)}")
    if name not in _engines:
        _engines[name] = import_module(f"{__name__}.{name}").ENGINE
    return _engines[name]


__all__ = ["ENGINE_NAMES", "Engine", "IllegalMove", "get_engine"]
