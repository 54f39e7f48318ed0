"""Convoy's staff entry grid: each game of the best of N, its winner and each team's convoys.

Templates: templates/scoring/convoy/sheet.html (the page) and _preview.html (where the
best of N stands, redrawn by htmx after every change).
"""

import re

from django.utils.translation import gettext as _

from scoring.kinds.convoy import MAX_GAMES, games_in_fixture, games_needed
from scoring.results.grids.base import INDEX_DIGITS, Block, Cell, SheetGrid, cell_value, text

SIDES = ("home", "away")


class ConvoyGrid(SheetGrid):
    game = "convoy"
    template = "scoring/convoy/sheet.html"
    partial = "scoring/convoy/_preview.html"
    top_path = "games"
    _pattern = re.compile(rf"games\.(\d{{1,{INDEX_DIGITS}}})\.(winner|convoys\.home|convoys\.away)")

    def __init__(self, *, games: list[dict] | None = None, **context):
        super().__init__(**context)
        try:
            self.best_of = games_in_fixture(self.season.fixture_format or {})
        except ValueError:  # validation says so, in the general messages
            self.best_of = 1
        self.games = [*(games or []), *({} for _ in range(self.best_of))][: self.best_of]

    @classmethod
    def from_sheet(cls, sheet, **context):
        games = [
            {
                "winner": text(game.get("winner")),
                "home": text((game.get("convoys") or {}).get("home")),
                "away": text((game.get("convoys") or {}).get("away")),
            }
            for game in (sheet or {}).get("games", [])[:MAX_GAMES]
        ]
        return cls(games=games, **context)

    @classmethod
    def from_post(cls, post, **context):
        games = {}
        for name in post:
            match = cls._pattern.fullmatch(name)
            if match and int(match.group(1)) < MAX_GAMES:
                key = match.group(2).replace("convoys.", "")
                games.setdefault(int(match.group(1)), {})[key] = str(post.get(name, ""))[:40]
        count = max(games, default=-1) + 1
        return cls(games=[games.get(index, {}) for index in range(count)], **context)

    @staticmethod
    def _blank(game: dict) -> bool:
        return not any((game.get(key) or "").strip() for key in ("winner", *SIDES))

    def sheet(self) -> dict:
        games = list(self.games)
        while games and self._blank(games[-1]):
            games.pop()
        return {
            "games": [
                {
                    "winner": (game.get("winner") or "").strip() or None,
                    "convoys": {side: cell_value(game.get(side, "")) for side in SIDES},
                }
                for game in games
            ]
        }

    def blocks(self) -> list[Block]:
        if not hasattr(self, "_blocks"):
            teams = {"home": self.fixture.home_team, "away": self.fixture.away_team}
            self._blocks = [
                Block(
                    path=f"games.{index}",
                    title=(
                        _("Game %(number)s") % {"number": index + 1}
                        if self.best_of > 1
                        else _("The game")
                    ),
                    cells=[
                        Cell(
                            name=f"games.{index}.winner",
                            label="Winner",
                            value=(game.get("winner") or "").strip(),
                        ),
                        *(
                            Cell(
                                name=f"games.{index}.convoys.{side}",
                                label=_("%(team)s convoys") % {"team": teams[side].name},
                                value=game.get(side, ""),
                            )
                            for side in SIDES
                        ),
                    ],
                    extra={"number": index + 1},
                )
                for index, game in enumerate(self.games)
            ]
        return self._blocks

    def preview(self) -> dict:
        won = {"home": 0, "away": 0}
        games = self.sheet()["games"]
        for game in games:
            if game["winner"] in won:
                won[game["winner"]] += 1
        return {
            "best_of": self.best_of,
            "needed": games_needed(self.best_of),
            "won": won,
            "entered": len(games),
        }


GRID = ConvoyGrid  # scoring.results.grids.ENTRY_GRIDS
