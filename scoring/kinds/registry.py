"""What a capability keeps for each game, keyed by the game (a `Game` value).

The kinds hold a game's rules for scoring; what a capability shows of a game (the entry grid,
the rated matches, the result's charts, the sheet's API shape) is that capability's, in a
module named after the game inside it, and found there by one of these:

    ENTRY_GRIDS = GameRegistry.from_modules("entry grid", __name__, lambda game, module: module.GRID)
    ENTRY_GRIDS.get(season.game)

so that no list of the games is written again in each capability (a game without a module
of its own there has no entry);

and scoring.kinds imports nothing above it. A game added at run time (a test's fake
game) is `register`ed and `unregister`ed like its kind.
"""

from collections.abc import Callable, Mapping
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType
from typing import Generic, TypeVar

from games.engines import ENGINE_NAMES

Entry = TypeVar("Entry")
_NONE = object()


class GameRegistry(Generic[Entry]):
    def __init__(self, what: str, entries: Mapping[str, Entry]):
        self.what = what
        self._entries = {str(game): entry for game, entry in entries.items()}

    @classmethod
    def from_modules(
        cls, what: str, package: str, entry: Callable[[str, ModuleType], Entry]
    ) -> "GameRegistry[Entry]":
        """Each game's `entry(game, module)` from its module `<package>.<game>`; a game with
        no such module has none."""
        return cls(
            what,
            {
                game: entry(game, import_module(f"{package}.{game}"))
                for game in ENGINE_NAMES
                if find_spec(f"{package}.{game}") is not None
            },
        )

    def get(self, game: str, default=_NONE) -> Entry:
        """The game's entry; `default` if given and the game has none, else LookupError."""
        if game in self._entries:
            return self._entries[game]
        if default is not _NONE:
            return default
        raise LookupError(f"no {self.what} for {game!r}; known: {', '.join(self._entries)}")

    def items(self) -> list[tuple[str, Entry]]:
        return list(self._entries.items())

    def register(self, game: str, entry: Entry) -> None:
        if game in self._entries:
            raise ValueError(f"a {self.what} for {game!r} is already registered")
        self._entries[game] = entry

    def unregister(self, game: str) -> None:
        self._entries.pop(game, None)
