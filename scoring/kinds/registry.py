"""What a capability keeps for each game, keyed by the game (a `Game` value).

The kinds hold a game's rules for scoring; what a capability shows of a game (the entry grid,
the rated matches, the result's charts, the sheet's API shape) is that capability's, in a
module named after the game inside it, and registered in one of these:

    ENTRY_GRIDS = GameRegistry("entry grid", {Game.KOROVA: KorovaGrid, ...})
    ENTRY_GRIDS.get(season.game)

so that scoring.kinds imports nothing above it. A game added at run time (a test's fake
game) is `register`ed and `unregister`ed like its kind.
"""

from collections.abc import Mapping
from typing import Generic, TypeVar

Entry = TypeVar("Entry")
_NONE = object()


class GameRegistry(Generic[Entry]):
    def __init__(self, what: str, entries: Mapping[str, Entry]):
        self.what = what
        self._entries = {str(game): entry for game, entry in entries.items()}

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
