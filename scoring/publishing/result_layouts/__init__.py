"""How the fixture's page lays out a result, per game (scoring/publishing/result_layouts/
<game>.py): RESULT_LAYOUTS.get(game) gives the template (templates/scoring/<game>/_result.html)
and the function that turns a validated sheet into what that template shows. A game without
one (a game added at run time) shows its result's score and summary only."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scoring.kinds.registry import GameRegistry


@dataclass(frozen=True)
class ResultLayout:
    """`display(sheet=…, rule_options=…, players=…)` → plain data for `template`; `players`
    maps the ids the sheet names to Player rows (for names and links)."""

    template: str
    display: Callable[..., dict[str, Any]]


RESULT_LAYOUTS = GameRegistry.from_modules(
    "result layout",
    __name__,
    lambda game, module: ResultLayout(f"scoring/{game}/_result.html", module.result_display),
)
