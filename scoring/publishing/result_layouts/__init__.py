"""How the fixture's page lays out a result, per game (scoring/publishing/result_layouts/
<game>.py): RESULT_LAYOUTS.get(game) gives the template (templates/scoring/<game>/_result.html)
and the function that turns a validated sheet into what that template shows. A game without
one (a game added at run time) shows its result's score and summary only."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from leagues.models import Game
from scoring.kinds.registry import GameRegistry

from . import conquian, convoy, korova


@dataclass(frozen=True)
class ResultLayout:
    """`display(sheet=…, rule_options=…, players=…)` → plain data for `template`; `players`
    maps the ids the sheet names to Player rows (for names and links)."""

    template: str
    display: Callable[..., dict[str, Any]]


RESULT_LAYOUTS = GameRegistry(
    "result layout",
    {
        Game.KOROVA: ResultLayout("scoring/korova/_result.html", korova.result_display),
        Game.CONQUIAN: ResultLayout("scoring/conquian/_result.html", conquian.result_display),
        Game.CONVOY: ResultLayout("scoring/convoy/_result.html", convoy.result_display),
    },
)
